"""A Game of Gnomes: the components (a-game-of-gnomes-rulebook.txt A), the set-up (B), the gems
(B "Gems") and the game variant (J), checked on games set up by the engine and played
through ``play``. House rules are those of docs/house-rules.md, "A Game of Gnomes"."""

from __future__ import annotations

from collections import Counter

import pytest

from services.rules.core import GameConfig
from services.rules.core.errors import BadConfig
from services.rules.core.forward import chance_from, resolve
from services.rules.gnomes import geo
from services.rules.gnomes.content import content
from services.rules.gnomes.state import KING, gem_value, hand, mushroom_supply

from .helpers import (
    RULES,
    active,
    arrange,
    at,
    finish_round,
    first,
    new_game,
    play,
    refused,
    types,
)

VILLAGES = list("ABCDEFGHIJKL")
STARTERS = {"canteen", "short_axe", "hill_boots"}
SEEDS = [f"seed-{i}" for i in range(12)]


def _setup_events(players: int = 3, seed: str = "test", **options: bool):
    """The events set-up emits (as ``new_game`` does, keeping them); returns ``(state, events)``."""
    config = GameConfig(game="gnomes", players=players, options=options)
    RULES.validate_config(config)
    state = RULES.new_state()
    created = RULES.created_event(config)
    RULES.evolve(state, created)
    return state, resolve(RULES, state, RULES.setup_ops(config), chance_from(seed))


def _grow_sites(state, colour: str) -> set[str]:
    return {site for site, tile in state.layout.items() if colour in geo.grows().get(tile, ())}


def _with(state, colour: str) -> set[str]:
    return {place for place, ms in state.mushrooms.items() if colour in ms}


def _to_week(state, chance, week: int) -> list:
    """Arrange the calendar one week short of ``week`` and play the round out (nobody uses a
    week, so the calendar moves its minimum of one)."""
    state.calendar = week - 1
    return finish_round(state, chance)


# -- A components -----------------------------------------------------------------------------

@pytest.mark.rules(
    "gnomes:A/village-tiles", "gnomes:A/shop-tiles", "gnomes:A/gnome-house-tiles",
    "gnomes:A/location-tiles-total", "gnomes:A/named-villages", "gnomes:A/other-village-names",
    "gnomes:A/shop-names", "gnomes:A/house-colours",
)
def test_the_location_tiles_as_the_view_names_them():
    """A: 12 villages A-L, 3 shops and 4 gnome houses, 19 tiles on 19 sites; the villages the
    rulebook names keep their initials and the other four are named after mushroom genera
    (house rule); the shops by their names; one house per player colour."""
    state, _ = new_game(4)
    places = RULES.view(state, None)["places"]
    board = {site: e for site, e in places.items() if site != "tower"}
    assert len(board) == 19 and len({e["tile"] for e in board.values()}) == 19
    kinds = Counter(e["kind"] for e in board.values())
    assert kinds == {"village": 12, "shop": 3, "house": 4}
    names = {e["tile"]: e["name"] for e in board.values()}
    assert sorted(e["tile"] for e in board.values() if e["kind"] == "village") == VILLAGES
    assert {t: names[t] for t in "CDEFGHJK"} == {
        "C": "Calvatia", "D": "Descina", "E": "Exidea", "F": "Fuligo", "G": "Grifola", "H": "Hydnum",
        "J": "Jafnea", "K": "Kolus"}
    assert {t: names[t] for t in "ABIL"} == {"A": "Amanita", "B": "Boletus", "I": "Inocybe", "L": "Lactarius"}
    assert sorted(e["name"] for e in board.values() if e["kind"] == "shop") == [
        "Forest Fete Shop", "Hillview Hut Shop", "Market Meadow Shop"]
    houses = sorted(e["name"] for e in board.values() if e["kind"] == "house")
    assert houses == sorted(f"{p.colour} gnome house" for p in state.players)
    assert sorted(state.shops) == sorted(e["tile"] for e in board.values() if e["kind"] == "shop")


@pytest.mark.rules("gnomes:A/gnome-mountain")
def test_gnome_mountain_stands_on_the_board_and_is_reached_by_a_path():
    """A, C.1: Gnome Mountain is a piece on the board; red's gnome walks a meadow path from its
    house up to a grass space of the mountain."""
    state, chance = new_game()
    arrange(state, 0, hand=["meadow"])
    assert state.players[0].place == at(state, "house_red")
    mountain = [n for n in geo.neighbours(state.players[0].place, geo.LAND_ICONS) if geo.on_mountain(n)]
    assert mountain == ["g1"]
    events = play(state, 0, {"type": "travel", "card": "meadow", "path": ["g1"]}, chance)
    assert first(events, "GnomeMoved").data["path"] == ["g1"]
    assert state.players[0].place == "g1" and geo.rank("g1") == 1


@pytest.mark.rules("gnomes:A/timing-track")
def test_the_timing_track_has_spaces_0_to_7():
    """A, C.1 timer: the timing track runs from 0 to 7; an action that would push a timer past 7
    is refused, one that lands on 7 is allowed."""
    state, chance = new_game()
    track = RULES.view(state, 0)["timing_track"]
    assert len(track) == 8 and sorted(track[0]) == [0, 1, 2]
    arrange(state, 0, timer=6)
    play(state, 0, {"type": "scout"}, chance)
    assert state.players[0].timer == 7
    assert 0 in RULES.view(state, 0)["timing_track"][7]
    assert "past week 7" in refused(state, 0, {"type": "scout"}, chance)


@pytest.mark.rules("gnomes:A/gnome-timers", "gnomes:A/gnomes")
def test_one_gnome_and_one_timer_in_each_colour_for_at_most_four_players():
    """A: four gnomes and four timers, red, yellow, blue and green; so at most four players."""
    state, _ = new_game(4, drawn=True)
    assert sorted(p.colour for p in state.players) == ["blue", "green", "red", "yellow"]
    assert sorted(RULES.view(state, None)["timing_track"][0]) == [0, 1, 2, 3]
    assert len({p.place for p in state.players}) == 4
    with pytest.raises(BadConfig):
        new_game(5)


@pytest.mark.rules("gnomes:A/montane-king-mushrooms", "gnomes:A/golden-mushrooms")
def test_four_montane_kings_and_a_golden_mushroom_for_selling_one():
    """A, C.3: there are four Montane Kings (all placed with four players); selling one brings a
    golden mushroom token as well as a gem."""
    state, chance = new_game(4)
    kings = [place for place, ms in state.mushrooms.items() for m in ms if m == KING]
    assert len(kings) == 4 and all(geo.on_mountain(k) for k in kings)
    arrange(state, 0, place=at(state, "C"), basket=[KING])
    play(state, 0, {"type": "sell", "mushroom": KING, "gem": "white"}, chance)
    p = state.players[0]
    assert p.golden == 1 and p.gems["white"] == 1 and p.basket == []


@pytest.mark.rules("gnomes:A/frog-hopper")
def test_there_is_one_frog_hopper():
    """A, B equipment: one frog hopper, so one rider at a time: once red rides it, yellow's
    Pond Pipes cannot bring a second frog this round."""
    state, chance = new_game()
    state.calendar = 13
    play(state, 0, {"type": "pond_pipes"}, chance)
    assert state.frog == 0
    play(state, 0, {"type": "end_turn"}, chance)
    refused(state, 1, {"type": "pond_pipes"}, chance)
    assert state.frog == 0


@pytest.mark.rules("gnomes:A/tunnel-door")
def test_the_tunnel_door_joins_grifola_and_hydnum_only_by_key():
    """A, B equipment: no path joins Grifola and Hydnum; the tunnel door between them opens with
    the Tunnel Key."""
    state, chance = new_game()
    g, h = at(state, "G"), at(state, "H")
    assert not geo.crosses(g, h, frozenset({"meadow", "forest", "mountain", "black"}))
    arrange(state, 0, place=g, hand=["nugget", "nugget", "nugget"])
    refused(state, 0, {"type": "three_for_free", "cards": ["nugget", "nugget", "nugget"], "to": h}, chance)
    play(state, 0, {"type": "equipment", "item": "tunnel_key", "to": h}, chance)
    assert state.players[0].place == h


@pytest.mark.rules("gnomes:A/frozen-tokens", "gnomes:A/winter-tower", "gnomes:B/frozen-wait-at-37")
def test_the_frozen_tokens_and_winter_tower_come_at_week_37():
    """A, B, G: the frozen tokens and the Winter Tower wait on week 37; before it the river cannot
    be walked and the footprints to the tower are not there, from it both are."""
    state, chance = new_game()
    arrange(state, 0, place="s05")
    refused(state, 0, {"type": "ice", "to": "s08"}, chance)
    arrange(state, 0, place="s06")
    refused(state, 0, {"type": "winter_path", "to": "tower"}, chance)
    state.calendar = 35
    finish_round(state, chance)
    assert state.calendar == 36 and not state.frozen
    events = _to_week(state, chance, 37)
    assert "WinterCame" in types(events) and state.frozen and state.calendar == 37
    seat = active(state)
    arrange(state, seat, place="s05")
    play(state, seat, {"type": "ice", "to": "s08"}, chance)
    assert state.players[seat].place == "s08" and state.players[seat].timer == 2
    arrange(state, seat, place="s06")
    play(state, seat, {"type": "winter_path", "to": "tower"}, chance)
    assert state.players[seat].place == "tower" and state.players[seat].timer == 3


@pytest.mark.rules("gnomes:A/calendar-timer", "gnomes:B/calendar-start")
def test_the_calendar_timer_starts_at_the_blue_mushroom_and_moves_by_the_weeks_used():
    """A, B, D: the calendar timer starts on the blue mushroom at the start of the calendar track
    (week 0, spring, with the blue mushrooms out) and moves on by the weeks of the round."""
    state, chance = new_game()
    view = RULES.view(state, 0)
    assert view["calendar"] == 0 and view["season"] == "spring"
    assert content().calendar.sprout["0"] == ["blue"] and _with(state, "blue") == _grow_sites(state, "blue")
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    events = finish_round(state, chance)
    moved = first(events, "CalendarMoved").data
    assert (moved["from"], moved["to"]) == (0, 3) and state.calendar == 3


@pytest.mark.rules("gnomes:A/wooden-mushrooms")
def test_ten_wooden_mushrooms_of_each_colour_limit_what_sprouts():
    """A, F: ten wooden mushrooms of each colour: eight blue are out at the start (two beside the
    board); red sprouts on all eight red sites at week 25, but only on four when six red are
    already in baskets and on the board."""
    state, chance = new_game()
    assert mushroom_supply(state, "blue") == 2 and mushroom_supply(state, "red") == 10
    free, _ = new_game()
    _to_week(free, chance_from("x"), 25)
    assert len(_with(free, "red")) == 8 and mushroom_supply(free, "red") == 2
    for seat in range(3):
        arrange(state, seat, basket=["red"])
    for space in ("g1", "g2", "g3"):
        state.mushrooms[space] = ["red"]
    assert mushroom_supply(state, "red") == 4
    events = _to_week(state, chance, 25)
    sprouted = [e.data for e in events if e.type == "MushroomsSprouted" and e.data["colour"] == "red"]
    assert len(sprouted[0]["places"]) == 4 and mushroom_supply(state, "red") == 0
    assert len(_with(state, "red") & _grow_sites(state, "red")) == 4


# -- B set-up ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players, spaces", [
    pytest.param(2, {"n1", "n2"}, marks=pytest.mark.rules("gnomes:B/montane-kings-2", "gnomes:B/montane-king-spaces")),
    pytest.param(3, {"n1", "n2", "r2"}, marks=pytest.mark.rules("gnomes:B/montane-kings-3",
                                                                "gnomes:B/montane-king-spaces")),
    pytest.param(4, {"n1", "n2", "r2", "r4"}, marks=pytest.mark.rules("gnomes:B/montane-kings-4",
                                                                      "gnomes:B/montane-king-spaces")),
])
def test_montane_kings_by_player_count(players, spaces):
    """B: as many Montane Kings as players, on the two snow spaces, then r2, then r4 (house rule)."""
    state, _ = new_game(players)
    kings = [place for place, ms in state.mushrooms.items() for m in ms if m == KING]
    assert len(kings) == players and set(kings) == spaces


@pytest.mark.rules("gnomes:B/first-game-layout", "gnomes:B/layout-option", "gnomes:B/later-game-layout")
def test_first_game_layout_unless_random_layout_is_chosen():
    """B: a first game lays every tile on its printed site; the option random_layout (house rule)
    shuffles the 19 tiles onto the sites instead, differently for different games."""
    state, events = _setup_events()
    assert state.layout == content().board.first_game
    assert first(events, "LayoutPlaced").data["random"] is False
    layouts = []
    for seed in SEEDS[:6]:
        s, ev = _setup_events(seed=seed, random_layout=True)
        assert first(ev, "LayoutPlaced").data["random"] is True
        assert sorted(s.layout) == sorted(content().board.sites)
        assert sorted(s.layout.values()) == sorted(content().board.first_game.values())
        layouts.append(tuple(sorted(s.layout.items())))
    assert len(set(layouts)) == 6
    assert tuple(sorted(content().board.first_game.items())) not in layouts


@pytest.mark.rules("gnomes:B/later-game-layout", "gnomes:B/blue-mushrooms", "gnomes:B/gnomes-start-at-houses")
def test_a_random_layout_carries_its_mushrooms_and_houses_with_the_tiles():
    """B: wherever the tiles land, the eight tiles with a blue symbol get a blue mushroom and each
    gnome starts on its own colour's house (house rule)."""
    for seed in SEEDS[:4]:
        state, _ = new_game(4, seed=seed, random_layout=True)
        assert _with(state, "blue") == _grow_sites(state, "blue") and len(_with(state, "blue")) == 8
        for p in state.players:
            assert state.layout[p.place] == f"house_{p.colour}"


@pytest.mark.rules("gnomes:B/first-game-corners")
def test_first_game_houses_at_the_corners_and_shops_between_villages():
    """B (house rule): the first-game layout puts the houses on the corner sites s01, s04, s16 and
    s18, no two next to each other, and each shop between villages (two or more village
    neighbours, no shop next to another)."""
    state, _ = new_game(4)
    houses = {site for site, t in state.layout.items() if geo.tile_kinds()[t] == "house"}
    assert houses == {"s01", "s04", "s16", "s18"}
    for h in houses:
        assert not (set(geo.neighbours(h, geo.LAND_ICONS)) & (houses - {h}))
    shops = {site for site, t in state.layout.items() if geo.tile_kinds()[t] == "shop"}
    for s in shops:
        near = [n for n in geo.neighbours(s, geo.LAND_ICONS) if n in state.layout]
        assert sum(geo.tile_kinds()[state.layout[n]] == "village" for n in near) >= 2
        assert not set(near) & shops


@pytest.mark.rules("gnomes:B/starter-items-one-per-shop", "gnomes:B/three-more-per-shop",
                   "gnomes:B/one-card-of-each-starter")
def test_each_shop_gets_one_starter_item_and_three_more_cards():
    """B: Canteen, Short Axe and Hill Boots are shuffled, one dealt to each shop; then each shop
    draws three more cards, four on offer."""
    deals = set()
    for seed in SEEDS:
        state, events = _setup_events(seed=seed)
        dealt = first(events, "StarterItemsDealt").data["shops"]
        assert sorted(dealt) == sorted(state.shops) and set(dealt.values()) == STARTERS
        assert all(state.shops[shop][0] == card for shop, card in dealt.items())
        assert all(len(stock) == 4 for stock in state.shops.values())
        on_offer = [card for stock in state.shops.values() for card in stock]
        assert all(on_offer.count(card) == 1 for card in STARTERS)  # one card of each (B)
        deals.add(tuple(sorted(dealt.items())))
    assert len(deals) > 1


@pytest.mark.rules("gnomes:B/treasures-set-aside", "gnomes:B/shop-draw-deck")
def test_treasures_are_set_aside_then_shuffled_into_the_shop_draw_deck():
    """B: the 8 treasures are out of the deck while the shops are stocked, so no shop offers one at
    the start; then they and the undealt shop cards make the shop item draw deck."""
    treasures = {t.id for t in content().cards.treasures}
    everything = Counter({e.id: e.copies for e in content().cards.shop}) + Counter(treasures)
    for seed in SEEDS:
        state, _ = new_game(seed=seed)
        on_offer = [c for stock in state.shops.values() for c in stock]
        assert not set(on_offer) & treasures
        deck = Counter(state.secret["shop_deck"])
        assert treasures <= set(deck)
        assert deck + Counter(on_offer) == everything
        assert state.shop_size == sum(deck.values()) == sum(everything.values()) - 12


@pytest.mark.rules("gnomes:B/dream-piles", "gnomes:B/travel-draw-deck")
def test_dream_piles_of_one_two_and_three_and_the_travel_deck():
    """B: the shuffled travel cards make dream piles of 1, 2 and 3 cards; the rest is the travel
    draw deck beside the board."""
    everything = Counter({t.id: t.copies for t in content().cards.travel})
    for seed in SEEDS[:4]:
        state, _ = new_game(seed=seed)
        assert {k: len(v) for k, v in state.dream.items()} == {"1": 1, "2": 2, "3": 3}
        dreamt = Counter(c for pile in state.dream.values() for c in pile)
        assert Counter(state.secret["travel_deck"]) + dreamt == everything
        assert state.travel_size == sum(everything.values()) - 6


@pytest.mark.rules("gnomes:B/blue-mushrooms")
def test_blue_mushrooms_on_the_eight_blue_symbol_tiles():
    """B: a blue mushroom on each of the eight location tiles with a blue symbol, nowhere else."""
    state, _ = new_game()
    blue = _with(state, "blue")
    assert len(blue) == 8 and blue == _grow_sites(state, "blue")
    assert all(state.mushrooms[s] == ["blue"] for s in blue)


@pytest.mark.rules("gnomes:B/yellow-wait-at-13")
def test_yellow_mushrooms_and_the_frog_wait_at_week_13():
    """B, F: yellow mushrooms and the frog-riding gnome wait by week 13: before it no yellow grows
    and Pond Pipes are refused; at 13 yellow sprouts on its eight sites and the frog is free."""
    state, chance = new_game()
    assert not _with(state, "yellow")
    state.calendar = 12
    refused(state, 0, {"type": "pond_pipes"}, chance)
    events = finish_round(state, chance)
    assert state.calendar == 13
    assert first(events, "MushroomsSprouted").data["colour"] == "yellow"
    assert _with(state, "yellow") == _grow_sites(state, "yellow") and len(_with(state, "yellow")) == 8
    seat = active(state)
    play(state, seat, {"type": "pond_pipes"}, chance)
    assert state.frog == seat


@pytest.mark.rules("gnomes:B/red-wait-at-25")
def test_red_mushrooms_wait_at_week_25():
    """B, F: the red mushrooms wait by week 25: none at week 24, all eight red sites at 25."""
    state, chance = new_game()
    _to_week(state, chance, 24)
    assert not _with(state, "red")
    events = _to_week(state, chance, 25)
    assert any(e.type == "MushroomsSprouted" and e.data["colour"] == "red" for e in events)
    assert _with(state, "red") == _grow_sites(state, "red") and len(_with(state, "red")) == 8


@pytest.mark.rules("gnomes:B/village-gems", "gnomes:B/no-gems-shops-houses")
def test_gems_on_villages_only():
    """B: one brown, one green and one white gem on each village A-L; shops and gnome houses (white
    border) get none, and nothing is sold at a house."""
    state, chance = new_game()
    assert sorted(state.gems) == VILLAGES
    assert all(g == {"brown": 1, "green": 1, "white": 1} for g in state.gems.values())
    arrange(state, 0, basket=["blue"])
    assert "sold only at a village" in refused(state, 0, {"type": "sell", "mushroom": "blue", "gem": "brown"}, chance)


@pytest.mark.rules("gnomes:B/first-player", "gnomes:B/first-stack-order")
def test_the_first_stack_has_seat_zero_on_top_and_it_goes_first():
    """B (house rule for the order of the first stack): seat 0 on top, then seat 1 and so on down;
    the timer on top plays first."""
    for n in (2, 3, 4):
        state, _ = new_game(n)
        stack = RULES.view(state, None)["timing_track"][0]
        assert stack == list(reversed(range(n)))
        assert active(state) == stack[-1] == 0 and state.order == list(range(n))


@pytest.mark.rules("gnomes:B/turn-order-down")
def test_play_passes_down_the_stack():
    """B: after the top timer, the timer beneath plays, and so on down, in later rounds too: red
    scouts once and the sleepers' timers land on top of it, the last sleeper highest."""
    state, chance = new_game()
    seen = []
    for _ in range(3):
        seen.append(active(state))
        if active(state) == 0:
            play(state, 0, {"type": "scout"}, chance)
        play(state, active(state), {"type": "end_turn"}, chance)
    assert seen == [0, 1, 2]
    while state.stage == "sleep":
        play(state, active(state), {"type": "sleep", "piles": []}, chance)
    stack = RULES.view(state, None)["timing_track"][1]
    finish_round(state, chance)
    assert state.round == 2 and state.order == list(reversed(stack)) == [2, 1, 0]


@pytest.mark.rules("gnomes:B/gnomes-drawn", "gnomes:B/gnomes-start-at-houses")
def test_set_up_draws_each_seats_gnome_and_it_starts_at_that_house():
    """B (house rule): players choose their gnomes; set-up draws the colours for them (a public
    ``GnomesChosen`` before the layout), different colours, any colour on any seat, each gnome
    on the house of its colour; the same seed draws the same colours."""
    firsts, thirds = Counter(), Counter()
    for i in range(40):
        state, _ = new_game(3, seed=f"draw-{i}", drawn=True)
        colours = [p.colour for p in state.players]
        assert len(set(colours)) == 3 and set(colours) <= {"red", "yellow", "blue", "green"}
        for p in state.players:
            assert state.layout[p.place] == f"house_{p.colour}"
        firsts[colours[0]] += 1
        thirds[colours[2]] += 1
        assert [p.colour for p in new_game(3, seed=f"draw-{i}", drawn=True)[0].players] == colours
    assert set(firsts) == set(thirds) == {"red", "yellow", "blue", "green"}
    assert max(firsts.values()) < 20  # no colour is the first seat's in half the games


@pytest.mark.rules("gnomes:B/gnomes-drawn", "gnomes:B/gnomes-start-at-houses")
def test_gnomes_chosen_is_public_and_comes_before_the_layout():
    """B: the drawn colours are public (every seat and watcher sees whose gnome is whose) and are
    drawn before the tiles are laid, which put each gnome on its house."""
    config = GameConfig(game="gnomes", players=2, options={})
    state = RULES.new_state()
    RULES.evolve(state, RULES.created_event(config))
    events = resolve(RULES, state, RULES.setup_ops(config), chance_from("order"))
    kinds = [e.type for e in events]
    assert kinds.index("GnomesChosen") < kinds.index("LayoutPlaced")
    chosen = events[kinds.index("GnomesChosen")]
    assert chosen.to is None and chosen.data["colours"] == [p.colour for p in state.players]


@pytest.mark.rules("gnomes:B/gnomes-start-at-houses", "gnomes:B/empty-hands")
def test_seats_colours_houses_and_empty_hands():
    """B (house rules): each gnome on its own house; nobody holds travel cards or gems at the
    start."""
    state, _ = new_game(4, drawn=True)
    for p in state.players:
        assert state.layout[p.place] == f"house_{p.colour}"
        assert hand(state, p.seat) == [] and p.hand_size == 0
        assert gem_value(p.gems) == 0 and p.basket == [] and p.golden == 0


# -- B gems -----------------------------------------------------------------------------------

def _at_shop(stock: list[str], gems: dict[str, int]):
    state, chance = new_game()
    shop = "hillview_hut"
    state.shops[shop] = list(stock)
    arrange(state, 0, place=at(state, shop), gems=gems)
    return state, chance


@pytest.mark.rules("gnomes:B gems/currency", "gnomes:B gems/gem-values")
def test_gems_pay_by_value_brown_1_green_2_white_3():
    """B gems, C.4: gems are the money; a brown is worth 1, a green 2, a white 3, so a green and a
    brown pay the Compass's 3 and a green alone does not."""
    state, chance = _at_shop(["compass"], {"green": 1})
    assert "costs 3" in refused(state, 0, {"type": "buy", "card": "compass"}, chance)
    for gems in ({"green": 1, "brown": 1}, {"white": 1}, {"brown": 3}):
        state, chance = _at_shop(["compass"], gems)
        play(state, 0, {"type": "buy", "card": "compass"}, chance)
        assert "compass" in state.players[0].equipment and gem_value(state.players[0].gems) == 0


@pytest.mark.rules("gnomes:B gems/make-change")
def test_change_comes_from_the_stock():
    """B gems: gems are swapped for gems of equal value from the stock: a white gem paying a
    1-gem Spare Key leaves the buyer gems worth 2."""
    state, chance = _at_shop(["spare_key"], {"white": 1})
    play(state, 0, {"type": "buy", "card": "spare_key"}, chance)
    assert gem_value(state.players[0].gems) == 2 and state.players[0].gems["white"] == 0


@pytest.mark.rules("gnomes:B gems/change-example")
def test_one_white_gem_is_three_brown_gems():
    """B gems example: one white gem is worth three brown: it pays for three 1-gem items one after
    another, exactly as three brown gems do, and nothing is left."""
    for gems in ({"white": 1}, {"brown": 3}):
        state, chance = _at_shop(["spare_key", "spare_key", "small_basket"], gems)
        for card in ("spare_key", "spare_key", "small_basket"):
            play(state, 0, {"type": "buy", "card": card}, chance)
        assert gem_value(state.players[0].gems) == 0
        assert state.players[0].equipment.count("spare_key") == 2 and "small_basket" in state.players[0].equipment
    assert gem_value({"white": 1}) == gem_value({"brown": 3}) == 3


# -- J variant --------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:J/variant-option", "gnomes:J/replaces-gem-setup")
def test_the_gem_variant_option_replaces_the_village_gems():
    """J (option gem_variant, house rule): the gems are mixed instead of one of each colour per
    village; without the option there is no mix and the tower has no gems."""
    plain, events = _setup_events()
    assert "GemsMixed" not in types(events) and "tower" not in plain.gems
    varied = 0
    for seed in SEEDS[:6]:
        state, events = _setup_events(seed=seed, gem_variant=True)
        assert state.gems == first(events, "GemsMixed").data["gems"]
        varied += any(state.gems[v] != {"brown": 1, "green": 1, "white": 1} for v in VILLAGES)
    assert varied == 6


@pytest.mark.rules("gnomes:J/gem-mix", "gnomes:J/three-per-site")
def test_thirty_nine_mixed_gems_three_on_each_village_and_the_tower():
    """J: 13 brown, 13 green and 13 clear gems are mixed and 3 go on each village A-L and on the
    Sorcerer's tower."""
    mixes = set()
    for seed in SEEDS[:6]:
        state, _ = new_game(seed=seed, gem_variant=True)
        assert sorted(state.gems) == sorted(VILLAGES + ["tower"])
        assert all(sum(g.values()) == 3 for g in state.gems.values())
        total = Counter()
        for g in state.gems.values():
            total.update(g)
        assert dict(total) == {"brown": 13, "green": 13, "white": 13}
        mixes.add(tuple(sorted((k, tuple(sorted(v.items()))) for k, v in state.gems.items())))
    assert len(mixes) > 1


@pytest.mark.rules("gnomes:J/variant-option", "gnomes:J/three-per-site")
def test_in_the_variant_the_sorcerer_pays_from_his_own_gems():
    """J: the tower's three gems are its own; selling to the Sorcerer takes one of them."""
    state, chance = new_game(seed="seed-1", gem_variant=True)
    gem = next(g for g, n in state.gems["tower"].items() if n)
    before = dict(state.gems["tower"])
    arrange(state, 0, place="tower", basket=["blue"])
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": gem}, chance)
    assert state.gems["tower"][gem] == before[gem] - 1 and state.players[0].gems[gem] == 1
