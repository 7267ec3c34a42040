"""The end of the game and the equipment cards: a-game-of-gnomes-rulebook.txt H (week 52, the
mountain bonus, scoring, the winner and the tie-breaks) and I (what each shop item does,
what replaces what, and where discarded items go)."""

from __future__ import annotations

import pytest

from .helpers import (
    RULES,
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


def end_game(state, chance) -> list:
    """Put the calendar on 51 and finish the round: the calendar reaches 52 (rulebook H)."""
    state.calendar = 51
    return finish_round(state, chance)


# -- H: the end ---------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:H/ends-at-52", "gnomes:H/calendar-stops-at-52", "gnomes:F/start-and-end")
def test_the_game_ends_when_the_calendar_reaches_52_and_stops_there():
    """a-game-of-gnomes-rulebook.txt H (stopping on 52: house rule): from week 46 a six-week round
    takes the calendar to 52 and the game ends with no new round; from 50 it stops on 52
    rather than passing it."""
    s, c = new_game(2)
    s.calendar = 45
    ev = finish_round(s, c)
    assert s.calendar == 46 and "RoundStarted" in types(ev)
    for _ in range(6):
        play(s, active(s), SCOUT, c)
    ev = finish_round(s, c)
    assert s.calendar == 52 and first(ev, "GameEnded").data["week"] == 52
    assert "RoundStarted" not in types(ev) and s.stage == "over"
    assert RULES.to_move(s) == [] and RULES.outcome(s) is not None
    s, c = new_game(2)
    s.calendar = 50
    for _ in range(6):
        play(s, active(s), SCOUT, c)
    ev = finish_round(s, c)
    assert first(ev, "CalendarMoved").data["to"] == 52 and s.calendar == 52 and s.stage == "over"


@pytest.mark.rules("gnomes:H/mountain-example", "gnomes:H/highest-gnome-gem", "gnomes:H/same-level-gem")
def test_red_and_yellow_on_the_snow_get_a_white_gem_and_blue_lower_does_not():
    """a-game-of-gnomes-rulebook.txt H example: Red is highest (the summit), Yellow on the same
    level (snow) and Blue lower (rock): Red and Yellow gain a white gem, Blue nothing."""
    s, c = new_game(3)
    arrange(s, 0, place="n1")
    arrange(s, 1, place="n2")
    arrange(s, 2, place="r1")
    ev = end_game(s, c)
    assert first(ev, "MountainBonus").data == {"seats": [0, 1], "gem": "white"}
    assert [p.gems["white"] for p in s.players] == [1, 1, 0]
    assert first(ev, "FinalScored").data["scores"] == [3, 3, 0]


@pytest.mark.rules("gnomes:H/level-names", "gnomes:H/highest-gnome-gem", "gnomes:H/same-level-gem")
@pytest.mark.parametrize("places,bonus", [
    (["r2", "g1", "s05"], [0]),           # rock is above grass
    (["g3", "g1", "r4"], [2]),            # one gnome on rock beats two on grass
    (["g2", "g4", "s01"], [0, 1]),        # grass is a level too; off the mountain is not
    (["s01", "s02", "tower"], []),        # nobody on the mountain, no bonus
])
def test_the_bonus_goes_to_the_highest_level_reached(places, bonus):
    """a-game-of-gnomes-rulebook.txt H: the levels are snow, rock and grass; every gnome on the
    highest level any gnome reached gets a white gem, and nobody off the mountain does."""
    s, c = new_game(3)
    for seat, place in enumerate(places):
        arrange(s, seat, place=place)
    ev = end_game(s, c)
    assert first(ev, "MountainBonus").data["seats"] == bonus
    assert [p.gems["white"] for p in s.players] == [int(i in bonus) for i in range(3)]


@pytest.mark.rules("gnomes:H/final-score-example", "gnomes:H/score-gems", "gnomes:H/score-nuggets",
                   "gnomes:H/score-golden", "gnomes:H/score-treasure", "gnomes:H/score-quests")
def test_the_scoring_example():
    """a-game-of-gnomes-rulebook.txt H example: a golden mushroom gives 8; a brown, two green and
    a white gem and a nugget card give 1+1+2+2+3 = 9; the treasure in hand adds its value
    (Moonstone, 6); the summit quest still held takes off its 10: 8 + 9 + 6 - 10 = 13."""
    s, c = new_game(2)
    arrange(s, 0, gems={"brown": 1, "green": 2, "white": 1}, hand=["moonstone", "nugget"],
            quest="reach_the_summit")
    s.players[0].golden = 1
    arrange(s, 1, gems={"brown": 2}, hand=["nugget", "nugget", "meadow"])
    ev = end_game(s, c)
    scored = first(ev, "FinalScored").data
    row = scored["breakdown"][0]
    assert (row["golden"], row["gems"] + row["nuggets"], row["treasure"], row["quest"]) == (8, 9, 6, -10)
    assert scored["scores"] == [13, 4]  # seat 1: 2 brown + 2 nuggets; the meadow card scores nothing
    assert scored["winners"] == [0]


@pytest.mark.rules("gnomes:H/score-quests")
def test_a_completed_quest_costs_nothing():
    """a-game-of-gnomes-rulebook.txt H: only quests not completed subtract their penalty; a
    5-point quest held costs 5, one done costs nothing."""
    s, c = new_game(2)
    arrange(s, 0, gems={"white": 2}, quest="visit_a_house")
    arrange(s, 1, gems={"white": 2})
    s.players[1].quests_done = ["cross_the_lake"]
    ev = end_game(s, c)
    assert first(ev, "FinalScored").data["scores"] == [1, 6]


@pytest.mark.rules("gnomes:H/winner")
def test_the_highest_total_wins():
    """a-game-of-gnomes-rulebook.txt H: the Gnome de Plume is the seat with the highest total."""
    s, c = new_game(3)
    arrange(s, 0, gems={"green": 2})
    arrange(s, 1, gems={"white": 1, "brown": 2})
    arrange(s, 2, gems={"white": 1})
    ev = end_game(s, c)
    assert first(ev, "FinalScored").data["winners"] == [1]
    assert RULES.outcome(s)["winners"] == [1]


@pytest.mark.rules("gnomes:H/tie-treasure")
def test_a_tie_goes_to_the_greater_treasure():
    """a-game-of-gnomes-rulebook.txt H: 6 points each; seat 0's come from a treasure (4) and seat
    1's from gems and the mountain bonus, so seat 0 wins, though seat 1 is higher and has
    more gems."""
    s, c = new_game(2)
    arrange(s, 0, gems={"brown": 2}, hand=["acorn_cup"])
    arrange(s, 1, gems={"white": 1}, place="r1")
    scored = first(end_game(s, c), "FinalScored").data
    assert scored["scores"] == [6, 6] and scored["winners"] == [0]


@pytest.mark.rules("gnomes:H/tie-mountain")
def test_then_the_tie_goes_to_the_gnome_higher_on_the_mountain():
    """a-game-of-gnomes-rulebook.txt H: 5 points each, no treasure; seat 0 is on rock (its bonus
    gem and two nuggets), seat 1 on grass with 5 in gems: seat 0, higher, wins before gems
    are compared."""
    s, c = new_game(2)
    arrange(s, 0, place="r3", hand=["nugget", "nugget"])
    arrange(s, 1, place="g1", gems={"white": 1, "green": 1})
    scored = first(end_game(s, c), "FinalScored").data
    assert scored["scores"] == [5, 5] and scored["winners"] == [0]


@pytest.mark.rules("gnomes:H/tie-gems")
def test_then_the_tie_goes_to_the_greater_gem_value():
    """a-game-of-gnomes-rulebook.txt H: 5 points each, no treasure, nobody on the mountain;
    seat 1 has 5 in gems against seat 0's 4 and a nugget, so seat 1 wins."""
    s, c = new_game(2)
    arrange(s, 0, gems={"white": 1, "brown": 1}, hand=["nugget"])
    arrange(s, 1, gems={"white": 1, "green": 1})
    scored = first(end_game(s, c), "FinalScored").data
    assert scored["scores"] == [5, 5] and scored["winners"] == [1]


@pytest.mark.rules("gnomes:H/tie-shared")
def test_a_tie_after_every_tie_break_is_shared():
    """a-game-of-gnomes-rulebook.txt H (house rule): equal totals, treasures, heights and gems,
    and pointy heads cannot be measured: both seats win."""
    s, c = new_game(3)
    arrange(s, 0, gems={"green": 1, "brown": 1}, hand=["dew_pearl"])
    arrange(s, 2, gems={"white": 1}, hand=["silver_thimble"])
    arrange(s, 1, gems={"brown": 1}, hand=["nugget"])
    scored = first(end_game(s, c), "FinalScored").data
    assert scored["scores"] == [8, 2, 8] and scored["winners"] == [0, 2]


# -- I: moving with equipment -----------------------------------------------------------------

@pytest.mark.rules("gnomes:I/canteen", "gnomes:I/short-axe", "gnomes:I/hill-boots")
@pytest.mark.parametrize("item,start,to,wrong", [
    ("canteen", "s01", "s02", "s05"),      # meadow; s01-s05 is forest
    ("short_axe", "s02", "s03", "s05"),    # forest; s02-s05 is meadow
    ("hill_boots", "s02", "s06", "s01"),   # mountain; s02-s01 is meadow
])
def test_route_items_cross_their_terrain_for_one_week_without_a_card(item, start, to, wrong):
    """a-game-of-gnomes-rulebook.txt I: the Canteen crosses a meadow route, the Short Axe a forest
    route and the Hill Boots a mountain route, each for 1 week and no card, and only its own
    terrain; the item is kept."""
    s, c = new_game(2)
    arrange(s, 0, place=start, hand=[], equipment=["tiny_basket", "tiny_rucksack", item])
    assert refused(s, 0, {"type": "equipment", "item": item, "to": wrong}, c)
    ev = play(s, 0, {"type": "equipment", "item": item, "to": to}, c)
    moved = first(ev, "GnomeMoved").data
    assert moved["weeks"] == 1 and "cards" not in moved
    assert s.players[0].place == to and s.players[0].timer == 1 and item in s.players[0].equipment
    play(s, 0, {"type": "equipment", "item": item, "to": start}, c)
    assert s.players[0].timer == 2


@pytest.mark.rules("gnomes:I/compass", "gnomes:C.1 tower/tower-exceptions")
def test_the_compass_goes_to_and_from_the_tower_in_one_week():
    """a-game-of-gnomes-rulebook.txt I: the Compass follows a black route to the Sorcerer's tower
    for 1 week with no card, and out again along another; it crosses no other route."""
    s, c = new_game(2)
    arrange(s, 0, place="s06", hand=[], equipment=["compass"])
    assert refused(s, 0, {"type": "equipment", "item": "compass", "to": "s09"}, c)
    play(s, 0, {"type": "equipment", "item": "compass", "to": "tower"}, c)
    assert s.players[0].place == "tower" and s.players[0].timer == 1
    play(s, 0, {"type": "equipment", "item": "compass", "to": "s12"}, c)
    assert s.players[0].place == "s12" and s.players[0].timer == 2


@pytest.mark.rules("gnomes:I/leaf-boat-water", "gnomes:I/amb9-leaf-boat-two-weeks", "gnomes:C.1 water/boat-lake",
                   "gnomes:C.1 water/boat-river")
def test_the_leaf_boat_crosses_the_lake_or_goes_down_the_river_for_two_weeks():
    """a-game-of-gnomes-rulebook.txt I (2 weeks: house rule, ambiguity 9): with no card the Leaf
    Boat carries a gnome across the lake to any lakeside location, or to the next riverside
    location (never past it), each for 2 weeks."""
    s, c = new_game(2)
    arrange(s, 0, place="s14", hand=[], equipment=["leaf_boat"])
    assert refused(s, 0, {"type": "equipment", "item": "leaf_boat", "to": "s08"}, c)  # two river sections
    ev = play(s, 0, {"type": "equipment", "item": "leaf_boat", "to": "s19"}, c)
    assert first(ev, "GnomeMoved").data["crossed"] == "lake" and s.players[0].timer == 2
    arrange(s, 0, place="s14")
    ev = play(s, 0, {"type": "equipment", "item": "leaf_boat", "to": "s11"}, c)
    assert first(ev, "GnomeMoved").data["crossed"] == "river" and s.players[0].timer == 4
    assert "leaf_boat" in s.players[0].equipment


@pytest.mark.rules("gnomes:I/spare-key", "gnomes:I/shop-discard-pile", "gnomes:B equipment/tunnel-key-once")
def test_the_spare_key_opens_the_tunnel_once_and_goes_to_the_shop_discard_pile():
    """a-game-of-gnomes-rulebook.txt I: the Spare Key works as the Tunnel Key, Grifola to Hydnum
    in no time, and is then discarded, onto the shop item discard pile as it is a shop item
    (the starting Tunnel Key leaves the game instead)."""
    s, c = new_game(2)
    grifola, hydnum = at(s, "G"), at(s, "H")
    arrange(s, 0, place=grifola, hand=[], equipment=["tiny_basket", "tiny_rucksack", "spare_key"])
    assert refused(s, 0, {"type": "equipment", "item": "spare_key", "to": at(s, "J")}, c)
    ev = play(s, 0, {"type": "equipment", "item": "spare_key", "to": hydnum}, c)
    assert first(ev, "GnomeMoved").data["weeks"] == 0 and s.players[0].place == hydnum
    assert "spare_key" not in s.players[0].equipment and s.shop_discard == ["spare_key"]
    assert refused(s, 0, {"type": "equipment", "item": "spare_key", "to": grifola}, c)
    arrange(s, 0, equipment=["tunnel_key"])
    play(s, 0, {"type": "equipment", "item": "tunnel_key", "to": grifola}, c)
    assert "tunnel_key" in s.removed and s.shop_discard == ["spare_key"]


# -- I: rucksacks, baskets and maps ------------------------------------------------------------

def at_shop(state, seat: int, shop: str, stock: list[str], **gems: int) -> None:
    """``seat``'s gnome at ``shop`` with ``stock`` on offer and ``gems`` to pay with."""
    arrange(state, seat, place=at(state, shop), gems=gems)
    state.shops[shop] = list(stock)


@pytest.mark.rules("gnomes:I/rucksack-replaces", "gnomes:I/shop-discard-pile", "gnomes:C.4/upgrade-discards-old")
def test_a_new_rucksack_replaces_the_one_held():
    """a-game-of-gnomes-rulebook.txt I: the Small Rucksack replaces the Tiny one (a starting card,
    out of the game); the Large one then replaces the Small, which goes on the shop item
    discard pile; the hand limit follows the rucksack held."""
    s, c = new_game(2)
    at_shop(s, 0, "hillview_hut", ["small_rucksack", "large_rucksack"], white=3)
    play(s, 0, {"type": "buy", "card": "small_rucksack"}, c)
    assert "tiny_rucksack" not in s.players[0].equipment and "tiny_rucksack" in s.removed
    play(s, 0, {"type": "buy", "card": "large_rucksack"}, c)
    eq = s.players[0].equipment
    assert "large_rucksack" in eq and "small_rucksack" not in eq and s.shop_discard == ["small_rucksack"]
    arrange(s, 0, hand=["nugget"] * 6)
    end_turns(s, c)
    assert s.stage == "round_end" and s.players[0].hand_size == 6


@pytest.mark.rules("gnomes:I/baskets-replace", "gnomes:I/shop-discard-pile")
def test_a_new_basket_replaces_the_one_held():
    """a-game-of-gnomes-rulebook.txt I: the Small Basket replaces the Tiny Basket (out of the
    game), the Large Basket the Small one (to the shop item discard pile); the mushroom
    carried moves into the new basket."""
    s, c = new_game(2)
    at_shop(s, 0, "hillview_hut", ["small_basket", "large_basket"], white=1)
    arrange(s, 0, basket=["yellow"])
    play(s, 0, {"type": "buy", "card": "small_basket"}, c)
    assert "tiny_basket" not in s.players[0].equipment and "tiny_basket" in s.removed
    play(s, 0, {"type": "buy", "card": "large_basket"}, c)
    assert [e for e in s.players[0].equipment if "basket" in e] == ["large_basket"]
    assert s.shop_discard == ["small_basket"] and s.players[0].basket == ["yellow"]


@pytest.mark.rules("gnomes:I/amb10-basket-hand-text-ignored")
def test_a_basket_holds_mushrooms_and_does_not_raise_the_hand_limit():
    """a-game-of-gnomes-rulebook.txt I (house rule, ambiguity 10): the Large Basket holds three
    mushrooms, yet with the Tiny Rucksack a hand of five must still be cut to four."""
    s, c = new_game(2)
    arrange(s, 0, equipment=["large_basket", "tiny_rucksack"], basket=["red", "red"],
            hand=["meadow", "forest", "mountain", "free", "nugget"])
    s.mushrooms[s.players[0].place] = ["red"]
    play(s, 0, {"type": "pick", "mushroom": "red"}, c)
    assert s.players[0].basket == ["red", "red", "red"]
    end_turns(s, c)
    play(s, 1, {"type": "sleep", "piles": []}, c)  # seat 1 has the week seat 0 spent picking
    assert s.stage == "hand" and active(s) == 0
    assert all(len(m["cards"]) == 1 for m in legal(s, 0))


@pytest.mark.rules("gnomes:I/map", "gnomes:C.1 mountain/map-to-change-level", "gnomes:C.1 mountain/double-route-maps")
def test_maps_change_level_between_their_spaces_for_no_time():
    """a-game-of-gnomes-rulebook.txt I: a single map takes a gnome up one level between its two
    spaces; a double map joins three; each costs no time; without the map, or off its route,
    there is no climb."""
    s, c = new_game(2)
    arrange(s, 0, place="g1", equipment=["map_g1_r1"])
    assert refused(s, 0, {"type": "climb", "map": "map_g2_r2", "to": "r2"}, c)
    play(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    assert s.players[0].place == "r1" and s.players[0].timer == 0
    assert refused(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "n1"}, c)
    arrange(s, 0, place="g2", equipment=["map_g2_r2_n1"])
    play(s, 0, {"type": "climb", "map": "map_g2_r2_n1", "to": "n1"}, c)
    assert s.players[0].place == "n1" and s.players[0].timer == 0
    play(s, 0, {"type": "climb", "map": "map_g2_r2_n1", "to": "r2"}, c)
    assert s.players[0].place == "r2"


@pytest.mark.rules("gnomes:I/map-limit", "gnomes:C.4/third-map")
def test_a_third_map_hands_one_back_to_the_shop():
    """a-game-of-gnomes-rulebook.txt I and C.4: a player holds at most two maps; buying a third
    without naming one to give up is refused, and the map given up joins the shop's stock."""
    s, c = new_game(2)
    arrange(s, 0, equipment=["tiny_basket", "tiny_rucksack", "map_g1_r1", "map_g2_r2"])
    at_shop(s, 0, "forest_fete", ["map_g3_r3", "spare_key"], white=1)
    assert refused(s, 0, {"type": "buy", "card": "map_g3_r3"}, c)
    play(s, 0, {"type": "buy", "card": "map_g3_r3", "return_map": "map_g1_r1"}, c)
    maps = sorted(e for e in s.players[0].equipment if e.startswith("map"))
    assert maps == ["map_g2_r2", "map_g3_r3"]
    assert "map_g1_r1" in s.shops["forest_fete"]
