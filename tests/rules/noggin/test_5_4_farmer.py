"""Farmer (rulebook 5.4): sowing in Spring, reaping in Summer and Autumn, apples in Autumn."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, run_phase, seated


def _turn(runestone):
    return normal_turn(seated(3), 0, [runestone, runestone + 6, runestone + 7, runestone + 8])


@pytest.mark.rules("noggin:5.4/sow-cost")
def test_sow_one_field_per_step_in_spring():
    """5.4 (house rule for ambiguity 5): 1 Step puts 2 Harvest from the market on one field."""
    s = _turn(0)  # season 1, Spring
    s.players[0].fields = [0, 0]
    run(s, 0, {"type": "farmer", "op": "sow", "field": 1})
    assert s.players[0].fields == [0, 2] and s.market["harvest"] == 6 - 2 and s.markers[0].pos == 1
    with pytest.raises(IllegalMove, match="already sown"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 1})


@pytest.mark.rules("noggin:5.4/sow-needs-market")
def test_sowing_needs_two_harvest_at_the_market():
    """5.4 note: not enough yellow cubes at the market, no sowing."""
    s = _turn(0)
    s.players[0].fields = [0, 0]
    s.market["harvest"] = 1
    with pytest.raises(IllegalMove, match="needs 2 Harvest"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})
    assert not [m for m in RULES.legal_moves(s, 0) if m["type"] == "farmer"]
    s.market["harvest"] = 2
    RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})


@pytest.mark.rules("noggin:5.4/sow-spring-only", "noggin:5.4/harvest-summer-autumn")
def test_sow_only_in_spring_and_reap_only_in_summer_or_autumn():
    """5.4: sowing in Spring, harvesting in Summer or Autumn."""
    s = _turn(10)  # Summer
    with pytest.raises(IllegalMove, match="only be sown in Spring"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})
    run(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
    assert s.players[0].stock["harvest"] == 2 and s.players[0].fields == [0, 2]
    s.players[0].fields = [0, 0]
    with pytest.raises(IllegalMove, match="only be sown in Spring"):
        RULES.check(s, 0, {"type": "farmer", "op": "sow", "field": 0})
    a = _turn(20)  # Autumn: reaping allowed too
    run(a, 0, {"type": "farmer", "op": "harvest", "field": 1})
    assert a.players[0].fields == [2, 0]
    s2 = _turn(0)
    with pytest.raises(IllegalMove, match="Summer or Autumn"):
        RULES.check(s2, 0, {"type": "farmer", "op": "harvest", "field": 0})


@pytest.mark.rules("noggin:5.4/apples-autumn")
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


@pytest.mark.rules("noggin:5.4/sow-spring-only", "noggin:5.4/harvest-summer-autumn", "noggin:5.4/apples-autumn")
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


@pytest.mark.rules("noggin:5.4/harvest-cost")
def test_reaping_a_field_costs_one_step_into_the_farm_or_granary():
    """5.4: reaping one field's 2 Harvest costs 1 Step; they go to the Farm, or to the Granary
    (2 more Harvest, appendix) when the Farm is full."""
    s = _turn(10)
    events = run(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [11]
    assert next(e for e in events if e.type == "FieldHarvested").data["harvest"] == 2
    g = _turn(10)
    g.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room for 2 more Harvest"):
        RULES.check(g, 0, {"type": "farmer", "op": "harvest", "field": 0})
    g.players[0].buildings["granary"] = "meadow"
    run(g, 0, {"type": "farmer", "op": "harvest", "field": 0})
    assert g.players[0].stock["harvest"] == 2 and g.players[0].fields == [0, 2]


@pytest.mark.rules("noggin:5.4/apples-repeat", "noggin:5.4/apples-autumn")
def test_another_farmer_action_in_autumn_picks_again():
    """5.4: further Farmer actions in Autumn let the player pick the same trees again (each
    pick takes 1 Harvest from the market for 1 Step)."""
    s = _turn(20)
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 1})
    run(s, 0, {"type": "finish"})
    events = run(s, 0, {"type": "farmer", "op": "apple", "tree": 0})
    assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == 2
    run(s, 0, {"type": "farmer", "op": "apple", "tree": 1})
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["harvest"] == 4 and s.market["harvest"] == 2 and s.markers[0].pos == 24


@pytest.mark.rules("noggin:5.4/winter-wilts")
def test_harvest_left_in_the_fields_dies_in_winter():
    """5.4, 7.2: Harvest still in the fields when Winter comes dies and goes back to the market."""
    s = _turn(30)
    s.season, s.active = 3, None  # the Runestone on 30: Autumn ends
    s.players[0].fields = [2, 0]
    s.players[1].fields = [2, 2]
    market = s.market["harvest"]
    events = run_phase(s)
    assert next(e for e in events if e.type == "HarvestsWilted").data["harvest"] == [2, 4, 4]
    assert s.season == 4 and all(p.fields == [0, 0] for p in s.players)
    assert s.market["harvest"] == market + 10
