"""``legal_moves`` generates exactly the moves that checking every candidate accepts, in the
same order (the reference is ``Rules.legal_moves`` of the rules core: generate, then check
each), at every decision of whole random games; and the allocation targets, counted with the
markers and the claimed builds gathered once, are the table's rows read one by one."""

import random

import pytest

from services.rules.core import GameConfig, Rules
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.resource_hog import events, turns
from services.rules.resource_hog.content import content

from .helpers import RULES


def _reference(state, seat):
    return Rules.legal_moves(RULES, state, seat)


def _reference_builds(state, area):
    """The ``build:`` targets of ``area``, each building's markers and cost read on its own."""
    a = state.lands[area]
    out = []
    for b in content().buildings.buildings:
        left = events.markers_left(state, b.id)
        if not a.work.get(f"build:{b.id}") and events.cannot_build(a, b.id, a.buildings, a.fields) is None \
                and (left is None or left > 0) and turns.affordable(state, area, b.id):
            out.append(f"build:{b.id}")
    return out


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c")])
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    rng = random.Random(seed)
    config = GameConfig(game="resource_hog", players=players)
    state = RULES.new_state()
    RULES.evolve(state, RULES.created_event(config))
    chance = chance_from(seed)
    resolve(RULES, state, RULES.setup_ops(config), chance)
    decisions = allocations = 0
    while RULES.outcome(state) is None and decisions < 900:
        if RULES.pending_phase(state):
            apply_phase(RULES, state, chance)
            continue
        seat = RULES.to_move(state)[0]
        fast = RULES.legal_moves(state, seat)
        assert fast == _reference(state, seat)
        for other in range(players):
            if other not in RULES.to_move(state):
                assert RULES.legal_moves(state, other) == []
        for area in {m["area"] for m in fast if m["type"] == "allocate"}:
            builds = [w for w in turns.work_targets(state, area) if w.startswith("build:")]
            assert builds == _reference_builds(state, area)
            allocations += 1
        apply(RULES, state, seat, rng.choice(fast), chance, checked=True)
        decisions += 1
    assert decisions > 50 and allocations > 10
