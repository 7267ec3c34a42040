"""The forward model for Resource Hog: a copy is equal to its state and independent of it
(DESIGN "the forward model"), at every step of whole games."""

from __future__ import annotations

import random

from services.rules.core import GameConfig, state_hash
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.resource_hog import GAME as RULES


def test_a_copy_is_equal_and_playing_on_it_leaves_the_original_alone():
    for players in (2, 4):
        config = GameConfig(game="resource_hog", players=players)
        state = RULES.new_state()
        RULES.evolve(state, RULES.created_event(config))
        chance = chance_from(f"copies-{players}")
        resolve(RULES, state, RULES.setup_ops(config), chance)
        rng = random.Random(players)
        steps = 0
        while RULES.outcome(state) is None:
            if RULES.pending_phase(state):
                apply_phase(RULES, state, chance)
                continue
            seat = RULES.to_move(state)[0]
            legal = RULES.legal_moves(state, seat)
            before = state_hash(state)
            copy = RULES.copy(state)
            assert state_hash(copy) == before
            apply(RULES, copy, seat, rng.choice(legal), chance, checked=True)
            assert state_hash(state) == before
            apply(RULES, state, seat, rng.choice(legal), chance, checked=True)
            steps += 1
        assert steps > 50
