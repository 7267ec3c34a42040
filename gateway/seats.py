"""Blueprint ``seats``: ``POST /games/<id>/seats/<seat>`` takes a seat and issues its token.

The body is ``{"invitation": "<the seat's invitation>"}`` (:class:`~gateway.bodies.ClaimBody`),
from the game's creation answer; an open game (created with ``"open": true``) takes no body, or
``{}``. 201 ``{"seat", "token"}``; 400 a bad body; 401 ``missing_invitation``; 403
``wrong_invitation`` (another seat's, another game's or a made-up one: :mod:`gateway.invitations`);
404 unknown game; 422 a seat that is not an integer in ``0..players-1``; 409 the seat is taken
(by a client, or by a built-in bot or an agent given the seat when the game was created, which
no HTTP client can ever take) or the game is over. A refused claim changes nothing. The token is
shown once; only its sha256 is kept. Claims and refused invitations write audit lines
(``seat.claim``, ``seat.refused``: game and seat, never a token or an invitation).
"""

from __future__ import annotations

from flask import Blueprint

from . import invitations, operators, responses
from .auth import claim_seat
from .bodies import ClaimBody, parse_body
from .clients import get_redis
from .errors import ApiError
from .lookup import parse_index, require_game
from .openapi import INDEX_MAX, documented

bp = Blueprint("seats", __name__)


@bp.post("/games/<game_id>/seats/<seat>")
@documented(responses={201: responses.SeatToken}, body=ClaimBody, body_required=False,
            errors={400: "bad_json, bad_request", 401: "missing_invitation", 403: "wrong_invitation",
                    404: "game_not_found", 409: "seat_taken, game_over", 422: "bad_seat"},
            path_params={"seat": {"type": "integer", "minimum": 0, "maximum": INDEX_MAX}})
def take_seat(game_id: str, seat: str):
    """Claim ``seat`` of ``game_id`` with its invitation (none for an open game); see the module
    docstring for the answers."""
    body = parse_body(ClaimBody, optional=True)
    meta = require_game(game_id)
    players = int(meta["players"])
    index = parse_index(seat, "seat", 422, "bad_seat")
    if not index < players:
        raise ApiError(422, "bad_seat", f"seat must be an integer from 0 to {players - 1}")
    if meta["status"] == "over":  # checked again atomically by the claim (claim_seat)
        raise ApiError(409, "game_over", "the game is over; its seats can no longer be taken")
    bot = (meta.get("bots") or {}).get(str(index))
    if bot is not None:
        who = "an external agent" if bot.get("kind") == "agent" else "a built-in bot"
        raise ApiError(409, "seat_taken", f"seat {index} is played by {who}")
    try:
        invitations.check(meta.get("access"), index, body.invitation)
    except ApiError as exc:
        operators.audit("seat.refused", game_id=game_id, seat=index, why=exc.code)
        raise
    token = claim_seat(get_redis(), game_id, index)
    if token is None:
        raise ApiError(409, "seat_taken", f"seat {index} is already taken")
    operators.audit("seat.claim", game_id=game_id, seat=index)
    return {"seat": index, "token": token}, 201
