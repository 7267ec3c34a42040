"""Seat tokens: who holds which seat of a game.

Claiming a seat issues a bearer token ``"<game_id>.<secrets.token_urlsafe(32)>"``
(clients treat it as opaque). Only its sha256 is stored, in the hash
``game:{id}:seats`` (seat -> hex digest), written with ``HSETNX`` so a seat is taken
once. The game id prefix lets the gateway tell a token of another game (403) from an
unknown one (401) without any global index.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import redis
from flask import request

from services.coordinator.redis_store import key

from .errors import ApiError


def token_hash(token: str) -> str:
    """sha256 hex digest of a token (what is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def claim_seat(client: redis.Redis, game_id: str, seat: int) -> str | None:
    """Take ``seat`` of ``game_id`` and return its new token, or ``None`` if it is taken."""
    token = f"{game_id}.{secrets.token_urlsafe(32)}"
    if not client.hsetnx(key(game_id, "seats"), str(seat), token_hash(token)):
        return None
    return token


def seats_taken(client: redis.Redis, game_id: str, bots: dict[str, Any] | None = None) -> list[int]:
    """Seats of ``game_id`` that have been claimed, or that built-in ``bots`` hold, ascending."""
    return sorted({int(s) for s in client.hkeys(key(game_id, "seats"))} | {int(s) for s in bots or {}})


def bearer_token(allow_query: bool = False) -> str | None:
    """The request's token: ``Authorization: Bearer <token>`` (or ``?token=`` if allowed).

    Raises:
        ApiError 401: an ``Authorization`` header that is not a bearer token.
        ApiError 400: a ``?token=`` where only the header is accepted (it would otherwise be
            ignored silently, giving a spectator's answer).
    """
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, value = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not value.strip():
            raise ApiError(401, "bad_authorization", 'use "Authorization: Bearer <seat token>"')
        return value.strip()
    if allow_query:
        return request.args.get("token") or None
    if "token" in request.args:
        raise ApiError(400, "bad_request", 'send the seat token as "Authorization: Bearer <token>"; only the '
                                           'stream takes ?token=')
    return None


def seat_of(client: redis.Redis, game_id: str, token: str | None, required: bool) -> int | None:
    """The seat ``token`` holds in ``game_id`` (``None``: no token and none required).

    Raises:
        ApiError 401: no token although ``required``, or a token this game never issued.
        ApiError 403: the token belongs to another game.
    """
    if token is None:
        if required:
            raise ApiError(401, "missing_token", "this request needs a seat token "
                                                 '("Authorization: Bearer <token>")')
        return None
    prefix, dot, _ = token.partition(".")
    if dot and prefix != game_id:
        raise ApiError(403, "wrong_game", "this token holds a seat of another game")
    digest = token_hash(token)
    for seat, stored in client.hgetall(key(game_id, "seats")).items():
        if hmac.compare_digest(stored.decode() if isinstance(stored, bytes) else stored, digest):
            return int(seat)
    raise ApiError(401, "unknown_token", "this game issued no such seat token")
