"""Prometheus metrics of every Longhouse process (prometheus-client), and how each serves them.

The families (README, "Metrics"; the Grafana dashboard ``deploy/grafana/longhouse.json`` reads
them):

======================================================  ==========  ================================
family                                                  type        labels
======================================================  ==========  ================================
``longhouse_moves_total``                               counter     ``game`` (its name), ``outcome``
                                                                    (``accepted``, ``refused``),
                                                                    ``reason`` (a refusal's API
                                                                    error code, e.g. ``illegal_move``)
``longhouse_http_request_duration_seconds``             histogram   ``method``, ``route`` (the Flask
                                                                    rule, ``/games/<game_id>/moves``,
                                                                    never the raw path), ``status``
``longhouse_grpc_server_handling_seconds``              histogram   ``service``, ``method``, ``code``
``longhouse_celery_task_duration_seconds``              histogram   ``task``, ``state``
``longhouse_queue_depth``                               gauge       ``queue`` (a Celery queue, or
                                                                    ``longhouse:ready``, the bus)
``longhouse_games_in_play``                             gauge       ``game``
``longhouse_event_streams_open``                        gauge       (none)
``longhouse_agent_decisions_total``                     counter     ``status`` (``answered``,
                                                                    ``late``, ``crashed``,
                                                                    ``illegal``)
======================================================  ==========  ================================

A move is counted ``accepted`` by the process that commits it (the gateway for a client's move,
a mover for a bot's, the worker for an agent's), so the sum over the processes equals the game's
``move`` entries in its event log; a refused move is counted by the gateway that refused it.

Each process serves its own: the gateway at ``GET /metrics`` (in multiprocess mode under gunicorn,
:func:`multiprocess_dir`), the four gRPC services, the Celery worker and each mover on their own
metrics port (:meth:`services.common.config.Settings.metrics_port`) through :func:`serve`.

The metric objects are made at first use (:func:`families`), not at import, so a process that
never counts anything registers nothing; ``PROMETHEUS_MULTIPROC_DIR`` must be set before this
module is first imported for multiprocess mode (prometheus-client reads it at import).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from prometheus_client import (REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, disable_created_metrics,
                               start_http_server)
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

from services.common import logs

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's own variable: the directory of the per-process sample files (multiprocess mode)."""
TASK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0)
"""Seconds: Celery tasks run from milliseconds (a phase) to minutes (an agent with a long clock,
``move_ms`` up to 600 s)."""
AGENT_STATUSES = ("answered", "late", "crashed", "illegal")
"""The statuses of ``longhouse_agent_decisions_total``."""
AGENT_FAILURES = {"timeout": "late", "crash": "crashed", "illegal": "illegal", "malformed": "illegal"}
"""An agent failure's kind (:data:`services.agents.client.FAILURE_KINDS`) -> its decision status:
a malformed answer is no legal move either, so it counts as ``illegal``."""
FAMILIES = ("longhouse_moves_total", "longhouse_http_request_duration_seconds",
            "longhouse_grpc_server_handling_seconds", "longhouse_celery_task_duration_seconds",
            "longhouse_queue_depth", "longhouse_games_in_play", "longhouse_event_streams_open",
            "longhouse_agent_decisions_total")
"""Every family Longhouse exposes (the dashboard's test checks its queries name only these)."""


@dataclass(frozen=True, slots=True)
class Families:
    """The metric objects a process counts with (registered in prometheus-client's default
    registry; scrape-time gauges are collectors of their own: the gateway's games in play,
    the worker's queue depths)."""

    moves: Counter
    http_latency: Histogram
    grpc_latency: Histogram
    task_duration: Histogram
    streams_open: Gauge
    agent_decisions: Counter


@lru_cache(maxsize=1)
def families() -> Families:
    """The process's metric objects, made at the first call (see the module docstring). The
    ``*_created`` series of counters and histograms are off (as in multiprocess mode), so every
    process exposes the same series."""
    disable_created_metrics()
    return Families(
        moves=Counter("longhouse_moves_total", "Moves committed (accepted) or refused, by game and refusal reason",
                      ["game", "outcome", "reason"]),
        http_latency=Histogram("longhouse_http_request_duration_seconds",
                               "Gateway request latency in seconds, by Flask route (until the answer's first "
                               "byte: an event stream counts until it opens)", ["method", "route", "status"]),
        grpc_latency=Histogram("longhouse_grpc_server_handling_seconds",
                               "gRPC call latency in seconds on the domain services, by method and status code",
                               ["service", "method", "code"]),
        task_duration=Histogram("longhouse_celery_task_duration_seconds",
                                "Celery task run time in seconds, by task and final state", ["task", "state"],
                                buckets=TASK_BUCKETS),
        streams_open=Gauge("longhouse_event_streams_open", "Server-Sent Event streams open on the gateway",
                           multiprocess_mode="livesum"),
        agent_decisions=Counter("longhouse_agent_decisions_total",
                                "External agents' decisions by status: answered, late (timed out), crashed "
                                "(no answer, an error), illegal (a malformed answer or one not among the "
                                "legal moves)", ["status"]),
    )


def move_accepted(game: str) -> None:
    """Count one committed move of a game of ``game`` (the game's name, e.g. ``noggin``)."""
    families().moves.labels(game=game, outcome="accepted", reason="").inc()


def move_refused(game: str, reason: str) -> None:
    """Count one refused move of a game of ``game``; ``reason`` is the API error code
    (``illegal_move``, ``malformed_move``, ``not_your_turn``, ``stale_version``, ``move_id_reused``)."""
    families().moves.labels(game=game, outcome="refused", reason=reason).inc()


def agent_decision(failure: str | None) -> None:
    """Count one agent decision that was committed: ``failure`` None (answered) or the failure's
    kind (:data:`AGENT_FAILURES`; an unknown kind counts as ``crashed``)."""
    status = "answered" if failure is None else AGENT_FAILURES.get(failure, "crashed")
    families().agent_decisions.labels(status=status).inc()


def init_agent_decisions() -> None:
    """Make every status of ``longhouse_agent_decisions_total`` a series at 0 (the worker calls
    this at start, so a rate over it exists before the first decision)."""
    for status in AGENT_STATUSES:
        families().agent_decisions.labels(status=status)


def multiprocess_dir() -> str | None:
    """The multiprocess directory (``PROMETHEUS_MULTIPROC_DIR``) if this process counts in
    multiprocess mode, else None."""
    return os.environ.get(MULTIPROC_ENV) or None


class _DefaultRegistry:
    """A collector that yields what the process's default registry holds (so an exposition
    registry of its own can add scrape-time collectors without registering them globally)."""

    def collect(self) -> Iterable[Any]:
        return REGISTRY.collect()


def exposition_registry(extra: Iterable[Any] = ()) -> CollectorRegistry:
    """A registry for one exposition: every process's samples in multiprocess mode
    (prometheus-client's ``MultiProcessCollector``), else this process's, plus ``extra``
    collectors (objects with ``collect()``, run at each scrape)."""
    registry = CollectorRegistry()
    path = multiprocess_dir()
    if path:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry, path=path)
    else:
        registry.register(_DefaultRegistry())
    for collector in extra:
        registry.register(collector)
    return registry


def exposition(extra: Iterable[Any] = ()) -> tuple[bytes, str]:
    """``(body, content type)`` of the Prometheus text exposition of :func:`exposition_registry`."""
    return generate_latest(exposition_registry(extra)), CONTENT_TYPE_LATEST


def serve(port: int, host: str, extra: Iterable[Any] = ()) -> bool:
    """Serve this process's metrics (and ``extra`` collectors) at ``http://host:port/metrics``
    from a daemon thread (prometheus-client's ``start_http_server``).

    Returns True if it serves; False if ``port`` is 0 (metrics off) or cannot be bound (a warning
    is logged and the process goes on without: metrics never stop a game being played).
    """
    if port <= 0:
        return False
    log = logs.get_logger()
    try:
        start_http_server(port, addr=host, registry=exposition_registry(extra))
    except OSError as exc:
        log.warning("metrics_not_served", address=f"{host}:{port}", error=str(exc)[:200])
        return False
    log.info("metrics_serving", address=f"{host}:{port}")
    return True
