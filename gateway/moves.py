"""Blueprint ``moves``: legal moves of the caller's seat and submitting a move.

* ``GET /games/<id>/legal-moves`` (token) -> ``{"version", "seat", "moves"}``
* ``POST /games/<id>/moves[?legal=true][&view=true]`` (token) body ``{"move_id", "expected_version", "move"}``
  -> ``{"version", "events", "next"}``: the new version, only the events the seat may see, and
  ``next``, the client's next decision: ``{"version", "status", "to_move"}`` of the game right after
  the move, with ``?legal=true`` the caller's ``seat`` and its ``legal_moves`` there (empty
  unless that seat decides next), with ``?view=true`` its player ``view`` there. One request a move: a client that is still to decide has its
  next choices in the answer; one that is not waits on ``GET /games/<id>/wait?until=turn`` or its
  event stream. A repeat of the same ``move_id`` by the same seat returns the first result
  (``version``, ``events``) and changes nothing.

Errors: 401/403 token, 404 game, 400 body, 409 ``stale_version`` / ``not_your_turn``,
422 ``illegal_move`` / ``malformed_move``. A rejected move changes nothing.

A move costs the gateway one Redis round trip in the usual case, its commit: the game's
fixed facts and the token's seat are kept per process (:func:`gateway.lookup.known_game`,
:func:`gateway.lookup.caller_seat`), the move's rate-limit counters are counted by its commit
(:func:`gateway.limits.counted_at_commit`), the Table resolves on its cached state and its one
commit script counts them and checks the version and the move id
(:meth:`services.coordinator.table.Table.play`), and ``next`` is read from the state that commit
cached (:func:`gateway.lookup.next_decision`).
"""

from __future__ import annotations

from flask import Blueprint, request

from services.coordinator.table import MoveIdReused, StaleVersion
from services.rules.core import RulesError

from .bodies import MoveBody, parse_body
from .clients import get_table
from .limits import counted_at_commit, deferred_counters, settle_deferred
from . import responses
from .metrics import count_refusal
from .lookup import caller_seat, check_claimed_seat, flag, known_game, next_decision, parse_index
from .openapi import SEAT_QUERY, Param, documented

bp = Blueprint("moves", __name__)

LEGAL_QUERY = Param("legal", "query", {"type": "boolean"},
                    "true: the answer's next also holds the caller's seat and its legal moves at next.version "
                    "(empty unless that seat decides next); default false")
VIEW_QUERY = Param("view", "query", {"type": "boolean"},
                   "true: the answer's next also holds the caller's seat and its player view at next.version "
                   "(what GET /games/{game_id}/view gives); default false")


@bp.get("/games/<game_id>/legal-moves")
@documented(responses={200: responses.LegalMoves}, auth="required", params=(SEAT_QUERY,),
            errors={400: "bad_request", 401: "missing_token, unknown_token, bad_authorization",
                    403: "wrong_game, wrong_seat", 404: "game_not_found"})
def legal_moves(game_id: str):
    """Legal moves of the token's seat now (empty if it is not that seat's decision)."""
    known_game(game_id)  # 404 for an unknown game; from the process's cache, no read, once it is known
    seat = caller_seat(game_id, required=True)
    claimed = request.args.get("seat")
    if claimed is not None:
        check_claimed_seat(parse_index(claimed, "seat"), seat)
    rules, state, version = get_table().state(game_id)
    return {"version": version, "seat": seat, "moves": rules.legal_moves(state, seat)}


@bp.post("/games/<game_id>/moves")
@documented(body=MoveBody, responses={200: responses.MoveResult}, auth="required", params=(LEGAL_QUERY, VIEW_QUERY),
            errors={400: "bad_json, bad_request", 401: "missing_token, unknown_token, bad_authorization",
                    403: "wrong_game, wrong_seat", 404: "game_not_found",
                    409: "stale_version (with version), not_your_turn, move_id_reused",
                    422: "illegal_move, malformed_move"})
@counted_at_commit
def play(game_id: str):
    """Resolve and commit one move of the token's seat; the answer carries the seat's next decision."""
    facts = known_game(game_id)
    seat = caller_seat(game_id, required=True)
    legal, view = flag("legal"), flag("view")
    body = parse_body(MoveBody)
    check_claimed_seat(body.seat, seat)
    try:
        result = get_table().play(game_id, seat, body.move, body.expected_version, move_id=body.move_id,
                                  counters=deferred_counters())
    except (StaleVersion, MoveIdReused, RulesError) as exc:
        settle_deferred()  # a refusal over the rate limit is a 429, as it was when counted first
        count_refusal(facts["game"], exc)  # longhouse_moves_total{outcome="refused"}
        raise
    return {**result, "next": next_decision(game_id, result["version"], seat, legal, view)}
