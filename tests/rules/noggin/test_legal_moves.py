"""``legal_moves`` generates exactly the moves that checking every candidate accepts, in the
same order (the reference is ``Rules.legal_moves`` of the rules core: generate, then check
each), at every decision of whole random games with every variant and card in play."""

import pytest

from services.rules.core import Rules
from tests.support.seeded import random_game

from .helpers import RULES


def _reference(state, seat):
    return Rules.legal_moves(RULES, state, seat)


@pytest.mark.parametrize("players,seed", [(2, "a"), (3, "b"), (4, "c"), (4, "d")])
def test_generated_legal_moves_equal_generate_and_check(players, seed):
    decisions = []

    def compare(state, seat, fast):
        assert fast == _reference(state, seat)
        for other in range(players):
            if other != seat:
                assert RULES.legal_moves(state, other) == []
        decisions.append(seat)

    random_game(RULES, players, seed, 0.5, on_decision=compare)
    assert len(decisions) > 100
