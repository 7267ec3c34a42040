"""Phase schedulers for the hosted stack: phases run as Celery tasks.

After a commit that leaves a phase pending (a change of season, a lap end), the
:class:`~services.coordinator.table.Table` calls ``scheduler.schedule(game_id, phase,
version)``. :class:`CeleryScheduler` turns that into the Celery task
``run_phase(game_id, phase, version)`` served by :mod:`services.phases.worker`
(DESIGN "Phases on Celery"). The task is idempotent by version, so the broker may
deliver it twice and a worker may die holding it.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

TASK_NAME = "longhouse.run_phase"
"""Name of the phase task (sent by name, so senders need not import the worker)."""

QUEUE = "longhouse.phases"
"""Broker queue the phase workers consume."""

log = logging.getLogger("longhouse.phases")


class CeleryScheduler:
    """Queues each pending phase as the Celery task :data:`TASK_NAME`.

    Args:
        celery_app: the Celery app to send with; if ``None``, one is built lazily
            (on the first phase) by :func:`services.phases.worker.make_celery`
            for ``broker_url``.
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
                    from services.phases.worker import make_celery

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
            self.app.send_task(TASK_NAME, args=(game_id, phase, version), queue=QUEUE)
        except Exception:
            log.exception("phase not queued game_id=%s phase=%s version=%d", game_id, phase, version)
            return
        log.info("phase queued game_id=%s phase=%s version=%d", game_id, phase, version)

    def schedule_agent(self, game_id: str, seat: int, version: int) -> None:
        """Send ``ask_agent(game_id, seat, version)`` to the agent queue (never raises: a lost
        task is queued again by whoever notices the game waiting, as for a phase)."""
        from services.phases.agents import ASK_TASK, QUEUE as AGENTS

        self._send(ASK_TASK, (game_id, seat, version), AGENTS)

    def schedule_end(self, game_id: str) -> None:
        """Send ``end_match(game_id)`` (the agents' result notice) to the agent queue."""
        from services.phases.agents import END_TASK, QUEUE as AGENTS

        self._send(END_TASK, (game_id,), AGENTS)

    def _send(self, task: str, args: tuple[Any, ...], queue: str) -> None:
        try:
            self.app.send_task(task, args=args, queue=queue)
        except Exception:
            log.exception("task not queued task=%s args=%s", task, args)
