"""``legal_moves`` generates exactly the moves that checking every candidate accepts, each
once, in the same order (the reference: every candidate of ``candidates`` that ``check``
accepts, a repeated move kept once), at every decision of whole random games, with both
options and the frog, winter and the mountain in play."""

import pytest

from services.rules.core import IllegalMove
from services.rules.gnomes import turns
from tests.support.seeded import random_game

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


@pytest.mark.parametrize("players,seed", [(2, "f"), (3, "b"), (4, "c"), (4, "d")])
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    kinds = set()
    decisions = []

    def compare(state, seat, fast):
        assert fast == _reference(state, seat)
        for other in range(players):
            if other != seat:
                assert RULES.legal_moves(state, other) == []
        kinds.update(m["type"] for m in fast)
        decisions.append(seat)

    random_game(RULES, players, seed, 0.5, on_decision=compare)
    assert len(decisions) > 100
    assert {"travel", "three_for_free", "equipment", "pick", "scout", "sleep"} <= kinds
