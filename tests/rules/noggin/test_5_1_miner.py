"""Miner (rulebook 5.1): dig, walk, discover, Gold."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated, totals, types


def _turn():
    return normal_turn(seated(3), 0, [10, 16, 17, 18])


def test_dig_takes_the_stone_into_the_cart_and_the_farm_at_the_end():
    """5.1 DIG: 1 Step, a square orthogonally next to the Miner, cube to the mine cart, Miner
    moves onto the square; Stone goes to the Farm when the action ends."""
    s = _turn()
    col = s.miner[1]
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    assert s.miner == [0, col] and s.markers[0].pos == 11
    assert s.action.cart == {"stone": 1} and s.mine[f"0,{col}"] == ""
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [2, col]})
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["stone"] == 2 and s.markers[0].pos == 12


def test_dig_must_be_adjacent():
    """5.1: only a square orthogonally next to the Miner."""
    s = _turn()
    with pytest.raises(IllegalMove, match="orthogonally next to him"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [1, s.miner[1]]})


def test_walk_through_empty_galleries_for_one_step():
    """5.1 WALK: 1 Step for any number of empty gallery squares."""
    s = _turn()
    col = s.miner[1]
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    run(s, 0, {"type": "miner", "op": "walk", "square": [-1, col + 3]})
    assert s.miner == [-1, col + 3] and s.markers[0].pos == 12
    with pytest.raises(IllegalMove, match="empty gallery"):
        RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [2, col]})


def test_discover_needs_nine_stone_at_the_market():
    """5.1: at least 9 Stone at the Nog Market to discover (8 at the start is not enough)."""
    s = _turn()
    s.miner = [1, 4]  # a tunnel square on the left edge of the starting tile
    s.mine["1,4"] = ""
    with pytest.raises(IllegalMove, match="at least 9 Stone"):
        RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})


def test_discover_places_a_gold_tile_filled_from_the_market():
    """5.1: 1 Step; the drawn tile gets 1 Gold cube on its nugget and Stone from the market on
    its 9 gallery squares."""
    s = _turn()
    s.miner = [1, 4]
    s.mine["1,4"] = ""
    s.market["stone"] = 10
    before = totals(s)
    events = run(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 90, "flip": "v"})
    assert types(events)[-2:] == ["MineTileDrawn", "MineTileDiscovered"]
    placed = events[-1].data
    assert placed["slot"] == [0, 0] and len(placed["stone"]) == 9 and placed["gold"] is not None
    assert s.market["stone"] == 1 and s.gold_supply == 4 and s.mine_drawn == 1
    assert sum(1 for k, v in s.mine.items() if v == "gold") == 1
    assert s.markers[0].pos == 11
    assert totals(s) == before  # Stone and Gold only moved (set-up C totals)


def test_gold_fills_the_cart_but_not_the_farm():
    """5.1 GOLD and 3.7: Gold takes a cart space but no Farm space."""
    s = _turn()
    s.players[0].stock.update(stone=3, wood=3)  # Farm full
    col = s.miner[1]
    s.mine[f"0,{col}"] = "gold"
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    with pytest.raises(IllegalMove, match="no room for 1 more Stone"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    run(s, 0, {"type": "finish"})
    assert s.players[0].stock["gold"] == 1


def test_walk_only_through_empty_squares_and_not_through_stone():
    """5.1 WALK: only through empty gallery squares; a square behind Stone is out of reach."""
    s = _turn()
    col = s.miner[1]
    with pytest.raises(IllegalMove, match="empty gallery"):
        RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [1, col]})  # still Stone


def test_mine_cart_capacity_and_discover_needs_adjacency():
    """3.8 F: the mine cart carries 2 (4 upgraded); 5.1 DISCOVER: the Miner must stand in a
    tunnel square orthogonally next to the empty tile space."""
    s = _turn()
    col = s.miner[1]
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [2, col]})
    run(s, 0, {"type": "finish"})
    s.market["stone"] = 9
    s.active, s.markers[0].pos = 0, 13
    with pytest.raises(IllegalMove, match="orthogonally next to the empty"):
        RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [1, 0], "rotation": 0, "flip": "h"})
    RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})


def test_full_farm_the_miner_may_walk_or_dig_gold_but_not_dig_stone():
    """House rule (5.0 no-waste note): digging Stone needs room to store it, even to start;
    Gold takes no Farm space (3.7) and walking gathers nothing."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].stock.update(wood=6)
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [0, 4]})
    RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [-1, 5]})
    s.mine["0,4"] = "gold"
    RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [0, 4]})
