"""Blueprint ``moves``: legal moves of the caller's seat and submitting a move.

* ``GET /games/<id>/legal-moves`` (token) -> ``{"version", "seat", "moves"}``
* ``POST /games/<id>/moves`` (token) body ``{"move_id", "expected_version", "move"}``
  -> ``{"version", "events"}`` with only the events the seat may see. A repeat of the
  same ``move_id`` by the same seat returns the first result and changes nothing.

Errors: 401/403 token, 404 game, 400 body, 409 ``stale_version`` / ``not_your_turn``,
422 ``illegal_move`` / ``malformed_move``. A rejected move changes nothing.
"""

from __future__ import annotations

from flask import Blueprint, request

from services.coordinator.table import MoveIdReused, StaleVersion
from services.rules.core import RulesError

from .bodies import MoveBody, parse_body
from .clients import get_table
from . import responses
from .metrics import count_refusal
from .lookup import caller_seat, check_claimed_seat, parse_index, require_game
from .openapi import SEAT_QUERY, documented

bp = Blueprint("moves", __name__)


@bp.get("/games/<game_id>/legal-moves")
@documented(responses={200: responses.LegalMoves}, auth="required", params=(SEAT_QUERY,),
            errors={400: "bad_request", 401: "missing_token, unknown_token, bad_authorization",
                    403: "wrong_game, wrong_seat", 404: "game_not_found"})
def legal_moves(game_id: str):
    """Legal moves of the token's seat now (empty if it is not that seat's decision)."""
    require_game(game_id)
    seat = caller_seat(game_id, required=True)
    claimed = request.args.get("seat")
    if claimed is not None:
        check_claimed_seat(parse_index(claimed, "seat"), seat)
    rules, state, version = get_table().state(game_id)
    return {"version": version, "seat": seat, "moves": rules.legal_moves(state, seat)}


@bp.post("/games/<game_id>/moves")
@documented(body=MoveBody, responses={200: responses.MoveResult}, auth="required",
            errors={400: "bad_json, bad_request", 401: "missing_token, unknown_token, bad_authorization",
                    403: "wrong_game, wrong_seat", 404: "game_not_found",
                    409: "stale_version (with version), not_your_turn, move_id_reused",
                    422: "illegal_move, malformed_move"})
def play(game_id: str):
    """Resolve and commit one move of the token's seat."""
    meta = require_game(game_id)
    seat = caller_seat(game_id, required=True)
    body = parse_body(MoveBody)
    check_claimed_seat(body.seat, seat)
    try:
        return get_table().play(game_id, seat, body.move, body.expected_version, move_id=body.move_id)
    except (StaleVersion, MoveIdReused, RulesError) as exc:
        count_refusal(str(meta.get("game", "")), exc)  # longhouse_moves_total{outcome="refused"}
        raise
