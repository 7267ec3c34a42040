"""Appendix, Buildings: the Year 1 pile of season 5, the six Year 1 buildings and the
Year 2 buildings (their abilities, the resources locked on them and their end scoring)."""

from collections import Counter

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import content
from services.rules.noggin.board import room
from services.rules.noggin.decks import draw_fishing_tokens
from services.rules.noggin.scoring import final_breakdown

from .helpers import (complete_stranger, stranger_last_card, at_season_end, RULES, activate_nogbad, chance_of, give, normal_turn, own_building, points, put_invention,
                      put_reserve, put_saga, run, run_phase, scenario, types)




def _turn(season=2, seat=0, players=3, options=None):
    """``seat`` to act on the first space of ``season`` (the others 5-8 Steps ahead)."""
    return scenario(players, season=season, seat=seat, options=options)


def _build(s, seat, building, space, **stock):
    s.rows["bottom"] = [building, "", ""]
    give(s, seat, wood=2, stone=1, **stock)
    return run(s, seat, {"type": "builder", "building": building, "space": space})


def _built(events):
    return next(e for e in events if e.type == "BuildingBuilt").data


def _seed_where(draws, wanted):
    """A run seed whose first draw of ``draws`` Fishing tokens shows ``wanted(fish shown)``."""
    s = _turn()
    for k in range(200):
        tokens = draw_fishing_tokens(s, chance_of(str(k)), draws)[0].data["tokens"]
        if wanted(sum(t["fish"] for t in tokens)):
            return str(k)
    raise AssertionError("no such seed")  # pragma: no cover


def _caught(events):
    return next(e for e in events if e.type == "FishCaught").data


# -- the Year 1 pile at season 5 -----------------------------------------------------------

@pytest.mark.rules("noggin:appendix buildings/year1-pile-season5")
def test_every_unbuilt_year1_tile_forms_a_face_up_pile_at_season_5():
    """Appendix (Buildings) with 7.1: at the start of season 5 every Year 1 tile not built
    (the rows, the discards and the undrawn pile) lies face up and a Builder may take any
    of them; before season 5 only the bottom row can be built from."""
    s = scenario(3)
    at_season_end(s, 1)
    run_phase(s)  # season 2
    normal_turn(s, 0, [10, 16, 17, 18])
    give(s, 0, wood=2, stone=1)
    built = s.rows["bottom"][0]
    space = "beside" if built == "new_land" else ("mountains" if built == "long_house" else "meadow")
    run(s, 0, {"type": "builder", "building": built, "space": space})
    for season in (2, 3, 4):
        at_season_end(s, season)
        events = run_phase(s)
    assert s.season == 5
    formed = next(e for e in events if e.type == "Year1PileFormed").data
    every = Counter({b.id: 3 for b in content.load().buildings.year1})  # 18 tiles (house rule: 3 each)
    every[built] -= 1
    assert Counter(formed["tiles"]) == every and len(s.year1_pile) == 17
    # from season 5 the rows hold Year 2 tiles
    year2 = {b.id for b in content.load().buildings.year2}
    assert s.rows["bottom"] and set(s.rows["bottom"]) | set(s.rows["top"]) <= year2
    # a Builder takes a Year 1 tile from the pile, though no row shows it
    normal_turn(s, 1, [56, 50, 57, 58])
    pick = next(t for t in ("lookout_tower", "granary", "fish_smokery", "woodcutters_hut") if t != built)
    give(s, 1, wood=2, stone=1)
    events = run(s, 1, {"type": "builder", "building": pick, "space": "meadow"})
    assert _built(events)["from"] == "pile"
    assert s.players[1].buildings[pick] == "meadow"
    assert Counter(s.year1_pile)[pick] == every[pick] - 1 and len(s.year1_pile) == 16


@pytest.mark.rules("noggin:appendix buildings/year1-pile-season5")
def test_before_season_5_a_tile_outside_the_bottom_row_is_refused():
    """Appendix (Buildings): the face-up pile exists only from season 5; in season 4 a tile
    that is not in the bottom row cannot be built."""
    s = _turn(season=4)
    s.rows["bottom"] = ["granary", "", ""]
    s.year1_pile = ["lookout_tower"]  # even if a pile were lying there
    give(s, 0, wood=2, stone=1)
    with pytest.raises(IllegalMove, match="no lookout_tower tile in the bottom row"):
        RULES.check(s, 0, {"type": "builder", "building": "lookout_tower", "space": "meadow"})


# -- Year 1 buildings ----------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix buildings/fish-smokery")
def test_fish_smokery_stores_two_more_fish_and_gives_a_nog():
    """Appendix: the Fish Smokery gives 1 Nog and room for 2 Fish beyond the Farm: with the
    Farm full of Stone the Fisherman cannot go out without it, and with it keeps exactly 2."""
    s = _turn()
    p = s.players[0]
    events = _build(s, 0, "fish_smokery", "meadow")
    assert _built(events)["nogs"] == 1 and (p.reserve, p.mountains) == (5, 10)  # 1 placed, 1 gained
    p.stock.update(wood=0, stone=6, harvest=0)  # the Farm (6) is full
    p.transports.append("boat")  # the boat carries 4: only storage limits the catch
    assert room(p, "fish") == 2
    seed = _seed_where(4, lambda fish: fish >= 3)
    s.active, s.markers[0].pos = 0, 12
    caught = _caught(run(s, 0, {"type": "fisherman", "draws": 4}, seed=seed))
    assert caught["fish"] == 2 and caught["thrown_back"] == caught["shown"] - 2
    assert p.stock["fish"] == 2
    del p.buildings["fish_smokery"]
    p.stock["fish"] = 0
    s.active, s.markers[0].pos, p.uses["fisherman"] = 0, 12, 0
    with pytest.raises(IllegalMove, match="no room to store a fish"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 1})


@pytest.mark.rules("noggin:appendix buildings/granary")
def test_granary_stores_two_more_harvest_and_gives_a_nog():
    """Appendix: the Granary gives 1 Nog and room for 2 Harvest beyond the Farm (apples and
    Stork eggs included): a field of 2 can be reaped into a full Farm only with it."""
    s = _turn()
    p = s.players[0]
    events = _build(s, 0, "granary", "meadow")
    assert _built(events)["nogs"] == 1 and (p.reserve, p.mountains) == (5, 10)
    p.stock.update(wood=0, stone=6)
    assert p.fields == [2, 2] and room(p, "harvest") == 2
    s.active, s.markers[0].pos = 0, 12
    events = run(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
    assert p.stock["harvest"] == 2 and p.fields == [0, 2]
    with pytest.raises(IllegalMove, match="no room for 2 more Harvest"):
        RULES.check(s, 0, {"type": "farmer", "op": "harvest", "field": 1})
    # without the Granary the first field could not have been reaped either
    t = _turn()
    t.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room for 2 more Harvest"):
        RULES.check(t, 0, {"type": "farmer", "op": "harvest", "field": 0})


@pytest.mark.rules("noggin:appendix buildings/long-house")
def test_long_house_only_on_the_mountains_and_gives_two_nogs():
    """Appendix and 5.5: the Long House may only be built on the Mountains space (nothing
    else may), and it gives 2 Nogs from the reserve."""
    s = _turn()
    s.rows["bottom"] = ["long_house", "granary", ""]
    give(s, 0, wood=2, stone=1)
    with pytest.raises(IllegalMove, match="Long House may only be built on the Mountains"):
        RULES.check(s, 0, {"type": "builder", "building": "long_house", "space": "meadow"})
    with pytest.raises(IllegalMove, match="only the Long House may be built on the Mountains"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "mountains"})
    events = run(s, 0, {"type": "builder", "building": "long_house", "space": "mountains"})
    p = s.players[0]
    assert _built(events)["nogs"] == 2 and p.buildings == {"long_house": "mountains"}
    assert (p.reserve, p.mountains) == (6 - 2, 10 - 1 + 2)


@pytest.mark.rules("noggin:appendix buildings/lookout-tower")
def test_lookout_tower_adds_one_fish_to_each_fisherman_action():
    """Appendix: the Lookout Tower adds 1 fish to what the tokens show, even to a boot, and
    gives 1 Nog when built."""
    s = _turn()
    events = _build(s, 0, "lookout_tower", "meadow")
    assert _built(events)["nogs"] == 1 and s.players[0].mountains == 10
    boot = _seed_where(1, lambda fish: fish == 0)
    s.active, s.markers[0].pos = 0, 12
    caught = _caught(run(s, 0, {"type": "fisherman", "draws": 1}, seed=boot))
    assert (caught["shown"], caught["fish"]) == (1, 1)  # a boot and the tower's fish
    assert s.players[0].stock["fish"] == 1
    t = _turn()
    assert _caught(run(t, 0, {"type": "fisherman", "draws": 1}, seed=boot))["fish"] == 0  # without it


@pytest.mark.rules("noggin:appendix buildings/lookout-tower")
def test_lookout_tower_fish_stays_within_the_boat():
    """Appendix: the extra fish is subject to the boat's capacity of 2 (4 upgraded): tokens
    showing 2 give 3 fish shown, 2 caught and 1 thrown back."""
    two = _seed_where(1, lambda fish: fish == 2)
    s = _turn()
    own_building(s, 0, "lookout_tower")
    caught = _caught(run(s, 0, {"type": "fisherman", "draws": 1}, seed=two))
    assert (caught["shown"], caught["fish"], caught["thrown_back"]) == (3, 2, 1)
    t = _turn()
    own_building(t, 0, "lookout_tower")
    t.players[0].transports.append("boat")
    caught = _caught(run(t, 0, {"type": "fisherman", "draws": 1}, seed=two))
    assert (caught["shown"], caught["fish"], caught["thrown_back"]) == (3, 3, 0)


@pytest.mark.rules("noggin:appendix buildings/new-land")
def test_new_land_goes_beside_the_board_adds_a_space_and_gives_a_nog():
    """Appendix and 5.5: New Land is placed beside the Player Board (not on a board space),
    gives 1 Nog, and adds one building space: with every board space taken a building can
    still go on the New Land."""
    s = _turn()
    p = s.players[0]
    p.buildings.update(long_house="mountains", granary="meadow", fish_smokery="field0",
                       woodcutters_hut="field1")  # the Orchard has trees: no board space is free
    s.rows["bottom"] = ["new_land", "lookout_tower", ""]
    give(s, 0, wood=4, stone=2)
    with pytest.raises(IllegalMove, match="beside your Player Board"):
        RULES.check(s, 0, {"type": "builder", "building": "new_land", "space": "meadow"})
    with pytest.raises(IllegalMove, match="not free"):
        RULES.check(s, 0, {"type": "builder", "building": "lookout_tower", "space": "meadow"})
    events = run(s, 0, {"type": "builder", "building": "new_land", "space": "beside"})
    assert _built(events)["nogs"] == 1 and p.buildings["new_land"] == "beside"
    assert (p.reserve, p.mountains) == (5, 10)
    s.active, s.markers[0].pos = 0, 12
    run(s, 0, {"type": "builder", "building": "lookout_tower", "space": "new_land"})
    assert p.buildings["lookout_tower"] == "new_land"


@pytest.mark.rules("noggin:appendix buildings/woodcutters-hut")
def test_woodcutters_hut_stores_two_more_wood_and_gives_a_nog():
    """Appendix: the Woodcutters' Hut gives 1 Nog and room for 2 Wood beyond the Farm: with the
    Farm full, both Orchard trees can be cut into it, and without it not even one."""
    s = _turn()
    p = s.players[0]
    events = _build(s, 0, "woodcutters_hut", "meadow")
    assert _built(events)["nogs"] == 1 and (p.reserve, p.mountains) == (5, 10)
    p.stock.update(wood=0, stone=6)
    s.active, s.markers[0].pos = 0, 12
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    run(s, 0, {"type": "finish"})
    s.active, s.markers[0].pos = 0, 13
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    run(s, 0, {"type": "finish"})
    assert p.stock["wood"] == 2 and p.orchard == 0 and room(p, "wood") == 0
    t = _turn()
    t.players[0].stock.update(stone=6)
    with pytest.raises(IllegalMove, match="no room for 1 more Wood"):
        RULES.check(t, 0, {"type": "woodcutter", "op": "orchard"})


# -- Year 2 buildings ----------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix buildings/locked-resources")
def test_resources_locked_on_a_year2_tile_come_from_stock_and_stay():
    """Appendix (Year 2): resources a building needs to score are placed on it from the
    player's stock (not the market) and can never be taken off: they stay through a Change
    of Season, pay for nothing and no longer count among the player's resources."""
    s = _turn()
    own_building(s, 0, "royal_horse_trough")
    p = s.players[0]
    with pytest.raises(IllegalMove, match="no stone to place"):
        RULES.check(s, 0, {"type": "use", "card": "royal_horse_trough", "resource": "stone"})
    give(s, 0, stone=1, wood=1)
    market = dict(s.market)
    events = run(s, 0, {"type": "use", "card": "royal_horse_trough", "resource": "stone"})
    assert types(events) == ["AbilityUsed"]
    assert p.stock["stone"] == 0 and p.locked == {"royal_horse_trough": {"stone": 1}}
    assert s.market == market  # not returned to the Nog Market
    with pytest.raises(IllegalMove, match="does not take a stone"):
        RULES.check(s, 0, {"type": "use", "card": "royal_horse_trough", "resource": "stone"})
    # the locked Stone cannot pay: trading 2 for 1 needs 2 cubes in stock
    s.active, s.markers[0].pos = 0, 10
    with pytest.raises(IllegalMove, match="do not have 1 stone"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["stone", "wood"], "take": "fish"})
    at_season_end(s, 2)
    run_phase(s)
    assert p.locked == {"royal_horse_trough": {"stone": 1}} and p.stock["stone"] == 0
    assert final_breakdown(s)[0]["resources"] == 0  # the Wood alone: 1 // 2


@pytest.mark.rules("noggin:appendix buildings/blacksmith")
def test_blacksmith_spares_two_wood_or_stone_on_each_invention():
    """Appendix (house rule blacksmith-per-card): the Blacksmith's owner meets up to 2 Wood or
    Stone conditions of each Invention with a Nog alone; a third, or any other resource, is
    paid; on another Invention the 2 are spared again. Without it nothing is spared."""
    s = _turn()
    put_invention(s, 0, "fire_machine")  # olaf, stone, stone, wood
    put_invention(s, 1, "firecake")  # olaf, harvest, fish
    free = {"type": "market_day", "op": "invention", "invention": 0, "pay": []}
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {**free, "condition": 1})
    own_building(s, 0, "blacksmith")
    market = dict(s.market)
    p = s.players[0]
    e1 = run(s, 0, {**free, "condition": 1})
    e2 = run(s, 0, {**free, "condition": 2})
    met = [e.data for e in e1 + e2 if e.type == "InventionConditionMet"]
    assert [(m["paid"], m.get("free"), m["building"]) for m in met] == [(None, True, "blacksmith")] * 2
    assert s.market == market and p.mountains == 10 - 1 - 2  # a Nog for each, no cube
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {**free, "condition": 3})  # the Wood: 2 already spared on this card
    give(s, 0, wood=1)
    run(s, 0, {**free, "condition": 3, "pay": ["wood"]})
    assert p.stock["wood"] == 0
    run(s, 0, {"type": "finish"})
    s.players[0].stock.update(harvest=0, fish=0)
    with pytest.raises(IllegalMove, match="takes 1 cube"):
        RULES.check(s, 0, {"type": "market_day", "op": "invention", "invention": 1, "condition": 1, "pay": []})
    put_invention(s, 1, "trouser_press")  # olaf, wood, stone: a new card, 2 spared again
    RULES.check(s, 0, {"type": "market_day", "op": "invention", "invention": 1, "condition": 1, "pay": []})


@pytest.mark.rules("noggin:appendix buildings/goldsmith")
def test_goldsmith_makes_each_gold_worth_eight():
    """Appendix and 9.0: each Gold cube scores 2 at the end, 8 with the Goldsmith."""
    s = _turn(season=8)
    give(s, 0, gold=3)
    give(s, 1, gold=3)
    own_building(s, 0, "goldsmith")
    rows = final_breakdown(s)
    assert rows[0]["gold"] == 24 and rows[1]["gold"] == 6


@pytest.mark.rules("noggin:appendix buildings/hillside-farm")
@pytest.mark.parametrize("others, expected", [
    ({}, 12),  # both fields free: 2 zones x 2 fields x 3
    ({"granary": "field0"}, 6),
    ({"granary": "field0", "fish_smokery": "field1"}, 0),
])
def test_hillside_farm_scores_three_per_zone_of_each_free_field(others, expected):
    """Appendix: 3 points per zone (2 per field) of each field with no building, 12 at most."""
    s = _turn(season=8)
    own_building(s, 0, "hillside_farm", "meadow")
    s.players[0].buildings.update(others)
    assert final_breakdown(s)[0]["buildings"] == expected


@pytest.mark.rules("noggin:appendix buildings/hillside-farm")
def test_hillside_farm_built_on_a_field_counts_only_the_other():
    """Appendix: the Hillside Farm itself on a field leaves one undeveloped field: 6 points."""
    s = _turn(season=8)
    own_building(s, 0, "hillside_farm", "field1")
    assert final_breakdown(s)[0]["buildings"] == 6


@pytest.mark.rules("noggin:appendix buildings/inventors-workshop")
def test_inventors_workshop_meets_olafs_condition_without_olaf():
    """Appendix (house rule workshop-olaf-condition): while Olaf is away on another card the
    owner of the Inventor's Workshop still meets an Invention's Olaf condition, for 1 Food
    and a Nog; Olaf stays where he is. Without the Workshop that is refused."""
    s = _turn()
    put_invention(s, 0, "potion")
    put_invention(s, 1, "firecake")
    give(s, 0, fish=2)
    run(s, 0, {"type": "market_day", "op": "invention", "invention": 1, "condition": 0, "pay": ["fish"]})
    run(s, 0, {"type": "finish"})
    assert s.characters["olaf"] == "invention:1"
    olaf = {"type": "market_day", "op": "invention", "invention": 0, "condition": 0, "pay": ["fish"]}
    with pytest.raises(IllegalMove, match="Olaf must be in Noggin's Castle"):
        RULES.check(s, 0, olaf)
    own_building(s, 0, "inventors_workshop")
    events = run(s, 0, olaf)
    met = next(e for e in events if e.type == "InventionConditionMet").data
    assert met["building"] == "inventors_workshop" and met["paid"] == "fish"
    assert s.inventions[0].met[0]["seat"] == 0 and s.characters["olaf"] == "invention:1"
    assert s.players[0].stock["fish"] == 0


@pytest.mark.rules("noggin:appendix buildings/knuts-seat-place")
def test_knuts_seat_takes_one_nog_a_season_and_keeps_it():
    """Appendix: once per season the owner puts a Nog from the Mountains on Knut's Seat; it is
    not returned at the Change of Season, so the Seat fills up season by season."""
    s = _turn()
    own_building(s, 0, "knuts_seat")
    p = s.players[0]
    run(s, 0, {"type": "use", "card": "knuts_seat"})
    assert (p.mountains, p.tile_nogs["knuts_seat"]) == (9, 1)
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "knuts_seat"})
    at_season_end(s, 2)
    run_phase(s)
    assert (p.mountains, p.tile_nogs["knuts_seat"]) == (9, 1)
    normal_turn(s, 0, [20, 26, 27, 28])
    run(s, 0, {"type": "use", "card": "knuts_seat"})
    assert (p.mountains, p.tile_nogs["knuts_seat"]) == (8, 2)
    p.mountains = 0
    p.used = []
    with pytest.raises(IllegalMove, match="needs a Nog"):
        RULES.check(s, 0, {"type": "use", "card": "knuts_seat"})


@pytest.mark.rules("noggin:appendix buildings/knuts-seat-points")
def test_knuts_seat_scores_four_per_nog():
    """Appendix: Knut's Seat scores 4 per Nog on it at the end; those Nogs are not also counted
    as Nogs on the player board (9.0)."""
    s = _turn(season=8)
    own_building(s, 0, "knuts_seat")
    p = s.players[0]
    p.tile_nogs["knuts_seat"] = 3
    p.mountains = 7
    row = final_breakdown(s)[0]
    assert row["buildings"] == 12 and row["nogs"] == 7


@pytest.mark.rules("noggin:appendix buildings/merchant")
@pytest.mark.parametrize("transports, expected", [([], 0), (["boat"], 4), (["boat", "wood_cart", "mine_cart"], 12)])
def test_merchant_scores_four_per_upgraded_transport(transports, expected):
    """Appendix: the Merchant scores 4 per upgraded means of transport at the end."""
    s = _turn(season=8)
    own_building(s, 0, "merchant")
    s.players[0].transports = list(transports)
    assert final_breakdown(s)[0]["buildings"] == expected
    s.players[0].buildings.clear()
    assert final_breakdown(s)[0]["buildings"] == 0


def _lock(s, seat, card, resources):
    for r in resources:
        run(s, seat, {"type": "use", "card": card, "resource": r})


@pytest.mark.rules("noggin:appendix buildings/nookas-kitchen-garden", "noggin:appendix buildings/locked-resources")
def test_nookas_kitchen_garden_scores_twelve_once_full():
    """Appendix: Nooka's Kitchen Garden scores 12 once 2 Harvest and 1 Wood are locked on it,
    nothing before; it takes nothing else."""
    s = _turn()
    own_building(s, 0, "nookas_kitchen_garden")
    give(s, 0, harvest=2, wood=1, stone=1)
    with pytest.raises(IllegalMove, match="does not take a stone"):
        RULES.check(s, 0, {"type": "use", "card": "nookas_kitchen_garden", "resource": "stone"})
    _lock(s, 0, "nookas_kitchen_garden", ["harvest", "wood"])
    assert final_breakdown(s)[0]["buildings"] == 0
    _lock(s, 0, "nookas_kitchen_garden", ["harvest"])
    assert s.players[0].locked["nookas_kitchen_garden"] == {"harvest": 2, "wood": 1}
    assert final_breakdown(s)[0]["buildings"] == 12
    with pytest.raises(IllegalMove, match="does not take a harvest"):
        RULES.check(s, 0, {"type": "use", "card": "nookas_kitchen_garden", "resource": "harvest"})


@pytest.mark.rules("noggin:appendix buildings/omruds-ornamental-garden")
def test_omruds_ornamental_garden_scores_twelve_once_full():
    """Appendix: Omruds' Ornamental Garden scores 12 once 1 Harvest, 1 Stone and 1 Wood are
    locked on it, nothing before; a second Stone is refused."""
    s = _turn()
    own_building(s, 0, "omruds_ornamental_garden")
    give(s, 0, harvest=1, wood=1, stone=2)
    _lock(s, 0, "omruds_ornamental_garden", ["stone", "wood"])
    assert final_breakdown(s)[0]["buildings"] == 0
    with pytest.raises(IllegalMove, match="does not take a stone"):
        RULES.check(s, 0, {"type": "use", "card": "omruds_ornamental_garden", "resource": "stone"})
    _lock(s, 0, "omruds_ornamental_garden", ["harvest"])
    assert final_breakdown(s)[0]["buildings"] == 12


@pytest.mark.rules("noggin:appendix buildings/royal-horse-trough")
def test_royal_horse_trough_scores_six_once_a_stone_is_locked():
    """Appendix: the Royal Horse Trough scores 6 once 1 Stone is locked on it; a Wood does not do."""
    s = _turn()
    own_building(s, 0, "royal_horse_trough")
    give(s, 0, stone=1, wood=1)
    with pytest.raises(IllegalMove, match="does not take a wood"):
        RULES.check(s, 0, {"type": "use", "card": "royal_horse_trough", "resource": "wood"})
    assert final_breakdown(s)[0]["buildings"] == 0
    _lock(s, 0, "royal_horse_trough", ["stone"])
    assert final_breakdown(s)[0]["buildings"] == 6


# -- the Royal Dungeon ---------------------------------------------------------------------

def _evict(s, seat):
    give(s, seat, fish=s.players[seat].stock["fish"] + 1)
    return run(s, seat, {"type": "market_day", "op": "evict", "by": "thor", "pay": ["fish"]})


@pytest.mark.rules("noggin:appendix buildings/dungeon-imprison", "noggin:appendix buildings/dungeon-points")
def test_evicted_nogbad_is_imprisoned_with_a_gaoler_of_the_owner():
    """Appendix: evicted Nogbad (by anyone) is imprisoned on the Royal Dungeon with one of its
    owner's Nogs as gaoler, and the owner scores 6; the evicting seat scores its eviction."""
    s = _turn(seat=1)
    own_building(s, 0, "royal_dungeon")
    activate_nogbad(s, 2)
    events = _evict(s, 1)
    moved = next(e for e in events if e.type == "NogbadMoved").data
    assert moved == {"to": "dungeon", "gaoler": 0}
    assert s.nogbad == "dungeon" and s.gaoler == 0
    assert s.players[0].mountains == 9 and s.players[0].tile_nogs["royal_dungeon"] == 1
    assert points(events, 0, "royal dungeon") == 6 and points(events, 1, "evicting nogbad") == 1
    assert points(events, 1, "royal dungeon") == 0


@pytest.mark.rules("noggin:appendix buildings/dungeon-no-gaoler")
def test_without_a_nog_for_gaoler_nogbad_goes_home():
    """Appendix: if the Dungeon's owner has no Nog for gaoler, Nogbad returns to his castle and
    nobody scores the imprisonment."""
    s = _turn(seat=1)
    own_building(s, 0, "royal_dungeon")
    s.players[0].mountains = 0
    activate_nogbad(s, 2)
    events = _evict(s, 1)
    assert next(e for e in events if e.type == "NogbadMoved").data == {"to": "castle"}
    assert s.nogbad == "castle" and s.gaoler is None
    assert points(events, 0) == 0


@pytest.mark.rules("noggin:appendix buildings/dungeon-escape", "noggin:appendix buildings/dungeon-points")
def test_nogbad_escapes_when_he_becomes_active_and_each_imprisonment_scores():
    """Appendix and 8.0: imprisoned Nogbad becoming active (a turned Reserve card shows his
    portrait) escapes: the Crow moves a quarter, he blocks its space, the gaoler Nog goes back
    to the Mountains. Imprisoned again, the owner scores 6 again (6 per imprisonment)."""
    s = _turn()
    own_building(s, 0, "royal_dungeon")
    p = s.players[0]
    activate_nogbad(s, 2)
    first = _evict(s, 0)
    run(s, 0, {"type": "finish"})
    assert s.nogbad == "dungeon" and p.mountains == 10 - 1 - 1
    # a Reserve card whose back shows Nogbad is completed and turned
    put_saga(s, 0, "the_stranger", done=[{"deck": "A", "card": "A09", "nogbad": False, "nogs": [0, 0, 0]}])
    put_reserve(s, 0, ["stone", "food"], deck="C", card="C15")
    give(s, 0, stone=1, fish=1)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": False, "pay": ["stone"]})
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": False,
                        "pay": ["fish"]})
    moved = next(e for e in events if e.type == "NogbadMoved").data
    assert moved["escaped"] is True and moved["quarter"] == 3
    assert s.nogbad == "active" and s.wheel == 3 and s.gaoler is None
    assert p.mountains == 10 - 3 + 1 and p.tile_nogs["royal_dungeon"] == 0  # 2 Market Days; the gaoler came home
    run(s, 0, {"type": "finish"})
    second = _evict(s, 0)
    assert s.nogbad == "dungeon" and s.gaoler == 0
    assert points(first, 0, "royal dungeon") + points(second, 0, "royal dungeon") == 12


# -- Royal Kitchens, Seer's Tower, Town Walls, Windmill ------------------------------------

@pytest.mark.rules("noggin:appendix buildings/royal-kitchens")
def test_royal_kitchens_one_nog_a_season_for_two_harvest():
    """Appendix: at most 1 Nog per season on the Royal Kitchens, producing 2 Harvest from the
    market; the Nog comes back at the Change of Season, when the Kitchens work again."""
    s = _turn()
    own_building(s, 0, "royal_kitchens")
    p = s.players[0]
    market = s.market["harvest"]
    run(s, 0, {"type": "use", "card": "royal_kitchens"})
    assert p.stock["harvest"] == 2 and s.market["harvest"] == market - 2
    assert (p.mountains, p.tile_nogs["royal_kitchens"]) == (9, 1)
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "royal_kitchens"})
    at_season_end(s, 2)
    run_phase(s)
    assert (p.mountains, p.tile_nogs["royal_kitchens"]) == (10, 0)
    normal_turn(s, 0, [20, 26, 27, 28])
    run(s, 0, {"type": "use", "card": "royal_kitchens"})
    assert p.stock["harvest"] == 4






@pytest.mark.rules("noggin:appendix buildings/seers-tower-adjust", "noggin:appendix buildings/seers-tower-points")
def test_seers_tower_counts_one_nog_more_and_scores_when_the_dragon_goes_further():
    """Appendix: as a Saga finishes with 6 Nogs (the Dragon would move 1), the Seer's Tower
    owner (another seat) decides; counting 7 moves the Dragon 2 and scores 4. No Nog is
    really added."""
    s = _turn()
    own_building(s, 1, "seers_tower")
    stranger_last_card(s, 4)
    complete_stranger(s)
    assert RULES.to_move(s) == [1]
    assert sorted(m["adjust"] for m in RULES.legal_moves(s, 1)) == [-1, 0, 1]
    dragon = s.dragon
    events = run(s, 1, {"type": "seers_tower", "adjust": 1})
    moved = next(e for e in events if e.type == "DragonMoved").data
    assert (moved["nogs"], moved["by"]) == (6, 2) and s.dragon == dragon - 2
    assert points(events, 1, "seer's tower") == 4
    assert points(events, 0, "saga") == 2 * 2 + 4 * 3  # only the 6 real Nogs score (6.4: 2 on top, 3 below)


@pytest.mark.rules("noggin:appendix buildings/seers-tower-adjust", "noggin:appendix buildings/seers-tower-points")
@pytest.mark.parametrize("below, adjust, by", [(5, -1, 1), (5, 0, 2), (4, 0, 1)])
def test_seers_tower_no_points_unless_the_dragon_goes_further(below, adjust, by):
    """Appendix: counting one Nog less (7 as 6) moves the Dragon 1 instead of 2, and leaving the
    count moves it as usual; neither scores the 4 points."""
    s = _turn()
    own_building(s, 1, "seers_tower")
    stranger_last_card(s, below)
    complete_stranger(s)
    events = run(s, 1, {"type": "seers_tower", "adjust": adjust})
    assert next(e for e in events if e.type == "DragonMoved").data["by"] == by
    assert points(events, 1) == 0


@pytest.mark.rules("noggin:appendix buildings/seers-tower-adjust")
def test_seers_tower_not_asked_when_one_nog_changes_nothing():
    """Appendix: with 8 Nogs (the Dragon moves 2 whether 7, 8 or 9 are counted) the Saga
    finishes without waiting for the owner."""
    s = _turn()
    own_building(s, 1, "seers_tower")
    stranger_last_card(s, 6)
    events = complete_stranger(s)
    assert next(e for e in events if e.type == "DragonMoved").data["by"] == 2
    assert s.saga_end is None and RULES.to_move(s) == [0]


@pytest.mark.rules("noggin:appendix buildings/seers-tower-adjust", "noggin:appendix buildings/seers-tower-points")
def test_seers_tower_counts_one_nog_on_a_saga_finished_without_nogs():
    """Appendix: a Saga finished with no Nog on it moves the Dragon 0 spaces; counting 1 Nog
    more makes it 1 (rounded up, 6.4), which increases Noggin's popularity, so the owner may
    do it and scores 4 (the 0 to 1 case of the appendix's 6 to 7, 12 to 13...)."""
    s = _turn()
    own_building(s, 1, "seers_tower")
    stranger_last_card(s, 0)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": False, "pay": ["stone"]})
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": False, "pay": ["fish"]})
    assert RULES.to_move(s) == [1]
    events = run(s, 1, {"type": "seers_tower", "adjust": 1})
    assert next(e for e in events if e.type == "DragonMoved").data["by"] == 1
    assert points(events, 1, "seer's tower") == 4


@pytest.mark.rules("noggin:appendix buildings/town-walls")
def test_town_walls_score_three_per_tile_and_nothing_for_an_empty_new_land():
    """Appendix: Town Walls score 3 per Building tile on the Player Board or on New Land, the
    Walls included; an empty New Land tile scores nothing, one with a building on it counts."""
    s = _turn(season=8)
    p = s.players[0]
    p.buildings.update(town_walls="meadow", long_house="mountains", new_land="beside")
    assert final_breakdown(s)[0]["buildings"] == 3 * 2
    p.buildings["granary"] = "new_land"
    assert final_breakdown(s)[0]["buildings"] == 3 * 4  # walls, long house, granary, New Land
    del p.buildings["town_walls"]
    assert final_breakdown(s)[0]["buildings"] == 0


@pytest.mark.rules("noggin:appendix buildings/windmill")
def test_windmill_once_a_season_harvest_for_points():
    """Appendix: once per season a Nog and 2 Harvest score 8 (or 1 Harvest 4); the Harvest goes
    to the Nog Market, the Nog comes back at the Change of Season."""
    s = _turn()
    own_building(s, 0, "windmill")
    p = s.players[0]
    give(s, 0, harvest=3)
    market = s.market["harvest"]
    events = run(s, 0, {"type": "use", "card": "windmill", "harvest": 2, "pay": ["harvest", "harvest"]})
    assert points(events, 0, "windmill") == 8 and p.score == 8
    assert p.stock["harvest"] == 1 and s.market["harvest"] == market + 2
    assert (p.mountains, p.tile_nogs["windmill"]) == (9, 1)
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "windmill", "harvest": 1, "pay": ["harvest"]})
    at_season_end(s, 2)
    run_phase(s)
    assert (p.mountains, p.tile_nogs["windmill"]) == (10, 0)
    normal_turn(s, 0, [20, 26, 27, 28])
    events = run(s, 0, {"type": "use", "card": "windmill", "harvest": 1, "pay": ["harvest"]})
    assert points(events, 0, "windmill") == 4 and p.stock["harvest"] == 0
    p.used = []
    with pytest.raises(IllegalMove, match="cannot pay"):
        RULES.check(s, 0, {"type": "use", "card": "windmill", "harvest": 1})
