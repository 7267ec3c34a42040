"""Helpers shared by the blueprints: finding a game and the seat of the caller."""

from __future__ import annotations

import re
from typing import Any

from flask import request

from services.coordinator.store import GameNotFound
from services.coordinator.table import status_of

from .auth import bearer_token, seat_of, seats_taken
from .clients import clients, get_redis, get_table
from .errors import ApiError

_GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_INDEX = re.compile(r"^(0|[1-9][0-9]{0,17})$")


def parse_index(raw: str, what: str, status: int = 400, code: str = "bad_request") -> int:
    """A non-negative integer written in plain ASCII digits (at most 18, no sign, no padding).

    Raises:
        ApiError (``status``/``code``): anything else, e.g. ``"-1"``, ``"01"``, ``"²"``, ``"1e3"``.
    """
    if not _INDEX.match(raw):
        raise ApiError(status, code, f"{what} must be a whole number written in digits (0 to 10^18)")
    return int(raw)


def require_game(game_id: str) -> dict[str, Any]:
    """Metadata of ``game_id`` (``game``, ``players``, ``version``, ``status``).

    Raises:
        GameNotFound (404): malformed or unknown id.
    """
    if not _GAME_ID.match(game_id):
        raise GameNotFound(game_id)
    return get_table().store.meta(game_id)


def known_game(game_id: str) -> dict[str, Any]:
    """The facts of ``game_id`` that never change, ``{"game", "players"}``: from the process's
    cache (:attr:`gateway.clients.Clients.game_facts`), else from its meta hash (then kept). For
    a view that needs only to know the game exists (a move: its commit checks the rest).

    Raises:
        GameNotFound (404): malformed or unknown id.
    """
    facts = clients().game_facts.get(game_id)
    if facts is None:
        meta = require_game(game_id)
        facts = {"game": meta["game"], "players": meta["players"]}
        clients().game_facts.put(game_id, facts)
    return facts


def caller_seat(game_id: str, required: bool, allow_query_token: bool = False) -> int | None:
    """The seat the request's token holds in ``game_id`` (``None`` for a spectator); a token this
    process checked before is not looked up again (:attr:`gateway.clients.Clients.seat_tokens`).

    Raises:
        ApiError 401/403: see :func:`gateway.auth.seat_of`.
    """
    return seat_of(get_redis(), game_id, bearer_token(allow_query_token), required, clients().seat_tokens)


def flag(name: str) -> bool:
    """A true/false query parameter: ``true`` or ``1``, ``false`` or ``0``; absent is false.

    Raises:
        ApiError 400: any other value.
    """
    raw = request.args.get(name)
    if raw is None:
        return False
    if raw.lower() in ("true", "1"):
        return True
    if raw.lower() in ("false", "0"):
        return False
    raise ApiError(400, "bad_request", f"{name} must be true or false")


def decision(rules: Any, state: Any, version: int, seat: int | None, legal: bool,
             view: bool = False) -> dict[str, Any]:
    """What a client needs for its next decision, from the game at ``version``:
    ``{"version", "status", "to_move"}``, plus with ``legal`` the caller's ``"seat"`` and its
    ``"legal_moves"`` (empty unless ``seat`` is to decide now; never another seat's), and with
    ``view`` the seat's player ``"view"`` (``rules.view``: what that seat may see). Reads
    ``state`` only.
    """
    to_move = rules.to_move(state)
    out: dict[str, Any] = {"version": version, "status": status_of(rules, state), "to_move": to_move}
    if (legal or view) and seat is not None:
        out["seat"] = seat
    if legal and seat is not None:
        out["legal_moves"] = rules.legal_moves(state, seat) if out["status"] == "active" and seat in to_move else []
    if view and seat is not None:
        out["view"] = rules.view(state, seat)
    return out


def next_decision(game_id: str, version: int, seat: int, legal: bool, view: bool = False) -> dict[str, Any]:
    """:func:`decision` for the game just after a move committed at ``version``: from the state this
    process cached at that commit (read in place, nothing fetched), or, when it holds none that
    recent (a repeated move answered from the store), from the game read now."""
    table = get_table()
    cached = table.projections.peek(game_id)
    if cached is None or cached[2] < version:
        cached = table.state(game_id)
    rules, state, at = cached
    return decision(rules, state, at, seat, legal, view)


def check_claimed_seat(claimed: Any, seat: int) -> None:
    """Raise ApiError 403 ``wrong_seat`` if the request names a seat its token does not hold."""
    if claimed is not None and claimed != seat:
        raise ApiError(403, "wrong_seat", f"this token holds seat {seat}, not seat {claimed}")


def public_summary(game_id: str, known: tuple[Any, Any, int] | None = None) -> dict[str, Any]:
    """The ``GET /games/<id>`` body.

    ``{"game_id", "game", "version", "moves", "status", "to_move", "outcome", "seats_taken", "bots"}``
    (``moves``: moves committed, phases and set-up not counted)
    (``bots``: the kind of built-in bot on each bot seat; their seeds stay private),
    ``"strikes"`` (``{seat: count}``) once an agent seat has had a strike,
    plus ``"state_hash"`` only once the game is over (a running game's hash would let
    a client test guesses about hidden information).

    ``known``: ``(rules, state, version)`` of the game just read (not changed here), instead of
    reading it again.
    """
    rules, state, version = known if known is not None else get_table().state(game_id)
    status = status_of(rules, state)
    out = {
        "game_id": game_id,
        "game": rules.name,
        "version": version,
        "moves": int(get_table().store.meta(game_id).get("moves", 0)),
        "status": status,
        "to_move": rules.to_move(state),
        "outcome": rules.outcome(state),
        "seats_taken": seats_taken(get_redis(), game_id, get_table().bots(game_id)),
        "bots": {str(s): b["kind"] for s, b in sorted(get_table().bots(game_id).items())},
    }
    record = getattr(state, "match", None)
    if record is not None:  # agent seats' strikes so far (services/rules/core/match.py)
        out["strikes"] = {str(s): n for s, n in sorted(record.strikes.items())}
    if status == "over":
        from services.rules.core import state_hash

        out["state_hash"] = state_hash(rules.hash_view(state))
    return out
