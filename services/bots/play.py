"""Playing a seat through the gateway: what every built-in bot that plays over HTTP shares.

A bot decides from the legal moves (which carry the version they were computed at) and posts its
choice with a fresh move id and that version, asking for its next decision in the same answer
(``?legal=true``: the answer's ``next`` holds the seat's legal moves when it still decides), so a
seat that keeps the decision spends one request a move. It reads the legal moves itself only
when it has none known (its first decision, another seat's turn ended), and on a 409 (the version
moved on) it reads again and decides again, a bounded number of times.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

from .client import Conflict


class MoveClient(Protocol):
    """What a bot needs from a client (``GatewayClient`` or a test double)."""

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]: ...

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None, legal: bool = False) -> dict[str, Any]: ...


def known_decision(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The seat's next decision carried by a move's answer (``{"version", "moves"}``), or ``None``
    when the answer holds none (the seat does not decide next, or the answer has no ``next``)."""
    nxt = (result or {}).get("next") or {}
    if not nxt.get("legal_moves"):
        return None
    return {"version": nxt["version"], "seat": nxt.get("seat"), "moves": nxt["legal_moves"]}


def play_through(client: MoveClient, game_id: str, token: str,
                 decide: Callable[[dict[str, Any]], dict[str, Any] | None], attempts: int = 5,
                 known: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """One move of the seat of ``token`` through the gateway, shared by the built-in bots:
    ``decide(legal)`` from ``known`` (the seat's legal moves ``{"version", "moves"}`` from its last
    answer or a wait) or, without it, from the legal moves read now (``None`` from ``decide``: read
    again); post the choice with the version the moves came with, asking for the next decision; on
    a 409 read and decide again, at most ``attempts`` times.

    Returns ``{"version", "events", "next", "move"}`` (``next``: :func:`known_decision` reads the
    seat's next legal moves from it), or ``None`` if the seat has no legal move now.
    Raises :class:`Conflict` if still stale after ``attempts`` reads.
    """
    for attempt in range(attempts):
        legal = known if attempt == 0 and known is not None else client.legal_moves(game_id, token)
        if not legal["moves"]:
            return None
        move = decide(legal)
        if move is None:
            continue
        try:
            result = client.move(game_id, token, move, legal["version"], legal=True)
        except Conflict:
            if attempt == attempts - 1:
                raise
            continue
        return {**result, "move": move}
    return None
