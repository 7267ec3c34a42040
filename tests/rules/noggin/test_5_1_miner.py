"""Miner (rulebook 5.1): dig, walk, discover, Gold."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import decks

from .helpers import RULES, chance_of, give, normal_turn, run, seated, totals, types


def _turn():
    return normal_turn(seated(3), 0, [10, 16, 17, 18])


@pytest.mark.rules("noggin:5.1/dig-cost", "noggin:5.1/dig-into-cart", "noggin:5.1/unload-at-end")
def test_dig_takes_the_stone_into_the_cart_and_the_farm_at_the_end():
    """5.1 DIG: 1 Step, a square orthogonally next to the Miner, cube to the mine cart, Miner
    moves onto the square; Stone goes to the Farm when the action ends."""
    s = _turn()
    col = s.miner[1]
    events = run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [11]
    assert s.miner == [0, col] and s.markers[0].pos == 11
    assert s.action.cart == {"stone": 1} and s.mine[f"0,{col}"] == ""
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, col]})
    assert s.markers[0].pos == 12 and s.players[0].stock["stone"] == 0  # still in the cart
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [2, col]})
    events = run(s, 0, {"type": "finish"})
    assert next(e for e in events if e.type == "ActionFinished").data["unloaded"] == {"stone": 2}
    assert s.players[0].stock["stone"] == 2 and s.markers[0].pos == 12


@pytest.mark.rules("noggin:5.1/dig-adjacent")
def test_dig_must_be_adjacent():
    """5.1: only a square orthogonally next to the Miner."""
    s = _turn()
    col = s.miner[1]
    for square in ([1, col], [0, col + 1], [0, col - 1]):  # two down, and diagonals
        with pytest.raises(IllegalMove, match="orthogonally next to him"):
            RULES.check(s, 0, {"type": "miner", "op": "dig", "square": square})
    RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})


@pytest.mark.rules("noggin:5.1/walk-cost")
def test_walk_through_empty_galleries_for_one_step():
    """5.1 WALK: 1 Step for any number of empty gallery squares."""
    s = _turn()
    col = s.miner[1]
    run(s, 0, {"type": "miner", "op": "dig", "square": [0, col]})
    run(s, 0, {"type": "miner", "op": "walk", "square": [-1, col + 3]})
    assert s.miner == [-1, col + 3] and s.markers[0].pos == 12
    with pytest.raises(IllegalMove, match="empty gallery"):
        RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [2, col]})


@pytest.mark.rules("noggin:5.1/discover-nine-stone")
def test_discover_needs_nine_stone_at_the_market():
    """5.1: at least 9 Stone at the Nog Market to discover (8 at the start is not enough)."""
    s = _turn()
    s.miner = [1, 4]  # a tunnel square on the left edge of the starting tile
    s.mine["1,4"] = ""
    with pytest.raises(IllegalMove, match="at least 9 Stone"):
        RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})
    s.market["stone"] = 9
    RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})


@pytest.mark.rules("noggin:5.1/discover-cost", "noggin:5.1/discover-gold", "noggin:5.1/discover-fill-stone")
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


@pytest.mark.rules("noggin:3.7/gold-no-farm-space")
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


@pytest.mark.rules("noggin:5.1/walk-only-empty")
def test_walk_only_through_empty_squares_and_not_through_stone():
    """5.1 WALK: only through empty gallery squares; a square behind Stone is out of reach."""
    s = _turn()
    col = s.miner[1]
    with pytest.raises(IllegalMove, match="empty gallery"):
        RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [1, col]})  # still Stone


@pytest.mark.rules("noggin:5.1/cart-capacity", "noggin:5.1/discover-adjacent")
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
    u = _turn()  # upgraded, the cart takes 4 (5.5)
    u.players[0].transports.append("mine_cart")
    for row in range(4):
        run(u, 0, {"type": "miner", "op": "dig", "square": [row, col]})
    assert u.action.cart == {"stone": 4}
    with pytest.raises(IllegalMove, match=r"mine cart is full \(4"):
        RULES.check(u, 0, {"type": "miner", "op": "dig", "square": [3, col + 1]})
    s.market["stone"] = 9
    s.active, s.markers[0].pos = 0, 13
    with pytest.raises(IllegalMove, match="orthogonally next to the empty"):
        RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [1, 0], "rotation": 0, "flip": "h"})
    RULES.check(s, 0, {"type": "miner", "op": "discover", "slot": [0, 0], "rotation": 0, "flip": "h"})


@pytest.mark.rules("noggin:5.0/no-waste")
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


def _seed_drawing(tile: str) -> str:
    """A seed whose first face-down Mine tile is ``tile`` (the pile order comes from the seed)."""
    return next(str(k) for k in range(200)
                if decks._mine_pile(seated(3, str(k)), chance_of(str(k)))[0] == tile)


@pytest.mark.rules("noggin:5.1/discover-orientation", "noggin:5.1/discover-gold", "noggin:5.1/discover-fill-stone")
@pytest.mark.parametrize("rotation,flip,gold", [(0, "h", [2, 8]), (90, "v", [0, 9]), (180, "h", [1, 11])])
def test_discovered_tile_is_turned_then_flipped(rotation, flip, gold):
    """5.1 DISCOVER: the tile is turned as the player chose, then flipped horizontally or
    vertically, and placed; a Gold cube goes on its nugget square, Stone from the market on its
    9 gallery squares. Tile gold-5 (rows GG#G / #GGG / #G#A / GG##, nugget in row 2, column 3)
    placed right of the starting tile (columns 8-11): flipped left-right the nugget is in column
    0 (square 2,8); turned 90 degrees clockwise (to row 3, column 1) then flipped top-bottom it is
    in row 0 (square 0,9: flipping first, then turning, would give 3,10); turned 180 (row 1,
    column 0) then flipped left-right, row 1 column 3 (square 1,11)."""
    seed = _seed_drawing("gold-5")
    s = normal_turn(seated(3, seed), 0, [10, 16, 17, 18])
    s.miner = [1, 7]  # a tunnel square on the right edge of the starting tile
    s.mine["1,7"] = ""
    s.market["stone"] = 9
    events = run(s, 0, {"type": "miner", "op": "discover", "slot": [0, 2], "rotation": rotation, "flip": flip},
                 seed=seed)
    placed = next(e for e in events if e.type == "MineTileDiscovered").data
    assert placed["tile"] == "gold-5" and placed["gold"] == gold
    assert s.mine[f"{gold[0]},{gold[1]}"] == "gold"
    squares = {k: v for k, v in s.mine.items() if 8 <= int(k.split(",")[1]) < 12}
    assert sorted(squares.values()) == ["gold"] + ["stone"] * 9
    assert s.market["stone"] == 0 and s.gold_supply == 4


@pytest.mark.rules("noggin:5.1/worked-example", "noggin:5.1/discover-cost", "noggin:5.1/walk-cost",
                   "noggin:5.1/dig-cost", "noggin:5.1/cart-capacity", "noggin:5.1/unload-at-end")
def test_rulebook_miner_example_four_steps():
    """5.1 example: with at least 9 Stone at the market the Miner, on the right-hand edge of the
    first tile, discovers a new section (1 Step; galleries filled with Stone, Gold on the nugget),
    walks 2 empty gallery squares (1 Step), digs the Gold next to him (1 Step) and then a Stone
    (1 Step): 4 Steps, and the cart of 2 is full. The reconstructed tiles cannot put the nugget
    where the rulebook's picture has it, so the example is mirrored top to bottom: the Miner walks
    down and digs the Stone upward; the operations, Steps and cubes are the rulebook's."""
    seed = _seed_drawing("gold-5")
    s = normal_turn(seated(3, seed), 0, [10, 16, 17, 18])
    for r in (0, 1, 2):  # the right-hand column of the starting tile, dug out earlier
        s.mine[f"{r},7"] = ""
    s.miner = [0, 7]
    s.market["stone"] = 9
    start = s.markers[0].pos
    run(s, 0, {"type": "miner", "op": "discover", "slot": [0, 2], "rotation": 0, "flip": "h"}, seed=seed)
    assert s.mine["2,8"] == "gold" and s.mine["1,8"] == "stone" and s.market["stone"] == 0
    assert s.markers[0].pos == start + 1
    run(s, 0, {"type": "miner", "op": "walk", "square": [2, 7]}, seed=seed)  # 2 squares, 1 Step
    assert s.miner == [2, 7] and s.markers[0].pos == start + 2
    run(s, 0, {"type": "miner", "op": "dig", "square": [2, 8]}, seed=seed)  # the Gold, to his right
    run(s, 0, {"type": "miner", "op": "dig", "square": [1, 8]}, seed=seed)  # a Stone
    assert s.action.cart == {"gold": 1, "stone": 1}
    with pytest.raises(IllegalMove, match="mine cart is full"):
        RULES.check(s, 0, {"type": "miner", "op": "dig", "square": [0, 8]})
    run(s, 0, {"type": "finish"}, seed=seed)
    assert s.markers[0].pos - start == 4
    assert (s.players[0].stock["gold"], s.players[0].stock["stone"]) == (1, 1)


@pytest.mark.rules("noggin:5.1/gold-instead")
def test_gold_can_be_spent_instead_of_a_resource():
    """5.1 GOLD: when resources must be spent, Gold can be used instead: the move's ``pay`` names
    the cubes; the Gold goes to the Nog Market like any resource spent (3.7)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    give(s, 0, wood=1, stone=1, gold=1)
    with pytest.raises(IllegalMove, match="do not have 2 wood"):  # 1 Wood short, without the Gold
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "meadow",
                           "pay": ["stone", "wood", "wood"]})
    pays = [m["pay"] for m in RULES.legal_moves(s, 0) if m.get("building") == "granary" and m["space"] == "meadow"]
    assert pays == [["gold", "stone", "wood"]]
    events = run(s, 0, {"type": "builder", "building": "granary", "space": "meadow",
                        "pay": ["gold", "stone", "wood"]})
    assert next(e for e in events if e.type == "BuildingBuilt").data["paid"] == ["gold", "stone", "wood"]
    assert s.players[0].stock["gold"] == 0 and s.market["gold"] == 1 and s.gold_supply == 5
    s.active, s.markers[0].pos = 0, 12
    give(s, 0, gold=2, wood=0, stone=0)
    run(s, 0, {"type": "builder", "transport": "boat", "pay": ["gold", "gold"]})
    assert s.players[0].transports == ["boat"] and s.market["gold"] == 3
