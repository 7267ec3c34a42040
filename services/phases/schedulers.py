"""The hosted stack's adapters of the coordinator's scheduler port
(:class:`~services.coordinator.table.PhaseScheduler`): phases go to the Celery worker as tasks,
agent decisions to the agent queue, bot moves on the movers' ready list.

After a commit that leaves a phase pending (a change of season, a lap end), the
:class:`~services.coordinator.table.Table` calls ``scheduler.schedule(game_id, phase,
version)``. :class:`CeleryScheduler` turns that into the Celery task
``run_phase(game_id, phase, version)`` served by :mod:`services.phases.worker`
(DESIGN "Phases on Celery"); tasks are sent by name, so senders need not import the worker.
The task is idempotent by version, so the broker may deliver it twice and a worker may die
holding it. Each task's message carries the request id being served and the trace context
(:func:`task_headers`), so the worker's lines and spans follow the request that queued it.
:class:`BusScheduler` adds the bot seats: their games go on :data:`READY`, which the movers
(:mod:`services.phases.mover`) pop.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from celery import Celery

from services.common import logs, tracing
from services.common.config import settings
from services.common.redis_client import is_cluster, redact
from services.phases import agents

TASK_NAME = "longhouse.run_phase"
"""Name of the phase task (sent by name, so senders need not import the worker)."""

QUEUE = "longhouse.phases"
"""Broker queue the phase workers consume."""

READY = "longhouse:ready"
"""The Redis list of games waiting for a bot seat's move (ids; duplicates are harmless)."""

READY_TRACE = "game:{{{game_id}}}:ready_trace"
"""With tracing on: the trace context (W3C ``traceparent``) of the last push of a game on
:data:`READY`, for the mover's round span to link to; expires after :data:`READY_TRACE_TTL`."""

READY_TRACE_TTL = 60
"""Seconds a :data:`READY_TRACE` key lives (a mover reads it when it pops the game)."""

REQUEST_ID_HEADER = logs.REQUEST_ID_HEADER
"""The message header of the request id (:data:`services.common.logs.REQUEST_ID_HEADER`)."""

log = logs.get_logger()
"""Structured: a fixed ``event`` and its fields apart (README, Logs)."""
bus_log = log


def task_headers() -> dict[str, str]:
    """The headers to send a task with: the request id being served (if any) and the current trace
    context (W3C ``traceparent``/``tracestate``, when tracing is on); often empty."""
    headers = tracing.carrier()
    rid = logs.request_id.get()
    if rid is not None:
        headers[REQUEST_ID_HEADER] = rid
    return headers


def send_task(celery_app: Any, task: str, args: tuple[Any, ...], queue: str) -> None:
    """``celery_app.send_task(task, args, queue=queue)`` with :func:`task_headers`, in a PRODUCER
    span when tracing is on. Raises what ``send_task`` raises."""
    with tracing.span(f"send {task}", kind=tracing.SpanKind.PRODUCER, messaging__system="celery",
                      messaging__destination__name=queue):
        headers = task_headers()
        if headers:
            celery_app.send_task(task, args=args, queue=queue, headers=headers)
        else:
            celery_app.send_task(task, args=args, queue=queue)


def make_celery(broker_url: str | None = None) -> Celery:
    """A Celery app configured for phase tasks (no result backend).

    Args:
        broker_url: the broker (default ``settings().celery_broker_url``).
    Returns:
        the app; senders use ``send_task(TASK_NAME, ...)``, workers :data:`services.phases.worker.app`.
    Raises:
        ValueError: ``broker_url`` names a Redis Cluster: Celery's Redis transport needs one server
            (``LONGHOUSE_BROKER_URL``; the game store may be a cluster, README "Redis Cluster").
    """
    s = settings()
    vt = int(s.celery_visibility_timeout)
    broker = broker_url or s.celery_broker_url
    if is_cluster(broker):
        raise ValueError(f"the Celery broker must be a single Redis server, not the cluster {redact(broker)}")
    app = Celery("longhouse.phases", broker=broker)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_transport_options={
            "visibility_timeout": vt,
            # look for tasks abandoned by dead workers often enough to honour the timeout
            "unacked_restore_interval": max(1, min(10, vt // 3)),
            "unacked_restore_throttle": 1,
        },
        broker_connection_retry_on_startup=True,
        task_ignore_result=True,
        task_default_queue=QUEUE,
        task_serializer="json",
        accept_content=["json"],
        worker_send_task_events=False,
    )
    return app


class CeleryScheduler:
    """Queues each pending phase as the Celery task :data:`TASK_NAME`.

    Args:
        celery_app: the Celery app to send with; if ``None``, one is built lazily
            (on the first phase) by :func:`make_celery` for ``broker_url``.
        broker_url: broker for the lazily built app (default: the settings' broker).
    """

    def __init__(self, celery_app: Any | None = None, broker_url: str | None = None):
        self._app = celery_app
        self._broker_url = broker_url
        self._lock = threading.Lock()

    @property
    def app(self) -> Any:
        """The Celery app tasks are sent with (built on first use)."""
        if self._app is None:
            with self._lock:
                if self._app is None:
                    self._app = make_celery(self._broker_url)
        return self._app

    def schedule(self, game_id: str, phase: str, version: int) -> None:
        """Send ``run_phase(game_id, phase, version)`` to the phase queue.

        Never raises: the commit that left the phase pending is already durable, so a
        broker that cannot be reached (after Celery's publish retries) is logged, and
        the phase is queued again later by whoever notices the game still waiting for
        it (the gateway's ``/wait`` does; running a phase is idempotent by version).
        """
        try:
            send_task(self.app, TASK_NAME, (game_id, phase, version), QUEUE)
        except Exception:
            log.exception("phase_not_queued", game_id=game_id, phase=phase, version=version)
            return
        log.info("phase_queued", game_id=game_id, phase=phase, version=version)

    def schedule_agent(self, game_id: str, seat: int, version: int) -> None:
        """Send ``ask_agent(game_id, seat, version)`` to the agent queue (never raises: a lost
        task is queued again by whoever notices the game waiting, as for a phase). A decision the
        committing thread's :func:`services.phases.agents.ask_chained` takes is not sent."""
        if agents.captured(game_id, seat, version):
            return
        self._send(agents.ASK_TASK, (game_id, seat, version), agents.QUEUE)

    def schedule_end(self, game_id: str) -> None:
        """Send ``end_match(game_id)`` (the agents' result notice) to the agent queue."""
        self._send(agents.END_TASK, (game_id,), agents.QUEUE)

    def _send(self, task: str, args: tuple[Any, ...], queue: str) -> None:
        try:
            send_task(self.app, task, args, queue)
        except Exception:
            log.exception("task_not_queued", task=task, args=list(args))


class BusScheduler:
    """The hosted scheduler: phases go to Celery (:class:`CeleryScheduler`), bot moves on the
    :data:`READY` list for the movers, and agent decisions too (the movers' desks ask them,
    :mod:`services.phases.agent_desk`) unless ``agents_on_bus`` is False (then to the agent queue).

    Args:
        client: Redis client of the game store (the list lives there).
        phases: the phase scheduler (a :class:`CeleryScheduler`).
        agents_on_bus: agent decisions on :data:`READY` (``LONGHOUSE_AGENT_ASKER=mover``).
    """

    def __init__(self, client: redis.Redis, phases: Any, agents_on_bus: bool = False):
        self.client = client
        self.phases = phases
        self.agents_on_bus = agents_on_bus

    def schedule(self, game_id: str, phase: str, version: int) -> None:
        """A pending phase: to the phase worker."""
        self.phases.schedule(game_id, phase, version)

    def schedule_agent(self, game_id: str, seat: int, version: int) -> None:
        """An agent seat's decision: the game's id on the ready list for a mover's desk, or with
        ``agents_on_bus`` False to the agent queue on the Celery workers."""
        if self.agents_on_bus:
            self.schedule_bot(game_id, seat, version)
        else:
            self.phases.schedule_agent(game_id, seat, version)

    def schedule_end(self, game_id: str) -> None:
        """A finished game with agents: their result notice, to the agent queue."""
        self.phases.schedule_end(game_id)

    def schedule_bot(self, game_id: str, seat: int, version: int) -> None:
        """A bot seat's decision: the game's id on the ready list. Never raises (like a phase:
        the commit is durable; a lost push is repaired by whoever notices the wait)."""
        try:
            context = tracing.carrier().get("traceparent")
            if context is None:
                self.client.lpush(READY, game_id)
            else:  # tracing on: the mover's round links to this trace
                self.client.set(READY_TRACE.format(game_id=game_id), context, ex=READY_TRACE_TTL)
                self.client.lpush(READY, game_id)
        except redis.RedisError:
            bus_log.exception("bot_not_queued", game_id=game_id, seat=seat, version=version)
