"""Playing a seat through the gateway: what every built-in bot that plays over HTTP shares.

A bot reads the legal moves (which carry the version they were computed at), decides, and
posts its choice with a fresh move id and that version; on a 409 (the version moved on)
it reads again and decides again, a bounded number of times.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from .client import Conflict


class MoveClient(Protocol):
    """What a bot needs from a client (``GatewayClient`` or a test double)."""

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]: ...

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None) -> dict[str, Any]: ...


def play_through(client: MoveClient, game_id: str, token: str,
                 decide: Callable[[dict[str, Any]], dict[str, Any] | None], attempts: int = 5) -> dict[str, Any] | None:
    """One move of the seat of ``token`` through the gateway, shared by the built-in bots: read
    the legal moves, ``decide(legal)`` (``None``: read again), post the choice with the version
    the moves came with; on a 409 read and decide again, at most ``attempts`` times.

    Returns ``{"version", "events", "move"}``, or ``None`` if the seat has no legal move now.
    Raises :class:`Conflict` if still stale after ``attempts`` reads.
    """
    for attempt in range(attempts):
        legal = client.legal_moves(game_id, token)
        if not legal["moves"]:
            return None
        move = decide(legal)
        if move is None:
            continue
        try:
            result = client.move(game_id, token, move, legal["version"])
        except Conflict:
            if attempt == attempts - 1:
                raise
            continue
        return {**result, "move": move}
    return None
