"""A check shared by every game's forward-model tests: at each step of a whole seeded game a
copy hashes like the state, and playing on the copy leaves the state alone."""

from __future__ import annotations

import random
from typing import Any

from services.rules.core import state_hash
from services.rules.core.forward import apply, apply_phase, chance_from, start


def play_checking_copies(rules: Any, config: Any, seed: str) -> int:
    """Play ``config`` to its end with random legal moves, checking copies at every decision;
    returns the number of decisions."""
    chance = chance_from(seed)
    state, _ = start(rules, config, chance)
    rng = random.Random(seed)
    steps = 0
    while rules.outcome(state) is None:
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        legal = rules.legal_moves(state, seat)
        before = state_hash(state)
        copy = rules.copy(state)
        assert state_hash(copy) == before
        apply(rules, copy, seat, rng.choice(legal), chance, checked=True)
        assert state_hash(state) == before
        apply(rules, state, seat, rng.choice(legal), chance, checked=True)
        steps += 1
    return steps
