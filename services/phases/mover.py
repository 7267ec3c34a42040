"""The bus mover: ``python -m services.phases.mover`` plays built-in bots' moves (and the
phases between them) for many games at once.

When a commit leaves a game waiting for a bot seat, the coordinator's scheduler pushes the
game's id on the Redis list :data:`~services.phases.schedulers.READY`
(:class:`~services.phases.schedulers.BusScheduler`). A mover pops up to
``LONGHOUSE_MOVER_BATCH`` ready games, works out each game's next step (the bot's move at
the game's current version, or its pending phase: :meth:`Table.next_job`), and resolves
them together (:meth:`Table.run_jobs`): one batched call per domain per round, one
pipelined commit for all. Games that still wait for a bot or a phase stay with the mover
for its next round, joined by newly ready games, so a game of bots never goes back through
the queue between its moves.

Nothing is lost if a mover dies: every step is committed with the version check, so a
step is never applied twice, and a game whose id was popped but not played is pushed
again by the mover that starts next (:func:`requeue_waiting`), by the gateway's ``/wait``
or by the Celery worker's start-up sweep. A game waiting for a phase and no bot goes to
the Celery worker as before.

With tracing on (:mod:`services.common.tracing`), each round is a span linked to the traces that
queued its newly popped games (their :data:`~services.phases.schedulers.READY_TRACE` keys): a
round serves many games, so it follows from their requests rather than being a child of one.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Iterator

import grpc
import redis

from services.common import logs, metrics, tracing
from services.coordinator.wire import DomainCallFailed
from services.common.config import settings
from services.common.redis_client import connect
from services.coordinator.redis_store import games_in_status
from services.coordinator.store import GameNotFound, VersionConflict
from services.phases.hosting import build_table
from services.phases.schedulers import READY, READY_TRACE

HEARTBEAT = "longhouse:mover:{name}"
"""A mover's liveness key (refreshed while it serves; the launcher's readiness probe)."""
TAKE = """
local waiting = redis.call('LLEN', KEYS[1])
if waiting == 0 then return {} end
local share = math.max(1, math.ceil(waiting / tonumber(ARGV[2])))
return redis.call('RPOP', KEYS[1], math.min(tonumber(ARGV[1]), share))
"""
"""Pop up to ARGV[1] ids from the ready list, at most a 1/ARGV[2] share of what waits."""
BATCH = int(os.environ.get("LONGHOUSE_MOVER_BATCH", "32"))
"""Games resolved together in one round."""
OUTAGE_PAUSE_MAX = 2.0
"""Longest pause, in seconds, between a mover's tries while Redis or a domain service is down
(the pause starts at 0.1 s and doubles)."""

log = logs.get_logger()


class Mover:
    """One mover: pops ready games and plays their bots and phases in batches.

    Args:
        table: a Table over the Redis store whose scheduler is a
            :class:`~services.phases.schedulers.BusScheduler`.
        client: Redis client of the game store.
        batch: games resolved together in one round.
    """

    def __init__(self, table: Any, client: redis.Redis, batch: int = BATCH, name: str = "mover"):
        self.table = table
        self.client = client
        self.batch = batch
        self.name = name
        self.stopping = threading.Event()
        self.steps = 0
        self._beat = 0.0
        self._count = 1
        self._counted = 0.0
        self._take = client.register_script(TAKE)

    def heartbeat(self) -> None:
        """Refresh :data:`HEARTBEAT` every few seconds (it expires 15 s after the last)."""
        now = time.monotonic()
        if now - self._beat >= 5:
            self.client.set(HEARTBEAT.format(name=self.name), os.getpid(), ex=15)
            self._beat = now

    def movers(self) -> int:
        """How many movers serve (their heartbeat keys), looked up every few seconds."""
        now = time.monotonic()
        if now - self._counted >= 5:
            self._count = max(1, sum(1 for _ in self.client.scan_iter(match=HEARTBEAT.format(name="*"), count=100)))
            self._counted = now
        return self._count

    def _pop(self, want: int, block: float) -> list[str]:
        """Up to ``want`` ready game ids: a fair share of what waits (so that every mover
        gets games to play) in one round trip; with ``block`` > 0 and nothing waiting, wait
        up to ``block`` seconds for one."""
        if want <= 0:
            return []
        got = [g.decode() for g in self._take(keys=[READY], args=[want, self.movers()]) or []]
        if got or block <= 0:
            return got
        first = self.client.brpop(READY, timeout=block)
        return [first[1].decode()] if first is not None else []

    def _links(self, fresh: list[str]) -> list[Any] | None:
        """Span links to the traces that queued the games ``fresh`` (``None`` when tracing is off:
        no key is read then)."""
        if not fresh or not tracing.enabled():
            return None
        pipe = self.client.pipeline(transaction=False)
        for game_id in fresh:
            pipe.get(READY_TRACE.format(game_id=game_id))
        found = (tracing.link_to({"traceparent": raw.decode()}) for raw in pipe.execute() if raw)
        return [link for link in found if link is not None] or None

    def round(self, games: list[tuple[str, int | None]]) -> list[tuple[str, int | None]]:
        """Play one step of each game (in one batch); return those still waiting on the bus,
        with the version this mover just committed (``None``: read the latest)."""
        jobs = []
        for game_id, version in dict(games).items():
            try:
                job = self.table.next_job(game_id, version)
            except GameNotFound:
                continue
            except VersionConflict:  # moved on elsewhere since: read it again
                job = self.table.next_job(game_id)
            if job is not None:
                jobs.append(job)
        if not jobs:
            return []
        self.table.run_jobs(jobs)
        keep = []
        for job in jobs:
            if job.error is not None:
                log.info("mover_step_failed", game_id=job.game_id, version=job.base,
                         error=type(job.error).__name__, reason=str(job.error)[:200])
                continue
            self.steps += 1
            keep.append((job.game_id, job.version))
        return keep

    def run(self) -> None:
        """Serve until :attr:`stopping` is set: rounds over the games in hand plus new ready ones.

        While Redis or a domain service cannot be reached (a restart), the mover keeps its games
        in hand, waits (0.1 s doubling to :data:`OUTAGE_PAUSE_MAX`) and tries again, then pushes
        every game waiting for a bot again (:func:`requeue_waiting`: an id popped by a call whose
        answer was lost). A round is safe to repeat: every step is committed with the version
        check. Before, any such failure ended the mover (the crash harness saw it at every
        Redis or service kill that caught a mover mid-round).
        """
        hand: list[tuple[str, int | None]] = []
        pause = 0.0
        while not self.stopping.is_set():
            games = hand
            try:
                if pause:
                    requeue_waiting(self.table, self.client)
                self.heartbeat()
                fresh = self._pop(self.batch - len(hand), block=0 if hand else 1.0)
                games = hand + [(g, None) for g in fresh if g not in dict(hand)]
                if games:
                    with tracing.span("mover round", links=self._links(fresh), longhouse__games=len(games)):
                        hand = self.round(games)
                pause = 0.0
            except (redis.ConnectionError, redis.TimeoutError, DomainCallFailed) as exc:
                if not outage(exc):
                    raise
                pause = min(OUTAGE_PAUSE_MAX, max(0.1, pause * 2))
                log.warning("mover_outage", error=type(exc).__name__, reason=str(exc)[:200], retry_in=pause)
                hand = [(g, None) for g, _ in games]  # read each again: a commit may have landed
                self.stopping.wait(pause)


def outage(exc: BaseException) -> bool:
    """True if ``exc`` says Redis or a domain service is out of reach for now (a restart):
    a Redis connection error or time-out, or a domain call UNAVAILABLE or past its deadline."""
    if isinstance(exc, (redis.ConnectionError, redis.TimeoutError)):
        return True
    return isinstance(exc, DomainCallFailed) and exc.code in (grpc.StatusCode.UNAVAILABLE,
                                                              grpc.StatusCode.DEADLINE_EXCEEDED)


def waiting_seats(table: Any, client: redis.Redis, limit: int = 10_000) -> Iterator[tuple[str, int, int, dict]]:
    """``(game_id, version, seat, controller)`` for every seat to move, in an active game
    (newest ``limit``), that a built-in bot or an agent holds: the decisions a sweep may have
    to hand out again. A game that cannot be read is logged and passed over."""
    for game_id in games_in_status(client, "active", limit):
        try:
            bots = table.bots(game_id)
            if not bots:
                continue
            rules, state, version = table.state(game_id)
        except Exception:  # noqa: BLE001 - one unreadable game must not stop the sweep
            log.exception("sweep_failed", game_id=game_id)
            continue
        for seat in rules.to_move(state):
            if seat in bots:
                yield game_id, version, seat, bots[seat]


def requeue_waiting(table: Any, client: redis.Redis, limit: int = 10_000) -> int:
    """Push again every active game (newest ``limit``) that waits for one of its built-in bots:
    a game popped by a mover that died would otherwise wait for ever. Returns how many were
    pushed."""
    games = {game_id for game_id, _, _, bot in waiting_seats(table, client, limit) if bot["kind"] != "agent"}
    for game_id in games:
        client.lpush(READY, game_id)
    return len(games)


def main(argv: list[str] | None = None) -> None:
    """Build the Table from the settings, sweep, then serve until SIGTERM or SIGINT
    (``--name NAME`` names the mover's heartbeat key; ``--metrics-port PORT`` is where it serves
    its Prometheus metrics, by default ``LONGHOUSE_MOVER_METRICS_PORT``, 0 for none)."""
    import argparse

    s = settings()
    parser = argparse.ArgumentParser(prog="python -m services.phases.mover")
    parser.add_argument("--name", default=f"mover-{os.getpid()}")
    parser.add_argument("--metrics-port", type=int, default=s.mover_metrics_port)
    args = parser.parse_args(argv)
    logs.configure("mover")
    tracing.configure("mover")  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
    metrics.serve(args.metrics_port, s.metrics_host)  # the moves it commits (services.common.metrics)
    client = connect(s.redis_url)
    table = build_table(client, ports_mode=s.ports_mode, phase_mode=s.phase_mode, settings=s)
    mover = Mover(table, client, name=args.name)
    mover.heartbeat()

    def stop(*_: Any) -> None:
        # A mover gets SIGTERM twice at a stop (its group's, then its shell's). Further signals
        # are ignored first: a handler run again inside Event.set() would wait for the lock
        # the interrupted set() holds, for ever.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        mover.stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    pushed = requeue_waiting(table, client)
    log.info("mover_ready", batch=mover.batch, requeued=pushed, pid=os.getpid())
    started = time.monotonic()
    mover.run()
    log.info("mover_stopped", steps=mover.steps, seconds=round(time.monotonic() - started, 1))


if __name__ == "__main__":
    main()
