"""Blueprint ``games``: create a game, read its summary and player view, long-poll it.

* ``POST /games`` -> 201 ``{"game_id", "version", "status", "open", "invitations"}`` (the seed
  is never echoed; an invitation per seat no bot holds, :mod:`gateway.invitations`); needs an
  operator key (:func:`gateway.operators.require_operator`) and writes the audit line
  ``game.create``
* ``GET /games/<id>`` -> the public summary (:func:`gateway.lookup.public_summary`)
* ``GET /games/<id>/view`` -> ``{"version", "seat", "status", "to_move", "outcome", "view"}``
* ``GET /games/<id>/wait?after=<v>&timeout=<s>[&until=over|turn]`` -> the summary once version >
  ``after`` (``until=turn``: once the token's seat decides there; ``over``: once the game is over)
  or after ``timeout`` seconds (at most 30); with a seat token also its ``seat`` and ``legal_moves``
"""

from __future__ import annotations

import time

from flask import Blueprint, current_app, request

from services.agents.registry import UnknownAgent, registry_for
from services.coordinator.redis_store import entry_from_fields, entry_id, key
from services.coordinator.table import status_of
from services.rules.core import GameConfig

from . import invitations, operators, responses
from .bodies import CreateGameBody, parse_body
from .clients import get_blocking_redis, get_redis, get_table
from .errors import ApiError
from .lookup import caller_seat, check_claimed_seat, decision, flag, parse_index, public_summary, require_game
from .openapi import INDEX_MAX, SEAT_QUERY, Param, documented

bp = Blueprint("games", __name__)


@bp.post("/games")
@documented(
    body=CreateGameBody, responses={201: responses.CreatedGame}, operator=True,
    errors={400: "bad_json, bad_request, bad_idempotency_key",
            422: "unknown_game, bad_config, unknown_agent, idempotency_key_reused"},
    params=(Param("Idempotency-Key", "header", {"type": "string", "minLength": 1, "maxLength": 128},
                  "1-128 printable characters: a retry with the same key and body answers with the game the "
                  "first attempt made, or makes it if that attempt stored nothing"),))
def create_game():
    """Create a game (operator key required). 201 ``{"game_id", "version", "status", "open",
    "invitations"}``; 400 bad body; 422 bad game/config.

    ``invitations`` holds one invitation per seat that no bot or agent holds, made from the
    operator's key (:mod:`gateway.invitations`; only their digests are stored), ``{}`` when the
    body says ``"open": true``. A game is stored whole, set up, or not at all
    (:meth:`Table.create`). With an ``Idempotency-Key`` header a retry answers with the game the
    first attempt made, and the same invitations: see :func:`_create_once`."""
    operators.require_operator()
    body = parse_body(CreateGameBody)
    table = get_table()
    registry = registry_for(table)
    for seat, spec in body.bots.items():
        if isinstance(spec, dict) and spec.get("kind") == "agent" and isinstance(spec.get("agent"), str):
            try:
                registry.get(spec["agent"])
            except UnknownAgent as exc:
                raise ApiError(422, "unknown_agent", f"seat {seat}: {exc}") from None
    config = GameConfig(game=body.game, players=body.players, options=body.options)
    operator_key = request.headers[operators.HEADER].strip()
    key = request.headers.get("Idempotency-Key")
    if key is None:
        game_id = table.new_id()
        access = invitations.access_record(operator_key, game_id, invitations.invited_seats(body.players, body.bots),
                                           body.open)
        table.create(config, seed=body.seed, bots=body.bots, control=body.time_control, game_id=game_id,
                     access=access)
        created = True
    else:
        game_id, created, access = _create_once(table, key, config, body, operator_key)
    shown = invitations.shown(operator_key, game_id, access)
    if shown is None:  # another operator key made this game (_create_once refuses that first)
        raise ApiError(422, "idempotency_key_reused",
                       "this Idempotency-Key was used by another operator key; use a new key")
    operators.audit("game.create", game_id=game_id, game=body.game, players=body.players,
                    bot_seats=sorted(int(s) for s in body.bots), open=bool(access and access.get("open")),
                    invited_seats=sorted(int(s) for s in shown), **({} if created else {"retry": True}))
    rules, state, version = table.state(game_id)
    return {"game_id": game_id, "version": version, "status": status_of(rules, state),
            "open": bool(access and access.get("open")), "invitations": shown}, 201


def _create_once(table, key: str, config: GameConfig, body: CreateGameBody,
                 operator_key: str) -> tuple[str, bool, dict | None]:
    """Create the game of idempotency key ``key``, or answer with the one it created before.

    The game's id is derived from the key and the operator key's id, so a retry after any failure
    finds the game the first attempt stored (whole: a game is stored set up or not at all), or,
    if it stored nothing (a domain service down mid-set-up), makes it; it never makes a second one.
    The same key with a different body is a 422.
    The game's access record (its invitations' salt and digests) is the first attempt's, so the
    retry shows the same invitations.

    Returns:
        ``(game_id, created, access)``: ``created`` is False when an earlier attempt made the game;
        ``access`` is the game's stored ``meta["access"]``.
    """
    import hashlib

    from services.coordinator.store import GameNotFound

    if not 1 <= len(key) <= 128 or not key.isprintable():
        raise ApiError(400, "bad_idempotency_key", "Idempotency-Key is 1 to 128 printable characters")
    digest = hashlib.sha256(body.model_dump_json().encode()).hexdigest()
    game_id = operators.idempotent_game_id(key, operators.operator_id())
    try:
        meta = table.store.meta(game_id)
    except GameNotFound:
        access = invitations.access_record(operator_key, game_id, invitations.invited_seats(body.players, body.bots),
                                           body.open)
        try:
            table.create(config, seed=body.seed, bots=body.bots, control=body.time_control,
                         game_id=game_id, labels={"request": digest}, access=access)
            return game_id, True, access
        except ValueError as exc:  # a concurrent attempt stored it first
            if "exists" not in str(exc):
                raise
            meta = table.store.meta(game_id)
    if (meta.get("labels") or {}).get("request") != digest:
        raise ApiError(422, "idempotency_key_reused",
                       "this Idempotency-Key was used to create a different game; use a new key")
    return game_id, False, meta.get("access")


@bp.get("/games/<game_id>")
@documented(responses={200: responses.GameSummary}, errors={404: "game_not_found"})
def get_game(game_id: str):
    """The public summary of a game; 404 if unknown."""
    require_game(game_id)
    return public_summary(game_id)


@bp.get("/games/<game_id>/view")
@documented(responses={200: responses.PlayerView}, auth="optional",
            params=(SEAT_QUERY, Param("version", "query", {"type": "integer", "minimum": 1, "maximum": INDEX_MAX},
                                      "the view at this version of the log (a replay); default: now")),
            errors={400: "bad_request", 401: "missing_token, unknown_token, bad_authorization",
                    403: "wrong_game, wrong_seat", 404: "game_not_found"})
def get_view(game_id: str):
    """The player view of the token's seat, or the spectator view without a token.

    ``?version=v`` gives the view as it was at version ``v`` (1 up to the game's version; 400
    beyond it), rebuilt from the log: a replay's step, showing what that seat (or a spectator)
    could see then and nothing more."""
    meta = require_game(game_id)
    claimed = request.args.get("seat")
    seat = caller_seat(game_id, required=claimed is not None)
    if claimed is not None:
        check_claimed_seat(parse_index(claimed, "seat"), seat)
    at = request.args.get("version")
    if at is not None:
        wanted = parse_index(at, "version")
        if not 1 <= wanted <= int(meta["version"]):
            raise ApiError(400, "bad_request", f"version must be from 1 to the game's version, {meta['version']}")
        rules, state, version = get_table().projections.state_at(game_id, wanted)
    else:
        rules, state, version = get_table().state(game_id)
    return {
        "version": version,
        "seat": seat,
        "status": status_of(rules, state),
        "to_move": rules.to_move(state),
        "outcome": rules.outcome(state),
        "view": rules.view(state, seat),
    }


def _seconds(name: str, default: float, high: float) -> float:
    """A query parameter in seconds, clamped to ``0..high``. Raises ApiError 400 if not a number."""
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ApiError(400, "bad_request", f"{name} must be a number of seconds") from None
    if value != value or value < 0:
        raise ApiError(400, "bad_request", f"{name} must be at least 0")
    return min(value, high)


WAIT_WAKES = 100_000
"""Most log entries a ``/wait?until=turn`` wakes up for before it answers (its timeout bounds it
first in any real game: one wake per commit of the other seats and the phases)."""


@bp.get("/games/<game_id>/wait")
@documented(
    responses={200: responses.WaitResult}, auth="optional",
    errors={400: "bad_request", 401: "missing_token (until=turn), unknown_token, bad_authorization",
            403: "wrong_game", 404: "game_not_found"},
    params=(Param("after", "query", {"type": "integer", "minimum": 0, "maximum": INDEX_MAX},
                  "answer once the version is above this one", required=True),
            Param("timeout", "query", {"type": "number", "minimum": 0},
                  "seconds to wait at most (default and cap: 30)"),
            Param("until", "query", {"type": "string", "enum": ["over", "turn"]},
                  "over: wait instead until the game is over; turn (seat token required): until the "
                  "token's seat is to decide at a version above after, or the game is over"),
            Param("view", "query", {"type": "boolean"},
                  "with a seat token, true: the answer also holds the seat's player view at its version")))
def wait(game_id: str):
    """Block (``XREAD BLOCK``) until the version is above ``after`` or ``timeout`` passes.

    Query: ``after`` (int, required), ``timeout`` (seconds, default and maximum 30);
    ``until=over`` waits instead until the game is over (one ``XREAD BLOCK`` on the stream
    the final commit writes), for drivers of games that play by themselves; ``until=turn``
    (a seat token required) waits until the token's seat has a decision at a version above
    ``after`` (or the game is over): a client's next decision without polling.
    A game that is over answers at once (its version never grows).
    Returns the ``GET /games/<id>`` body either way; with a seat token, also the token's
    ``seat`` and its ``legal_moves`` at the answer's version (empty unless it decides then), and
    with ``view=true`` its player ``view`` there.
    """
    if request.args.get("after") is None:
        raise ApiError(400, "bad_request", "after=<version> is required")
    after = parse_index(request.args["after"], "after")
    limit = float(current_app.config["WAIT_MAX_SECONDS"])
    timeout = _seconds("timeout", limit, limit)
    until = request.args.get("until")
    if until not in (None, "over", "turn"):
        raise ApiError(400, "bad_request", 'until, if given, must be "over" or "turn"')
    with_view = flag("view")
    meta = require_game(game_id)
    seat = caller_seat(game_id, required=until == "turn")
    known = None
    if until == "turn":
        known = _wait_for_turn(game_id, seat, after, timeout)  # type: ignore[arg-type]
    elif until == "over":
        if meta["status"] != "over" and timeout > 0:
            rows = get_blocking_redis().xread({key(game_id, "ended"): "0-0"}, count=1, block=max(1, int(timeout * 1000)))
            if not rows:
                nudge_phase(game_id)
    elif meta["version"] <= after and meta["status"] != "over" and timeout > 0:  # an ended game moves no more
        rows = get_blocking_redis().xread({key(game_id, "log"): entry_id(after)}, count=1,
                                 block=max(1, int(timeout * 1000)))
        if not rows:
            nudge_phase(game_id)
    if known is None:
        known = get_table().state(game_id)
    out = public_summary(game_id, known)
    if seat is not None:
        rules, state, version = known
        mine = decision(rules, state, version, seat, legal=True, view=with_view)
        out.update((k, mine[k]) for k in ("seat", "legal_moves", "view") if k in mine)
    return out


def _wait_for_turn(game_id: str, seat: int, after: int, timeout: float) -> tuple:
    """The game once ``seat`` decides at a version above ``after``, or it is over, or ``timeout``
    seconds have passed (then what it is at; a game stuck in a phase or on a bot is nudged,
    :func:`nudge_phase`): ``(rules, state, version)``. Sleeps only in ``XREAD BLOCK`` on the log,
    catching up from the entries it returns (no second read of them)."""
    table = get_table()
    deadline = time.monotonic() + timeout
    rules, state, version = table.state(game_id)
    for _ in range(WAIT_WAKES):
        status = status_of(rules, state)
        if version > after and (status == "over" or (status == "active" and seat in rules.to_move(state))):
            break
        left = deadline - time.monotonic()
        if left <= 0:
            nudge_phase(game_id)
            break
        rows = get_blocking_redis().xread({key(game_id, "log"): entry_id(max(version, after))},
                                 block=max(1, int(left * 1000)))
        if not rows:
            nudge_phase(game_id)
            break
        entries = [entry_from_fields(fields) for _id, fields in rows[0][1]]
        rules, state, version = table.projections.state_at(
            game_id, entries[-1].version, recent=[(e.version, list(e.events)) for e in entries])
    return rules, state, version


def nudge_phase(game_id: str) -> bool:
    """Queue again what a game has waited on a while (at most once a period): its pending
    phase, or the move of a bot seat whose turn it is.

    A task that was lost (the broker was down when the move committed) would leave the game
    waiting for ever; a waiter that timed out re-sends it. Phases and bot moves are
    idempotent by version, so a spare task is a no-op. The period is
    ``PHASE_NUDGE_SECONDS`` (one ``SET NX EX`` key per game). Returns True if it queued.
    """
    table = get_table()
    rules, state, version = table.state(game_id)
    phase = rules.pending_phase(state)
    bots = [s for s in rules.to_move(state) if s in table.bots(game_id)] if not phase else []
    if not phase and not bots:
        return False
    period = max(1, int(current_app.config["PHASE_NUDGE_SECONDS"]))
    if not get_redis().set(key(game_id, "phase_nudge"), version, nx=True, ex=period):
        return False
    if phase:
        table.scheduler.schedule(game_id, phase, version)
    for seat in bots:
        table.scheduler.schedule_bot(game_id, seat, version)
    return True
