"""Blueprint ``seats``: ``POST /games/<id>/seats/<seat>`` takes a seat and issues its token.

201 ``{"seat", "token"}``; 404 unknown game; 422 a seat that is not an integer in
``0..players-1``; 409 the seat is taken (by a client, or by a built-in bot given the seat
when the game was created). The token is shown once; only its sha256 is kept.
"""

from __future__ import annotations

from flask import Blueprint

from .auth import claim_seat
from .clients import get_redis
from .errors import ApiError
from . import operators, responses
from .lookup import parse_index, require_game
from .openapi import INDEX_MAX, documented

bp = Blueprint("seats", __name__)


@bp.post("/games/<game_id>/seats/<seat>")
@documented(responses={201: responses.SeatToken},
            errors={404: "game_not_found", 409: "seat_taken, game_over", 422: "bad_seat"},
            path_params={"seat": {"type": "integer", "minimum": 0, "maximum": INDEX_MAX}})
def take_seat(game_id: str, seat: str):
    """Claim ``seat`` of ``game_id``; see the module docstring for the answers."""
    meta = require_game(game_id)
    players = int(meta["players"])
    index = parse_index(seat, "seat", 422, "bad_seat")
    if not index < players:
        raise ApiError(422, "bad_seat", f"seat must be an integer from 0 to {players - 1}")
    if meta["status"] == "over":  # checked again atomically by the claim (claim_seat)
        raise ApiError(409, "game_over", "the game is over; its seats can no longer be taken")
    if str(index) in (meta.get("bots") or {}):
        raise ApiError(409, "seat_taken", f"seat {index} is played by a built-in bot")
    token = claim_seat(get_redis(), game_id, index)
    if token is None:
        raise ApiError(409, "seat_taken", f"seat {index} is already taken")
    operators.audit("seat.claim", game_id=game_id, seat=index)
    return {"seat": index, "token": token}, 201
