"""Gnome Mountain, the Sorcerer's tower and the water (a-game-of-gnomes-rulebook.txt C.1
"Moving on Mount Gnome", "The Sorcerer's tower", "Moving on rivers and the lake"): the
four paths up, lateral moves by level, maps between levels, one gnome per space at the end
of a turn and the displacement back along the mover's route, the black routes, and the
Leaf Boat. The mountain's shape, the maps and the water are house rules (docs/house-rules.md)."""

from __future__ import annotations

import pytest

from services.rules.gnomes import geo
from services.rules.gnomes.content import content
from services.rules.gnomes.state import STARTING_ITEMS, equipment, hand, travel_cards

from .helpers import active, arrange, at, finish_round, first, legal, new_game, play, refused

BASE = ["tiny_basket", "tiny_rucksack"]


def _game(players: int = 3):
    return new_game(players, seed="c1-mountain")


def _turn_of(state, chance, seat: int) -> None:
    """End turns until it is ``seat``'s."""
    while active(state) != seat:
        play(state, active(state), {"type": "end_turn"}, chance)


def _places(state) -> list[str]:
    return [p.place for p in state.players]


def _end(state, chance, seat: int) -> list[dict]:
    """End ``seat``'s turn; returns the displacements."""
    return first(play(state, seat, {"type": "end_turn"}, chance), "TurnEnded").data["displaced"]


def _one_per_space(state) -> bool:
    on = [p.place for p in state.players if geo.on_mountain(p.place)]
    return len(on) == len(set(on))


# -- reaching the mountain and its levels -------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 mountain/four-paths-up")
def test_four_board_paths_lead_up_to_the_grass_spaces():
    """C.1 mountain: four paths join the board to the mountain, each to its own grass space;
    a card of the path's terrain takes the gnome up."""
    grass = content().board.mountain.levels["grass"]
    ups = {(site, g) for g in grass for site, _ in geo.land_routes()[g] if site in content().board.sites}
    assert len(ups) == 4 and {g for _, g in ups} == set(grass)
    for site, g in sorted(ups):
        (terrain,) = next(icons for n, icons in geo.land_routes()[site] if n == g)
        s, c = _game()
        arrange(s, 0, place=site, hand=[terrain])
        play(s, 0, {"type": "travel", "card": terrain, "path": [g]}, c)
        assert s.players[0].place == g


@pytest.mark.rules("gnomes:C.1 mountain/three-levels", "gnomes:C.1 mountain/layout")
def test_the_mountain_has_grass_rock_and_snow_levels():
    """C.1 mountain and H: grass at the bottom, rock in the middle, snow on top; four grass and
    four rock spaces and two snow spaces, the summit among them (house rule)."""
    m = content().board.mountain
    assert {k: len(v) for k, v in m.levels.items()} == {"grass": 4, "rock": 4, "snow": 2}
    assert [geo.rank(m.levels[k][0]) for k in ("grass", "rock", "snow")] == [1, 2, 3]
    assert geo.rank("s01") == 0 and m.summit in m.levels["snow"]


@pytest.mark.rules("gnomes:C.1 mountain/layout", "gnomes:C.1 mountain/grass-lateral")
def test_grass_and_rock_levels_are_rings():
    """C.1 mountain, house rule: each of the grass and rock levels is a ring, so the last
    space joins the first."""
    s, c = _game()
    arrange(s, 0, place="g4", hand=["forest", "mountain"])
    play(s, 0, {"type": "travel", "card": "forest", "path": ["g1"]}, c)
    assert s.players[0].place == "g1"
    arrange(s, 0, place="r4")
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["r1"]}, c)
    assert s.players[0].place == "r1"
    assert sorted(geo.neighbours("r1", geo.LAND_ICONS)) == ["r2", "r4"]


@pytest.mark.rules("gnomes:C.1 mountain/grass-lateral")
def test_grass_spaces_are_joined_by_meadow_or_forest():
    """C.1 mountain: between grass spaces a meadow or a forest icon will do, not a mountain one."""
    s, c = _game()
    arrange(s, 0, place="g1", hand=["meadow", "forest", "mountain"])
    assert "no route" in refused(s, 0, {"type": "travel", "card": "mountain", "path": ["g2"]}, c)
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["g2"]}, c)
    play(s, 0, {"type": "travel", "card": "forest", "path": ["g3"]}, c)
    assert (s.players[0].place, s.players[0].timer) == ("g3", 2)


@pytest.mark.rules("gnomes:C.1 mountain/upper-lateral")
def test_rock_and_snow_spaces_are_joined_by_mountain():
    """C.1 mountain: between spaces of the rock or the snow level a mountain icon is needed."""
    s, c = _game()
    arrange(s, 0, place="r1", hand=["meadow", "forest", "double_mountain", "mountain"])
    for card in ("meadow", "forest"):
        assert "no route" in refused(s, 0, {"type": "travel", "card": card, "path": ["r2"]}, c)
    play(s, 0, {"type": "travel", "card": "double_mountain", "path": ["r2", "r3"]}, c)
    assert s.players[0].place == "r3"
    arrange(s, 0, place="n1")
    assert "no route" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["n2"]}, c)
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["n2"]}, c)
    assert s.players[0].place == "n2"


# -- maps ---------------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 mountain/map-to-change-level", "gnomes:C.1 mountain/no-map-no-climb")
def test_only_a_map_changes_level():
    """C.1 mountain: climbing or descending needs a map; no travel card, three for free or
    free card crosses between levels."""
    s, c = _game()
    arrange(s, 0, place="g1", hand=["mountain", "free", "nugget", "nugget", "nugget"])
    assert "no map" in refused(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    for card in ("mountain", "free"):
        assert "no route" in refused(s, 0, {"type": "travel", "card": card, "path": ["r1"]}, c)
    three = {"type": "three_for_free", "cards": ["nugget", "nugget", "nugget"], "to": "r1"}
    assert "no land route" in refused(s, 0, three, c)
    assert not [m for m in legal(s, 0) if m.get("to") == "r1" or m.get("path", [None])[-1] == "r1"]
    arrange(s, 0, equipment=[*BASE, "map_g1_r1"])
    play(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    assert s.players[0].place == "r1"
    play(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "g1"}, c)  # and back down
    assert s.players[0].place == "g1"


@pytest.mark.rules("gnomes:C.1 mountain/climb-once-a-turn", "gnomes:C.1 mountain/level-change-free")
def test_each_climb_once_a_turn():
    """House rule (docs/house-rules.md, Climbs): climbs are free (C.1 mountain), so a gnome
    makes each climb once a turn; up and back down is fine, up again waits for the next turn."""
    s, c = _game()
    seat = active(s)
    arrange(s, seat, place="g1", equipment=[*BASE, "map_g1_r1"])
    up = {"type": "climb", "map": "map_g1_r1", "to": "r1"}
    play(s, seat, up, c)
    play(s, seat, {"type": "climb", "map": "map_g1_r1", "to": "g1"}, c)
    assert "already climbed from g1 to r1" in refused(s, seat, up, c)
    assert not [m for m in legal(s, seat) if m["type"] == "climb"]
    finish_round(s, c)
    assert s.players[seat].place == "g1"
    _turn_of(s, c, seat)
    assert up in legal(s, seat)
    play(s, seat, up, c)
    assert s.players[seat].place == "r1"


@pytest.mark.rules("gnomes:C.1 mountain/map-route", "gnomes:C.1 mountain/no-map-no-climb")
def test_a_map_joins_only_the_spaces_it_shows():
    """C.1 mountain: a map allows the move between the two spaces its arrow shows, no other."""
    s, c = _game()
    arrange(s, 0, place="g2", equipment=[*BASE, "map_g1_r1"])
    assert "does not take you" in refused(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r2"}, c)
    arrange(s, 0, place="g1")
    assert "does not take you" in refused(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r2"}, c)
    assert [m for m in legal(s, 0) if m["type"] == "climb"] == [{"type": "climb", "map": "map_g1_r1", "to": "r1"}]


@pytest.mark.rules("gnomes:C.1 mountain/level-change-free", "gnomes:C.1 mountain/level-change-not-action")
def test_climbing_costs_no_time_and_is_no_new_action():
    """C.1 mountain: a climb takes no time and is no new action, so it is allowed on week 7
    and leaves the timer and its place in the stack alone."""
    s, c = _game()
    arrange(s, 0, place="g1", timer=7, equipment=[*BASE, "map_g1_r1", "map_r1_n1"], hand=["meadow"])
    stamp = s.players[0].stamp
    assert "past week 7" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["g4"]}, c)
    ev = play(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    ev += play(s, 0, {"type": "climb", "map": "map_r1_n1", "to": "n1"}, c)
    assert [e.data["weeks"] for e in ev if e.type == "GnomeMoved"] == [0, 0]
    assert (s.players[0].place, s.players[0].timer, s.players[0].stamp) == ("n1", 7, stamp)
    assert "map_g1_r1" in s.players[0].equipment and hand(s, 0) == ["meadow"]


@pytest.mark.rules("gnomes:C.1 mountain/double-route-maps", "gnomes:C.1 mountain/map-route")
def test_a_double_route_map_climbs_grass_to_snow():
    """C.1 mountain: some maps show a double route; one takes a gnome from grass via rock to
    snow, for no time (house rule: from grass to snow)."""
    s, c = _game()
    arrange(s, 0, place="g2", equipment=[*BASE, "map_g2_r2_n1"])
    assert "does not take you" in refused(s, 0, {"type": "climb", "map": "map_g2_r2_n1", "to": "n2"}, c)
    play(s, 0, {"type": "climb", "map": "map_g2_r2_n1", "to": "r2"}, c)
    play(s, 0, {"type": "climb", "map": "map_g2_r2_n1", "to": "n1"}, c)
    assert (s.players[0].place, s.players[0].timer) == ("n1", 0)


@pytest.mark.rules("gnomes:C.1 mountain/map-cards", "gnomes:C.1 mountain/double-route-maps")
def test_six_single_maps_between_neighbouring_levels_and_two_double_maps():
    """C.1 mountain, house rule: six maps join neighbouring levels, two join grass to snow
    through rock."""
    level = geo.mountain_level()
    maps = [e for e in content().cards.shop if e.route]
    single = [m for m in maps if len(m.route) == 2]
    double = [m for m in maps if len(m.route) == 3]
    assert len(single) == 6 and len(double) == 2 and sum(m.copies for m in maps) == 8
    assert all(abs(geo.rank(a) - geo.rank(b)) == 1 for a, b in (m.route for m in single))
    assert all([level[x] for x in m.route] == ["grass", "rock", "snow"] for m in double)


# -- one gnome per space and displacement ------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 mountain/pass-through", "gnomes:C.1 mountain/one-gnome-per-space")
def test_a_gnome_may_pass_through_an_occupied_space():
    """C.1 mountain: a gnome may move through a space holding another gnome; ending on an
    empty one displaces nobody."""
    s, c = _game()
    arrange(s, 1, place="r2")
    arrange(s, 0, place="r1", hand=["double_mountain"])
    play(s, 0, {"type": "travel", "card": "double_mountain", "path": ["r2", "r3"]}, c)
    assert _end(s, c, 0) == []
    assert _places(s)[:2] == ["r3", "r2"]


@pytest.mark.rules("gnomes:C.1 mountain/one-gnome-per-space")
def test_gnomes_may_share_a_space_during_a_turn_but_not_at_its_end():
    """C.1 mountain: a gnome may stand on an occupied space during its turn; when the turn
    ends the space holds one gnome."""
    s, c = _game()
    arrange(s, 1, place="r2")
    arrange(s, 0, place="r1", hand=["mountain", "mountain"])
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["r2"]}, c)
    assert _places(s)[:2] == ["r2", "r2"] and active(s) == 0
    play(s, 0, {"type": "scout"}, c)  # still acting there
    assert _end(s, c, 0) == [{"seat": 1, "from": "r2", "to": "r1"}]
    assert _one_per_space(s)


@pytest.mark.rules("gnomes:C.1 mountain/displace-back", "gnomes:C.1 mountain/level-change-free")
def test_the_displaced_gnome_goes_where_the_mover_came_from_even_another_level():
    """C.1 mountain: ending on an occupied space sends its gnome to the space the mover last
    came from, here down a level to the grass."""
    s, c = _game()
    arrange(s, 1, place="r1")
    arrange(s, 0, place="g1", equipment=[*BASE, "map_g1_r1"])
    play(s, 0, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    assert _end(s, c, 0) == [{"seat": 1, "from": "r1", "to": "g1"}]
    assert _places(s)[:2] == ["r1", "g1"]


@pytest.mark.rules("gnomes:C.1 mountain/displace-back")
def test_a_gnome_displaced_from_the_grass_goes_back_to_the_board():
    """C.1 mountain: a gnome that came up from the board pushes the grass gnome down to the
    board location it came from."""
    s, c = _game()
    arrange(s, 1, place="g1")
    arrange(s, 0, hand=["meadow"])  # Red's house s01, meadow path to g1
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["g1"]}, c)
    assert _end(s, c, 0) == [{"seat": 1, "from": "g1", "to": "s01"}]
    assert _places(s)[:2] == ["g1", "s01"]


@pytest.mark.rules("gnomes:C.1 mountain/displace-back", "gnomes:C.1 mountain/one-gnome-per-space")
def test_the_space_last_come_from_counts_when_the_route_doubles_back():
    """C.1 mountain: the displaced gnome goes to the space the mover last moved from, even if
    the mover passed its final space earlier in the turn."""
    s, c = _game()
    arrange(s, 1, place="r2")
    arrange(s, 0, place="r1", hand=["double_mountain", "mountain"])
    play(s, 0, {"type": "travel", "card": "double_mountain", "path": ["r2", "r3"]}, c)
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["r2"]}, c)
    assert _end(s, c, 0) == [{"seat": 1, "from": "r2", "to": "r3"}]
    assert _one_per_space(s)


def _displacement_example():
    """Four players on the rock level: Red on r2, Green on r3; Yellow climbs from g1 to r1
    with a map, then a double mountain card takes him through Red to Green's space."""
    s, c = _game(4)
    arrange(s, 0, place="r2")
    arrange(s, 3, place="r3", hand=["mountain"])
    arrange(s, 1, place="g1", equipment=[*BASE, "map_g1_r1"], hand=["double_mountain"])
    assert _end(s, c, 0) == []
    play(s, 1, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    play(s, 1, {"type": "travel", "card": "double_mountain", "path": ["r2", "r3"]}, c)
    return s, c


@pytest.mark.rules("gnomes:C.1 mountain/displacement-example", "gnomes:C.1 mountain/displace-chain",
                   "gnomes:C.1 mountain/one-gnome-per-space", "gnomes:C.1 mountain/pass-through")
def test_the_displacement_example():
    """C.1 mountain, the example: Yellow moves two spaces onto Green's; Green goes back one
    space along Yellow's route, onto Red's; Red goes back one more, onto the space Yellow
    left empty."""
    s, c = _displacement_example()
    assert _end(s, c, 1) == [{"seat": 3, "from": "r3", "to": "r2"}, {"seat": 0, "from": "r2", "to": "r1"}]
    red, yellow, _, green = _places(s)
    assert (yellow, green, red) == ("r3", "r2", "r1")
    assert _one_per_space(s)


@pytest.mark.rules("gnomes:C.1 mountain/displace-chain", "gnomes:C.1 mountain/one-gnome-per-space",
                   "gnomes:C.1 mountain/displace-back")
def test_a_pushed_gnome_starts_its_own_turn_where_it_was_pushed():
    """C.1 mountain: after the example Green, pushed to r2, moves back to r3 on his turn; he
    came from r2, so Yellow is pushed there, and the mountain again holds one gnome a space."""
    s, c = _displacement_example()
    _end(s, c, 1)
    _turn_of(s, c, 3)
    play(s, 3, {"type": "travel", "card": "mountain", "path": ["r3"]}, c)
    assert _end(s, c, 3) == [{"seat": 1, "from": "r3", "to": "r2"}]
    assert _places(s)[1] == "r2" and _places(s)[3] == "r3"
    assert _one_per_space(s)


@pytest.mark.rules("gnomes:C.1 mountain/displace-chain", "gnomes:C.1 mountain/displace-back")
def test_the_chain_runs_back_along_the_whole_route_and_down_a_level():
    """C.1 mountain: Yellow climbs from g1 onto Blue's r1, walks through Red's r2 onto Green's
    r3; every gnome on the route goes back one space, the last one down to the grass."""
    s, c = _game(4)
    arrange(s, 0, place="r2")
    arrange(s, 2, place="r1")
    arrange(s, 3, place="r3")
    arrange(s, 1, place="g1", equipment=[*BASE, "map_g1_r1"], hand=["double_mountain"])
    _end(s, c, 0)
    play(s, 1, {"type": "climb", "map": "map_g1_r1", "to": "r1"}, c)
    play(s, 1, {"type": "travel", "card": "double_mountain", "path": ["r2", "r3"]}, c)
    assert _end(s, c, 1) == [{"seat": 3, "from": "r3", "to": "r2"}, {"seat": 0, "from": "r2", "to": "r1"},
                             {"seat": 2, "from": "r1", "to": "g1"}]
    assert _places(s) == ["r1", "r3", "g1", "r2"]


@pytest.mark.rules("gnomes:C.1 mountain/displacement-route-runs-out")
def test_a_chain_longer_than_the_route_stops_on_its_first_space():
    """C.1 mountain, house rule: if the route runs out while gnomes are still being pushed,
    the last one stays on the route's first space. (Arranged: Blue shares Red's starting
    space, which no legal turn leaves behind.)"""
    s, c = _game()
    arrange(s, 2, place="r1")
    arrange(s, 1, place="r2")
    arrange(s, 0, place="r1", hand=["mountain"])
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["r2"]}, c)
    assert _end(s, c, 0) == [{"seat": 1, "from": "r2", "to": "r1"}]
    assert _places(s) == ["r2", "r1", "r1"]


# -- the Sorcerer's tower ----------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 tower/black-routes", "gnomes:C.1 tower/black-route", "gnomes:C.1 tower/tower-in-woods")
def test_three_black_routes_and_only_they_reach_the_tower():
    """C.1 tower: the tower stands in the tangled woods, off the paths of the board, reached by
    three black routes (house rule: from three sites)."""
    routes = geo.land_routes()["tower"]
    assert len(routes) == 3 and all(icons == frozenset({"black"}) for _, icons in routes)
    assert all(n in content().board.sites for n, _ in routes)
    assert content().board.tower not in content().board.sites


@pytest.mark.rules("gnomes:C.1 tower/no-black-cards", "gnomes:C.1 tower/tower-three-for-free",
                   "gnomes:C.1 tower/black-route")
def test_no_single_card_reaches_the_tower():
    """C.1 tower: no travel card shows a black icon, so none alone crosses a black route, not
    even a free card or a forest card through the woods."""
    assert all(t.terrain in (None, "meadow", "forest", "mountain") for t in travel_cards().values())
    s, c = _game()
    cards = sorted(t for t in travel_cards() if t != "nugget")
    arrange(s, 0, place="s06", hand=cards)
    for card in cards:
        assert "no route" in refused(s, 0, {"type": "travel", "card": card, "path": ["tower"]}, c)
    assert not [m for m in legal(s, 0) if m["type"] == "travel" and "tower" in m["path"]]


@pytest.mark.rules("gnomes:C.1 tower/tower-three-for-free", "gnomes:C.1 tower/black-routes")
def test_three_for_free_reaches_the_tower_from_each_black_route():
    """C.1 tower: three for free crosses a black route, to the tower and back out."""
    for site, _ in geo.land_routes()["tower"]:
        s, c = _game()
        arrange(s, 0, place=site, hand=["nugget"] * 6)
        play(s, 0, {"type": "three_for_free", "cards": ["nugget"] * 3, "to": "tower"}, c)
        assert s.players[0].place == "tower"
        play(s, 0, {"type": "three_for_free", "cards": ["nugget"] * 3, "to": site}, c)
        assert s.players[0].place == site


@pytest.mark.rules("gnomes:C.1 tower/tower-example", "gnomes:C.1/three-for-free-time")
def test_blue_reaches_the_tower_in_three_weeks():
    """C.1 tower, the example: Blue goes to the tower by three for free, and the cards' timers
    make it three weeks (here a double forest card and a single mountain card)."""
    s, c = _game()
    arrange(s, 2, place=at(s, "G"), hand=["double_forest", "mountain"])  # Grifola, by a black route
    _turn_of(s, c, 2)
    ev = play(s, 2, {"type": "three_for_free", "cards": ["double_forest", "mountain"], "to": "tower"}, c)
    d = first(ev, "GnomeMoved").data
    assert (d["by"], d["weeks"], d["path"]) == ("three_for_free", 3, ["tower"])
    assert (s.players[2].place, s.players[2].timer) == ("tower", 3)


@pytest.mark.rules("gnomes:C.1 tower/tower-exceptions")
def test_a_compass_reaches_the_tower_without_cards():
    """C.1 tower and I: a Compass crosses a black route with no card, for 1 week."""
    s, c = _game()
    arrange(s, 0, place="s09", equipment=[*STARTING_ITEMS, "compass"], hand=[])
    ev = play(s, 0, {"type": "equipment", "item": "compass", "to": "tower"}, c)
    assert first(ev, "GnomeMoved").data["weeks"] == 1
    assert (s.players[0].place, s.players[0].timer) == ("tower", 1)


@pytest.mark.rules("gnomes:C.1 tower/tower-exceptions")
def test_riding_the_frog_reaches_the_tower_with_one_card():
    """C.1 tower and B equipment: on the frog any one icon completes any route, the black one
    included. (Arranged: the calendar set to summer, when the frog may be ridden.)"""
    s, c = _game()
    s.calendar = content().calendar.sun_from
    arrange(s, 0, place="s12", hand=["meadow"])
    assert "no route" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["tower"]}, c)
    play(s, 0, {"type": "pond_pipes"}, c)
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["tower"]}, c)
    assert (s.players[0].place, s.players[0].timer) == ("tower", 1)


# -- rivers and the lake -----------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 water/river-and-lake-layout")
def test_the_river_has_three_sections_and_four_sites_ring_the_lake():
    """C.1 water, house rule: four riverside sites make three sections; four lakeside sites
    surround the lake, each a crossing from the others."""
    b = content().board
    river = {frozenset((a, n)) for a, ws in geo.water_routes().items() for n, k in ws if k == "river"}
    lake = {frozenset((a, n)) for a, ws in geo.water_routes().items() for n, k in ws if k == "lake"}
    assert len(b.river) == 4 and len(river) == 3
    assert len(b.lake) == 4 and len(lake) == 6


@pytest.mark.rules("gnomes:C.1 water/water-needs-boat-or-winter", "gnomes:C.1 water/boat-lake")
def test_the_lake_is_crossed_only_by_boat_or_over_the_ice():
    """C.1 water and G: no card crosses the lake, nor may a gnome walk on it before winter;
    a Leaf Boat does, and in winter the frozen lake does. (Arranged: the water frozen.)"""
    s, c = _game()
    arrange(s, 0, place="s14", hand=["free", "nugget", "nugget", "nugget"])
    assert "no route" in refused(s, 0, {"type": "travel", "card": "free", "path": ["s17"]}, c)
    three = {"type": "three_for_free", "cards": ["nugget"] * 3, "to": "s17"}
    assert "no land route" in refused(s, 0, three, c)
    assert "frozen" in refused(s, 0, {"type": "ice", "to": "s17"}, c)
    assert "do not have" in refused(s, 0, {"type": "equipment", "item": "leaf_boat", "to": "s17"}, c)
    arrange(s, 0, equipment=[*STARTING_ITEMS, "leaf_boat"])
    play(s, 0, {"type": "equipment", "item": "leaf_boat", "to": "s17"}, c)
    assert s.players[0].place == "s17"
    s, c = _game()
    s.frozen = True
    arrange(s, 0, place="s14")
    play(s, 0, {"type": "ice", "to": "s17"}, c)
    assert s.players[0].place == "s17"


@pytest.mark.rules("gnomes:C.1 water/boat-river", "gnomes:C.1 water/boat-two-weeks", "gnomes:C.1 water/boat-no-card")
def test_the_leaf_boat_goes_to_the_next_riverside_site_for_two_weeks_and_no_card():
    """C.1 water: a Leaf Boat moves the gnome along the river to the next location, no card,
    2 weeks (house rule, ambiguity 9); not two sections at once."""
    s, c = _game()
    b = content().board
    arrange(s, 0, place=b.river[0], equipment=[*STARTING_ITEMS, "leaf_boat"], hand=["meadow"])
    assert "Leaf Boat" in refused(s, 0, {"type": "equipment", "item": "leaf_boat", "to": b.river[2]}, c)
    ev = play(s, 0, {"type": "equipment", "item": "leaf_boat", "to": b.river[1]}, c)
    d = first(ev, "GnomeMoved").data
    assert (d["weeks"], d.get("cards"), d["crossed"]) == (2, None, "river")
    assert (s.players[0].place, s.players[0].timer) == (b.river[1], 2)
    assert hand(s, 0) == ["meadow"] and "leaf_boat" in s.players[0].equipment


@pytest.mark.rules("gnomes:C.1 water/boat-lake", "gnomes:C.1 water/boat-two-weeks",
                   "gnomes:C.1 timer/item-time")
def test_the_leaf_boat_crosses_the_lake_to_any_lakeside_site():
    """C.1 water: a Leaf Boat crosses the lake to any lakeside location, 2 weeks each use."""
    b = content().board
    s, c = _game()
    arrange(s, 0, place=b.lake[0], equipment=[*STARTING_ITEMS, "leaf_boat"])
    boats = sorted(m["to"] for m in legal(s, 0) if m["type"] == "equipment" and m["item"] == "leaf_boat")
    assert set(b.lake[1:]) <= set(boats)
    for n, to in enumerate(b.lake[1:], start=1):
        play(s, 0, {"type": "equipment", "item": "leaf_boat", "to": to}, c)
        assert (s.players[0].place, s.players[0].timer) == (to, 2 * n)
    assert equipment()["leaf_boat"].weeks == 2
