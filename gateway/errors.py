"""JSON errors of the gateway: every 4xx/5xx answer is ``{"error": code, "reason": text,
"request_id": id}`` (the request's id, :mod:`gateway.request_ids`, also in its ``X-Request-ID``).

Domain exceptions map to statuses here, once, so the views stay short:

| exception | status | code |
|---|---|---|
| :class:`ApiError` | its own | its own |
| ``GameNotFound`` | 404 | ``game_not_found`` |
| ``StaleVersion`` | 409 | ``stale_version`` (plus ``"version"``: the current one) |
| ``NotYourTurn`` | 409 | ``not_your_turn`` |
| ``MoveIdReused`` | 409 | ``move_id_reused`` (same move id, different move or version) |
| ``IllegalMove`` / ``MalformedMove`` | 422 | ``illegal_move`` / ``malformed_move`` |
| ``UnknownGame`` / ``BadConfig`` | 422 | ``unknown_game`` / ``bad_config`` |
| ``AddressRefused`` (an agent address) | 403 / 400 | ``address_not_allowed`` / ``bad_address`` |
| any ``HTTPException`` (404 route, 405, 413, ...) | its own | snake-case name |
| ``redis.RedisError`` / ``DomainCallFailed`` | 503 | ``unavailable`` |
| ``UnsealError`` (a stored secret the configured keys cannot open) | 503 | ``secret_keys_mismatch`` |
| a Redis Cluster out of reach (the rate limits' own client) | 503 | ``unavailable`` |
"""

from __future__ import annotations

from typing import Any

import redis
from flask import Flask, jsonify
from redis.exceptions import RedisClusterException
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from services.agents.addresses import AddressRefused
from services.common import logs
from services.common.sealing import UnsealError
from services.coordinator.wire import DomainCallFailed
from services.coordinator.store import GameNotFound
from services.coordinator.table import MoveIdReused, StaleVersion
from services.rules.core import NotYourTurn, RulesError

from . import request_ids

log = logs.get_logger()


class ApiError(Exception):
    """An error answer chosen by a view.

    Args:
        status: HTTP status (4xx).
        code: machine-readable error code, e.g. ``"unknown_token"``.
        reason: one sentence for a person.
        extra: more JSON fields for the body.
    """

    def __init__(self, status: int, code: str, reason: str, **extra: Any):
        super().__init__(reason)
        self.status = status
        self.code = code
        self.reason = reason
        self.extra = extra


def error_response(status: int, code: str, reason: str, **extra: Any):
    """A Flask response ``(json, status)`` with ``{"error", "reason", **extra, "request_id"}``
    (the request's id; left out only outside a request)."""
    body = {"error": code, "reason": reason, **extra}
    rid = request_ids.current()
    if rid is not None:
        body["request_id"] = rid
    return jsonify(body), status


def register_error_handlers(app: Flask) -> None:
    """Install the JSON handlers listed in the module docstring on ``app``."""

    @app.errorhandler(ApiError)
    def _api(exc: ApiError):
        return error_response(exc.status, exc.code, exc.reason, **exc.extra)

    @app.errorhandler(GameNotFound)
    def _no_game(exc: GameNotFound):
        return error_response(404, "game_not_found", str(exc))

    @app.errorhandler(StaleVersion)
    def _stale(exc: StaleVersion):
        return error_response(409, "stale_version", str(exc), version=exc.actual)

    @app.errorhandler(MoveIdReused)
    def _reused(exc: MoveIdReused):
        return error_response(409, "move_id_reused", str(exc))

    @app.errorhandler(RulesError)
    def _rules(exc: RulesError):
        status = 409 if isinstance(exc, NotYourTurn) else 422
        return error_response(status, exc.code, exc.reason)

    @app.errorhandler(UnsealError)
    def _unsealed(exc: UnsealError):
        log.error("secret_keys_mismatch", error=str(exc)[:200])
        return error_response(503, "secret_keys_mismatch",
                              "a stored secret cannot be opened with the configured LONGHOUSE_SECRET_KEYS "
                              "(README, Rotating the secret key)")

    @app.errorhandler(AddressRefused)
    def _address(exc: AddressRefused):
        return error_response(403 if exc.code == "address_not_allowed" else 400, exc.code, exc.reason)

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(exc: RequestEntityTooLarge):
        limit = app.config.get("MAX_CONTENT_LENGTH")
        return error_response(413, "body_too_large", f"the request body is larger than {limit} bytes")

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = (exc.name or "error").lower().replace(" ", "_").replace("'", "")
        resp = error_response(exc.code or 500, code, exc.description or code)
        if exc.code == 405 and getattr(exc, "valid_methods", None):
            resp[0].headers["Allow"] = ", ".join(exc.valid_methods)
        return resp

    @app.errorhandler(redis.RedisError)
    def _store_down(exc: redis.RedisError):
        log.warning("store unavailable", error=exc.__class__.__name__)
        return error_response(503, "unavailable", "the game store is unavailable; retry shortly")

    @app.errorhandler(RedisClusterException)
    def _cluster_down(exc: RedisClusterException):
        # The game store's client raises ConnectionError for an outage (services.common.redis_client);
        # the rate limits' own cluster client (gateway.limits) raises this. Anything else is a fault of ours: a 500.
        from services.common.redis_client import unreachable

        return _store_down(exc) if unreachable(exc) else _internal(exc)

    @app.errorhandler(DomainCallFailed)
    def _service_down(exc: DomainCallFailed):
        log.warning("domain service unavailable", error=str(exc))
        return error_response(503, "unavailable", "a game service is unavailable; retry shortly")

    @app.errorhandler(Exception)
    def _internal(exc: Exception):
        log.exception("unhandled error")
        return error_response(500, "internal_error", "the server failed to answer this request")
