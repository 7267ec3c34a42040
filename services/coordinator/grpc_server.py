"""Plumbing shared by the four domain services: one place, used by all of them.

:func:`serve` runs one domain's gRPC server in the current process until SIGTERM or
SIGINT:

* the service's servicer over a :class:`DomainEngine` on a Redis-backed projection
  cache (the deck service alone also gets the seed store);
* the library's health servicer (grpcio-health-checking), whose status follows Redis:
  a background thread pings Redis and sets SERVING / NOT_SERVING for the overall
  server (``""``) and the domain service (readiness); the service name
  :data:`LIVENESS_SERVICE` (``"liveness"``) is SERVING from the start and never asks Redis
  (liveness: the server's threads answer calls); at shutdown all turn NOT_SERVING for good;
* server reflection (grpcio-reflection) listing the domain service, health and
  reflection itself;
* three interceptors: :class:`MetricsInterceptor` times every call into
  ``longhouse_grpc_server_handling_seconds`` (served on the process's metrics port,
  :meth:`Settings.metrics_port <services.common.config.Settings.metrics_port>`),
  :class:`LoggingInterceptor` writes one JSON line per call
  (method, game_id, duration_ms, status, and the caller's request id) and
  :class:`ErrorInterceptor` turns the domain's exceptions into status codes
  (:func:`services.coordinator.wire.status_of`); with tracing on
  (:mod:`services.common.tracing`), OpenTelemetry's server interceptor after the metrics one,
  so each call is a span in the caller's trace;
* graceful shutdown: on SIGTERM/SIGINT, health goes NOT_SERVING, ``server.stop(grace)``
  lets calls in flight finish, and :func:`serve` returns 0.

Address and Redis come from :func:`services.common.config.settings`.
"""

from __future__ import annotations

import signal
import threading
import time
from concurrent import futures
from dataclasses import dataclass
from typing import Any, Callable

import grpc
import redis
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from services.common import logs, metrics, tracing
from services.common.config import Settings, settings as load_settings
from services.common.redis_client import connect, redact
from services.coordinator.wire import status_of

HEALTH_INTERVAL = 0.5
"""Seconds between two Redis pings of the health checker."""
LIVENESS_SERVICE = "liveness"
"""The health service name of the liveness probe (Kubernetes' ``grpc: {service: liveness}``). It
says SERVING while the server answers health calls at all, whatever Redis does, so a Redis
outage makes the services unready (``""`` and the domain's name follow Redis) but never gets
them restarted; it turns NOT_SERVING only at shutdown."""
SHUTDOWN_GRACE = 5.0
"""Seconds calls in flight get to finish after SIGTERM."""
SLOW_RPC_MS = 100.0
"""A successful call that took at least this long (milliseconds) is logged at INFO."""


# -- interceptors ---------------------------------------------------------------------
def _wrap_unary(handler: grpc.RpcMethodHandler | None,
                wrap: Callable[[Callable[[Any, Any], Any]], Callable[[Any, Any], Any]]):
    """``handler`` with its unary-unary behaviour wrapped; streaming handlers unchanged."""
    if handler is None or handler.unary_unary is None:
        return handler
    return grpc.unary_unary_rpc_method_handler(
        wrap(handler.unary_unary),
        request_deserializer=handler.request_deserializer,
        response_serializer=handler.response_serializer,
    )


def _code_name(context: Any) -> str:
    """The name of the status code ``context`` carries (``OK`` if none was set)."""
    code = context.code()
    return code.name if isinstance(code, grpc.StatusCode) else "OK"


class MetricsInterceptor(grpc.ServerInterceptor):
    """Observes every unary call's time in ``longhouse_grpc_server_handling_seconds``
    (:mod:`services.common.metrics`), labelled by the service and method of the call's full
    name (``/longhouse.v1.BoardService/ApplyBatch``) and the status code it ended with.
    Place it first (outermost), so the code is the one the client gets."""

    def __init__(self) -> None:
        self.histogram = metrics.families().grpc_latency

    def intercept_service(self, continuation, handler_call_details):
        service, _, method = handler_call_details.method.lstrip("/").rpartition("/")

        def wrap(inner):
            def timed(request, context):
                start = time.perf_counter()
                code = "UNKNOWN"
                try:
                    answer = inner(request, context)
                    code = _code_name(context)
                    return answer
                except BaseException:
                    code = _code_name(context)
                    code = "UNKNOWN" if code == "OK" else code
                    raise
                finally:
                    self.histogram.labels(service=service, method=method, code=code).observe(
                        time.perf_counter() - start)
            return timed

        return _wrap_unary(continuation(handler_call_details), wrap)


class LoggingInterceptor(grpc.ServerInterceptor):
    """Writes one structured line per unary call: method, game_id, duration_ms, status.

    The caller's request id (metadata ``x-request-id``, :data:`services.common.logs.REQUEST_ID_METADATA`)
    is the call's :data:`~services.common.logs.request_id`, so every line written while
    serving it carries it.

    Failed calls and calls slower than :data:`SLOW_RPC_MS` are written at INFO; the rest
    (a hosted game makes several calls per move, and health probes come every few
    seconds) at DEBUG, so a busy server does not spend its time writing its log.
    """

    def __init__(self) -> None:
        self.log = logs.get_logger()

    def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method
        probe = method.startswith(("/grpc.health.v1.", "/grpc.reflection."))

        def wrap(inner):
            def logged(request, context):
                start = time.perf_counter()
                status = "OK"
                rid = next((v for k, v in context.invocation_metadata() or ()
                            if k == logs.REQUEST_ID_METADATA), None)
                token = logs.request_id.set(rid[:128]) if isinstance(rid, str) else None
                try:
                    return inner(request, context)
                except BaseException:
                    code = context.code()
                    status = code.name if isinstance(code, grpc.StatusCode) else "UNKNOWN"
                    raise
                finally:
                    ms = (time.perf_counter() - start) * 1000
                    loud = not probe and (status != "OK" or ms >= SLOW_RPC_MS)
                    fields = {"method": method, "status": status, "duration_ms": round(ms, 3)}
                    game_id = getattr(request, "game_id", None)
                    if game_id is not None:
                        fields["game_id"] = game_id
                    (self.log.info if loud else self.log.debug)("rpc", **fields)
                    if token is not None:
                        logs.request_id.reset(token)
            return logged

        return _wrap_unary(continuation(handler_call_details), wrap)


class ErrorInterceptor(grpc.ServerInterceptor):
    """Maps exceptions of the domain to gRPC status codes with trailing metadata.

    RulesError -> INVALID_ARGUMENT or FAILED_PRECONDITION (error code and reason in
    the trailing metadata, reason as details); GameNotFound -> NOT_FOUND;
    VersionConflict -> ABORTED; see :mod:`services.coordinator.wire` for the full table.
    Unexpected errors are logged with their traceback and answered INTERNAL.
    """

    def __init__(self) -> None:
        self.log = logs.get_logger()

    def intercept_service(self, continuation, handler_call_details):
        method = handler_call_details.method

        def wrap(inner):
            def mapped(request, context):
                try:
                    return inner(request, context)
                except Exception as exc:  # noqa: BLE001 - every error becomes a status
                    status = status_of(exc)
                    if status.code == grpc.StatusCode.INTERNAL:
                        self.log.exception("unexpected error", method=method)
                    context.set_trailing_metadata(status.metadata)
                    context.abort(status.code, status.details)
            return mapped

        return _wrap_unary(continuation(handler_call_details), wrap)


# -- health ---------------------------------------------------------------------------
class RedisHealth:
    """Keeps the health servicer's status in step with Redis reachability.

    Args:
        servicer: the library's ``HealthServicer``.
        services: service names to set (``""`` is the whole server).
        redis_url: the store to ping.
        interval: seconds between pings.
    """

    def __init__(self, servicer: health.HealthServicer, services: list[str], redis_url: str,
                 interval: float = HEALTH_INTERVAL):
        self.servicer = servicer
        self.services = services
        self.client = connect(redis_url, socket_timeout=1.0, socket_connect_timeout=1.0)
        self.interval = interval
        self.log = logs.get_logger()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="redis-health", daemon=True)
        self._last: int | None = None

    def check(self) -> bool:
        """Ping Redis once and publish the result; True if it answered."""
        try:
            ok = bool(self.client.ping())
        except redis.RedisError:
            ok = False
        status = health_pb2.HealthCheckResponse.SERVING if ok else health_pb2.HealthCheckResponse.NOT_SERVING
        if status != self._last:
            self.log.info("health", status=health_pb2.HealthCheckResponse.ServingStatus.Name(status))
            self._last = status
        for name in self.services:
            self.servicer.set(name, status)
        return ok

    def start(self) -> None:
        """Check once now, then keep checking in a background thread."""
        self.check()
        self._thread.start()

    def stop(self) -> None:
        """Stop checking and turn NOT_SERVING for good (the library ignores later sets)."""
        self._stop.set()
        self.servicer.enter_graceful_shutdown()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.check()


# -- the server -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ServiceSpec:
    """One domain service as the shared server needs it.

    Attributes:
        domain: ``deck``, ``market``, ``board`` or ``score``.
        process: the process name used in logs (``decks``, ``market``, ...).
        full_name: the service's full protobuf name, e.g. ``longhouse.v1.BoardService``.
        add: the generated ``add_<Service>Servicer_to_server`` function.
        servicer: builds the servicer from the domain engine.
    """

    domain: str
    process: str
    full_name: str
    add: Callable[[Any, grpc.Server], None]
    servicer: Callable[[Any], Any]

    @classmethod
    def of(cls, domain: str, process: str, pb2: Any, pb2_grpc: Any, service: str,
           servicer: Callable[[Any], Any]) -> "ServiceSpec":
        """The spec of generated service ``service`` (e.g. ``"BoardService"``) of ``pb2``/``pb2_grpc``."""
        return cls(domain, process, pb2.DESCRIPTOR.services_by_name[service].full_name,
                   getattr(pb2_grpc, f"add_{service}Servicer_to_server"), servicer)


def build_engine(domain: str, redis_url: str) -> Any:
    """A :class:`DomainEngine` for ``domain`` over Redis (the deck one also gets the seeds)."""
    from services.coordinator.ports import DomainEngine
    from services.coordinator.projection import Projections
    from services.coordinator.redis_store import RedisSeeds, RedisStore

    client = connect(redis_url, socket_timeout=5.0, socket_connect_timeout=2.0)
    seeds = RedisSeeds(client) if domain == "deck" else None
    return DomainEngine(domain, Projections(RedisStore(client)), seeds)


def build_server(spec: ServiceSpec, cfg: Settings, max_workers: int = 16) -> tuple[grpc.Server, RedisHealth, str]:
    """The server of ``spec`` bound to its configured address, not started yet.

    Returns ``(server, health_checker, address)``. Raises RuntimeError if the address
    cannot be bound.
    """
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix=spec.process),
                         interceptors=[MetricsInterceptor(), *tracing.server_interceptors(), LoggingInterceptor(), ErrorInterceptor()])
    spec.add(spec.servicer(build_engine(spec.domain, cfg.redis_url)), server)
    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    for name in ("", spec.full_name):  # the library starts the server SERVING: not before Redis answers
        health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
    health_servicer.set(LIVENESS_SERVICE, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (spec.full_name, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
    address = cfg.bind_address(spec.domain)
    if server.add_insecure_port(address) == 0:
        raise RuntimeError(f"cannot bind {address}")
    checker = RedisHealth(health_servicer, ["", spec.full_name], cfg.redis_url)
    return server, checker, address


def serve(spec: ServiceSpec, cfg: Settings | None = None, grace: float = SHUTDOWN_GRACE) -> int:
    """Run ``spec``'s server until SIGTERM or SIGINT; returns the exit status (0).

    Must be called from the main thread (it installs the signal handlers).
    """
    cfg = cfg or load_settings()
    logs.configure(spec.process)
    tracing.configure(spec.process)  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
    log = logs.get_logger()
    server, checker, address = build_server(spec, cfg)
    from services.rules.core.game import warm_up

    warm_up()  # before health says SERVING: the first game's first call pays no imports

    def shutdown(signum: int, _frame: Any) -> None:
        log.info("stopping", signal=signal.Signals(signum).name, grace_s=grace)
        checker.stop()
        server.stop(grace)

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    server.start()
    # Log before health can say SERVING: a client that stops us as soon as it sees
    # SERVING must find "serving" before "stopping" in the log.
    log.info("serving", grpc_service=spec.full_name, address=address, redis=redact(cfg.redis_url))
    metrics.serve(cfg.metrics_port(spec.process), cfg.metrics_host)
    checker.start()
    server.wait_for_termination()
    log.info("stopped")
    return 0
