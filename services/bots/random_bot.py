"""The random bot: picks uniformly among the legal moves, with its own seeded generator.

It plays through the gateway like any client: read the legal moves (which carry the
version they were computed at), pick one, post it with a fresh move id and that
version. On a 409 (the version moved on) it reads again and picks again, a bounded
number of times. Given the same seed and the same sequence of legal-move lists it makes
the same choices, so a seeded game between random bots is reproducible.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Protocol

from .client import Conflict


class MoveClient(Protocol):
    """What a bot needs from a client (``GatewayClient`` or a test double)."""

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]: ...

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None) -> dict[str, Any]: ...


class RandomBot:
    """A seat played by uniform random choice among the legal moves.

    Args:
        seed: seeds the bot's own ``random.Random`` (never the global generator).
        name: shown in standings and reports.
    """

    kind = "random"

    def __init__(self, seed: str | int, name: str = "random"):
        self.seed = str(seed)
        self.name = name
        self.rng = random.Random(self.seed)

    def choose(self, moves: list[dict[str, Any]]) -> dict[str, Any]:
        """One of ``moves``, uniformly. Raises ValueError if there are none."""
        if not moves:
            raise ValueError("no legal moves to choose from")
        return moves[self.rng.randrange(len(moves))]

    def play(self, client: MoveClient, game_id: str, token: str, attempts: int = 5) -> dict[str, Any] | None:
        """Make one move for the seat of ``token`` if it has one.

        Returns:
            ``{"version", "events", "move"}`` of the accepted move, or ``None`` if the seat
            has no legal move now (not its turn, a phase is running, the game is over).
        Raises:
            Conflict: still stale after ``attempts`` reads.
            GatewayError: the gateway refused the move for another reason.
        """
        return play_through(client, game_id, token, lambda legal: self.choose(legal["moves"]), attempts)


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


def bot_classes() -> dict[str, Any]:
    """Built-in bots by name: ``name -> class(seed, name=...)`` (random, greedy, ismcts)."""
    from .greedy_bot import GreedyBot
    from .ismcts import ISMCTSBot

    return {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot}


def make_bot(kind: str, seed: str | int, name: str | None = None) -> Any:
    """A built-in bot of ``kind`` (see :func:`bot_classes`). Raises ValueError for an unknown kind."""
    classes = bot_classes()
    try:
        cls = classes[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; built-in bots: {', '.join(sorted(classes))}") from None
    return cls(seed, name=name or kind)
