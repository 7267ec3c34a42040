"""Blueprint ``readiness``: ``GET /readyz``, whether the whole stack behind the gateway serves.

``GET /healthz`` says the gateway and its Redis answer; ``GET /readyz`` says a game can be played
to its end through it, so a client that starts a stack (the users' container fixture,
``longhouse_client.testing``) waits on it over HTTP alone. It checks, each with a short timeout:

* ``redis``: the game store answers ``PING``;
* ``decks``, ``market``, ``boards``, ``scoring`` (only with ``PORTS_MODE`` ``grpc``): the service's
  standard gRPC health check (``grpc.health.v1``) says ``SERVING``;
* ``movers``: at least one bus mover's heartbeat key (:data:`services.phases.mover.HEARTBEAT`) is
  in the store;
* ``worker`` (only with ``PHASE_MODE`` ``celery``): a Celery worker answers a control ping
  through the broker.

200 ``{"status": "ready", "checks": {name: "ok"}}`` when all pass, else 503 ``not_ready`` with
the same ``checks`` (a failing one holds its reason). Never rate-limited (:mod:`gateway.limits`).
"""

from __future__ import annotations

from typing import Callable

from flask import Blueprint, current_app

from services.common.config import settings
from services.phases.mover import HEARTBEAT

from . import responses
from .clients import get_redis
from .errors import error_response
from .openapi import documented

bp = Blueprint("readiness", __name__)

CHECK_TIMEOUT_S = 1.0
"""Seconds each gRPC health check and the worker's ping may take."""
DOMAINS = {"decks": "deck", "market": "market", "boards": "board", "scoring": "score"}
"""Check name -> the domain whose service address :meth:`Settings.service_address` gives."""


def _redis() -> str:
    get_redis().ping()
    return "ok"


def _movers() -> str:
    for _ in get_redis().scan_iter(match=HEARTBEAT.format(name="*"), count=100):
        return "ok"
    return "no mover heartbeat in the store"


def _grpc(domain: str) -> Callable[[], str]:
    def check() -> str:
        import grpc
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        with grpc.insecure_channel(settings().service_address(domain)) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=""),
                                                              timeout=CHECK_TIMEOUT_S)
        if reply.status != health_pb2.HealthCheckResponse.SERVING:
            return f"health status {health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)}"
        return "ok"

    return check


def _worker() -> str:
    from services.phases.schedulers import make_celery

    app = make_celery(current_app.config["CELERY_BROKER_URL"])
    try:
        replies = app.control.ping(timeout=CHECK_TIMEOUT_S, limit=1)
    finally:
        app.close()
    return "ok" if replies else "no Celery worker answered a ping"


def checks() -> dict[str, Callable[[], str]]:
    """The checks this gateway's configuration calls for, by name (see the module's list)."""
    found: dict[str, Callable[[], str]] = {"redis": _redis}
    if current_app.config["PORTS_MODE"] == "grpc":
        found.update({name: _grpc(domain) for name, domain in DOMAINS.items()})
    found["movers"] = _movers
    if current_app.config["PHASE_MODE"] == "celery":
        found["worker"] = _worker
    return found


def run_checks() -> dict[str, str]:
    """Run every check: name -> ``"ok"`` or why it failed (an exception's class and text)."""
    results: dict[str, str] = {}
    for name, check in checks().items():
        try:
            results[name] = check()
        except Exception as exc:  # any failure means "not ready", with its reason
            results[name] = f"{exc.__class__.__name__}: {exc}"[:200]
    return results


@bp.get("/readyz")
@documented(responses={200: responses.Ready},
            errors={503: "not_ready (the answer's checks say which part does not serve)"})
def readyz():
    """Whether every part of the stack serves: Redis, the gRPC services, a mover and a worker.

    200 with every check ``ok``, else 503 ``not_ready`` with ``checks`` naming what failed.
    """
    results = run_checks()
    if all(value == "ok" for value in results.values()):
        return {"status": "ready", "checks": results}
    failing = ", ".join(name for name, value in results.items() if value != "ok")
    return error_response(503, "not_ready", f"not serving yet: {failing}", checks=results)
