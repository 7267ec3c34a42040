"""A check shared by every game's forward-model tests and the clone tests: at each step of a
seeded game a copy hashes like the state, and neither's moves reach the other."""

from __future__ import annotations

import random
from typing import Any, Callable

from services.rules.core import state_hash
from services.rules.core.forward import apply, apply_phase, chance_from, start


def play_checking_copies(rules: Any, config: Any, seed: str, copy: Callable[[Any], Any] | None = None,
                         max_decisions: int | None = None) -> int:
    """Play ``config`` to its end (or ``max_decisions``) with random legal moves, checking copies
    at every decision: a copy (``copy``, default ``rules.copy``) hashes like the state and has its
    legal moves, a move played on the copy leaves the state alone, and the state's own move leaves
    a copy taken before it alone. Returns the number of decisions."""
    copy = copy or rules.copy
    chance = chance_from(seed)
    state, _ = start(rules, config, chance)
    rng = random.Random(seed)
    steps = 0
    while rules.outcome(state) is None and (max_decisions is None or steps < max_decisions):
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        legal = rules.legal_moves(state, seat)
        before = state_hash(state)
        twin = copy(state)
        assert state_hash(twin) == before and rules.legal_moves(twin, seat) == legal
        apply(rules, twin, seat, rng.choice(legal), chance_from(f"{seed}:twin:{steps}"), checked=True)
        assert state_hash(state) == before  # the copy's move left the original alone
        snapshot = copy(state)
        apply(rules, state, seat, rng.choice(legal), chance, checked=True)
        assert state_hash(snapshot) == before  # and the original's move left an earlier copy alone
        steps += 1
    return steps
