"""Woodcutter (rulebook 5.3): the forest trail and the Orchard."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content

from .helpers import RULES, normal_turn, run, seated


def _turn():
    return normal_turn(seated(3), 0, [10, 16, 17, 18])


@pytest.mark.rules("noggin:5.3/move-cost", "noggin:5.3/cut-printed-number", "noggin:5.3/cart-capacity", "noggin:5.3/continue-if-not-full")
def test_advance_cuts_the_printed_number_into_the_wood_cart():
    """5.3: 1 Step to the next clearing, cut its printed number of trees into the wood cart
    (capacity 2); move on while the cart is not full; Wood to the Farm at the end."""
    s = _turn()
    trail = content.load().forest.clearings
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert s.woodcutter == 0 and s.action.cart["wood"] == trail[0].number == 1
    run(s, 0, {"type": "woodcutter", "op": "advance"})  # clearing 1 prints 2, cart takes 1 more
    assert s.action.cart["wood"] == 2 and s.forest[0] == 5 - 2
    with pytest.raises(IllegalMove, match="wood cart is full"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["wood"] == 2 and s.markers[0].pos == 12


@pytest.mark.rules("noggin:5.3/forest-or-orchard", "noggin:5.3/orchard-cost")
def test_orchard_or_forest_not_both():
    """5.3: Wood comes from the forest OR the Orchard; an Orchard tree costs 1 Step."""
    s = _turn()
    events = run(s, 0, {"type": "woodcutter", "op": "orchard"})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [11]
    assert s.players[0].orchard == 1 and s.players[0].stock["wood"] == 1
    with pytest.raises(IllegalMove, match="forest OR the Orchard"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    f = _turn()
    run(f, 0, {"type": "woodcutter", "op": "advance"})
    with pytest.raises(IllegalMove, match="forest OR the Orchard"):
        RULES.check(f, 0, {"type": "woodcutter", "op": "orchard"})


@pytest.mark.rules("noggin:5.3/empty-clearing-costs")
def test_woodcutter_stops_in_an_empty_clearing():
    """5.3: he must stop in a clearing even with no wood left there (1 Step)."""
    s = _turn()
    s.forest[0] = 0
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [11]
    assert s.woodcutter == 0 and s.action.cart.get("wood", 0) == 0 and s.markers[0].pos == 11


@pytest.mark.rules("noggin:5.3/trail-counter-clockwise", "noggin:5.0/no-waste")
def test_trail_runs_in_order_and_wraps_and_no_waste():
    """5.3: the Woodcutter walks the trail clearing by clearing (counter-clockwise, content
    order) and wraps round; he cuts no more than storage can hold (5.0 note)."""
    s = _turn()
    s.woodcutter = len(content.load().forest.clearings) - 1
    s.players[0].stock.update(stone=5)  # room for 1 Wood only
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    moved = next(e for e in events if e.type == "WoodcutterMoved").data
    assert moved["clearing"] == 0 and moved["wood"] == 1 and s.forest[0] == 4
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})  # prints 2, storage now full
    moved = next(e for e in events if e.type == "WoodcutterMoved").data
    assert moved["clearing"] == 1 and moved["wood"] == 0 and s.forest[0] == 4


def test_no_woodcutter_action_starts_without_room_for_wood():
    """House rule (5.0 no-waste note, 5.2, 5.3): like the Fisherman, a Woodcutter action may
    not start when the seat has no room at all for Wood; the Woodcutters' Hut is room."""
    s = _turn()
    s.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room to store"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    s.players[0].buildings["woodcutters_hut"] = "meadow"
    RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})


@pytest.mark.rules("noggin:5.3/empty-clearing-costs")
def test_once_started_the_woodcutter_may_move_on_to_an_empty_clearing():
    """5.3: the Woodcutter must stop in a clearing even with no wood; once the action has
    started, moving on is allowed though storage is now full."""
    s = _turn()
    s.players[0].stock.update(stone=5)
    run(s, 0, {"type": "woodcutter", "op": "advance"})  # 1 Wood into the cart, storage now full
    assert s.action.cart["wood"] == 1
    s.forest[0] = 0
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert next(e for e in events if e.type == "WoodcutterMoved").data["wood"] == 0
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["wood"] == 1


@pytest.mark.rules("noggin:5.3/orchard-cost")
def test_orchard_wood_goes_to_the_farm_or_the_woodcutters_hut():
    """5.3: cutting one Orchard tree costs 1 Step; the Wood goes to the Farm, or to the
    Woodcutters' Hut (2 more Wood) when the Farm is full."""
    s = _turn()
    s.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "orchard"})
    s.players[0].buildings["woodcutters_hut"] = "meadow"
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    assert s.players[0].stock["wood"] == 2 and s.players[0].orchard == 0 and s.markers[0].pos == 12


@pytest.mark.rules("noggin:5.3/must-move-first", "noggin:5.3/move-cost")
def test_the_woodcutter_moves_to_a_new_clearing_before_cutting():
    """5.3: the Woodcutter never cuts where he stands; he first walks on to the next clearing:
    from clearing 1 (zone 0, full of trees) he walks to clearing 2 and cuts there, in zone 1;
    zone 0 keeps its trees."""
    s = _turn()
    s.woodcutter = 1
    events = run(s, 0, {"type": "woodcutter", "op": "advance"})
    moved = next(e for e in events if e.type == "WoodcutterMoved").data
    assert (moved["clearing"], moved["zone"], moved["wood"]) == (2, 1, 2)
    assert s.forest == [5, 3, 5, 5, 5] and s.markers[0].pos == 11


@pytest.mark.rules("noggin:5.3/cut-printed-number")
def test_cut_the_printed_number_if_possible():
    """5.3: the Woodcutter cuts the number printed at the clearing (1 or 2), or what is left in
    its zone if fewer trees remain."""
    trail = content.load().forest.clearings
    for clearing, left, cut in ((0, 5, 1), (1, 5, 2), (1, 1, 1), (3, 5, 1)):
        s = _turn()
        s.woodcutter = clearing - 1
        s.forest[trail[clearing].zone] = left
        events = run(s, 0, {"type": "woodcutter", "op": "advance"})
        assert next(e for e in events if e.type == "WoodcutterMoved").data["wood"] == cut
        assert s.forest[trail[clearing].zone] == left - cut


@pytest.mark.rules("noggin:5.3/cart-capacity", "noggin:5.3/continue-if-not-full")
def test_an_upgraded_wood_cart_carries_four():
    """5.3, 5.5: the Wood goes into the wood cart within its capacity (4 once upgraded); the
    Woodcutter moves on only while the cart is not full."""
    s = _turn()
    s.players[0].transports.append("wood_cart")
    for clearing, cart in ((0, 1), (1, 3), (2, 4)):  # printed 1, 2, 2: the third only fits 1
        run(s, 0, {"type": "woodcutter", "op": "advance"})
        assert (s.woodcutter, s.action.cart["wood"]) == (clearing, cart)
    with pytest.raises(IllegalMove, match="wood cart is full"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["wood"] == 4 and s.forest[:2] == [2, 4]


@pytest.mark.rules("noggin:5.3/stays-in-clearing")
def test_the_woodcutter_stays_in_his_last_clearing():
    """5.3: the Woodcutter stays in the clearing where he last cut; the next Woodcutter action
    (another player's here) leaves it for the following clearing."""
    s = normal_turn(seated(3), 0, [10, 11, 16, 17])
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "finish"})
    run(s, 0, {"type": "end_turn"})  # seat 1, on 11, is now last
    assert s.woodcutter == 1 and RULES.to_move(s) == [1]
    events = run(s, 1, {"type": "woodcutter", "op": "advance"})
    assert next(e for e in events if e.type == "WoodcutterMoved").data["clearing"] == 2


@pytest.mark.rules("noggin:5.3/stays-where-he-cut")
def test_the_woodcutter_stays_where_he_last_cut_not_where_he_last_stopped():
    """5.3: he stays in the last clearing where he cut wood, not in an empty clearing he
    walked on to; an action that cut nothing leaves him where it began (house rule)."""
    s = _turn()
    s.players[0].transports.append("wood_cart")
    s.forest[1] = 0  # clearings 0 and 1 (zone 0) have trees; clearing 2 (zone 1) none
    trail = content.load().forest.clearings
    assert (trail[0].zone, trail[1].zone, trail[2].zone) == (0, 0, 1)
    run(s, 0, {"type": "woodcutter", "op": "advance"})  # cuts 1 in clearing 0
    run(s, 0, {"type": "woodcutter", "op": "advance"})  # cuts 2 in clearing 1
    run(s, 0, {"type": "woodcutter", "op": "advance"})  # clearing 2: nothing to cut
    assert s.woodcutter == 2 and s.action.cart["wood"] == 3
    run(s, 0, {"type": "finish"})
    assert s.woodcutter == 1
    empty = _turn()
    empty.forest[0] = 0
    start = empty.woodcutter
    run(empty, 0, {"type": "woodcutter", "op": "advance"})
    run(empty, 0, {"type": "finish"})
    assert empty.woodcutter == start


@pytest.mark.rules("noggin:5.3/trail-counter-clockwise")
def test_the_trail_visits_every_clearing_in_order():
    """5.3: the trail is followed counter-clockwise, clearing after clearing (the content's
    trail order), round and round."""
    s = _turn()
    s.players[0].transports.append("wood_cart")
    s.forest = [40] * 5  # every clearing has trees to cut, so he stays where he cut
    visited = []
    for k in range(12):
        s.active, s.markers[0].pos = 0, 10  # a new Woodcutter action each time
        s.players[0].uses["woodcutter"], s.players[0].mountains = 0, 10
        s.players[0].stock["wood"] = 0
        events = run(s, 0, {"type": "woodcutter", "op": "advance"})
        visited.append(next(e for e in events if e.type == "WoodcutterMoved").data["clearing"])
        run(s, 0, {"type": "finish"})
    assert visited == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]
    assert [c.id for c in content.load().forest.clearings] == list(range(10))
