"""Builds the coordinator :class:`~services.coordinator.table.Table` of a hosted process.

The gateway and the phase worker run the same Table over the Redis event store; they
differ only in where the four domains run (``ports_mode``: ``"embedded"`` in-process,
``"grpc"`` in the domain services) and where phases go (``phase_mode``: ``"celery"``
queues them, ``"inline"`` runs them at once in the committing process).
"""

from __future__ import annotations

from typing import Any

import redis

from services.common.config import Settings, settings as default_settings
from services.coordinator.ports import embedded_ports
from services.coordinator.projection import Projections
from services.coordinator.redis_store import RedisSeeds, RedisStore
from services.coordinator.table import InlineScheduler, PhaseScheduler, Table
from services.phases import agents
from services.phases.schedulers import BusScheduler, CeleryScheduler

PORTS_MODES = ("embedded", "grpc")
PHASE_MODES = ("celery", "inline")


def build_ports(client: redis.Redis, store: RedisStore, ports_mode: str,
                settings: Settings | None = None, projections: Projections | None = None) -> dict[str, Any]:
    """The four ports, domain -> port.

    Args:
        client: Redis client of the game store (the embedded deck keeps seeds there).
        store: the event store the embedded domains read.
        ports_mode: ``"embedded"`` or ``"grpc"`` (the gRPC adapters are imported only then).
        settings: addresses of the gRPC services (default: the process's settings).
        projections: the Table's state cache, shared by embedded ports.
    Raises:
        ValueError: unknown ``ports_mode``.
    """
    if ports_mode == "embedded":
        return embedded_ports(store, RedisSeeds(client), projections)
    if ports_mode == "grpc":
        from services.coordinator.grpc_ports import grpc_ports

        return grpc_ports(settings or default_settings())
    raise ValueError(f"ports_mode must be one of {PORTS_MODES}, not {ports_mode!r}")


def build_scheduler(phase_mode: str, broker_url: str | None = None,
                    celery_app: Any | None = None, client: redis.Redis | None = None,
                    agent_asker: str = "mover") -> PhaseScheduler:
    """An :class:`InlineScheduler` (phases, bots and agents at once, in-process), or for ``celery``
    a :class:`~services.phases.schedulers.BusScheduler`: phases to the Celery worker, bot moves on
    the movers' ready list in ``client``'s Redis, and agent decisions there too with
    ``agent_asker`` ``"mover"`` (``"worker"``: the Celery agent queue).

    Raises:
        ValueError: unknown ``phase_mode``, or ``celery`` without ``client``.
    """
    if phase_mode == "inline":
        return InlineScheduler(agents)
    if phase_mode == "celery":
        if client is None:
            raise ValueError("the celery phase mode needs the game store's Redis client for bot moves")
        return BusScheduler(client, CeleryScheduler(celery_app, broker_url), agents_on_bus=agent_asker == "mover")
    raise ValueError(f"phase_mode must be one of {PHASE_MODES}, not {phase_mode!r}")


def build_table(client: redis.Redis, *, ports_mode: str, phase_mode: str,
                broker_url: str | None = None, celery_app: Any | None = None,
                settings: Settings | None = None) -> Table:
    """``Table(RedisStore(client), ports, scheduler)`` for the given modes.

    Raises:
        ValueError: an unknown mode.
    """
    from services.rules.core.game import warm_up

    warm_up()  # the games load here, not in the first game's first request
    store = RedisStore(client)
    projections = Projections(store)
    ports = build_ports(client, store, ports_mode, settings, projections)
    scheduler = build_scheduler(phase_mode, broker_url, celery_app, client,
                                (settings or default_settings()).agent_asker)
    return Table(store, ports, scheduler, projections=projections)
