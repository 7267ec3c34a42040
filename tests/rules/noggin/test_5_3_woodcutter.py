"""Woodcutter (rulebook 5.3): the forest trail and the Orchard."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content

from .helpers import RULES, normal_turn, run, seated


def _turn():
    return normal_turn(seated(3), 0, [10, 16, 17, 18])


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


def test_orchard_or_forest_not_both():
    """5.3: Wood comes from the forest OR the Orchard; an Orchard tree costs 1 Step."""
    s = _turn()
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    assert s.players[0].orchard == 1 and s.players[0].stock["wood"] == 1
    with pytest.raises(IllegalMove, match="forest OR the Orchard"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})


def test_woodcutter_stops_in_an_empty_clearing():
    """5.3: he must stop in a clearing even with no wood left there (1 Step)."""
    s = _turn()
    s.forest[0] = 0
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert s.woodcutter == 0 and s.action.cart.get("wood", 0) == 0 and s.markers[0].pos == 11


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
