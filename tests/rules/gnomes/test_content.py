"""A Game of Gnomes' components as data (services/rules/gnomes/content): what the rulebook
fixes (a-game-of-gnomes-rulebook.txt A, B, C, F, G, I) holds, and a broken file is refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.rules.core.content import read_files
from services.rules.gnomes import content as gc


@pytest.fixture(scope="module")
def c():
    return gc.load()


def _raw() -> dict:
    return read_files(gc.Content, gc.CONTENT_DIR)


@pytest.mark.rules(
    "gnomes:A/village-tiles",
    "gnomes:A/named-villages",
    "gnomes:A/shop-tiles",
    "gnomes:A/shop-names",
    "gnomes:A/gnome-house-tiles",
    "gnomes:A/house-colours",
)
def test_the_components_of_section_a(c):
    """A: 12 villages A-L, 3 shops, 4 gnome houses; the eight villages the rulebook names
    keep their letters (Grifola and Hydnum joined by the tunnel)."""
    assert [v.id for v in c.tiles.villages] == list("ABCDEFGHIJKL")
    named = {"C": "Calvatia", "D": "Descina", "E": "Exidea", "F": "Fuligo", "G": "Grifola", "H": "Hydnum",
             "J": "Jafnea", "K": "Kolus"}
    assert {v.id: v.name for v in c.tiles.villages if v.id in named} == named
    assert all(v.provenance == "reconstructed" for v in c.tiles.villages if v.id not in named)
    assert [s.name for s in c.tiles.shops] == ["Market Meadow Shop", "Forest Fete Shop", "Hillview Hut Shop"]
    assert sorted(h.colour for h in c.tiles.houses) == ["blue", "green", "red", "yellow"]
    assert c.tiles.tunnel == ["G", "H"]


@pytest.mark.rules(
    "gnomes:B/blue-mushrooms",
    "gnomes:B/calendar-start",
    "gnomes:B/village-gems",
    "gnomes:B gems/gem-values",
    "gnomes:C.3/gem-worth",
)
def test_set_up_b_blue_mushrooms_and_gems(c):
    """B: a blue mushroom on each of the eight tiles with a blue symbol; a brown, a green and a
    white gem on each village only; gems are worth 1, 2 and 3."""
    assert sum("blue" in t.grows for t in (*c.tiles.villages, *c.tiles.houses)) == 8
    assert c.calendar.sprout[str(c.calendar.start)] == ["blue"]
    assert c.tiles.village_gems == {"brown": 1, "green": 1, "white": 1}
    assert c.tiles.gem_values == {"brown": 1, "green": 2, "white": 3}


@pytest.mark.rules("gnomes:C.3/buys-what-does-not-grow")
def test_a_village_buys_what_does_not_grow_there_and_the_quests_agree(c):
    """C.3: the border shows the colours bought, those not growing there; C.7: each selling
    quest names villages that buy its colour."""
    by_id = {v.id: v for v in c.tiles.villages}
    assert all(v.buys == {"blue", "yellow", "red"} - set(v.grows) for v in c.tiles.villages)
    sells = [(q.task["sell"], q.task["at"]) for q in c.cards.quests if "sell" in q.task]
    assert len(sells) == 4
    assert all(colour in by_id[v].buys for colour, at in sells for v in at)


@pytest.mark.rules(
    "gnomes:B/first-game-layout",
    "gnomes:C.1 tower/black-route",
    "gnomes:C.1 mountain/four-paths-up",
    "gnomes:B/montane-kings-2",
    "gnomes:B/montane-kings-3",
    "gnomes:B/montane-kings-4",
)
def test_the_board_is_whole(c):
    """C.1, G: one tile per site in the first game, four paths up to the grass level, black
    routes only to the tower, a river of three sections, the summit on the snow level."""
    b = c.board
    assert sorted(b.first_game.values()) == sorted(c.tiles.ids())
    assert len(b.river) - 1 == 3
    assert {p.terrain for p in b.paths if b.tower in (p.a, p.b)} == {"black"}
    grass = set(b.mountain.levels["grass"])
    assert sorted(p.b for p in b.paths if p.b in grass) == sorted(grass)
    assert b.mountain.summit in b.mountain.levels["snow"]
    assert {n: len(k) for n, k in b.montane_kings.items()} == {"2": 2, "3": 3, "4": 4}


@pytest.mark.rules(
    "gnomes:F/season-weeks",
    "gnomes:F/yellow-sprouts-at-13",
    "gnomes:F/red-sprouts-at-25",
    "gnomes:F/blue-rots-at-25",
    "gnomes:F/yellow-rots-in-winter",
    "gnomes:F/amb13-red-never-rots",
    "gnomes:H/ends-at-52",
)
def test_the_calendar_of_f_and_g(c):
    """F, G, H: yellow sprouts at 13, red at 25, the frozen tokens wait at 37; blue rots when
    autumn comes and yellow when winter comes (F and G's examples); the game ends at 52."""
    cal = c.calendar
    assert [cal.season_at(w) for w in (0, 12, 13, 25, 37, 51)] == ["spring", "spring", "summer", "autumn",
                                                                    "winter", "winter"]
    assert cal.sprout["13"] == ["yellow"] and cal.sprout["25"] == ["red"] and cal.freeze_at == 37
    assert cal.rot == {"25": ["blue"], "37": ["yellow"]} and cal.end == 52 and cal.sun_from == 13


@pytest.mark.rules(
    "gnomes:B equipment/tiny-basket-one",
    "gnomes:B equipment/tiny-rucksack-four",
    "gnomes:I/rucksack-hand-sizes",
    "gnomes:E/limit-by-rucksack",
    "gnomes:C.4/large-basket-costs-two",
    "gnomes:I/winter-discards",
    "gnomes:B/treasures-set-aside",
    "gnomes:B/dream-piles",
    "gnomes:B/three-more-per-shop",
    "gnomes:C.4/four-on-offer",
    "gnomes:C.4/two-maps-max",
    "gnomes:I/map-limit",
    "gnomes:C.3/golden-eight",
    "gnomes:C.1/nugget-no-time",
    "gnomes:C.1/free-two-weeks",
    "gnomes:C.1/double-two-weeks",
)
def test_the_cards(c):
    """A, B, C, I: the starting equipment (tiny basket of one mushroom, tiny rucksack of 4),
    rucksacks of 5 and 6, the large basket costs 2, one starter card per shop, 8 treasures,
    dream piles of 1, 2 and 3 cards, shops of 4, two maps at most, the golden mushroom's 8."""
    start = {e.id: e for e in c.cards.starting_equipment}
    assert start["tiny_basket"].mushrooms == 1 and start["tiny_rucksack"].hand == 4
    shop = {e.id: e for e in c.cards.shop}
    assert shop["small_rucksack"].hand == 5 and shop["large_rucksack"].hand == 6
    assert shop["large_basket"].cost == 2
    assert sorted(e.id for e in c.cards.shop if e.starter) == ["canteen", "hill_boots", "short_axe"]
    assert {e.id for e in c.cards.shop if e.no_winter} == {"canteen", "short_axe", "hill_boots", "compass", "leaf_boat"}
    assert len(c.cards.treasures) == 8 and c.cards.dream_piles == [1, 2, 3]
    assert (c.cards.shop_stock, c.cards.max_maps, c.cards.golden_mushroom) == (4, 2, 8)
    assert all(t.weeks == 0 for t in c.cards.travel if t.kind == "nugget")
    assert all(t.weeks == 2 for t in c.cards.travel if t.kind in ("free", "double"))


@pytest.mark.parametrize("breakage", [
    pytest.param("village_buying_wrong", marks=pytest.mark.rules("gnomes:C.3/buys-what-does-not-grow")),
    "tile_twice", "path_off_board", "no_provenance",
])
def test_a_broken_file_is_refused(breakage):
    raw = _raw()
    if breakage == "village_buying_wrong":
        raw["tiles"]["villages"][3]["grows"] = ["yellow"]  # Descina would no longer buy yellow
    elif breakage == "tile_twice":
        raw["board"]["first_game"]["s01"] = "A"
    elif breakage == "path_off_board":
        raw["board"]["paths"].append({"a": "s01", "b": "nowhere", "terrain": "meadow"})
    else:
        raw["cards"]["treasures"][0]["provenance"] = "folklore"
    with pytest.raises(ValidationError):
        gc.Content.model_validate(raw)
