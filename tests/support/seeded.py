"""Seeded random games on the rules' forward model (:mod:`services.rules.core.forward`), for tests
that need the events and decisions of real games without a stack."""

from __future__ import annotations

import random
from typing import Any, Callable

from services.rules.core import GameConfig
from services.rules.core.forward import apply, apply_phase, chance_from, start


def random_game(rules: Any, players: int, seed: str, option_share: float,
                on_decision: Callable[[Any, int, list[dict[str, Any]]], None] | None = None) -> list[Any]:
    """Play one game of ``rules`` for ``players`` seats to its end: each variant switched on with
    probability ``option_share`` (Friend or Foe only with 4 seats), every decision a uniformly random
    legal move, phases run as they come; the rng and the chance both seeded by ``seed``.
    ``on_decision(state, seat, legal_moves)`` sees each decision before its move is played.
    Returns the game's events, set-up first."""
    rng = random.Random(seed)
    options = {o: True for o in sorted(rules.option_names)
               if rng.random() < option_share and (o != "friend_or_foe" or players == 4)}
    chance = chance_from(seed)
    state, events = start(rules, GameConfig(game=rules.name, players=players, options=options), chance)
    while rules.outcome(state) is None:
        if rules.pending_phase(state):
            events += apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        moves = rules.legal_moves(state, seat)
        if on_decision is not None:
            on_decision(state, seat, moves)
        events += apply(rules, state, seat, rng.choice(moves), chance)
    return events
