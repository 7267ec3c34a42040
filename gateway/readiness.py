"""Blueprint ``readiness``: the gateway's probes, ``GET /livez`` and ``GET /readyz``.

``GET /livez`` says this gateway process answers HTTP, and nothing more: it touches no
dependency, so a Redis or service outage never makes a liveness probe restart the gateway (a
Redis blip must not become a full outage; issue 27, "Probes"). ``GET /healthz`` says the
gateway and its Redis answer; ``GET /readyz`` says a game can be played to its end through it,
so a load balancer or Kubernetes sends it traffic, and a client that starts a stack (the users'
container fixture, ``longhouse_client.testing``) waits on it over HTTP alone. It checks:

* ``redis``: the game store answers ``PING`` (its own client, connect and read timeouts of
  :data:`gateway.clients.PROBE_TIMEOUT_S`, so a stopped Redis is a failure within half a second);
* ``decks``, ``market``, ``boards``, ``scoring`` (only with ``PORTS_MODE`` ``grpc``): the service's
  standard gRPC health check (``grpc.health.v1``, the whole server ``""``) says ``SERVING``; the four
  calls are made at once, each with a deadline of :data:`CHECK_TIMEOUT_S`;
* ``movers``: at least one bus mover's heartbeat key (:data:`services.phases.mover.HEARTBEAT`) is
  in the store;
* ``worker`` (only with ``PHASE_MODE`` ``celery``): a Celery worker answers a control ping
  through the broker.

``movers`` and ``worker`` go through Redis: while ``redis`` fails they are not tried (their
value says so), so the answer comes within about :data:`CHECK_TIMEOUT_S` whatever is down.
200 ``{"status": "ready", "checks": {name: "ok"}}`` when all pass, else 503 ``not_ready`` with
the same ``checks`` (a failing one holds its reason). Neither probe is rate-limited
(:mod:`gateway.limits`).
"""

from __future__ import annotations

from typing import Callable

from flask import Blueprint, current_app, request

from services.common.config import settings
from services.phases.mover import HEARTBEAT

from . import responses
from .clients import get_probe_redis
from .errors import error_response
from .openapi import Param, documented

bp = Blueprint("readiness", __name__)

CHECK_TIMEOUT_S = 0.8
"""Seconds the gRPC health checks (made at once) and the worker's ping may take."""
SKIPPED = "not checked: redis does not answer"
"""The value of a check that goes through Redis while the ``redis`` check fails."""
DOMAINS = {"decks": "deck", "market": "market", "boards": "board", "scoring": "score"}
"""Check name -> the domain whose service address :meth:`Settings.service_address` gives."""


def _redis() -> str:
    get_probe_redis().ping()
    return "ok"


def _movers() -> str:
    for _ in get_probe_redis().scan_iter(match=HEARTBEAT.format(name="*"), count=100):
        return "ok"
    return "no mover heartbeat in the store"


def _failure(exc: BaseException) -> str:
    """A check's value for a failure: the exception's class and text, at most 200 characters."""
    return f"{exc.__class__.__name__}: {exc}"[:200]


def grpc_health(domains: dict[str, str], timeout: float = CHECK_TIMEOUT_S) -> dict[str, str]:
    """The gRPC health of several services at once.

    Args:
        domains: check name -> domain (whose address :meth:`Settings.service_address` gives).
        timeout: seconds every call may take; the calls run together, so all of them take at most
            about this long.
    Returns:
        check name -> ``"ok"`` (``SERVING``), ``"health status <STATUS>"``, or the failure.
    """
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    channels = {name: grpc.insecure_channel(settings().service_address(domain)) for name, domain in domains.items()}
    try:
        calls = {name: health_pb2_grpc.HealthStub(channel).Check.future(
                     health_pb2.HealthCheckRequest(service=""), timeout=timeout)
                 for name, channel in channels.items()}
        results: dict[str, str] = {}
        for name, call in calls.items():
            try:
                status = call.result().status
            except grpc.RpcError as exc:
                results[name] = _failure(exc)
                continue
            results[name] = ("ok" if status == health_pb2.HealthCheckResponse.SERVING
                             else f"health status {health_pb2.HealthCheckResponse.ServingStatus.Name(status)}")
        return results
    finally:
        for channel in channels.values():
            channel.close()


def _worker() -> str:
    from services.phases.schedulers import make_celery

    app = make_celery(current_app.config["CELERY_BROKER_URL"])
    try:
        replies = app.control.ping(timeout=CHECK_TIMEOUT_S, limit=1)
    finally:
        app.close()
    return "ok" if replies else "no Celery worker answered a ping"


def checks() -> dict[str, Callable[[], str]]:
    """The checks through Redis this gateway's configuration calls for, by name, ``redis`` first
    (the gRPC services' are :func:`grpc_health`'s; see the module's list)."""
    found: dict[str, Callable[[], str]] = {"redis": _redis, "movers": _movers}
    if current_app.config["PHASE_MODE"] == "celery":
        found["worker"] = _worker
    return found


SCOPES = ("stack", "gateway")
"""``GET /readyz?scope=``: ``stack`` (the default) checks every part a game needs; ``gateway`` only
what this gateway itself serves from, Redis and the gRPC services (Kubernetes' readiness of the
gateway pods: a worker or mover rollout must not take every gateway out of its Service)."""


def run_checks(scope: str = "stack") -> dict[str, str]:
    """Run every check of ``scope`` (:data:`SCOPES`): name -> ``"ok"`` or why it failed (an
    exception's class and text), in the order of the module's list. The checks that go through
    Redis are not tried while ``redis`` fails (:data:`SKIPPED`)."""
    results: dict[str, str] = {}
    for name, check in checks().items():
        if scope == "gateway" and name != "redis":
            continue
        if name != "redis" and results["redis"] != "ok":
            results[name] = SKIPPED
            continue
        try:
            results[name] = check()
        except Exception as exc:  # any failure means "not ready", with its reason
            results[name] = _failure(exc)
        if name == "redis" and current_app.config["PORTS_MODE"] == "grpc":
            results.update(grpc_health(DOMAINS))
    return results


SCOPE_QUERY = Param("scope", "query", {"type": "string", "enum": list(SCOPES)},
                    "stack (default): every part a game needs; gateway: Redis and the gRPC services")


@bp.get("/livez")
@documented(responses={200: responses.Alive})
def livez():
    """Whether this gateway process answers HTTP: always 200 ``{"status": "alive"}``, whatever
    Redis or the services do (a liveness probe; :func:`readyz` is the readiness one)."""
    return {"status": "alive"}


@bp.get("/readyz")
@documented(responses={200: responses.Ready}, params=(SCOPE_QUERY,),
            errors={400: "bad_request (an unknown scope)",
                    503: "not_ready (the answer's checks say which part does not serve)"})
def readyz():
    """Whether every part of the stack serves: Redis, the gRPC services, a mover and a worker
    (``?scope=gateway``: Redis and the gRPC services only, :data:`SCOPES`).

    200 with every check ``ok``, else 503 ``not_ready`` with ``checks`` naming what failed;
    400 ``bad_request`` for a scope not in :data:`SCOPES`.
    """
    scope = request.args.get("scope", "stack")
    if scope not in SCOPES:
        return error_response(400, "bad_request", f"scope must be one of {', '.join(SCOPES)}, not {scope[:40]!r}")
    results = run_checks(scope)
    if all(value == "ok" for value in results.values()):
        return {"status": "ready", "checks": results}
    failing = ", ".join(name for name, value in results.items() if value != "ok")
    return error_response(503, "not_ready", f"not serving yet: {failing}", checks=results)
