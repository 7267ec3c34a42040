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
import re
import secrets
from typing import Any

import redis
from flask import request

from services.coordinator.redis_store import key
from services.coordinator.store import GameNotFound

from .errors import ApiError


def token_hash(token: str) -> str:
    """sha256 hex digest of a token (what is stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# Take a seat only while the game is not over: the commit that ends a game gives the seats
# hash a time to live (services.coordinator.redis_store, Retention), which a later HSETNX
# would otherwise undo by creating the hash afresh. One script, so no commit falls between.
_CLAIM = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return -1 end
if status == 'over' then return -2 end
return redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2])
"""


def claim_seat(client: redis.Redis, game_id: str, seat: int) -> str | None:
    """Take ``seat`` of ``game_id`` and return its new token, or ``None`` if it is taken.

    Raises:
        GameNotFound: no such game (answered 404).
        ApiError 409 ``game_over``: the game has ended; its seats can no longer be taken.
    """
    token = f"{game_id}.{secrets.token_urlsafe(32)}"
    taken = client.eval(_CLAIM, 2, key(game_id, "meta"), key(game_id, "seats"), str(seat), token_hash(token))
    if taken == -1:
        raise GameNotFound(game_id)
    if taken == -2:
        raise ApiError(409, "game_over", "the game is over; its seats can no longer be taken")
    return token if taken == 1 else None


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


def seat_of(client: redis.Redis, game_id: str, token: str | None, required: bool,
            known: Any = None) -> int | None:
    """The seat ``token`` holds in ``game_id`` (``None``: no token and none required).

    ``known``: the process's checked tokens (:attr:`gateway.clients.Clients.seat_tokens`: ``get``
    and ``put`` by ``(game_id, digest)``); a token found there is not looked up in Redis again,
    and one found in Redis is added. Only tokens that hold a seat are kept.

    Raises:
        ApiError 401: no token although ``required``, or a token this game never issued.
        ApiError 403: the token is a seat token of another game.
    """
    if token is None:
        if required:
            raise ApiError(401, "missing_token", "this request needs a seat token "
                                                 '("Authorization: Bearer <token>")')
        return None
    prefix, dot, _ = token.partition(".")
    digest = token_hash(token)
    if dot and prefix != game_id:
        # 403 only for a seat token another game really issued; anything else is unknown here
        if _GAME_ID.fullmatch(prefix) and _held_seat(client, prefix, digest) is not None:
            raise ApiError(403, "wrong_game", "this token holds a seat of another game")
        raise ApiError(401, "unknown_token", "this game issued no such seat token")
    if known is not None:
        seat = known.get((game_id, digest))
        if seat is not None:
            return seat
    seat = _held_seat(client, game_id, digest)
    if seat is None:
        raise ApiError(401, "unknown_token", "this game issued no such seat token")
    if known is not None:
        known.put((game_id, digest), seat)
    return seat


_GAME_ID = re.compile(r"[0-9a-f]{1,64}")
"""What a game id looks like (the Table makes 16 hex digits), before it is used in a key."""


def _held_seat(client: redis.Redis, game_id: str, digest: str) -> int | None:
    """The seat of ``game_id`` whose stored token hash is ``digest`` (constant-time compare), or None."""
    found = None
    for seat, stored in client.hgetall(key(game_id, "seats")).items():
        if hmac.compare_digest(stored.decode() if isinstance(stored, bytes) else stored, digest):
            found = int(seat)
    return found
