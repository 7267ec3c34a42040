"""The calendar and winter: a-game-of-gnomes-rulebook.txt F (the calendar moves each round;
seasons rot and sprout mushrooms; the frog from summer) and G (ice on the river and lake,
the winter tower, perished equipment, the shops refilled and the winter quests removed)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from .helpers import (
    active,
    arrange,
    at,
    end_turns,
    finish_round,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)

SCOUT = {"type": "scout"}
BLUE_SITES = ["s06", "s07", "s09", "s11", "s12", "s13", "s15", "s17"]
"""First-game sites of the eight tiles that grow blue (Calvatia ... Kolus, house rule)."""
RED_YELLOW_SITES = ["s01", "s03", "s04", "s05", "s14", "s16", "s18", "s19"]
"""First-game sites of Amanita, Boletus, Inocybe, Lactarius and the four gnome houses."""
NO_WINTER = {"canteen", "short_axe", "hill_boots", "compass", "leaf_boat"}


def advance(state, chance, weeks: int) -> list:
    """A round in which the first seat scouts ``weeks`` times (the exhausted timer) and the
    round then ends; returns every event."""
    seat = active(state)
    out = []
    for _ in range(weeks):
        out += play(state, seat, SCOUT, chance)
    return out + finish_round(state, chance)


def to_round_end(state, chance, weeks: int) -> None:
    """As :func:`advance`, stopping before the phase ``round_end`` runs."""
    seat = active(state)
    for _ in range(weeks):
        play(state, seat, SCOUT, chance)
    end_turns(state, chance)
    while state.stage in ("sleep", "hand"):
        seat = active(state)
        move = {"type": "sleep", "piles": []} if state.stage == "sleep" else legal(state, seat)[0]
        play(state, seat, move, chance)


def with_colour(state, colour: str) -> list[str]:
    """Places holding a mushroom of ``colour``, sorted."""
    return sorted(k for k, v in state.mushrooms.items() if colour in v)


# -- F: the calendar --------------------------------------------------------------------------

@pytest.mark.rules("gnomes:F/moved-each-round", "gnomes:F/start-and-end", "gnomes:B/calendar-start")
def test_the_calendar_moves_at_the_end_of_every_round():
    """a-game-of-gnomes-rulebook.txt F (start at week 0: house rule): the calendar starts on 0
    and moves at the end of each round by the exhausted timer's weeks, 3 then 2."""
    s, c = new_game(2)
    assert s.calendar == 0
    ev = advance(s, c, 3)
    assert first(ev, "CalendarMoved").data["weeks"] == 3 and s.calendar == 3
    ev = advance(s, c, 2)
    assert first(ev, "CalendarMoved").data == {"from": 3, "to": 5, "weeks": 2, "season": "spring"}
    assert s.calendar == 5 and s.round == 3


@pytest.mark.rules("gnomes:F/season-weeks", "gnomes:F/yellow-sprouts-at-13", "gnomes:F/sprouting",
                   "gnomes:F/season-change-mushrooms")
def test_summer_at_13_sprouts_yellow_on_its_symbols():
    """a-game-of-gnomes-rulebook.txt F (weeks and colour: house rule): reaching week 13 is summer
    and a yellow mushroom grows on every yellow symbol, villages and gnome houses; week 12
    is still spring and grows nothing."""
    s, c = new_game(2)
    s.calendar = 10
    ev = advance(s, c, 2)
    assert s.calendar == 12 and "MushroomsSprouted" not in types(ev) and with_colour(s, "yellow") == []
    ev = advance(s, c, 1)
    assert first(ev, "CalendarMoved").data["season"] == "summer"
    assert first(ev, "MushroomsSprouted").data == {"week": 13, "colour": "yellow", "places": RED_YELLOW_SITES}
    assert with_colour(s, "yellow") == RED_YELLOW_SITES
    assert with_colour(s, "blue") == BLUE_SITES  # nothing rots in summer


@pytest.mark.rules("gnomes:F/example-six-spaces", "gnomes:F/blue-rots-at-25", "gnomes:F/red-sprouts-at-25",
                   "gnomes:F/rotten-off-board", "gnomes:F/rotten-from-baskets")
def test_six_spaces_from_summer_into_autumn():
    """a-game-of-gnomes-rulebook.txt F example: the calendar moves six spaces, 19 to 25, from
    summer into autumn: blue mushrooms leave the board and the baskets and are put aside,
    red ones grow where their symbol is; a yellow one carried stays."""
    s, c = new_game(3)
    s.calendar = 19
    arrange(s, 1, basket=["blue"])
    arrange(s, 2, basket=["yellow"])
    ev = advance(s, c, 6)
    assert first(ev, "CalendarMoved").data == {"from": 19, "to": 25, "weeks": 6, "season": "autumn"}
    rot = first(ev, "MushroomsRotted").data
    assert rot["colours"] == ["blue"] and rot["board"] == BLUE_SITES and rot["baskets"]["1"] == 1
    assert with_colour(s, "blue") == [] and s.players[1].basket == [] and s.players[2].basket == ["yellow"]
    assert first(ev, "MushroomsSprouted").data["colour"] == "red"
    assert with_colour(s, "red") == RED_YELLOW_SITES


@pytest.mark.rules("gnomes:F/yellow-rots-in-winter", "gnomes:F/blue-sprouts-in-winter",
                   "gnomes:F/amb13-red-never-rots", "gnomes:F/winter-ice")
def test_winter_rots_yellow_sprouts_blue_and_red_stays():
    """a-game-of-gnomes-rulebook.txt F and G (which colour when: house rule; red never rots,
    ambiguity 13): entering winter at 37 rots yellow on the board and in baskets, grows blue
    again and brings the ice; red on the board and in baskets survives, to the game's end."""
    s, c = new_game(3)
    s.calendar = 12
    advance(s, c, 1)  # yellow at 13
    s.calendar = 24
    advance(s, c, 1)  # red at 25, blue rots
    arrange(s, 0, basket=["yellow"])
    arrange(s, 1, basket=["red"])
    s.mushrooms["s03"].remove("yellow")  # the yellow now carried by seat 0
    assert with_colour(s, "yellow") == [x for x in RED_YELLOW_SITES if x != "s03"]
    s.calendar = 31
    ev = advance(s, c, 6)
    rot = first(ev, "MushroomsRotted").data
    assert rot["colours"] == ["yellow"] and rot["baskets"] == {"0": 1, "1": 0, "2": 0}
    assert with_colour(s, "yellow") == [] and s.players[0].basket == []
    assert with_colour(s, "blue") == BLUE_SITES
    assert with_colour(s, "red") == RED_YELLOW_SITES and s.players[1].basket == ["red"]
    assert s.frozen
    s.calendar = 46
    ev = advance(s, c, 6)
    assert "MushroomsRotted" not in types(ev) and with_colour(s, "red") == RED_YELLOW_SITES


@pytest.mark.rules("gnomes:F/one-per-symbol")
def test_an_occupied_symbol_gets_no_second_mushroom_and_the_supply_runs_out():
    """a-game-of-gnomes-rulebook.txt F (house rule): Calvatia still holds a blue mushroom, so it
    gets none; three blues are carried, so only 10 - 1 - 3 = 6 wooden ones are left for
    the other seven blue symbols."""
    s, c = new_game(3)
    s.mushrooms = {k: v for k, v in s.mushrooms.items() if "blue" not in v}
    s.mushrooms["s06"] = ["blue"]
    for seat in range(3):
        arrange(s, seat, basket=["blue"])
    s.calendar = 31
    ev = advance(s, c, 6)
    places = next(e.data["places"] for e in ev if e.type == "MushroomsSprouted" and e.data["colour"] == "blue")
    assert "s06" not in places and len(places) == 6
    assert s.mushrooms["s06"] == ["blue"]
    assert sum(v.count("blue") for v in s.mushrooms.values()) + 3 == 10


@pytest.mark.rules("gnomes:F/frog-from-summer")
def test_the_frog_is_ridden_only_from_summer():
    """a-game-of-gnomes-rulebook.txt F: Pond Pipes cannot be used in spring (week 12); from the
    sun symbols at week 13 they can."""
    s, c = new_game(2)
    s.calendar = 12
    assert "summer" in refused(s, 0, {"type": "pond_pipes"}, c)
    s.calendar = 13
    ev = play(s, 0, {"type": "pond_pipes"}, c)
    assert first(ev, "PondPipesUsed").data["seat"] == 0 and s.frog == 0


# -- G: winter ---------------------------------------------------------------------------------

def winter_game(players: int = 3):
    """A game whose next round end takes the calendar from 31 to 37 (winter)."""
    s, c = new_game(players, seed="winter")
    s.calendar = 31
    return s, c


@pytest.mark.rules("gnomes:G/example-1", "gnomes:G/freeze")
def test_entering_winter_rots_yellow_then_sprouts_blue_then_freezes():
    """a-game-of-gnomes-rulebook.txt G example 1: on entering winter yellow is removed first,
    blue put on next, and only then do the frozen tokens and the winter tower go on."""
    s, c = winter_game()
    assert not s.frozen
    ev = advance(s, c, 6)
    t = [x for x in types(ev) if x in ("MushroomsRotted", "MushroomsSprouted", "WinterCame")]
    assert t == ["MushroomsRotted", "MushroomsSprouted", "WinterCame"]
    assert first(ev, "MushroomsRotted").data["colours"] == ["yellow"]
    assert first(ev, "MushroomsSprouted").data["colour"] == "blue"
    assert s.frozen and first(ev, "CalendarMoved").data["season"] == "winter"


@pytest.mark.rules("gnomes:G/frozen-river", "gnomes:G/walk-on-ice", "gnomes:G/example-3",
                   "gnomes:C.1 water/water-needs-boat-or-winter")
def test_the_three_river_sections_freeze():
    """a-game-of-gnomes-rulebook.txt G example 3: a frozen token lies on each of the three river
    sections, so a gnome walks to the next riverside location with no card for 2 weeks;
    before winter it may not, and the ice never skips a location."""
    s2, c2 = winter_game()
    arrange(s2, 0, place="s05")
    assert refused(s2, 0, {"type": "ice", "to": "s08"}, c2)
    advance(s2, c2, 6)
    river = ["s05", "s08", "s11", "s14"]
    for a, b in pairwise(river):
        seat = active(s2)
        arrange(s2, seat, place=a, timer=0, hand=[])
        assert {"type": "ice", "to": b} in legal(s2, seat)
        ev = play(s2, seat, {"type": "ice", "to": b}, c2)
        moved = first(ev, "GnomeMoved").data
        assert moved["weeks"] == 2 and moved["crossed"] == "river" and "cards" not in moved
        assert s2.players[seat].place == b and s2.players[seat].timer == 2
    seat = active(s2)
    arrange(s2, seat, place="s05", timer=0)
    assert refused(s2, seat, {"type": "ice", "to": "s11"}, c2)


@pytest.mark.rules("gnomes:G/frozen-lake", "gnomes:G/walk-on-ice")
def test_the_frozen_lake_is_crossed_on_foot():
    """a-game-of-gnomes-rulebook.txt G: the frozen token on the lake lets a gnome cross it from
    one lakeside location to another for 2 weeks with no card, which completes the lake
    quest too."""
    s, c = winter_game()
    advance(s, c, 6)
    seat = active(s)
    arrange(s, seat, place="s14", quest="cross_the_lake")
    ev = play(s, seat, {"type": "ice", "to": "s19"}, c)
    assert first(ev, "GnomeMoved").data["crossed"] == "lake" and s.players[seat].timer == 2
    assert first(ev, "QuestCompleted").data["quest"] == "cross_the_lake"
    assert refused(s, seat, {"type": "ice", "to": "s18"}, c)  # s18 is not lakeside


@pytest.mark.rules("gnomes:G/winter-tower", "gnomes:G/tower-one-week", "gnomes:G/footprints-both-ways")
def test_the_footprints_lead_to_and_from_the_tower_in_one_week():
    """a-game-of-gnomes-rulebook.txt G (both ways: house rule): once the winter tower is on, a
    gnome reaches the tower for 1 week and no card, and comes back out the same way; before
    winter the footprints are not there."""
    s, c = winter_game()
    arrange(s, 0, place="s06", hand=[])
    assert refused(s, 0, {"type": "winter_path", "to": "tower"}, c)
    advance(s, c, 6)
    seat = active(s)
    arrange(s, seat, place="s06", hand=[])
    ev = play(s, seat, {"type": "winter_path", "to": "tower"}, c)
    assert first(ev, "GnomeMoved").data["weeks"] == 1 and s.players[seat].place == "tower"
    ev = play(s, seat, {"type": "winter_path", "to": "s12"}, c)
    assert s.players[seat].place == "s12" and s.players[seat].timer == 2
    assert refused(s, seat, {"type": "winter_path", "to": "s13"}, c)  # not a black route


@pytest.mark.rules("gnomes:G/winter-equipment-removed", "gnomes:G/perished-not-discarded", "gnomes:G/example-2",
                   "gnomes:I/winter-discards", "gnomes:I/shop-discard-pile")
def test_no_winter_items_perish_from_displays_and_shops():
    """a-game-of-gnomes-rulebook.txt G example 2 and I: Hill Boots, Leaf Boat, Canteen, Short Axe
    and Compass leave the players' displays and the shops; they leave the game rather than
    go to the shop item discard pile; other items stay."""
    s, c = winter_game()
    arrange(s, 1, equipment=["tiny_basket", "small_rucksack", "canteen", "compass", "leaf_boat", "map_g1_r1"])
    arrange(s, 2, equipment=["tiny_basket", "tiny_rucksack", "hill_boots", "short_axe"])
    s.shops["market_meadow"] = ["leaf_boat", "spare_key", "compass", "map_g2_r2"]
    discard = list(s.shop_discard)
    ev = advance(s, c, 6)
    came = first(ev, "WinterCame").data
    assert sorted(came["equipment"]["1"]) == ["canteen", "compass", "leaf_boat"]
    assert s.players[1].equipment == ["tiny_basket", "small_rucksack", "map_g1_r1"]
    assert s.players[2].equipment == ["tiny_basket", "tiny_rucksack"]
    assert sorted(came["shops"]["market_meadow"]) == ["compass", "leaf_boat"]
    assert {"spare_key", "map_g2_r2"} <= set(s.shops["market_meadow"])
    assert not any(x in NO_WINTER for cards in s.shops.values() for x in cards)
    assert s.shop_discard == discard
    assert {"canteen", "compass", "leaf_boat", "hill_boots", "short_axe"} <= set(s.removed)


def _shops_emptied(s) -> None:
    """Every shop's stock back into the shop item deck (so winter refills all three)."""
    deck = s.secret["shop_deck"]
    for shop, cards in s.shops.items():
        for x in cards:
            deck[x] = deck.get(x, 0) + 1
        s.shop_size += len(cards)
        s.shops[shop] = []


@pytest.mark.rules("gnomes:G/restock-from-hillview", "gnomes:G/redraw-winter-cards", "gnomes:G/restock-until")
def test_shops_are_refilled_one_card_each_from_hillview_hut_without_winter_cards():
    """a-game-of-gnomes-rulebook.txt G: after winter's losses the shops are refilled one card at a
    time, Hillview Hut, Forest Fete, Market Meadow and round again, drawn no-winter cards
    being removed and replaced, until every shop holds 4."""
    s, c = winter_game()
    to_round_end(s, c, 6)  # end-of-turn refills happen before the emptying below
    _shops_emptied(s)
    ev = finish_round(s, c)
    draws = [d for e in ev if e.type == "ShopCardsDrawn" for d in e.data["draws"]]
    placed = [shop for shop, _ in draws if shop is not None]
    assert placed == ["hillview_hut", "forest_fete", "market_meadow"] * 4
    assert all(card in NO_WINTER for shop, card in draws if shop is None)
    assert all(len(v) == 4 and not set(v) & NO_WINTER for v in s.shops.values())
    assert {card for shop, card in draws if shop is None} <= set(s.removed)


@pytest.mark.rules("gnomes:G/restock-until")
def test_winter_refill_stops_when_the_deck_runs_out():
    """a-game-of-gnomes-rulebook.txt G: with only two cards left that survive winter, refilling
    stops once the deck is empty, the shops short."""
    s, c = winter_game()
    to_round_end(s, c, 6)
    for shop in s.shops:
        s.shops[shop] = []
    s.secret["shop_deck"] = {"canteen": 1, "spare_key": 1, "map_g3_r3": 1}
    s.shop_bottom = []
    s.shop_size = 3
    ev = finish_round(s, c)
    assert sum(len(v) for v in s.shops.values()) == 2 and s.shop_size == 0
    assert "canteen" in s.removed
    assert s.shops["hillview_hut"] and s.shops["forest_fete"] and s.shops["market_meadow"] == []
    assert "RoundStarted" in types(ev)


@pytest.mark.rules("gnomes:G/winter-quests-removed", "gnomes:G/held-quests-kept", "gnomes:C.7/winter-quests")
def test_winter_quests_leave_the_display_but_not_a_player():
    """a-game-of-gnomes-rulebook.txt G: the winter-symbol quest on display (a yellow-selling one,
    house rule) is removed and replaced from the quest pile; the one a player holds stays."""
    s, c = winter_game()
    s.quests = ["forest_fete_item", "cross_the_lake", "visit_a_house"]
    s.quest_deck = ["hillview_hut_item", "red_for_gems", "reach_the_summit"]
    arrange(s, 1, quest="market_meadow_item")
    ev = advance(s, c, 6)
    assert first(ev, "WinterCame").data["quests"] == ["forest_fete_item"]
    assert "forest_fete_item" in s.removed and "forest_fete_item" not in s.quests
    assert len(s.quests) == 3 and s.quests[:2] == ["cross_the_lake", "visit_a_house"]
    assert s.quests[2] in ("hillview_hut_item", "red_for_gems", "reach_the_summit")
    assert s.players[1].quest == "market_meadow_item"


@pytest.mark.rules("gnomes:G/winter-draws-removed")
def test_no_winter_cards_drawn_later_in_winter_are_removed():
    """a-game-of-gnomes-rulebook.txt G (house rule): after winter has come, a restock that draws
    a no-winter card removes it and draws again, and a winter quest drawn for the display
    is removed too."""
    s, c = winter_game()
    advance(s, c, 6)
    seat = active(s)
    arrange(s, seat, place=at(s, "hillview_hut"))
    s.secret["shop_deck"] = {"compass": 1, "leaf_boat": 1, "spare_key": 1}
    s.shop_bottom = []
    s.shop_size = 3
    removed = list(s.removed)
    ev = play(s, seat, {"type": "restock"}, c)
    assert not set(s.shops["hillview_hut"]) & NO_WINTER and "spare_key" in s.shops["hillview_hut"]
    assert sorted(s.removed[len(removed):]) == ["compass", "leaf_boat"]
    drawn = first(ev, "ShopCardsDrawn").data["draws"]
    assert all(shop is None for shop, card in drawn if card in NO_WINTER)
    s.quests = ["cross_the_lake", "visit_a_house", "reach_the_summit"]
    s.quest_deck = ["market_meadow_item"]
    arrange(s, seat, place="tower")
    s.players[seat].quest = None
    ev = play(s, seat, {"type": "quest", "quest": "cross_the_lake"}, c)
    assert first(ev, "QuestsDrawn").data == {"quests": [], "removed": ["market_meadow_item"]}
    assert "market_meadow_item" in s.removed and len(s.quests) == 2
