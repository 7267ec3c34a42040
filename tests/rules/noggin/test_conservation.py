"""Property: resources are conserved (rulebook 1.0 C, 3.7). Cubes only move between the
supply places (market, fjord, forest, orchards, fields, player stock, carts, mine); the
set-up totals never change, and no count goes negative."""

from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import RULES, fresh, run, run_phase, totals

SETUP = {2: {"harvest": 12, "wood": 24, "stone": 20, "fish": 15, "gold": 5},
         3: {"harvest": 18, "wood": 31, "stone": 20, "fish": 23, "gold": 5},
         4: {"harvest": 24, "wood": 38, "stone": 20, "fish": 30, "gold": 5}}


def _non_negative(state):
    assert min(state.market.values()) >= 0 and state.fjord >= 0 and min(state.forest) >= 0
    assert state.gold_supply >= 0
    for p in state.players:
        assert min(p.stock.values()) >= 0 and p.mountains >= 0 and p.reserve >= 0


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.text(min_size=1, max_size=6), rnd=st.randoms(use_true_random=False))
def test_cubes_are_conserved_through_random_play(players, seed, rnd):
    """Set-up C totals hold after every move and phase of a random game (up to 400 moves)."""
    state = fresh(players, seed)
    assert totals(state) == SETUP[players]
    for _ in range(400):
        if RULES.outcome(state) is not None:
            break
        if RULES.pending_phase(state):
            run_phase(state, seed)
        else:
            seat = RULES.to_move(state)[0]
            run(state, seat, rnd.choice(RULES.legal_moves(state, seat)), seed)
        assert totals(state) == SETUP[players]
        _non_negative(state)
