"""Traces of every Longhouse process (OpenTelemetry), off unless the environment turns them on.

A process calls :func:`configure` once at start (the gateway, each gRPC service, the Celery
worker, each mover). With ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) set and ``OTEL_SDK_DISABLED`` not ``true``, it builds a
``TracerProvider`` whose spans go in batches to that endpoint by OTLP over gRPC (the exporter
reads the standard ``OTEL_EXPORTER_OTLP_*`` variables itself: headers, timeout, insecure...).
The service name is ``longhouse-<process>`` unless ``OTEL_SERVICE_NAME`` says otherwise. With
nothing configured nothing is built: every helper here returns its input unchanged or an empty
carrier, and the OpenTelemetry API stays the no-op one (no instrumentation is installed).
Unless ``OTEL_TRACES_SAMPLER`` chooses a sampler, every trace is kept but those that would
begin with a call out (a Redis command no request, task or round is behind: idle polling).

Trace context travels as W3C trace context (``traceparent``, ``tracestate``, the OpenTelemetry
API's default propagator):

* into the gateway, from a client that sends ``traceparent`` (Flask instrumentation,
  :func:`instrument_flask`);
* gateway, worker and movers -> domain services: the gRPC client interceptor puts it in the
  call's metadata, the server interceptor continues it (:func:`intercept_channel`,
  :func:`server_interceptors`);
* a Celery task: in the task message's headers (:func:`celery_headers` on the sending side,
  :func:`instrument_celery_worker` on the worker's);
* a game queued on the movers' ready list: in a hash beside the list (the mover's round span
  links to it; :mod:`services.phases.schedulers`, :mod:`services.phases.mover`);
* an agent call: the ``traceparent`` header of the webhook POST, or the metadata of the gRPC
  call (:mod:`services.agents.client`, with :func:`span` and :func:`carrier`).

Redis commands become spans too (the Redis instrumentation), so a trace shows the store's part.

Sources: the OpenTelemetry Python SDK and its instrumentation packages
(opentelemetry-python, opentelemetry-python-contrib); the W3C Trace Context recommendation.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any, Iterator, Mapping

from opentelemetry import context as otel_context
from opentelemetry import propagate, trace

ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
"""Either of these (non-empty) turns tracing on (the OpenTelemetry exporter's own variables)."""

SpanKind = trace.SpanKind
"""The API's span kinds (CLIENT, PRODUCER, ...), for :func:`span`'s callers."""

TRACER_NAME = "longhouse"
"""The instrumentation scope of Longhouse's own spans."""

_lock = threading.Lock()
_provider: Any = None  # the SDK TracerProvider while tracing is on, else None
_tracer: trace.Tracer = trace.NoOpTracer()
_task_spans: dict[str, tuple[Any, object]] = {}  # Celery task id -> (span, context token)


def wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``environ`` (default: the process's) asks for traces: an OTLP endpoint is set
    and the SDK is not disabled (``OTEL_SDK_DISABLED=true``)."""
    env = os.environ if environ is None else environ
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return any(env.get(name, "").strip() for name in ENDPOINT_VARIABLES)


def enabled() -> bool:
    """Whether this process records spans (:func:`configure` turned tracing on)."""
    return _provider is not None


def configure(service: str, exporter: Any = None) -> bool:
    """Turn tracing on for this process if the environment asks for it (module docstring).

    Idempotent: once tracing is on, later calls change nothing.

    Args:
        service: the process's name (``"gateway"``, ``"decks"``, ``"worker"``, ``"mover"``);
            the service name is ``longhouse-<service>`` unless ``OTEL_SERVICE_NAME`` is set.
        exporter: a span exporter to use instead of OTLP (tests pass the SDK's
            ``InMemorySpanExporter``); spans then go to it one by one, as they end, and
            tracing is on whatever the environment says.
    Returns:
        True if tracing is on after the call.
    Raises:
        nothing for a bad endpoint: the exporter reports failed exports in the log.
    """
    global _provider, _tracer
    with _lock:
        if _provider is not None:
            return True
        if exporter is None and not wanted():
            return False
        from opentelemetry.sdk.resources import SERVICE_NAME, Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

        attributes = {} if os.environ.get("OTEL_SERVICE_NAME") else {SERVICE_NAME: f"longhouse-{service}"}
        sampler = None if os.environ.get("OTEL_TRACES_SAMPLER") else _sampler()  # None: the variable's
        provider = TracerProvider(resource=Resource.create(attributes), sampler=sampler)
        if exporter is None:
            from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        else:
            provider.add_span_processor(SimpleSpanProcessor(exporter))
        trace.set_tracer_provider(provider)  # for libraries that ask the global API (first set wins)
        from opentelemetry.instrumentation.redis import RedisInstrumentor

        RedisInstrumentor().instrument(tracer_provider=provider)
        _provider = provider
        _tracer = provider.get_tracer(TRACER_NAME)
        return True


def _sampler() -> Any:
    """The default sampler: a span with a parent follows its parent's decision (ParentBased); a
    root span is kept, except a CLIENT one (a Redis command, a call out) that no request, task or
    round is behind: a mover's idle ``BRPOP``, a heartbeat, the broker's own polling would
    otherwise each be a trace of their own, several a second."""
    from opentelemetry.sdk.trace.sampling import ALWAYS_ON, Decision, ParentBased, Sampler, SamplingResult

    class KeepRootsButIdleCalls(Sampler):
        def should_sample(self, parent_context, trace_id, name, kind=None, attributes=None, links=None,
                          trace_state=None):
            if kind == trace.SpanKind.CLIENT:
                return SamplingResult(Decision.DROP)
            return ALWAYS_ON.should_sample(parent_context, trace_id, name, kind, attributes, links, trace_state)

        def get_description(self) -> str:
            return "KeepRootsButIdleCalls"

    return ParentBased(root=KeepRootsButIdleCalls())


def shutdown() -> None:
    """Export what is buffered and turn tracing off (tests; a process at exit). Objects
    instrumented before keep their hooks, which then record into a stopped provider."""
    global _provider, _tracer
    with _lock:
        provider, _provider, _tracer = _provider, None, trace.NoOpTracer()
        if provider is None:
            return
        from opentelemetry.instrumentation.redis import RedisInstrumentor

        RedisInstrumentor().uninstrument()
        provider.shutdown()


def tracer() -> trace.Tracer:
    """Longhouse's tracer: the configured provider's, or the API's no-op tracer."""
    return _tracer


@contextlib.contextmanager
def span(name: str, kind: trace.SpanKind = trace.SpanKind.INTERNAL, context: Any = None,
         links: list[trace.Link] | None = None, **attributes: Any) -> Iterator[Any]:
    """A span of Longhouse's own around a block (a no-op when tracing is off).

    Args:
        name: the span's name, e.g. ``"agent move"``.
        kind: its kind (CLIENT for a call out, PRODUCER for a task sent, ...).
        context: the parent's context (default: the current one).
        links: spans this one follows from without being their child (a mover's round).
        attributes: span attributes (``None`` values are left out).
    Yields:
        the span (a non-recording one when tracing is off).
    """
    if _provider is None:
        yield trace.INVALID_SPAN
        return
    attrs = {k.replace("__", "."): v for k, v in attributes.items() if v is not None}
    with _tracer.start_as_current_span(name, context=context, kind=kind, links=links, attributes=attrs) as current:
        yield current


def open_span(name: str, kind: trace.SpanKind = trace.SpanKind.CLIENT,
              **attributes: Any) -> tuple[Any, dict[str, str]]:
    """A span begun now and ended by the caller, maybe in another thread (``span.end()``), for a
    call whose answer arrives in a callback; a child of the current span. Returns the span (a
    non-recording one when tracing is off) and its context as the W3C headers to send with the
    call (empty when off). Attributes as :func:`span`."""
    if _provider is None:
        return trace.INVALID_SPAN, {}
    attrs = {k.replace("__", "."): v for k, v in attributes.items() if v is not None}
    opened = _tracer.start_span(name, kind=kind, attributes=attrs)
    out: dict[str, str] = {}
    propagate.inject(out, context=trace.set_span_in_context(opened))
    return opened, out


def carrier() -> dict[str, str]:
    """The current trace context as W3C headers (``traceparent``, maybe ``tracestate``), to send
    along with a call or a message; empty when tracing is off or no span is current."""
    if _provider is None:
        return {}
    out: dict[str, str] = {}
    propagate.inject(out)
    return out


def context_from(headers: Mapping[str, Any] | None) -> Any:
    """The context a received :func:`carrier` names (``None`` if it names none)."""
    if not headers or _provider is None:
        return None
    ctx = propagate.extract({k: v for k, v in headers.items() if isinstance(v, str)})
    return ctx if trace.get_current_span(ctx).get_span_context().is_valid else None


def link_to(headers: Mapping[str, Any] | None) -> trace.Link | None:
    """A span link to the span a received :func:`carrier` names (``None`` if none)."""
    ctx = context_from(headers)
    return trace.Link(trace.get_current_span(ctx).get_span_context()) if ctx is not None else None


def annotate(**attributes: Any) -> None:
    """Set attributes on the current span if it records (``a__b`` names attribute ``a.b``)."""
    current = trace.get_current_span()
    if current.is_recording():
        current.set_attributes({k.replace("__", "."): v for k, v in attributes.items() if v is not None})


def current_ids() -> tuple[str, str] | None:
    """``(trace_id, span_id)`` of the current span in hex (32 and 16 digits), or ``None``
    when no valid span is current (tracing off, or outside any span)."""
    ctx = trace.get_current_span().get_span_context()
    if not ctx.is_valid:
        return None
    return trace.format_trace_id(ctx.trace_id), trace.format_span_id(ctx.span_id)


# -- Flask and gRPC ------------------------------------------------------------------------

UNTRACED_PATHS = "healthz,livez,readyz,metrics"
"""Gateway routes whose requests make no span (probes and scrapes; regexes, comma-separated)."""


def instrument_flask(app: Any) -> None:
    """Trace every request of ``app`` except the probes (:data:`UNTRACED_PATHS`); the client's
    ``traceparent`` is continued. A no-op when tracing is off."""
    if _provider is None:
        return
    from opentelemetry.instrumentation.flask import FlaskInstrumentor

    FlaskInstrumentor.instrument_app(app, tracer_provider=_provider, excluded_urls=UNTRACED_PATHS)


def intercept_channel(channel: Any) -> Any:
    """``channel`` with the OpenTelemetry client interceptor (a span per call, the context in
    the metadata), or ``channel`` itself when tracing is off."""
    if _provider is None:
        return channel
    from opentelemetry.instrumentation.grpc import client_interceptor
    from opentelemetry.instrumentation.grpc.grpcext import intercept_channel as otel_intercept_channel

    return otel_intercept_channel(channel, client_interceptor(tracer_provider=_provider))


def server_interceptors() -> list[Any]:
    """The OpenTelemetry server interceptor (a span per call but health checks and
    reflection, continuing the caller's context), as a list to put first; empty when off."""
    if _provider is None:
        return []
    from opentelemetry.instrumentation.grpc import filters, server_interceptor

    probes = filters.any_of(filters.service_prefix("grpc.health."), filters.service_prefix("grpc.reflection."))
    return [server_interceptor(tracer_provider=_provider, filter_=filters.negate(probes))]


# -- Celery --------------------------------------------------------------------------------

CELERY_HEADERS = ("traceparent", "tracestate")
"""The message headers a task's trace context travels in."""


def celery_headers() -> dict[str, str] | None:
    """Headers to send with a Celery task (``send_task(..., headers=...)``): the current trace
    context, or ``None`` when there is none to send."""
    return carrier() or None


def instrument_celery_worker() -> None:
    """Give each task the worker runs a CONSUMER span continuing its message's trace context
    (:func:`celery_headers`); a no-op when tracing is off. Own signal handlers rather than
    opentelemetry-instrumentation-celery: its publishing hook ends no span and detaches no
    context for a task sent by name (``send_task``), which is how Longhouse sends every task."""
    if _provider is None:
        return
    from celery import signals

    signals.task_prerun.connect(_task_started, weak=False, dispatch_uid="longhouse.tracing.prerun")
    signals.task_postrun.connect(_task_finished, weak=False, dispatch_uid="longhouse.tracing.postrun")


def _task_started(task_id: str | None = None, task: Any = None, **_kwargs: Any) -> None:
    if task is None or task_id is None or _provider is None:
        return
    request = task.request
    headers = getattr(request, "headers", None) or {}
    found = {k: getattr(request, k, None) or headers.get(k) for k in CELERY_HEADERS}
    parent = context_from({k: v for k, v in found.items() if v})
    current = _tracer.start_span(f"run {task.name}", context=parent, kind=trace.SpanKind.CONSUMER,
                                 attributes={"messaging.system": "celery", "messaging.message.id": task_id,
                                             "celery.task_name": task.name})
    token = otel_context.attach(trace.set_span_in_context(current, parent))
    _task_spans[task_id] = (current, token)


def _task_finished(task_id: str | None = None, state: str | None = None, **_kwargs: Any) -> None:
    found = _task_spans.pop(task_id, None) if task_id is not None else None
    if found is None:
        return
    current, token = found
    if state and state != "SUCCESS":
        current.set_attribute("celery.state", state)
        if state == "FAILURE":
            current.set_status(trace.Status(trace.StatusCode.ERROR))
    otel_context.detach(token)
    current.end()
