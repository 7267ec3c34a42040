"""The forward model for A Game of Gnomes: a copy is equal to its state and independent of it,
so search can play moves on copies (DESIGN "the forward model")."""

from __future__ import annotations

import random

from services.rules.core import state_hash
from services.rules.core.forward import apply, apply_phase

from .helpers import RULES, active, new_game


def test_a_copy_is_equal_and_playing_on_it_leaves_the_original_alone():
    """At every step of a whole game a copy hashes like the state, and resolving a legal move
    on the copy changes the copy only."""
    state, chance = new_game(4, seed="copies", random_layout=True)
    rng = random.Random(5)
    steps = 0
    while RULES.outcome(state) is None:
        if RULES.pending_phase(state):
            apply_phase(RULES, state, chance)
            continue
        seat = active(state)
        legal = RULES.legal_moves(state, seat)
        before = state_hash(state)
        copy = RULES.copy(state)
        assert state_hash(copy) == before
        apply(RULES, copy, seat, rng.choice(legal), chance, checked=True)
        assert state_hash(state) == before
        apply(RULES, state, seat, rng.choice(legal), chance, checked=True)
        steps += 1
    assert steps > 50
