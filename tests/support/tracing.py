"""Tracing on in the test process, into the OpenTelemetry SDK's in-memory exporter."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from services.common import tracing


def in_memory_tracing() -> Iterator[InMemorySpanExporter]:
    """For a module-scoped fixture: turn tracing on (:func:`services.common.tracing.configure`
    with an :class:`InMemorySpanExporter`), yield the exporter, turn tracing off again. Skips
    the module if tracing is already on (an OTLP endpoint in the environment)."""
    if tracing.enabled():
        pytest.skip("tracing is already on in this process (OTEL_EXPORTER_OTLP_ENDPOINT is set)")
    spans = InMemorySpanExporter()
    assert tracing.configure("tests", exporter=spans)
    yield spans
    tracing.shutdown()
    assert not tracing.enabled()


def finished_spans(exporter: InMemorySpanExporter, want: Callable[[list[Any]], bool],
                   timeout: float = 5.0) -> list[Any]:
    """The exporter's finished spans once ``want(spans)`` holds (a span of another thread may end
    a moment after the caller has its answer), polled every 20 ms for at most ``timeout`` seconds;
    the spans as they are then, if it never holds."""
    deadline = time.monotonic() + timeout
    while True:
        spans = list(exporter.get_finished_spans())
        if want(spans) or time.monotonic() > deadline:
            return spans
        time.sleep(0.02)


def hex_ids(traceparent: str) -> tuple[str, str]:
    """``(trace_id, parent_span_id)`` of a W3C ``traceparent`` value (``00-<32 hex>-<16 hex>-<2 hex>``)."""
    version, trace_id, span_id, _flags = traceparent.split("-")
    assert version == "00" and len(trace_id) == 32 and len(span_id) == 16, traceparent
    return trace_id, span_id
