"""``legal_moves`` generates exactly the moves that checking every candidate accepts, each
once, in the same order (the reference: every candidate of ``candidates`` that ``check``
accepts, a repeated move kept once), at every decision of whole random games, with both
options and the frog, winter and the mountain in play."""

import random

import pytest

from services.rules.core import GameConfig, IllegalMove
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.gnomes import turns
from services.rules.gnomes.rules import OPTIONS

from .helpers import RULES


def _reference(state, seat):
    out, seen = [], set()
    for move in turns.candidates(state, seat):
        key = repr(sorted(move.items()))
        if key in seen:
            continue
        try:
            turns.check(state, seat, move)
        except IllegalMove:
            continue
        seen.add(key)
        out.append(move)
    return out


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c"), (4, "d")])
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    rng = random.Random(seed)
    options = {o: True for o in OPTIONS if rng.random() < 0.5}
    config = GameConfig(game="gnomes", players=players, options=options)
    state = RULES.new_state()
    RULES.evolve(state, RULES.created_event(config))
    chance = chance_from(seed)
    resolve(RULES, state, RULES.setup_ops(config), chance)
    decisions = 0
    kinds = set()
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
        kinds.update(m["type"] for m in fast)
        apply(RULES, state, seat, rng.choice(fast), chance, checked=True)
        decisions += 1
    assert decisions > 100
    assert {"travel", "three_for_free", "equipment", "pick", "scout", "sleep"} <= kinds
