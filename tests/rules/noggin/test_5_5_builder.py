"""Builder (rulebook 5.5 and appendix): Year 1 buildings and transport upgrades."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content
from services.rules.noggin.board import capacity

from .helpers import RULES, give, normal_turn, run, run_phase, seated


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    s.players[0].stock.update(wood=4, stone=2)
    return s


@pytest.mark.rules("noggin:5.5/cost-two-steps", "noggin:5.5/building-price", "noggin:5.5/bottom-row", "noggin:5.5/year1-nog")
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


@pytest.mark.rules("noggin:5.5/mountains-long-house-only", "noggin:5.5/long-house-two-nogs", "noggin:3.8/mountains-long-house")
def test_long_house_only_on_the_mountains_and_gives_two_nogs():
    """5.5 and appendix: only the Long House goes on the Mountains space, +2 Nogs."""
    s = _turn()
    with pytest.raises(IllegalMove, match="Long House"):
        RULES.check(s, 0, {"type": "builder", "building": "long_house", "space": "meadow"})
    with pytest.raises(IllegalMove, match="Long House"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "mountains"})
    assert s.players[0].mountains == 10  # the Mountains space need not be free of Nogs
    events = run(s, 0, {"type": "builder", "building": "long_house", "space": "mountains"})
    assert next(e for e in events if e.type == "BuildingBuilt").data["nogs"] == 2
    assert s.players[0].mountains == 10 - 1 + 2 and s.players[0].reserve == 4


@pytest.mark.rules("noggin:5.5/not-on-sown-field", "noggin:5.5/not-on-trees", "noggin:5.5/no-identical")
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


@pytest.mark.rules("noggin:5.5/transport-once", "noggin:5.5/transport-from-pile", "noggin:5.5/transport-price")
def test_transport_upgrade_once_to_capacity_four():
    """5.5: pay 2 Wood, take a tile from its pile; capacity becomes 4; once per transport."""
    s = _turn()
    market_wood = s.market["wood"]
    events = run(s, 0, {"type": "builder", "transport": "wood_cart"})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [12]
    assert s.players[0].transports == ["wood_cart"] and s.transport_piles["wood_cart"] == 2
    assert s.players[0].stock["wood"] == 2 and s.players[0].stock["stone"] == 2
    assert s.market["wood"] == market_wood + 2
    s.active = 0
    s.markers[0].pos = 12
    with pytest.raises(IllegalMove, match="only be upgraded once"):
        RULES.check(s, 0, {"type": "builder", "transport": "wood_cart"})


@pytest.mark.rules("noggin:5.5/new-land-beside")
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


@pytest.mark.rules("noggin:5.5/bottom-row", "noggin:5.5/transport-from-pile", "noggin:5.5/year1-nog")
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


@pytest.mark.rules("noggin:5.5/mountains-long-house-only", "noggin:3.8/mountains-long-house")
def test_mountains_messages_say_which_rule_was_broken():
    """5.5: the Long House may only go on the Mountains space, and only it may go there."""
    s = _turn()
    s.players[0].buildings["new_land"] = "beside"
    with pytest.raises(IllegalMove, match="the Long House may only be built on the Mountains space"):
        RULES.check(s, 0, {"type": "builder", "building": "long_house", "space": "new_land"})
    with pytest.raises(IllegalMove, match="only the Long House may be built on the Mountains space"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "mountains"})


@pytest.mark.rules("noggin:5.5/placed-on-empty-space", "noggin:5.5/no-covering")
def test_a_building_goes_on_an_empty_space_and_is_never_covered():
    """5.5: a building goes on an empty space of the Player Board; no building can be covered,
    destroyed or moved: once the Meadow holds one, no other goes there, and later builds and a
    Change of Season leave it where it is."""
    s = _turn()
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    s.active, s.markers[0].pos = 0, 12
    s.rows["bottom"] = ["woodcutters_hut", "", ""]
    with pytest.raises(IllegalMove, match="not free"):
        RULES.check(s, 0, {"type": "builder", "building": "woodcutters_hut", "space": "meadow"})
    assert not [m for m in RULES.legal_moves(s, 0) if m.get("space") == "meadow"]
    s.players[0].fields = [0, 2]
    run(s, 0, {"type": "builder", "building": "woodcutters_hut", "space": "field0"})
    assert s.players[0].buildings == {"granary": "meadow", "woodcutters_hut": "field0"}
    normal_turn(s, 0, [20, 22, 23, 24])
    s.season, s.active = 2, None
    run_phase(s)
    assert s.players[0].buildings == {"granary": "meadow", "woodcutters_hut": "field0"}


@pytest.mark.rules("noggin:3.8/farm-no-building")
def test_nothing_is_built_on_the_farm():
    """3.8 A: nothing can be built on the Farm: it is not a building space at all."""
    from services.rules.core import MalformedMove
    from services.rules.noggin.board import free_spaces

    s = _turn()
    with pytest.raises(MalformedMove):
        RULES.parse_move({"type": "builder", "building": "granary", "space": "farm"})
    assert "farm" not in free_spaces(s.players[0])
    assert all(m.get("space") != "farm" for m in RULES.legal_moves(s, 0))


@pytest.mark.rules("noggin:3.8/fields-buildable-empty", "noggin:3.8/orchard-buildable-empty", "noggin:3.8/meadow-any")
def test_fields_and_orchard_take_a_building_once_empty_the_meadow_any():
    """3.8 C, D, E: a field takes a building only with no Harvest on it, the Orchard only with no
    tree; the Meadow takes any building (every Year 1 tile but the Long House and the New Land,
    which have their own places)."""
    s = _turn()
    p = s.players[0]
    s.rows["bottom"] = ["granary", "fish_smokery", "lookout_tower", "woodcutters_hut"]
    with pytest.raises(IllegalMove, match="field with Harvest"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "field1"})
    with pytest.raises(IllegalMove, match="Orchard with trees"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "orchard"})
    p.fields = [2, 0]
    p.orchard = 0
    for space in ("field1", "orchard", "meadow"):
        for b in ("granary", "fish_smokery", "lookout_tower", "woodcutters_hut"):
            RULES.check(s, 0, {"type": "builder", "building": b, "space": space})
    with pytest.raises(IllegalMove, match="field with Harvest"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "field0"})


def _season(state, season):
    """``state`` brought through the Change of Season into ``season`` (seat 0 to act)."""
    base = 10 * (season - 1)
    normal_turn(state, 0, [base, base + 2, base + 3, base + 4])
    state.season, state.active = season - 1, None
    run_phase(state)
    assert state.season == season and RULES.to_move(state) == [0]
    return state


@pytest.mark.rules("noggin:5.5/row-refilled-at-season")
def test_a_taken_tile_is_replaced_only_at_the_change_of_season():
    """5.5, 7.1: once a tile is taken from the bottom row its place stays empty for the rest of
    the season (nobody can take it); at the Change of Season the rows move down and a full new
    row is drawn."""
    s = _turn()
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    assert s.rows["bottom"] == ["", "long_house", "new_land"]
    s.active, s.markers[0].pos = 0, 12
    give(s, 0, wood=2, stone=1)
    s.players[1].stock.update(wood=2, stone=1)
    assert not [m for m in RULES.legal_moves(s, 0) if m.get("building") == "granary"]
    top = list(s.rows["top"])
    _season(s, 3)
    assert s.rows["bottom"] == top and "" not in s.rows["bottom"] + s.rows["top"]
    assert len(s.rows["top"]) == 3


@pytest.mark.rules("noggin:5.5/season5-year2", "noggin:5.5/year2-no-nog")
def test_from_season_five_year2_rows_and_the_year1_pile():
    """5.5 and appendix: from season 5 the rows hold Year 2 tiles; a Builder takes a tile from the
    bottom Year 2 row or any tile of the face-up Year 1 pile, not from the top row; a Year 2
    building gives no Nog (a Year 1 tile from the pile still gives its Nog)."""
    s = seated(3)
    s.crow = 5
    _season(s, 5)
    year2 = set(content.year2_tiles())
    assert set(s.rows["bottom"] + s.rows["top"]) <= year2
    assert sorted(s.year1_pile) == sorted(content.year1_tiles())  # nothing built: all 18 face up
    p = s.players[0]
    give(s, 0, wood=6, stone=3)
    top_only = next(t for t in sorted(year2) if t not in s.rows["bottom"])
    s.rows["top"][0] = top_only  # a Year 2 tile shown only in the top row
    with pytest.raises(IllegalMove, match="bottom row or the Year 1 pile"):
        RULES.check(s, 0, {"type": "builder", "building": top_only, "space": "meadow"})
    tile = s.rows["bottom"][0]
    events = run(s, 0, {"type": "builder", "building": tile, "space": "meadow"})
    built = next(e for e in events if e.type == "BuildingBuilt").data
    assert (built["from"], built["nogs"]) == ("row", 0)
    assert (p.mountains, p.reserve) == (10 - 1, 6)
    s.active, s.markers[0].pos = 0, 42
    events = run(s, 0, {"type": "builder", "building": "long_house", "space": "mountains"})
    built = next(e for e in events if e.type == "BuildingBuilt").data
    assert (built["from"], built["nogs"]) == ("pile", 2)
    assert s.year1_pile.count("long_house") == 2


@pytest.mark.rules("noggin:5.5/transport-capacity-four")
@pytest.mark.parametrize("transport", ["mine_cart", "wood_cart", "boat"])
def test_an_upgraded_transport_carries_four(transport):
    """5.5: once upgraded a transport carries 4 (2 before)."""
    s = _turn()
    p = s.players[0]
    assert capacity(p, transport) == 2
    run(s, 0, {"type": "builder", "transport": transport})
    assert capacity(p, transport) == 4
    assert all(capacity(p, t) == 2 for t in ("mine_cart", "wood_cart", "boat") if t != transport)
    p.stock.update(wood=0, stone=0)
    s.active, s.markers[0].pos = 0, 12
    if transport == "boat":
        from services.rules.noggin import board

        s.drawn = {"fish": 5}
        assert board.fish(s, 0)[0].data["fish"] == 4
    elif transport == "mine_cart":
        for row in range(4):
            run(s, 0, {"type": "miner", "op": "dig", "square": [row, 4]})
        assert s.action.cart == {"stone": 4}
    else:
        for _ in range(3):  # clearings printing 1, 2, 2
            run(s, 0, {"type": "woodcutter", "op": "advance"})
        assert s.action.cart == {"wood": 4}
