"""The gateway's app factory.

``create_app(config)`` builds a Flask app with the blueprints ``games``, ``catalog``
(``GET /catalog``), ``listing``
(``GET /games``), ``seats``, ``moves``, ``stream``, ``agents``, ``tournaments``, ``openapi``,
``apidocs`` (``GET /docs``, the rendered API reference), ``readiness`` (the probes ``GET /livez``
and ``GET /readyz``), ``metrics`` (``GET /metrics``, Prometheus; :mod:`gateway.metrics`) and ``web``
(the pages for people, :mod:`gateway.web`, whose scripts and styles are the app's static files at
``/static/``) plus ``GET /healthz``. Every request has an id (:mod:`gateway.request_ids`) and, with
tracing on (``OTEL_EXPORTER_OTLP_ENDPOINT``, :mod:`services.common.tracing`), a span.
Configuration (each key may be given in
``config``; the defaults come from the ``LONGHOUSE_*`` settings):

* ``REDIS_URL``: the game store;
* ``PORTS_MODE``: ``"embedded"`` or ``"grpc"``; ``PHASE_MODE``: ``"celery"`` or ``"inline"``;
* ``CELERY_BROKER_URL``: where phase tasks go;
* ``MAX_CONTENT_LENGTH``: largest request body (64 KiB);
* ``SSE_KEEPALIVE_SECONDS`` (15) and ``WAIT_MAX_SECONDS`` (30);
* ``REDIS_TIMEOUT_SECONDS`` (5): how long a store command may wait for Redis before the request
  is a 503 (the blocking reads of ``/wait`` and the streams excepted);
* ``PHASE_NUDGE_SECONDS`` (30): how often a ``/wait`` that times out on a game stuck
  in a phase may queue that phase again;
* ``RATE_LIMITS``, ``RATE_LIMIT_<CATEGORY>_<TOKEN|ADDRESS>``, ``RATE_LIMIT_EXEMPT``,
  ``TRUSTED_PROXIES`` and ``QUOTA_GAMES_IN_PLAY``: rate limits and the games-in-play quota
  (:mod:`gateway.limits`);
* ``OPERATOR_KEYS`` (a list of sha256 hex digests, or one string of them separated by commas)
  and ``OPERATOR_KEYS_FILE`` (a file of digests, read again when it changes): the operator keys
  accepted (:mod:`gateway.operators`). With neither, every operator request is refused.

Serve with ``gunicorn -k gevent --worker-connections 4096 -b 127.0.0.1:$PORT
'gateway.app:create_app()'`` (what the launcher runs): each request is a greenlet, so SSE
streams and ``/wait`` long-polls, which mostly wait on Redis, hold no thread that
``/healthz``, game creation or moves need (issue: reliability, fault 1). Under gevent,
:func:`create_app` switches gRPC to gevent's event loop too.
"""

from __future__ import annotations

import time
from typing import Any

import redis
from flask import Flask, g, request

from services.common import logs, tracing
from services.common.config import settings

from . import agents, apidocs, catalog, games, limits, moves, openapi, operators, readiness, seats, stream
from . import listing, metrics, tournaments, web
from . import request_ids
from .clients import get_probe_redis, init_clients
from .errors import error_response, register_error_handlers
from .json_provider import OrjsonProvider


def default_config() -> dict[str, Any]:
    """The configuration taken from the process's settings."""
    s = settings()
    return {
        "REDIS_URL": s.redis_url,
        "PORTS_MODE": s.ports_mode,
        "PHASE_MODE": s.phase_mode,
        "CELERY_BROKER_URL": s.celery_broker_url,
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "SSE_KEEPALIVE_SECONDS": 15,
        "WAIT_MAX_SECONDS": 30,
        "PHASE_NUDGE_SECONDS": 30,
        "JSON_SORT_KEYS": False,
        "OPERATOR_KEYS": [d for d in (part.strip() for part in s.operator_keys.split(",")) if d],
        "OPERATOR_KEYS_FILE": s.operator_keys_file or None,
        **limits.default_config(),
    }


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the gateway app.

    Args:
        config: overrides of :func:`default_config` (and any Flask setting, e.g. ``TESTING``).
    Returns:
        the app; no connection is opened until the first request needs one.
    Raises:
        ValueError: an unknown ``PORTS_MODE`` or ``PHASE_MODE``; a malformed operator key digest.
    """
    app = Flask(__name__, static_folder="web/static")  # /static/...: the pages' scripts, styles, drawings
    app.config.update(default_config())
    app.config.update(config or {})
    if app.config["PORTS_MODE"] not in ("embedded", "grpc"):
        raise ValueError(f"PORTS_MODE must be 'embedded' or 'grpc', not {app.config['PORTS_MODE']!r}")
    if app.config["PHASE_MODE"] not in ("celery", "inline"):
        raise ValueError(f"PHASE_MODE must be 'celery' or 'inline', not {app.config['PHASE_MODE']!r}")
    app.json = OrjsonProvider(app)  # answers encoded by orjson, keys sorted (gateway.json_provider)
    logs.configure("gateway")
    tracing.configure("gateway")  # off unless OTEL_EXPORTER_OTLP_ENDPOINT is set
    _cooperate_with_gevent()
    from services.rules.core.game import warm_up

    warm_up()  # every game loads now, not in the first request
    tracing.instrument_flask(app)
    request_ids.init_request_ids(app)  # first of the hooks: every line and answer has the id
    _log_requests(app)
    metrics.init_metrics(app)
    init_clients(app)
    operators.init_operators(app)  # before the limits: the quota is kept per operator key
    limits.init_limits(app)  # before other checks: a refused flood costs one counter
    register_error_handlers(app)
    for module in (games, catalog, listing, seats, moves, stream, agents, tournaments, openapi, apidocs, readiness,
                   web, metrics):
        app.register_blueprint(module.bp)

    @app.get("/healthz")
    def healthz():
        """200 ``{"status": "ok"}`` if Redis answers a PING within half a second, else 503."""
        try:
            get_probe_redis().ping()
        except (redis.RedisError, OSError) as exc:
            return error_response(503, "unavailable", f"redis does not answer: {exc.__class__.__name__}")
        return {"status": "ok"}

    return app


def _cooperate_with_gevent() -> None:
    """If gevent has patched this process (gunicorn's ``gevent`` worker), make gRPC's
    channels yield to the event loop too (gRPC's documented gevent support); otherwise a
    call to a domain service would block every greenlet of the worker until it returns.
    A no-op in a threaded or plain process."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return
    if monkey.is_module_patched("socket"):
        from grpc.experimental import gevent as grpc_gevent

        grpc_gevent.init_gevent()


PROBE_PATHS = frozenset({"/healthz", "/livez", "/readyz"})
"""Paths probed every few seconds: their request lines are logged at DEBUG only."""


def _log_requests(app: Flask) -> None:
    """One structured line per request: method, path, status, duration_ms, game_id.

    Never logs bodies, tokens or query strings (they may carry a seat token).
    """
    log = logs.get_logger()

    @app.before_request
    def _start():
        g.started = time.perf_counter()

    @app.after_request
    def _done(response):
        fields = {"method": request.method, "path": request.path, "status": response.status_code,
                  "duration_ms": round((time.perf_counter() - g.get("started", time.perf_counter())) * 1000, 3)}
        game_id = (request.view_args or {}).get("game_id")
        if game_id:
            fields["game_id"] = game_id
        (log.info if request.path not in PROBE_PATHS else log.debug)("http", **fields)
        return response
