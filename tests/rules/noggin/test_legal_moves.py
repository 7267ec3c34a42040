"""``legal_moves`` generates exactly the moves that checking every candidate accepts, in the
same order (the reference is ``Rules.legal_moves`` of the rules core: generate, then check
each), at every decision of whole random games with every variant and card in play."""

import random

import pytest

from services.rules.core import GameConfig, Rules
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.noggin.rules import VARIANTS

from .helpers import RULES


def _reference(state, seat):
    return Rules.legal_moves(RULES, state, seat)


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c"), (4, "d")])
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    rng = random.Random(seed)
    options = {v: True for v in VARIANTS if rng.random() < 0.5 and (v != "friend_or_foe" or players == 4)}
    config = GameConfig(game="noggin", players=players, options=options)
    state = RULES.new_state()
    RULES.evolve(state, RULES.created_event(config))
    chance = chance_from(seed)
    resolve(RULES, state, RULES.setup_ops(config), chance)
    decisions = 0
    while RULES.outcome(state) is None and decisions < 900:
        if RULES.pending_phase(state):
            apply_phase(RULES, state, chance)
            continue
        seat = RULES.to_move(state)[0]
        fast = RULES.legal_moves(state, seat)
        assert fast == _reference(state, seat)
        for other in range(players):
            if other != seat:
                assert RULES.legal_moves(state, other) == []
        apply(RULES, state, seat, rng.choice(fast), chance, checked=True)
        decisions += 1
    assert decisions > 100
