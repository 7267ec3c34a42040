"""Builder (rulebook 5.5 and appendix): Year 1 buildings and transport upgrades."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    s.players[0].stock.update(wood=4, stone=2)
    return s


def test_build_costs_two_wood_one_stone_two_steps_and_gives_a_nog():
    """5.5: 2 Steps, pay 2 Wood + 1 Stone to the market, take the tile from the bottom row,
    gain 1 Nog from the reserve; the Granary stores 2 more Harvest (appendix)."""
    s = _turn()
    market_wood = s.market["wood"]
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    p = s.players[0]
    assert p.buildings == {"granary": "meadow"}
    assert (p.stock["wood"], p.stock["stone"]) == (2, 1) and s.market["wood"] == market_wood + 2
    assert (p.mountains, p.reserve) == (10 - 1 + 1, 5)
    assert s.rows["bottom"] == ["", "long_house", "new_land"]
    assert s.markers[0].pos == 12 and s.action is None


def test_long_house_only_on_the_mountains_and_gives_two_nogs():
    """5.5 and appendix: only the Long House goes on the Mountains space, +2 Nogs."""
    s = _turn()
    with pytest.raises(IllegalMove, match="Long House"):
        RULES.check(s, 0, {"type": "builder", "building": "long_house", "space": "meadow"})
    with pytest.raises(IllegalMove, match="Long House"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "mountains"})
    run(s, 0, {"type": "builder", "building": "long_house", "space": "mountains"})
    assert s.players[0].mountains == 10 - 1 + 2


def test_no_building_on_sown_fields_or_orchard_trees_nor_twice():
    """5.5: not on a field with Harvest or an Orchard with trees; no 2 identical tiles."""
    s = _turn()
    with pytest.raises(IllegalMove, match="field with Harvest"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "field0"})
    with pytest.raises(IllegalMove, match="Orchard with trees"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "orchard"})
    s.players[0].buildings["granary"] = "meadow"
    with pytest.raises(IllegalMove, match="2 identical"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "field1"})


def test_gold_pays_a_shortfall():
    """5.1: Gold can be spent in place of any resource."""
    s = _turn()
    s.players[0].stock.update(wood=1, stone=0, gold=2)
    events = run(s, 0, {"type": "builder", "building": "new_land", "space": "beside"})
    paid = next(e for e in events if e.type == "BuildingBuilt").data["paid"]
    assert paid == ["gold", "gold", "wood"]
    assert s.market["gold"] == 2 and s.gold_supply == 5  # 3.7: spent resources go to the Nog Market


def test_transport_upgrade_once_to_capacity_four():
    """5.5: pay 2 Wood, take a tile from its pile; capacity becomes 4; once per transport."""
    s = _turn()
    run(s, 0, {"type": "builder", "transport": "wood_cart"})
    assert s.players[0].transports == ["wood_cart"] and s.transport_piles["wood_cart"] == 2
    assert s.players[0].stock["wood"] == 2
    s.active = 0
    s.markers[0].pos = 12
    with pytest.raises(IllegalMove, match="only be upgraded once"):
        RULES.check(s, 0, {"type": "builder", "transport": "wood_cart"})


def test_new_land_goes_beside_the_board_and_adds_a_space():
    """5.5 and appendix: New Land is placed beside the Player Board (it takes no board space)
    and gives one extra space for a later building."""
    s = _turn()
    p = s.players[0]
    p.buildings["long_house"] = "mountains"
    p.orchard = 2  # fields sown, Orchard with trees: only the Meadow is free on the board
    p.stock.update(wood=6, stone=3)
    with pytest.raises(IllegalMove, match="beside"):
        RULES.check(s, 0, {"type": "builder", "building": "new_land", "space": "meadow"})
    run(s, 0, {"type": "builder", "building": "new_land", "space": "beside"})
    assert p.buildings["new_land"] == "beside"
    s.active, s.markers[0].pos = 0, 12
    s.rows["bottom"] = ["granary", "fish_smokery", ""]
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    s.active, s.markers[0].pos = 0, 14
    p.mountains = 5
    run(s, 0, {"type": "builder", "building": "fish_smokery", "space": "new_land"})
    assert p.buildings == {"long_house": "mountains", "new_land": "beside", "granary": "meadow",
                           "fish_smokery": "new_land"}
    with pytest.raises(IllegalMove):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "beside"})


def test_only_the_bottom_row_and_transport_piles_run_out():
    """5.5: tiles come from the bottom row only (seasons 1-4); a transport pile holds one tile
    per player (set-up F); Year 1 Nogs come from the personal reserve while it lasts."""
    s = _turn()
    s.rows["top"] = ["woodcutters_hut", "fish_smokery", "lookout_tower"]
    with pytest.raises(IllegalMove, match="bottom row"):
        RULES.check(s, 0, {"type": "builder", "building": "woodcutters_hut", "space": "meadow"})
    s.transport_piles["boat"] = 0
    with pytest.raises(IllegalMove, match="no boat tile"):
        RULES.check(s, 0, {"type": "builder", "transport": "boat"})
    s.players[0].reserve = 1
    run(s, 0, {"type": "builder", "building": "long_house", "space": "mountains"})
    assert (s.players[0].reserve, s.players[0].mountains) == (0, 10 - 1 + 1)


def test_storage_buildings_and_the_lookout():
    """Appendix: Fish Smokery +2 Fish, Woodcutters' Hut +2 Wood storage."""
    from services.rules.noggin.board import room

    s = _turn()
    p = s.players[0]
    p.stock.update(wood=0, stone=6)
    assert room(p, "fish") == 0 and room(p, "wood") == 0
    p.buildings.update(fish_smokery="meadow", woodcutters_hut="field0")
    assert room(p, "fish") == 2 and room(p, "wood") == 2 and room(p, "harvest") == 0


def test_mountains_messages_say_which_rule_was_broken():
    """5.5: the Long House may only go on the Mountains space, and only it may go there."""
    s = _turn()
    s.players[0].buildings["new_land"] = "beside"
    with pytest.raises(IllegalMove, match="the Long House may only be built on the Mountains space"):
        RULES.check(s, 0, {"type": "builder", "building": "long_house", "space": "new_land"})
    with pytest.raises(IllegalMove, match="only the Long House may be built on the Mountains space"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "mountains"})
