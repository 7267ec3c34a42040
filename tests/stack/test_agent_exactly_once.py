"""Agent decisions exactly once on the hosted stack (issue 27, acceptance 6).

Asked by the Celery worker (``LONGHOUSE_AGENT_ASKER=worker``), on a stack of this module's own
whose broker redelivers an unacknowledged task after :data:`VISIBILITY_S` seconds
(``LONGHOUSE_CELERY_VISIBILITY_TIMEOUT``; 30 by default), so a slow answer is redelivered several
times while the agent thinks, as the issue's 45 s answer was at 34 s; and by the movers (the
default), on the session's stack. The agents are
:class:`tests.support.recording_agent.RecordingAgent`: in this process, on loopback, recording
every request.

* a slow answer redelivered: one request a decision, and the bank as the first answer left it;
* a killed asker's decision (8 s, no bank) strikes by 8 s + 2 s from its start, asked again for
  the time its stored deadline leaves: a killed worker's (the restarted worker re-arms it, or the
  broker redelivers it) and a killed mover's (the mover that starts next pushes the game again and
  its desk takes the lapsed claim over; nothing else would ask it);
* three agent seats answering Resource Hog's simultaneous orders: three requests an order round;
* a task that raises (the agent's registry record corrupted under it): a strike and the default
  move within the decision's deadline.
"""

from __future__ import annotations

import json
import threading
from typing import Iterator

import pytest
import redis
import requests

from services.agents.registry import KEY as AGENTS_KEY
from services.coordinator.redis_store import key
from tests.stack.conftest import StackHandle, running_stack
from tests.support.recording_agent import recording_agent
from tests.support.wait import wait_for

pytestmark = pytest.mark.stack

VISIBILITY_S = 2
"""The broker's redelivery timeout in this module's stack (seconds)."""
SECRET = "exactly-once-secret-0123456789"


@pytest.fixture(scope="module")
def short_stack(tmp_path_factory) -> Iterator[StackHandle]:
    """The whole stack, its broker redelivering unacknowledged tasks after :data:`VISIBILITY_S` s."""
    with running_stack(tmp_path_factory, "stack-redelivery", celery_visibility_timeout=VISIBILITY_S,
                       agent_asker="worker") as handle:
        yield handle


def register(stack: StackHandle, address: str, name: str) -> str:
    resp = requests.post(f"{stack.gateway_url}/agents", json={"name": name, "protocol": "http", "address": address,
                                                              "secret": SECRET}, headers=stack.operator, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()["agent_id"]


def create(stack: StackHandle, game: str, bots: dict, control: dict, seed: str) -> str:
    resp = requests.post(f"{stack.gateway_url}/games", json={"game": game, "players": len(bots), "seed": seed,
                                                             "bots": bots, "time_control": control},
                         headers=stack.operator, timeout=30)
    assert resp.status_code == 201, resp.text
    return resp.json()["game_id"]


def commits(stack: StackHandle, game_id: str) -> list[dict]:
    """The game's log as committed: ``{"v", "kind", "seat", "t" (ms, Redis clock; 0 for the creation), "types"}``."""
    client = redis.Redis.from_url(stack.redis_url)
    try:
        rows = client.xrange(key(game_id, "log"))
    finally:
        client.close()
    out = []
    for _id, fields in rows:
        f = {k.decode(): v.decode() for k, v in fields.items()}
        out.append({"v": int(f["v"]), "kind": f["kind"], "seat": int(f.get("seat", -1)), "t": int(f.get("t", 0)),
                    "types": [e["type"] for e in json.loads(f["events"])]})
    return out


def clock_field(stack: StackHandle, game_id: str, field: str) -> str | None:
    client = redis.Redis.from_url(stack.redis_url)
    try:
        value = client.hget(key(game_id, "clock"), field)
    finally:
        client.close()
    return value.decode() if value is not None else None


def decision_of(stack: StackHandle, game_id: str, seat: int, before: int) -> tuple[int, int]:
    """``(start, first asked, ms)`` of the last decision of ``seat`` asked before version ``before``
    (the clock's ``asked:<seat>:<start>`` fields)."""
    client = redis.Redis.from_url(stack.redis_url)
    try:
        fields = {k.decode(): v.decode() for k, v in client.hgetall(key(game_id, "clock")).items()}
    finally:
        client.close()
    asked = {int(k.rsplit(":", 1)[1]): int(v) for k, v in fields.items() if k.startswith(f"asked:{seat}:")}
    start = max(v for v in asked if v < before)
    return start, asked[start]


def status(stack: StackHandle, game_id: str) -> dict:
    return requests.get(f"{stack.gateway_url}/games/{game_id}", timeout=10).json()


def worker_lines(stack: StackHandle, game_id: str, event: str, process: str = "worker") -> list[dict]:
    """The log lines of ``event`` for the game of the worker (or ``process``) (JSON objects; a
    line that is not one is passed over)."""
    rows = []
    for line in (stack.data_dir / "logs" / f"{process}.log").read_text().splitlines():
        if line.startswith("{") and f'"{event}"' in line and game_id in line:
            try:
                rows.append(json.loads(line))
            except ValueError:
                continue
    return [r for r in rows if r.get("game_id") == game_id and r.get("event") == event]


def test_a_slow_answer_redelivered_is_asked_once_and_charged_once(short_stack):
    slow: set[str] = set()
    lock = threading.Lock()

    def delay(request) -> float:
        """The game's first decision takes three redelivery periods; the others are quick."""
        with lock:
            first = request.match_id not in slow
            slow.add(request.match_id)
        return 3 * VISIBILITY_S + 1 if first else 0.0

    with recording_agent(SECRET, delay) as agent:
        agent_id = register(short_stack, agent.address, "slow-first")
        game_id = create(short_stack, "resource_hog", {"0": {"kind": "agent", "agent": agent_id},
                                                       "1": {"kind": "random", "seed": "r"}},
                         {"move_ms": 60_000, "bank_ms": 10_000, "max_strikes": 3}, "redelivered")
        wait_for(lambda: status(short_stack, game_id)["status"] == "over", 50, "the game to end")
        asked = agent.of(game_id)
    log = commits(short_stack, game_id)
    by_agent = [c for c in log if c["kind"] == "move" and c["seat"] == 0]
    assert len(asked) == len(by_agent) > 10  # one request a decision, the slow one too
    assert asked[1].at - asked[0].at >= 3 * VISIBILITY_S  # the first answer was slow (nothing asked meanwhile)
    assert {r.bank_ms for r in asked} == {10_000}  # no request carried a bank a copy had spent
    assert clock_field(short_stack, game_id, "bank:0") in (None, "10000")
    assert not any("StrikeRecorded" in c["types"] for c in log)
    # the broker did redeliver the slow decision's task while the agent thought: its copies asked nobody
    # the broker did redeliver the slow decision's task while the agent thought (the same task id
    # as its asker's), and those copies asked nobody
    start, _ = decision_of(short_stack, game_id, 0, by_agent[0]["v"])
    lines = worker_lines(short_stack, game_id, "agent_decision")
    (asker,) = [r for r in lines if r["version"] == start and r["outcome"] == "played"]
    copies = [r for r in lines if r.get("task") == asker["task"] and r is not asker]
    assert copies and {r["outcome"] for r in copies} <= {"busy", "answered"}


def test_three_agent_seats_deciding_at_once_make_three_requests(short_stack):
    with recording_agent(SECRET) as agent:
        agent_id = register(short_stack, agent.address, "three-seats")
        game_id = create(short_stack, "resource_hog", {str(s): {"kind": "agent", "agent": agent_id} for s in range(3)},
                         {"move_ms": 10_000, "bank_ms": 10_000, "max_strikes": 3}, "three-at-once")
        wait_for(lambda: status(short_stack, game_id)["status"] == "over", 50, "the game to end")
        asked = agent.of(game_id)
    log = commits(short_stack, game_id)
    moves = [c for c in log if c["kind"] == "move"]
    assert not any("StrikeRecorded" in c["types"] for c in log)
    assert len(asked) == len(moves) > 30  # every answer committed, none thrown away and asked again
    # the first decision is the three seats' orders, at once: three requests, one a seat
    first = moves[0]["v"] - 1
    orders = [r for r in asked if first <= r.version < first + 3]
    assert sorted(r.seat for r in orders) == [0, 1, 2]
    assert sorted(c["seat"] for c in moves[:3]) == [0, 1, 2]


def test_a_task_that_raises_ends_in_a_strike_within_its_deadline(short_stack):
    gate = threading.Event()

    def delay(request) -> float:
        gate.wait(20)  # the first request is answered once the record is corrupted
        return 0.0

    client = redis.Redis.from_url(short_stack.redis_url)
    with recording_agent(SECRET, delay) as agent:
        agent_id = register(short_stack, agent.address, "raises")
        game_id = create(short_stack, "resource_hog", {"0": {"kind": "agent", "agent": agent_id},
                                                       "1": {"kind": "random", "seed": "r"}},
                         {"move_ms": 5_000, "bank_ms": 0, "max_strikes": 3}, "raises")
        wait_for(lambda: agent.of(game_id), 20, "the first request")
        record = client.hget(AGENTS_KEY, agent_id)
        client.hset(AGENTS_KEY, agent_id, "{not a record")  # reading it raises inside the next task
        try:
            gate.set()
            strike = wait_for(lambda: next((c for c in commits(short_stack, game_id)
                                            if "StrikeRecorded" in c["types"]), None), 20, "a strike")
        finally:
            client.hset(AGENTS_KEY, agent_id, record)
            client.close()
        asked = agent.of(game_id)
    log = {c["v"]: c for c in commits(short_stack, game_id)}
    start, _ = decision_of(short_stack, game_id, 0, strike["v"])
    assert strike["seat"] == 0 and len(asked) == 1  # the raising task asked nobody
    assert strike["t"] - log[start]["t"] <= 5_000  # within the decision's deadline, not at the match's end
    assert strike["types"][0] == "StrikeRecorded" and len(strike["types"]) > 1  # and the default move
    assert any(r.get("failure") == "crash" for r in worker_lines(short_stack, game_id, "agent_decision"))


def never_in_time(stack: StackHandle, name: str, kill) -> None:
    """An agent that never answers in time (8 s, no bank); ``kill()`` kills its asker once it is
    asked: the decision strikes by its stored deadline, asked once more for the time it leaves."""
    with recording_agent(SECRET, lambda r: 30.0) as agent:  # never answers in time
        agent_id = register(stack, agent.address, name)
        game_id = create(stack, "resource_hog", {"0": {"kind": "agent", "agent": agent_id},
                                                       "1": {"kind": "random", "seed": "r"}},
                         {"move_ms": 8_000, "bank_ms": 0, "max_strikes": 3}, name)
        wait_for(lambda: agent.of(game_id), 20, "the first request")
        kill()
        strike = wait_for(lambda: next((c for c in commits(stack, game_id)
                                        if "StrikeRecorded" in c["types"]), None), 20, "the strike")
        asked = agent.of(game_id)
    log = {c["v"]: c for c in commits(stack, game_id)}
    start, first_asked = decision_of(stack, game_id, 0, strike["v"])
    assert strike["seat"] == 0
    assert strike["t"] - log[start]["t"] <= 8_000 + 2_000  # by its stored deadline
    assert strike["t"] - first_asked >= 8_000 - 100  # and not before it
    # asked once more after the kill, for the time the stored deadline left
    first, again = [r for r in asked if r.version < strike["v"]]
    assert again.time_left_ms < first.time_left_ms - 1_000 and first.time_left_ms <= 8_000


def test_a_killed_workers_decision_strikes_by_its_stored_deadline(short_stack):
    def kill() -> None:
        short_stack.kill_worker()  # SIGKILL: its task dies unacknowledged, its claim unreleased
        short_stack.start_worker()  # the new worker re-arms waiting decisions at its start

    never_in_time(short_stack, "killed-worker", kill)


def test_a_killed_movers_decision_strikes_by_its_stored_deadline(stack):
    # the session's stack: the movers ask agents; only the next mover's desk can ask this decision
    def kill() -> None:
        stack.kill_mover()  # SIGKILL: its desk's call and claim die with it
        stack.start_mover()  # pushes every game waiting for a bot or an agent again

    never_in_time(stack, "killed-mover", kill)
    assert "agent_decision" in stack.movers_log()
