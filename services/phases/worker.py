"""The Celery phase worker: ``celery -A services.phases.worker worker -l info``.

It consumes the queue :data:`~services.phases.schedulers.QUEUE` on the broker
``settings().celery_broker_url`` and runs the task ``run_phase(game_id, phase,
version)``, which calls :meth:`Table.run_phase
<services.coordinator.table.Table.run_phase>` through the same ports as the gateway
(``LONGHOUSE_PORTS_MODE``) and commits with the same version check. Tasks are
acknowledged late and prefetched one at a time, so a worker killed while it holds a
task loses nothing: after ``celery_visibility_timeout`` seconds the broker hands the
task to another worker, and a task for a version the game has left is a no-op.

A task runs with the request id its message carries (the log lines it writes carry it) and,
with tracing on (``OTEL_EXPORTER_OTLP_ENDPOINT``), in a span continuing the trace that sent it
(:func:`services.common.tracing.instrument_celery_worker`).
Metrics (:mod:`services.common.metrics`), on ``LONGHOUSE_WORKER_METRICS_PORT``: every task's run
time (``longhouse_celery_task_duration_seconds``, from Celery's ``task_prerun``/``task_postrun``
signals), the depth of each queue it consumes and of the movers' ready list
(``longhouse_queue_depth``, read at each scrape: :class:`QueueDepth`), the agent decisions it
commits and the agents' moves (counted where they are committed).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import redis
from celery import Celery
from celery.signals import setup_logging, task_postrun, task_prerun, worker_init, worker_ready
from kombu.exceptions import ChannelError, KombuError
from prometheus_client.core import GaugeMetricFamily

from services.common import logs, metrics, tracing
from services.common.config import settings
from services.common.redis_client import connect
from services.coordinator.projection import Projections
from services.coordinator.redis_store import RedisStore, games_in_status
from services.coordinator.store import GameNotFound
from services.phases import agents
from services.phases.hosting import build_table
from services.phases.mover import waiting_seats
from services.phases.schedulers import QUEUE, READY, REQUEST_ID_HEADER, TASK_NAME, make_celery
from services.tournament import jobs

log = logs.get_logger()


@setup_logging.connect
def _json_logs(**_kwargs: Any) -> None:
    """Celery's own logs and the task's lines, all as JSON (one object per line); traces too,
    if the environment asks for them."""
    logs.configure("worker")
    if tracing.configure("worker"):
        tracing.instrument_celery_worker()


_request_ids: dict[str, Any] = {}  # task id -> token of its request id, while it runs


@task_prerun.connect
def _bind_request_id(task_id: str | None = None, task: Any = None, **_kwargs: Any) -> None:
    """While a task runs, its message's request id (:data:`REQUEST_ID_HEADER`) is the log's."""
    rid = getattr(task.request, REQUEST_ID_HEADER, None) if task is not None else None
    if task_id is not None and isinstance(rid, str):
        _request_ids[task_id] = logs.request_id.set(rid[:128])


@task_postrun.connect
def _unbind_request_id(task_id: str | None = None, **_kwargs: Any) -> None:
    token = _request_ids.pop(task_id, None) if task_id is not None else None
    if token is not None:
        logs.request_id.reset(token)


app = make_celery()

_table_lock = threading.Lock()
_table: Any = None


def worker_table() -> Any:
    """The worker process's Table (built on first use, after any fork).

    Ports and the scheduler of follow-on phases come from the settings
    (``LONGHOUSE_PORTS_MODE``, ``LONGHOUSE_PHASE_MODE``).
    """
    global _table
    if _table is None:
        with _table_lock:
            if _table is None:
                s = settings()
                client = connect(s.redis_url)
                _table = build_table(client, ports_mode=s.ports_mode, phase_mode=s.phase_mode,
                                     celery_app=app, settings=s)
    return _table


@app.task(name=TASK_NAME, autoretry_for=(redis.ConnectionError, ConnectionError),
          retry_backoff=True, retry_backoff_max=30, max_retries=10)
def run_phase(game_id: str, phase: str, version: int) -> bool:
    """Run phase ``phase`` of ``game_id`` if the game is still at ``version``.

    Returns:
        True if this run committed the phase; False if the game had moved on (a
        duplicate or redelivered task) or does not exist.
    Raises:
        Connection errors are retried with back-off; rules errors propagate (logged).
    """
    started = time.monotonic()
    try:
        committed = worker_table().run_phase(game_id, phase, int(version))
        outcome = "committed" if committed else "skipped"
    except GameNotFound:
        committed, outcome = False, "unknown_game"
    log.info("phase_run", game_id=game_id, phase=phase, version=int(version), outcome=outcome,
             duration_ms=round((time.monotonic() - started) * 1000), pid=os.getpid())
    return committed


@app.task(name=agents.ASK_TASK, bind=True, autoretry_for=(redis.ConnectionError, ConnectionError),
          retry_backoff=True, retry_backoff_max=30, max_retries=10)
def ask_agent(self: Any, game_id: str, seat: int, version: int) -> str:
    """Ask the agent of ``seat`` for its move at ``version`` and commit what counts
    (:func:`services.phases.agents.ask_agent`: once per decision; a duplicate or a copy the broker
    redelivers while its asker is alive asks nobody, one whose asker died takes over within the
    decision's stored deadline), and the game's next agent decisions while they come one at a
    time (:func:`services.phases.agents.ask_chained`). Returns the first one's outcome; an unknown
    game is ``"unknown_game"``."""
    try:
        table = worker_table()
        return agents.ask_chained(table, game_id, int(seat), int(version), self.request.id,
                                  table.scheduler.schedule_agent)
    except GameNotFound:
        return "unknown_game"


@app.task(name=agents.END_TASK, autoretry_for=(redis.ConnectionError, ConnectionError),
          retry_backoff=True, retry_backoff_max=30, max_retries=10)
def end_match(game_id: str) -> int:
    """Tell a finished game's agents the result (:func:`services.phases.agents.end_match`)."""
    try:
        return agents.end_match(worker_table(), game_id)
    except GameNotFound:
        return 0


@app.task(name=jobs.ADVANCE_TASK, bind=True, autoretry_for=(redis.ConnectionError, ConnectionError),
          retry_backoff=True, retry_backoff_max=30, max_retries=10)
def tournament_step(self: Any, tournament_id: str, chain: str) -> str:
    """One step of a tournament (:func:`services.tournament.jobs.step`): record finished
    matches, start the next ones, plan Swiss rounds, finish; queues the next step while it runs."""
    table = worker_table()
    return jobs.step(table, jobs.TournamentStore(table.store.r), app, tournament_id, chain, self.request.id)


def requeue_agent_decisions(table: Any, client: redis.Redis, limit: int = 10_000) -> int:
    """Ask again every agent whose decision an active game waits for (newest ``limit`` games):
    a decision whose task died with its worker is taken over as soon as its asker's lease lapses
    and asked for the time its stored deadline leaves (a strike at once if none); a decision
    whose asker is alive stays with it (:func:`services.phases.agents.ask_agent`). With the
    movers asking agents (``LONGHOUSE_AGENT_ASKER=mover``) the games go on their ready list
    instead (:mod:`services.phases.agent_desk`, which keeps the same rules)."""
    sent = 0
    for game_id, version, seat, bot in waiting_seats(table, client, limit):
        if bot["kind"] == "agent":
            table.scheduler.schedule_agent(game_id, seat, version)
            sent += 1
    return sent


def requeue_stuck_phases(celery_app: Celery, client: redis.Redis, seen: dict[str, int] | None,
                         limit: int = 10_000) -> tuple[dict[str, int], int]:
    """Queue again the phase of every game that was waiting for it at the same version at the
    previous sweep too (``seen``: game id -> version then): its task was lost, or died with a
    worker, and nobody has asked since; with ``seen=None``, of every game waiting for one.
    Returns the games waiting now and how many were queued."""
    projections = Projections(RedisStore(client), capacity=1)
    now: dict[str, int] = {}
    sent = 0
    for game_id in games_in_status(client, "phase", limit):
        try:
            rules, state, version = projections.state_at(game_id)
        except Exception:  # noqa: BLE001 - one unreadable game must not stop the sweep
            log.exception("sweep_failed", game_id=game_id)
            continue
        phase = rules.pending_phase(state)
        if not phase:
            continue
        now[game_id] = version
        if seen is None or seen.get(game_id) == version:
            celery_app.send_task(TASK_NAME, args=(game_id, phase, version), queue=QUEUE)
            sent += 1
    return now, sent


def _sweep_forever(interval: float) -> None:
    """Every ``interval`` seconds, :func:`requeue_stuck_phases` (a daemon thread of the worker):
    a phase whose task was lost runs without waiting for a client's ``/wait``. One client serves
    every sweep (on a Redis Cluster a new one would first ask for the cluster's layout)."""
    seen: dict[str, int] = {}
    pause = threading.Event()
    client = None
    while not pause.wait(interval):
        try:
            client = client or connect(settings().redis_url)
            seen, sent = requeue_stuck_phases(app, client, seen)
        except redis.RedisError as exc:
            log.warning("sweep_skipped", error=exc.__class__.__name__)
            continue
        if sent:
            log.info("stuck_phases_requeued", count=sent)


def requeue_pending_phases(celery_app: Celery, client: redis.Redis, limit: int = 10_000) -> int:
    """Queue again the phase of every game that waits for one (newest ``limit`` games).

    A phase task can be lost if the broker fails between a commit and the send; a game
    would then wait in ``phase`` for ever. Running a phase is idempotent by version, so
    a spare task for a phase that is also still queued does nothing.

    Returns:
        the number of tasks sent.
    """
    return requeue_stuck_phases(celery_app, client, None, limit)[1]


@worker_ready.connect
def _sweep_on_start(**_kwargs: Any) -> None:
    """When a worker starts, queue again any phase that is waiting (see :func:`requeue_pending_phases`),
    then keep sweeping for stuck phases every ``LONGHOUSE_PHASE_SWEEP_SECONDS``."""
    threading.Thread(target=_sweep_forever, args=(float(settings().phase_sweep_seconds),), daemon=True,
                     name="phase-sweep").start()
    try:
        sent = requeue_pending_phases(app, connect(settings().redis_url))
    except redis.RedisError as exc:
        log.warning("sweep_skipped", error=exc.__class__.__name__)
        return
    log.info("phases_requeued", count=sent)
    try:
        table = worker_table()
        asked = requeue_agent_decisions(table, table.store.r)
        chains = jobs.requeue_running(jobs.TournamentStore(table.store.r), app)
    except redis.RedisError as exc:
        log.warning("sweep_skipped", error=exc.__class__.__name__)
        return
    log.info("work_requeued", agent_decisions=asked, tournaments=chains)


QUEUES = (QUEUE, agents.QUEUE, jobs.QUEUE)
"""The broker queues whose depth the worker reports (those the launcher's worker consumes)."""
_started: dict[tuple[str, int], float] = {}
_started_lock = threading.Lock()


@task_prerun.connect
def _task_started(task_id: str | None = None, **_kwargs: Any) -> None:
    """Note when a task starts running, by its id and thread (the pool's threads run several at
    once, and a redelivered task keeps its id; Celery sends both signals from the running thread)."""
    with _started_lock:
        _started[(task_id or "", threading.get_ident())] = time.perf_counter()


@task_postrun.connect
def _task_ended(task_id: str | None = None, task: Any = None, state: str | None = None, **_kwargs: Any) -> None:
    """Observe the task's run time in ``longhouse_celery_task_duration_seconds`` (task name, final
    state: ``SUCCESS``, ``FAILURE``, ``RETRY``...)."""
    with _started_lock:
        start = _started.pop((task_id or "", threading.get_ident()), None)
    if start is not None:
        metrics.families().task_duration.labels(task=getattr(task, "name", "?"), state=state or "UNKNOWN").observe(
            time.perf_counter() - start)


SCRAPE_TIMEOUT_S = 0.5
"""Connect and read timeouts of :class:`QueueDepth`'s broker and store calls (seconds): a broker or
store that does not answer costs a scrape about this much, never the outage's length."""


class QueueDepth:
    """A Prometheus collector of ``longhouse_queue_depth`` read at each scrape: the messages waiting
    in each of ``queues`` on the broker of ``celery_app`` (kombu's passive ``queue_declare``: every
    priority of the queue; a queue that does not exist yet holds 0), and the game ids waiting on
    the movers' ready list (:data:`~services.phases.schedulers.READY`) in the store at
    ``store_url``. A broker or store that does not answer leaves its part out of that scrape."""

    def __init__(self, celery_app: Celery, store_url: str, queues: tuple[str, ...] = QUEUES):
        self.app = celery_app
        self.queues = queues
        self.store = connect(store_url, socket_timeout=SCRAPE_TIMEOUT_S, socket_connect_timeout=SCRAPE_TIMEOUT_S)

    def collect(self) -> Any:
        """Yield the gauge family (see the class docstring)."""
        family = GaugeMetricFamily("longhouse_queue_depth", "Messages waiting in each broker queue, and game "
                                   "ids on the movers' ready list (longhouse:ready)", labels=["queue"])
        try:
            # a scrape must not wait out a broker outage: short socket timeouts on this connection
            options = {**(self.app.conf.broker_transport_options or {}), "socket_timeout": SCRAPE_TIMEOUT_S,
                       "socket_connect_timeout": SCRAPE_TIMEOUT_S}
            with self.app.connection_for_read(transport_options=options) as connection:
                connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0)
                channel = connection.default_channel
                for name in self.queues:
                    try:
                        waiting = channel.queue_declare(queue=name, passive=True).message_count
                    except ChannelError:  # never declared, or empty: kombu's Redis transport keeps no key
                        waiting = 0
                    family.add_metric([name], waiting)
        except (OSError, redis.RedisError, KombuError) as exc:
            log.warning("queue_depth_unread", part="broker", error=exc.__class__.__name__)
        try:
            family.add_metric([READY], self.store.llen(READY))
        except (OSError, redis.RedisError) as exc:
            log.warning("queue_depth_unread", part="store", error=exc.__class__.__name__)
        yield family


@worker_init.connect
def _serve_metrics(**_kwargs: Any) -> None:
    """Serve the worker's metrics on ``LONGHOUSE_WORKER_METRICS_PORT`` (0: none), with
    :class:`QueueDepth` read at each scrape; every agent decision status starts at 0."""
    s = settings()
    metrics.init_agent_decisions()
    metrics.serve(s.worker_metrics_port, s.metrics_host, extra=[QueueDepth(app, s.redis_url)])
