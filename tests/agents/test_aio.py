"""The agent loop (services/agents/aio.py): one asyncio loop thread a process, where webhook
agents at IP addresses are asked without a thread a call, and what it closes."""

from __future__ import annotations

import asyncio
import gc
import threading

from services.agents.aio import AgentLoop
from services.agents.client import HttpAgentClient
from services.agents.protocol import MoveRequest
from tests.agents.conftest import SECRET

WAIT_S = 5.0


def test_tasks_run_on_the_loops_own_thread_and_one_that_raises_leaves_the_loop_running():
    loop = AgentLoop()
    ran: list[str] = []
    done = threading.Event()

    async def broken() -> None:
        raise RuntimeError("a caller's fault")

    async def fine() -> None:
        ran.append(threading.current_thread().name)
        assert loop.in_loop()
        done.set()

    loop.submit(broken)
    loop.submit(lambda: (_ for _ in ()).throw(ValueError("not even a coroutine")))
    loop.submit(fine)
    assert done.wait(WAIT_S)
    assert ran == ["agent-loop"] and not loop.in_loop()


def test_what_is_kept_open_is_closed_once_by_close_later_or_at_exit():
    loop = AgentLoop()
    closed: list[str] = []

    def closer(name: str):
        async def close() -> None:
            assert loop.in_loop()
            closed.append(name)
        return close

    loop.loop()
    assert loop.keep_open(1, closer("first")) and not loop.keep_open(1, closer("one"))  # replaced
    loop.keep_open(2, closer("two"))
    loop.close_later(1)
    loop.close_later(1)  # once only
    loop.close_all()  # the exit's: waits for what is left
    assert sorted(closed) == ["one", "two"]
    loop.close_all()
    assert sorted(closed) == ["one", "two"]


def test_a_webhook_client_let_go_closes_its_session_on_the_loop():
    """A client the engine's cache drops (garbage) closes the aiohttp session it made on the agent
    loop: no connection left open, no "unclosed session" warning at exit."""
    from services.agents.aio import agent_loop

    client = HttpAgentClient("http://127.0.0.1:9/", SECRET)  # nothing listens: a crash, after the session is made
    done = threading.Event()
    request = MoveRequest(match_id="m", game="gnomes", seat=0, version=1, view_json="{}",
                          legal_moves_json=['{"op":"pass"}'], time_left_ms=1000, bank_ms=0)
    client.choose_async(request, WAIT_S, lambda outcome: done.set())
    assert done.wait(WAIT_S + 5)
    session = asyncio.run_coroutine_threadsafe(_session_of(client), agent_loop().loop()).result(WAIT_S)
    assert session is not None and not session.closed
    del client
    gc.collect()
    assert asyncio.run_coroutine_threadsafe(_closed_soon(session), agent_loop().loop()).result(WAIT_S)


async def _session_of(client: HttpAgentClient):
    return client._session


async def _closed_soon(session) -> bool:
    for _ in range(100):  # bounded: the close was queued on this loop just before
        if session.closed:
            return True
        await asyncio.sleep(0.01)
    return False
