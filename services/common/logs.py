"""Structured logging for every Longhouse process: one JSON object per line on stderr.

Call :func:`configure` once at process start (servers, workers, the gateway); then
``structlog.get_logger()`` anywhere gives a logger whose lines carry ``timestamp``
(ISO 8601, UTC), ``level``, ``service`` and ``event`` plus the call's own keys. Records
from the standard library's ``logging`` (grpc, redis, celery) go through the same
renderer, so a process never mixes formats.

A line written while a request is served also carries ``request_id`` (:data:`request_id`: the
gateway's ``X-Request-ID``, passed on to the domain services in the calls' metadata and to the
Celery tasks in their headers), and, while a span is current (tracing on,
:mod:`services.common.tracing`), ``trace_id`` and ``span_id`` in hex.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from contextvars import ContextVar
from typing import Any

import structlog

from services.common.tracing import current_ids

_lock = threading.Lock()
_configured: str | None = None

request_id: ContextVar[str | None] = ContextVar("longhouse_request_id", default=None)
REQUEST_ID_HEADER = "longhouse_request_id"
"""The Celery message header that carries the request id from the process that queues a task to
the worker that runs it (which binds it to :data:`request_id` while the task runs)."""
"""The id of the request being served (the gateway's ``X-Request-ID``), ``None`` outside one;
set it with ``request_id.set(...)`` and reset it with the token when the request ends."""

REQUEST_ID_METADATA = "x-request-id"
"""The gRPC metadata key (and, in Celery, the message header ``longhouse_request_id``) the
request id travels in."""


def _add_request(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """Adds ``request_id`` (when one is set) and ``trace_id``/``span_id`` (when a span is current)."""
    rid = request_id.get()
    if rid is not None:
        event.setdefault("request_id", rid)
    ids = current_ids()
    if ids is not None:
        event.setdefault("trace_id", ids[0])
        event.setdefault("span_id", ids[1])
    return event


def _service_adder(service: str):
    def add_service(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
        event.setdefault("service", service)
        return event

    return add_service


def configure(service: str, level: str | None = None) -> None:
    """Set up JSON logging for the process; idempotent (the first call wins).

    Args:
        service: the process's name, written into every line (``"decks"``, ``"gateway"``).
        level: lowest level written (``"DEBUG"``, ``"INFO"``, ...); default
            ``LONGHOUSE_LOG_LEVEL`` or ``"INFO"``.
    """
    level = level or os.environ.get("LONGHOUSE_LOG_LEVEL", "INFO")
    global _configured
    with _lock:
        if _configured is not None:
            return
        _configured = service
        shared = [
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _service_adder(service),
            _add_request,
        ]
        structlog.configure(
            processors=[*shared, structlog.processors.format_exc_info,
                        structlog.processors.JSONRenderer(sort_keys=True)],
            wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
            # one write a line (message and newline together): the gateway's worker processes share
            # one log file, and two writes a line (print's) could interleave their lines
            logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
            cache_logger_on_first_use=True,
        )
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                        structlog.processors.format_exc_info,
                        structlog.processors.JSONRenderer(sort_keys=True)],
        ))
        root = logging.getLogger()
        root.handlers[:] = [handler]
        root.setLevel(level.upper())


def get_logger(**bound: Any) -> Any:
    """A structlog logger with ``bound`` keys on every line."""
    return structlog.get_logger(**bound)
