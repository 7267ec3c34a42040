"""The random bot: picks uniformly among the legal moves, with its own seeded generator.

It plays through the gateway like any client: read the legal moves (which carry the
version they were computed at), pick one, post it with a fresh move id and that
version. On a 409 (the version moved on) it reads again and picks again, a bounded
number of times. Given the same seed and the same sequence of legal-move lists it makes
the same choices, so a seeded game between random bots is reproducible.
"""

from __future__ import annotations

import random
from typing import Any

from .play import MoveClient, play_through


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

    def choose(self, moves: list[dict[str, Any]], view: dict[str, Any] | None = None, game: str | None = None,
               version: int | None = None) -> dict[str, Any]:
        """One of ``moves``, uniformly (``view``, ``game`` and ``version`` are not needed). Raises
        ValueError if there are none."""
        if not moves:
            raise ValueError("no legal moves to choose from")
        return moves[self.rng.randrange(len(moves))]

    def play(self, client: MoveClient, game_id: str, token: str, attempts: int = 5,
             known: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Make one move for the seat of ``token`` if it has one; ``known``: its legal moves
        ``{"version", "moves"}`` from its last answer (:func:`~services.bots.play.known_decision`),
        so nothing is read first.

        Returns:
            ``{"version", "events", "next", "move"}`` of the accepted move (``next``: the game after
            it, with the seat's next legal moves), or ``None`` if the seat has no legal move now
            (not its turn, a phase is running, the game is over).
        Raises:
            Conflict: still stale after ``attempts`` reads.
            GatewayError: the gateway refused the move for another reason.
        """
        return play_through(client, game_id, token, lambda legal: self.choose(legal["moves"]), attempts, known)
