"""Restock (rulebook 5.6)."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.market.update(wood=12, fish=12)
    s.forest = [0, 0, 0, 0, 0]
    return s


@pytest.mark.parametrize("amount,points", [(4, 0), (8, 2), (12, 4)])
def test_restock_points(amount, points):
    """5.6: 2 Steps; 4 = 0 points, 8 = 2 points, 12 = 4 points."""
    s = _turn()
    run(s, 0, {"type": "restock", "kind": "fish", "amount": amount})
    assert s.players[0].score == points and s.fjord == 23 + amount and s.market["fish"] == 12 - amount
    assert s.markers[0].pos == 12


def test_trees_to_orchard_then_one_per_clearing():
    """5.6: trees to the active player's Orchard (max 2) and the forest, one per clearing from
    the Woodcutter's clearing along the trail."""
    s = _turn()
    s.players[0].orchard = 0
    run(s, 0, {"type": "restock", "kind": "trees", "amount": 8, "orchard": 2})
    # 6 forest cubes on clearings 0-5, two clearings per zone
    assert s.players[0].orchard == 2 and s.forest == [2, 2, 2, 0, 0]
    assert s.market["wood"] == 4 and s.players[0].score == 2


def test_not_more_than_the_market_holds():
    """5.6: if the market lacks the quantity, choose a lower number."""
    s = _turn()
    s.market["fish"] = 7
    with pytest.raises(IllegalMove, match="choose a lower number"):
        RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 8, "orchard": 0})
    RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 4, "orchard": 0})


def test_fish_go_to_the_fjord_and_the_orchard_holds_two():
    """5.6: restocked fish go to the fjord; the Orchard takes at most 2 trees in all and none
    once built on."""
    s = _turn()
    fjord = s.fjord
    run(s, 0, {"type": "restock", "kind": "fish", "amount": 8})
    assert s.fjord == fjord + 8 and s.market["fish"] == 4 and s.players[0].score == 2
    s.active, s.markers[0].pos = 0, 12
    s.players[0].orchard = 1
    with pytest.raises(IllegalMove, match="at most 2"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 2})
    s.players[0].orchard = 0
    s.players[0].buildings["granary"] = "orchard"
    with pytest.raises(IllegalMove, match="building"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 1})


def test_shape_problems_are_reported_before_availability():
    """5.6: fish never go to the Orchard; say so even when the market also lacks fish."""
    s = _turn()
    s.market["fish"] = 0
    with pytest.raises(IllegalMove, match="not the Orchard"):
        RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 4, "orchard": 2})
    s.market["wood"] = 0
    s.players[0].orchard = 1
    with pytest.raises(IllegalMove, match="at most 2"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 4, "orchard": 2})
