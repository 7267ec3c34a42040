"""Seats by invitation: who may claim which seat of a game.

``POST /games`` answers one **invitation** per seat that is not a bot's or an agent's, a bearer
secret ``lhinv_<43 url-safe characters>`` shown in that answer only. Claiming the seat
(``POST /games/<id>/seats/<seat>`` with ``{"invitation": "..."}``) needs it, unless the operator
created the game with ``"open": true``. The gateway keeps only each invitation's sha256, in the
game's meta (``access``: ``{"open", "salt", "invitations": {seat: digest}}``), written by the same
atomic step that creates the game, so no moment exists when the game's seats are unguarded.

An invitation is ``HMAC-SHA256(operator key, "<game id>\\n<seat>\\n<salt>")`` with a random salt
per game: unguessable without the operator key, and made again, the same, when the operator
retries the creation with its ``Idempotency-Key`` (the retry reads the salt from the stored
game), so a retry never shows invitations other than those that work. Nothing stored — salt and
digests — gives an invitation back without the key.

:func:`check` compares in constant time and answers 401 ``missing_invitation`` / 403
``wrong_invitation`` (:mod:`gateway.errors`); a game made before invitations existed has no
``access`` and its free seats cannot be claimed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any, Iterable

from .errors import ApiError

PREFIX = "lhinv_"
"""How every invitation starts (so one found somewhere can be recognised as one)."""

_NO_DIGEST = "0" * 64
"""Compared against when a seat has no invitation, so a refusal takes as long either way."""


def new_salt() -> str:
    """A fresh random salt for a game's invitations (32 hex digits)."""
    return secrets.token_hex(16)


def invitation(operator_key: str, game_id: str, seat: int, salt: str) -> str:
    """The invitation of ``seat`` of ``game_id`` made with ``operator_key`` and the game's ``salt``."""
    mac = hmac.new(operator_key.strip().encode("utf-8"), f"{game_id}\n{seat}\n{salt}".encode("utf-8"),
                   hashlib.sha256).digest()
    return PREFIX + base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")


def digest(text: str) -> str:
    """The sha256 hex digest of an invitation (what is stored)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def invited_seats(players: int, bots: Iterable[str]) -> list[int]:
    """The seats of a ``players``-seat game that get an invitation: every seat no bot or agent holds."""
    held = {str(s) for s in bots}
    return [s for s in range(players) if str(s) not in held]


def access_record(operator_key: str, game_id: str, seats: Iterable[int], open_: bool) -> dict[str, Any]:
    """What a new game stores about its seats (``meta["access"]``): ``{"open": True}`` for an open
    game, else ``{"open": False, "salt", "invitations": {"<seat>": digest}}``."""
    if open_:
        return {"open": True}
    salt = new_salt()
    return {"open": False, "salt": salt,
            "invitations": {str(s): digest(invitation(operator_key, game_id, s, salt)) for s in seats}}


def shown(operator_key: str, game_id: str, access: dict[str, Any] | None) -> dict[str, str] | None:
    """The invitations to answer a creation with: ``{"<seat>": invitation}`` ({} for an open game),
    made from ``operator_key`` and the stored ``access``; ``None`` if they do not match what is
    stored (another key made the game), so nothing that would fail is ever shown."""
    if not access or access.get("open"):
        return {}
    out = {}
    for seat, stored in access.get("invitations", {}).items():
        made = invitation(operator_key, game_id, int(seat), access["salt"])
        if not hmac.compare_digest(digest(made), stored):
            return None
        out[seat] = made
    return out


def check(access: dict[str, Any] | None, seat: int, given: str | None) -> None:
    """Let a claim of ``seat`` through, or refuse it (nothing is changed either way).

    Args:
        access: the game's ``meta["access"]`` (``None``: a game made before invitations existed).
        seat: the seat claimed.
        given: the invitation sent, or ``None``.
    Raises:
        ApiError 401 ``missing_invitation``: no invitation, and the game is not open.
        ApiError 403 ``wrong_invitation``: not this seat's invitation (compared in constant time).
    """
    if access is not None and access.get("open"):
        return
    if given is None:
        raise ApiError(401, "missing_invitation",
                       f'seat {seat} of this game is claimed with its invitation: send {{"invitation": "..."}}')
    stored = ((access or {}).get("invitations") or {}).get(str(seat))
    if not hmac.compare_digest(digest(given), stored or _NO_DIGEST) or stored is None:
        raise ApiError(403, "wrong_invitation", f"this is not the invitation of seat {seat} of this game")
