"""The greedy bot: a one-move look-ahead on points and progress.

For each legal move it applies the move with the forward model
(:mod:`services.rules.core.forward`) to a copy of the state it may know — rebuilt from
its player view, the hidden parts sampled (``Rules.state_from_view``), chance drawn with
its own seed — and keeps the move whose result scores best for its seat by
the game's evaluation (:mod:`services.bots.evaluation`; with the game's ``GREEDY_WEIGHTS`` over its
defaults where it has them, e.g. Noggin's, which make one move's look-ahead feed the Sagas); ties go to its own seeded generator. It never reads the true hidden
state: the embedded driver hands it the seat's player view, the HTTP driver reads it
from the gateway.

For a game without an evaluation here it plays like the random bot.
"""

from __future__ import annotations

import random
from typing import Any

from services.rules.core import IllegalMove, get_rules
from services.rules.core.forward import apply, chance_from

from . import evaluation

EXPLORE = 0.1
"""Share of decisions made at random, so that a batch of greedy games varies (epsilon-greedy)."""
MAX_EVALUATED = 48
"""At most this many legal moves are looked at per decision (a seeded sample); moves on
cards, bids and other decisions are always looked at."""
ALWAYS = ("saga", "invention", "auction", "evict", "character", "keep_card", "seers_tower", "fireworks", "bid",
          "builder", "restock", "use", "donate", "draw_reserve", "knut", "fishing_tokens")


ALWAYS_BY_GAME = {"noggin": ALWAYS, "gnomes": ("sell", "buy", "quest", "pick", "sleep", "discard", "pond_pipes",
                                               "climb", "restock", "end_turn"),
                  "resource_hog": ("orders", "done", "ransom", "buy", "sell", "ship", "move_nobles")}
"""Move kinds always evaluated, by game; the others are sampled (:data:`MAX_EVALUATED`)."""


def _kind(move: dict[str, Any]) -> str:
    return move.get("op", move["type"]) if move["type"] == "market_day" else move["type"]


class GreedyBot:
    """A seat played by one-move look-ahead (see the module docstring).

    Args:
        seed: seeds the bot's generator and its chance for simulated draws.
        name: shown in standings and reports.
        weights: overrides of the evaluation's weights (a playing style), e.g.
            ``{"building": 16.0}`` for Noggin (see :data:`NOGGIN_WEIGHTS`).
    """

    kind = "greedy"

    def __init__(self, seed: str | int, name: str = "greedy", weights: dict[str, float] | None = None):
        self.seed = str(seed)
        self.name = name
        self.weights = dict(weights or {})
        self.rng = random.Random(self.seed)
        self.decisions = 0

    def choose(self, moves: list[dict[str, Any]], view: dict[str, Any] | None = None,
               game: str | None = None, version: int | None = None) -> dict[str, Any]:
        """The best of ``moves`` for the seat of ``view`` (the player view), or a random one when
        there is no view or no evaluation for ``game`` (``version`` is not needed). Raises
        ValueError if there are no moves."""
        if not moves:
            raise ValueError("no legal moves to choose from")
        self.decisions += 1
        if view is None or not game or not evaluation.has_value(game) or len(moves) == 1 or self.rng.random() < EXPLORE:
            return moves[self.rng.randrange(len(moves))]
        rules = get_rules(game)
        seat = view["seat"]
        base = rules.state_from_view(view, f"{self.seed}:{self.decisions}")
        always = ALWAYS_BY_GAME.get(game or "", ())
        pool = [m for m in moves if _kind(m) in always]
        rest = [m for m in moves if _kind(m) not in always]
        if len(pool) + len(rest) > MAX_EVALUATED:
            rest = self.rng.sample(rest, max(0, min(len(rest), MAX_EVALUATED - len(pool))))
            pool = pool if len(pool) <= MAX_EVALUATED else self.rng.sample(pool, MAX_EVALUATED)
        weights = {**getattr(evaluation.module(game), "GREEDY_WEIGHTS", {}), **self.weights}
        best: list[dict[str, Any]] = []
        best_value = float("-inf")
        chance = chance_from(f"{self.seed}:sim:{self.decisions}")
        for move in pool + rest:
            state = rules.clone(base)
            try:
                apply(rules, state, seat, move, chance, checked=True)
            except IllegalMove:
                continue
            value = evaluation.value(game, state, seat, weights)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        if not best:
            return moves[self.rng.randrange(len(moves))]
        return best[self.rng.randrange(len(best))]
