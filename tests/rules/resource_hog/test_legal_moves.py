"""``legal_moves`` generates exactly the moves that checking every candidate accepts, in the
same order (the reference is ``Rules.legal_moves`` of the rules core: generate, then check
each), at every decision of whole random games; and the allocation targets, counted with the
markers and the claimed builds gathered once, are the table's rows read one by one."""

import pytest

from services.rules.core import Rules
from services.rules.resource_hog import events, turns
from services.rules.resource_hog.content import content
from tests.support.seeded import random_game

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
    decisions, allocations = [], []

    def compare(state, seat, fast):
        assert fast == _reference(state, seat)
        for other in range(players):
            if other not in RULES.to_move(state):
                assert RULES.legal_moves(state, other) == []
        for area in {m["area"] for m in fast if m["type"] == "allocate"}:
            builds = [w for w in turns.work_targets(state, area) if w.startswith("build:")]
            assert builds == _reference_builds(state, area)
            allocations.append(area)
        decisions.append(seat)

    random_game(RULES, players, seed, 0.0, on_decision=compare)
    assert len(decisions) > 50 and len(allocations) > 10


def test_trade_moves_of_every_kind_are_compared():
    """The trade action's moves (generated legal) come up of every kind in random games, each
    list held to generate-and-check."""
    kinds = set()

    def compare(state, seat, fast):
        if any(m["type"] in ("buy", "sell", "ship") for m in fast):
            assert fast == _reference(state, seat)
            kinds.update((m["type"], m["good"] if m["good"] in ("slave", "mercenary") else "goods") for m in fast
                         if m["type"] in ("buy", "sell", "ship"))

    for players, seed in [(2, "t1"), (3, "t2"), (4, "t3"), (4, "t4")]:
        random_game(RULES, players, seed, 0.5, on_decision=compare)
    assert kinds == {("buy", "goods"), ("sell", "goods"), ("ship", "goods"), ("buy", "slave"), ("sell", "slave"),
                     ("buy", "mercenary")}
