"""Blueprint ``listing``: ``GET /games``, the games in play and finished, newest first.

The listing walks the index of games (:data:`services.coordinator.redis_store.GAMES_INDEX`, game
id -> creation time) from the newest, reads each game's ``meta`` hash in one pipelined round
trip per chunk and keeps the games that pass the filters (``?status=``, ``?game=``). A page
holds at most ``limit`` games; ``next`` is the id to pass as ``?after=`` for the following page
(``null`` once the index is exhausted). A page examines at most :data:`SCAN_BUDGET` games of
the index, so a filter that matches few games may answer a short (even empty) page whose
``next`` is not null: keep following ``next`` until it is.

Only public facts are listed: no seed, token, invitation, bot seed, time control or request
digest ever leaves the ``meta`` hash (:func:`item` picks its fields one by one).
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, request

from services.coordinator.redis_store import GAMES_INDEX, key

from . import responses
from .clients import get_redis
from .errors import ApiError
from .openapi import Param, documented

bp = Blueprint("listing", __name__)

STATUSES = ("active", "phase", "over", "in_play")
"""What ``?status=`` takes: a game status, or ``in_play`` (``active`` or ``phase``)."""
DEFAULT_LIMIT = 20
"""Games per page when ``?limit=`` is not given."""
MAX_LIMIT = 100
"""The largest ``?limit=``."""
SCAN_BUDGET = 1000
"""Most games of the index one request examines (a filter that matches few ends a page early)."""
CHUNK = 100
"""Games of the index read per pipelined round trip."""


def _limit() -> int:
    raw = request.args.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise ApiError(400, "bad_request", f"limit must be a whole number from 1 to {MAX_LIMIT}")
    return int(raw)


def _text(raw: Any) -> str:
    return raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)


def item(game_id: str, created: float, meta: dict[str, str], seats: list[Any], first: list[Any]) -> dict[str, Any]:
    """One game of the listing, from its ``meta`` hash, the keys of its seats hash and its first
    log entry; only public fields (see the module docstring)."""
    extra = json.loads(meta.get("meta") or "{}")
    bots = {str(s): str(b.get("kind", "?")) if isinstance(b, dict) else str(b)
            for s, b in sorted((extra.get("bots") or {}).items(), key=lambda kv: int(kv[0]))}
    options: dict[str, Any] = {}
    if first:
        try:
            events = json.loads(_text(dict((_text(k), v) for k, v in first[0][1].items())["events"]))
            options = dict(events[0]["data"]["config"].get("options") or {})
        except (KeyError, IndexError, TypeError, ValueError):
            options = {}
    access = extra.get("access")
    return {
        "game_id": game_id,
        "game": meta.get("game", ""),
        "players": int(meta.get("players", 0)),
        "status": meta.get("status", "active"),
        "version": int(meta.get("version", 0)),
        "moves": int(meta.get("moves", 0)),
        "created": int(created),
        "options": options,
        "bots": bots,
        "seats_taken": sorted({int(_text(s)) for s in seats} | {int(s) for s in bots}),
        "open": bool(access.get("open")) if isinstance(access, dict) else None,
    }


@bp.get("/games")
@documented(
    responses={200: responses.GameList}, errors={400: "bad_request"},
    params=(Param("status", "query", {"type": "string", "enum": list(STATUSES)},
                  "only games in this status; in_play: active or phase"),
            Param("game", "query", {"type": "string", "minLength": 1, "maxLength": 64},
                  "only games of this game, e.g. noggin"),
            Param("limit", "query", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                  f"games per page (default {DEFAULT_LIMIT})"),
            Param("after", "query", {"type": "string", "minLength": 1, "maxLength": 64},
                  "the next page after this game: the previous page's next")))
def list_games():
    """The games in play and finished, newest first, a page at a time (no secret in it).

    Each game: ``game_id``, ``game``, ``players``, ``status``, ``version``, ``moves``, ``created``
    (Unix seconds), ``options``, ``bots`` (seat -> kind), ``seats_taken`` and ``open`` (its free
    seats can be claimed without an invitation; null for a game that records no such rule).
    ``next`` is the ``after`` of the following page, null at the end of the list."""
    status = request.args.get("status")
    if status is not None and status not in STATUSES:
        raise ApiError(400, "bad_request", f"status must be one of {', '.join(STATUSES)}")
    game = request.args.get("game")
    if game is not None and not 1 <= len(game) <= 64:
        raise ApiError(400, "bad_request", "game must be 1 to 64 characters")
    limit = _limit()
    client = get_redis()
    start = 0
    after = request.args.get("after")
    if after is not None:
        rank = client.zrevrank(GAMES_INDEX, after)
        if rank is None:
            raise ApiError(400, "bad_request", "after must be the id of a listed game (a page's next)")
        start = int(rank) + 1
    wanted = {"active", "phase"} if status == "in_play" else ({status} if status else None)
    games: list[dict[str, Any]] = []
    examined = 0
    last: str | None = None
    exhausted = False
    while len(games) < limit and examined < SCAN_BUDGET:
        rows = client.zrevrange(GAMES_INDEX, start, start + min(CHUNK, SCAN_BUDGET - examined) - 1, withscores=True)
        if not rows:
            exhausted = True
            break
        pipe = client.pipeline(transaction=False)
        for raw, _ in rows:
            pipe.hgetall(key(_text(raw), "meta"))
        metas = pipe.execute()
        chosen = []
        for (raw, score), meta in zip(rows, metas):
            examined += 1
            start += 1
            last = _text(raw)
            m = {_text(k): _text(v) for k, v in (meta or {}).items()}
            if m and (wanted is None or m.get("status") in wanted) and (game is None or m.get("game") == game):
                chosen.append((last, score, m))
                if len(games) + len(chosen) >= limit:
                    break
        if chosen:
            pipe = client.pipeline(transaction=False)
            for game_id, _, _ in chosen:
                pipe.hkeys(key(game_id, "seats"))
                pipe.xrange(key(game_id, "log"), min="1-0", max="1-0", count=1)
            extra = pipe.execute()
            for i, (game_id, score, m) in enumerate(chosen):
                games.append(item(game_id, score, m, extra[2 * i] or [], extra[2 * i + 1] or []))
    if not exhausted and last is not None and client.zcard(GAMES_INDEX) <= start:
        exhausted = True
    return {"games": games, "next": None if exhausted or last is None else last}
