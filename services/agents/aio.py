"""One asyncio event loop a process, on a thread of its own, where a webhook agent's answer is
waited for without a thread a call (:meth:`~services.agents.client.HttpAgentClient.choose_async`).

The mover's loop builds and signs a request, then hands the call to this loop
(:meth:`AgentLoop.submit`); aiohttp sends it and reads the answer here, and the caller's ``done``
callback runs on this loop's thread. Against the blocking call on a desk thread, in one stack,
alternated: 1.11x the webhook moves a second (docs/benchmarks.md, "Webhooks asked from an event
loop"). A gRPC agent is not asked here: ``grpc.aio`` on this loop did worse than a future on
gRPC's own channel (the same section).

The loop starts at the first :meth:`AgentLoop.submit`; a forked child starts its own when it first
submits (the thread does not survive a fork). Resources made on the loop (a channel, an HTTP
session) are closed on it by :func:`close_later`; the process's exit closes what is left
(within :data:`EXIT_CLOSE_S`).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from services.common import logs

log = logs.get_logger()

EXIT_CLOSE_S = 2.0
"""Seconds the process's exit waits for the loop to close what is still open."""


class AgentLoop:
    """The loop and its thread (made at the first :meth:`submit`).

    Tasks are held here until they end (asyncio keeps only weak references to them); a task
    that raises is logged (a coroutine given to :meth:`submit` is expected to report its own
    outcome, so this is a fault of the caller's)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._open: dict[int, Callable[[], Awaitable[None]]] = {}

    def loop(self) -> asyncio.AbstractEventLoop:
        """The running loop (started now if it is not yet)."""
        loop = self._loop
        if loop is not None:
            return loop
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()
                thread = threading.Thread(target=self._run, args=(loop, ready), name="agent-loop", daemon=True)
                thread.start()
                ready.wait()
                self._loop, self._thread = loop, thread
            return self._loop

    @staticmethod
    def _run(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        loop.run_forever()

    def in_loop(self) -> bool:
        """True on the loop's own thread."""
        return self._thread is not None and threading.current_thread() is self._thread

    def submit(self, make: Callable[[], Awaitable[Any]]) -> None:
        """Run ``make()`` (a coroutine function called on the loop's thread) as a task; returns at
        once. Safe from any thread."""
        self.loop().call_soon_threadsafe(self._start, make)

    def _start(self, make: Callable[[], Awaitable[Any]]) -> None:
        try:
            task = asyncio.ensure_future(make())
        except Exception:  # noqa: BLE001 - a fault of the caller's, never the loop's end
            log.exception("agent_loop_task_failed")
            return
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("agent_loop_task_failed", error=type(exc).__name__, reason=str(exc)[:200])

    def keep_open(self, key: int, close: Callable[[], Awaitable[None]]) -> bool:
        """Remember ``close`` (a coroutine function) as what closes the resource ``key`` (made on
        the loop; it replaces what ``key`` named before), for :meth:`close_later` and the process's
        exit. Returns True if ``key`` was not open."""
        new = key not in self._open
        self._open[key] = close
        return new

    def close_later(self, key: int) -> None:
        """Close the resource ``key`` on the loop (nothing if it was never kept open). Safe from
        any thread, and from a finalizer."""
        close = self._open.pop(key, None)
        if close is not None and self._loop is not None and not self._loop.is_closed():
            try:
                self.submit(close)
            except RuntimeError:  # the loop is shutting down: the process is ending
                pass

    def close_all(self, timeout_s: float = EXIT_CLOSE_S) -> None:
        """Close every resource still open and wait up to ``timeout_s`` for it (the process's exit)."""
        loop = self._loop
        if loop is None or loop.is_closed() or not self._open or self.in_loop():
            return
        closes, self._open = list(self._open.values()), {}

        async def every() -> None:
            await asyncio.gather(*(close() for close in closes), return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(every(), loop).result(timeout_s)
        except Exception:  # noqa: BLE001 - the process is ending: a slow close is left to it
            pass

    def _forget(self) -> None:
        """In a forked child: the thread is gone; the next submit starts a loop of the child's."""
        self._lock = threading.Lock()
        self._loop, self._thread, self._tasks, self._open = None, None, set(), {}


_agent_loop = AgentLoop()
os.register_at_fork(after_in_child=_agent_loop._forget)
atexit.register(_agent_loop.close_all)


def agent_loop() -> AgentLoop:
    """This process's :class:`AgentLoop`."""
    return _agent_loop
