"""Farmer (rulebook 5.4): sowing in Spring, reaping in Summer and Autumn, apples in Autumn."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated


def _turn(runestone):
    return normal_turn(seated(3), 0, [runestone, runestone + 6, runestone + 7, runestone + 8])


def test_sow_one_field_per_step_in_spring():
    """5.4 (house rule for ambiguity 5): 1 Step puts 2 Harvest from the market on one field."""
    s = _turn(0)  # season 1, Spring
    s.players[0].fields = [0, 0]
    run(s, 0, {"type": "farmer", "op": "sow", "field": 1})
    assert s.players[0].fields == [0, 2] and s.market["harvest"] == 6 - 2 and s.markers[0].pos == 1
    with pytest.raises(IllegalMove, match="already sown"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 1})


def test_sowing_needs_two_harvest_at_the_market():
    """5.4 note: not enough yellow cubes at the market, no sowing."""
    s = _turn(0)
    s.players[0].fields = [0, 0]
    s.market["harvest"] = 1
    with pytest.raises(IllegalMove, match="needs 2 Harvest"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})


def test_sow_only_in_spring_and_reap_only_in_summer_or_autumn():
    """5.4: sowing in Spring, harvesting in Summer or Autumn."""
    s = _turn(10)  # Summer
    with pytest.raises(IllegalMove, match="only be sown in Spring"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})
    run(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
    assert s.players[0].stock["harvest"] == 2 and s.players[0].fields == [0, 2]
    s2 = _turn(0)
    with pytest.raises(IllegalMove, match="Summer or Autumn"):
        RULES.check(s2, 0, {"type": "farmer", "op": "harvest", "field": 0})


def test_apples_in_autumn_one_step_each():
    """5.4: in Autumn each Orchard tree earns 1 Harvest from the market for 1 Step."""
    s = _turn(20)  # Autumn
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 1})
    assert s.players[0].stock["harvest"] == 2 and s.market["harvest"] == 4 and s.markers[0].pos == 22
    with pytest.raises(IllegalMove, match="already picked"):
        RULES.check(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    with pytest.raises(IllegalMove, match="only be picked in Autumn"):
        RULES.check(_turn(10), 0, {"type": "farmer", "op": "apple", "tree": 0})


def test_a_tree_gives_one_apple_per_action_and_no_farming_in_winter():
    """5.4: one Harvest per Orchard tree per Farmer action (house rule); Winter has no sowing,
    harvest or apples; a built-on field cannot be sown."""
    s = _turn(20)  # Autumn
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    with pytest.raises(IllegalMove, match="already picked"):
        RULES.check(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    w = _turn(30)  # Winter
    for move in ({"type": "farmer", "op": "sow", "field": 0}, {"type": "farmer", "op": "harvest", "field": 0},
                 {"type": "farmer", "op": "apple", "tree": 0}):
        with pytest.raises(IllegalMove):
            RULES.check(w, 0, move)
    sp = _turn(0)
    sp.players[0].fields = [0, 0]
    sp.players[0].buildings["granary"] = "field0"
    with pytest.raises(IllegalMove, match="building"):
        RULES.check(sp, 0, {"type": "farmer", "op": "sow", "field": 0})
