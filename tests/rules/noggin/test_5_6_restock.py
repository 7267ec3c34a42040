"""Restock (rulebook 5.6)."""

import pytest

from services.rules.core import IllegalMove, MalformedMove

from .helpers import RULES, normal_turn, points, run, seated, types


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.market.update(wood=12, fish=12)
    s.forest = [0, 0, 0, 0, 0]
    return s


@pytest.mark.rules("noggin:5.6/points", "noggin:5.6/cost-two-steps", "noggin:5.6/exact-amounts", "noggin:5.6/fish-to-fjord")
@pytest.mark.parametrize("amount,points", [(4, 0), (8, 2), (12, 4)])
def test_restock_points(amount, points):
    """5.6: 2 Steps; 4 = 0 points, 8 = 2 points, 12 = 4 points."""
    s = _turn()
    events = run(s, 0, {"type": "restock", "kind": "fish", "amount": amount})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [12]
    assert s.players[0].score == points and s.fjord == 23 + amount and s.market["fish"] == 12 - amount
    assert s.markers[0].pos == 12


@pytest.mark.rules("noggin:5.6/orchard-max-two", "noggin:5.6/forest-from-woodcutter")
def test_trees_to_orchard_then_one_per_clearing():
    """5.6: trees to the active player's Orchard (max 2) and the forest, one per clearing from
    the Woodcutter's clearing along the trail."""
    s = _turn()
    s.players[0].orchard = 0
    run(s, 0, {"type": "restock", "kind": "trees", "amount": 8, "orchard": 2})
    # 6 forest cubes on clearings 0-5, two clearings per zone
    assert s.players[0].orchard == 2 and s.forest == [2, 2, 2, 0, 0]
    assert s.market["wood"] == 4 and s.players[0].score == 2


@pytest.mark.rules("noggin:5.6/lower-if-short")
def test_not_more_than_the_market_holds():
    """5.6: if the market lacks the quantity, choose a lower number."""
    s = _turn()
    s.market["fish"] = 7
    with pytest.raises(IllegalMove, match="choose a lower number"):
        RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 8, "orchard": 0})
    RULES.check(s, 0, {"type": "restock", "kind": "fish", "amount": 4, "orchard": 0})
    fish = sorted(m["amount"] for m in RULES.legal_moves(s, 0) if m["type"] == "restock" and m["kind"] == "fish")
    assert fish == [4]
    s.market["wood"] = 11
    with pytest.raises(IllegalMove, match="choose a lower number"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 12})
    RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 8})


@pytest.mark.rules("noggin:5.6/fish-to-fjord", "noggin:5.6/orchard-max-two")
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


@pytest.mark.rules("noggin:5.6/trees-or-fish")
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


@pytest.mark.rules("noggin:5.6/exact-amounts")
@pytest.mark.parametrize("amount", [1, 5, 6, 10, 16])
def test_only_four_eight_or_twelve(amount):
    """5.6: exactly 4, 8 or 12 cubes are taken from the market, no other number."""
    with pytest.raises(MalformedMove):
        RULES.parse_move({"type": "restock", "kind": "fish", "amount": amount})


@pytest.mark.rules("noggin:5.6/trees-or-fish", "noggin:5.6/cost-two-steps")
def test_one_restock_is_trees_or_fish_not_both():
    """5.6: one Restock moves trees or fish, not both: restocking fish moves no Wood and ends the
    action; trees need another Restock action (2 more Nogs, 2 more Steps)."""
    s = _turn()
    fjord, forest = s.fjord, list(s.forest)
    events = run(s, 0, {"type": "restock", "kind": "fish", "amount": 4})
    assert [e.data["kind"] for e in events if e.type == "Restocked"] == ["fish"]
    assert types(events)[-2:] == ["Restocked", "ActionFinished"]  # one sub-move, and the action is over
    assert s.action is None and s.market["wood"] == 12 and s.forest == forest and s.fjord == fjord + 4
    events = run(s, 0, {"type": "restock", "kind": "trees", "amount": 4})
    assert next(e for e in events if e.type == "ActionStarted").data["nogs"] == 2
    assert s.markers[0].pos == 14 and s.market["fish"] == 8 and s.market["wood"] == 8


@pytest.mark.rules("noggin:5.6/forest-from-woodcutter", "noggin:5.6/one-per-clearing")
def test_forest_restock_starts_at_the_woodcutter_one_cube_per_clearing():
    """5.6: forest restocking starts at the Woodcutter's clearing and follows the trail
    counter-clockwise, one cube per clearing on each pass (two clearings per zone): from
    clearing 5 (zone 2) 4 cubes go to clearings 5, 6, 7, 8 = zones 2, 3, 3, 4."""
    s = _turn()
    s.woodcutter = 5
    events = run(s, 0, {"type": "restock", "kind": "trees", "amount": 4})
    assert next(e for e in events if e.type == "Restocked").data["forest"] == [2, 3, 3, 4]
    assert s.forest == [0, 0, 1, 2, 1]
    t = _turn()  # 12 cubes from the starting space: one pass of 10 clearings, then 2 more
    events = run(t, 0, {"type": "restock", "kind": "trees", "amount": 12})
    assert next(e for e in events if e.type == "Restocked").data["forest"] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0]
    assert t.forest == [4, 2, 2, 2, 2] and t.players[0].score == 4


@pytest.mark.rules("noggin:5.6/skip-full")
def test_full_clearings_are_skipped():
    """5.6: a clearing whose hexagons are all full gets nothing; the cube goes on to the next."""
    s = _turn()
    s.forest = [6, 5, 0, 0, 0]  # zone 0 full (6 hexagons), zone 1 has one hexagon left
    run(s, 0, {"type": "restock", "kind": "trees", "amount": 4})
    assert s.forest == [6, 6, 2, 1, 0]


@pytest.mark.rules("noggin:5.6/market-example")
def test_market_example_of_6_6():
    """6.6 example: with 8 Stone at the market a Mine tile cannot be discovered (9 needed); with
    only 4 Wood a Restock of trees scores 0 (8 is not possible); fish (8 here) can still score 2."""
    s = _turn()
    s.market.update(stone=8, wood=4, fish=8)
    s.miner = [1, 4]  # next to the empty Mine slot on the left of the starting tile
    s.mine["1,4"] = ""
    with pytest.raises(IllegalMove, match="at least 9 Stone"):
        RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})
    with pytest.raises(IllegalMove, match="choose a lower number"):
        RULES.check(s, 0, {"type": "restock", "kind": "trees", "amount": 8})
    trees = RULES.copy(s)
    assert points(run(trees, 0, {"type": "restock", "kind": "trees", "amount": 4}), 0) == 0
    assert trees.players[0].score == 0
    events = run(s, 0, {"type": "restock", "kind": "fish", "amount": 8})
    assert points(events, 0, "restock") == 2 and s.players[0].score == 2
