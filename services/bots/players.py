"""The built-in bots as players: objects that choose a move from the legal moves and the seat's
player view, on an in-process table (:mod:`.embedded`) or through the gateway (``play``).

Every bot has ``kind``, ``name`` and ``choose(moves, view=None, game=None, version=None)``;
:func:`make_bot` builds one of any kind of :data:`services.bots.decide.BOT_KINDS`: the random
bot draws from its own seeded sequence; every other kind decides as on the bus
(:func:`services.bots.decide.decide_from_view`), a function of its seed, the version and the
view.
"""

from __future__ import annotations

import random
from typing import Any

from services.rules.core import get_rules

from .decide import BOT_KINDS, SEARCH_KINDS, decide_from_view
from .play import MoveClient, play_through
from .random_bot import RandomBot


class ViewBot:
    """A seat played by :func:`services.bots.decide.decide_from_view` of ``kind`` (any kind but
    ``random``): the same choice the bot makes on the bus for the same seed, version and view,
    whichever process asks and however often.

    Args:
        kind: one of :data:`services.bots.decide.BOT_KINDS`.
        seed: the bot's seed.
        name: shown in standings and reports.
        iterations: the search budget per decision (``expert`` and ``ismcts`` only).
    """

    def __init__(self, kind: str, seed: str | int, name: str | None = None, iterations: int | None = None):
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot {kind!r}; built-in bots: {', '.join(BOT_KINDS)}")
        self.kind = kind
        self.seed = str(seed)
        self.name = name or kind
        self.iterations = iterations
        self.decisions = 0

    def choose(self, moves: list[dict[str, Any]], view: dict[str, Any] | None = None,
               game: str | None = None, version: int | None = None) -> dict[str, Any]:
        """The bot's choice among ``moves`` for the seat of ``view`` in ``game``; ``version`` fixes
        the decision (default: the count of this bot's decisions). Without a view or a game it
        picks at random (seeded).

        Raises:
            ValueError: no moves.
        """
        if not moves:
            raise ValueError("no legal moves to choose from")
        self.decisions += 1
        version = self.decisions if version is None else version
        if view is None or not game:
            return moves[random.Random(f"{self.seed}:{version}").randrange(len(moves))]
        return decide_from_view(self.kind, self.seed, get_rules(game), view, version, moves, self.iterations)

    def play(self, client: MoveClient, game_id: str, token: str, attempts: int = 5,
             known: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Make one move for the seat of ``token`` through the gateway (reads its view, and its
        legal moves unless ``known``). Same contract as :meth:`services.bots.random_bot.RandomBot.play`."""
        def decide(legal: dict[str, Any]) -> dict[str, Any] | None:
            view = client.view(game_id, token)  # type: ignore[attr-defined]
            if view["version"] != legal["version"]:
                return None  # the game moved on between the two reads
            return self.choose(legal["moves"], view["view"], view["view"].get("config", {}).get("game"),
                               legal["version"])

        return play_through(client, game_id, token, decide, attempts, known)


def make_bot(kind: str, seed: str | int, name: str | None = None, iterations: int | None = None) -> Any:
    """A built-in bot of ``kind`` (one of :data:`services.bots.decide.BOT_KINDS`); ``iterations``
    is the search budget of ``ismcts`` and ``expert``.

    Raises:
        ValueError: an unknown kind, or ``iterations`` for a kind that does not search.
    """
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; built-in bots: {', '.join(BOT_KINDS)}")
    if iterations is not None and kind not in SEARCH_KINDS:
        raise ValueError(f"iterations are for a search bot ({', '.join(SEARCH_KINDS)}), not {kind!r}")
    if kind == "random":
        return RandomBot(seed, name=name or kind)
    return ViewBot(kind, seed, name, iterations)
