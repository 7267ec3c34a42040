"""Game data of A Game of Gnomes, loaded from ``content/*.json`` and checked by schema.

The rulebook (``a-game-of-gnomes-rulebook.txt``) lists the components (A) and describes the
board, the cards and the calendar (B-I) but prints no map and few card numbers, so much
of this is reconstructed to fit every rule that mentions it. Each item carries a
``provenance``: ``rulebook <section>`` where the rulebook fixes it, else ``reconstructed``
(the reasons are in ``docs/house-rules.md``, A Game of Gnomes). A user who owns the game
can replace a file here. :func:`load` checks the files against pydantic models and
against what the rules rely on (one tile per site, the quests' villages buying what they
ask to sell, a connected board, the eight blue-growing tiles of set-up B).
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from services.rules.core.content import ContentModel, Provenanced, read_files

CONTENT_DIR = Path(__file__).parent / "content"
COLOURS = ("blue", "yellow", "red")
"""The three colours of wooden mushrooms (rulebook A)."""
Terrain = Literal["meadow", "forest", "mountain", "black"]
"""A path's colour: yellow meadow, brown forest, white mountain (C.1), black to the tower."""




# -- the board ---------------------------------------------------------------------------

class Route(ContentModel):
    """A path between two places (sites, ``tower``, grass-level mountain spaces) and its
    ``terrain`` (rulebook C.1; ``black`` is the Sorcerer's route)."""

    a: str
    b: str
    terrain: Terrain


class Mountain(ContentModel):
    """Gnome Mountain (rulebook C.1, H): spaces per level (``grass``, ``rock``, ``snow``, low to
    high), the travel icons that join neighbouring spaces of a level (``lateral``), whether
    a level's spaces close into a ring, and the ``summit`` (the very top space of the
    summit quest)."""

    levels: dict[Literal["grass", "rock", "snow"], list[str]]
    lateral: dict[str, list[Terrain]]
    rings: dict[str, bool]
    summit: str

    def level_of(self, space: str) -> str | None:
        """The level of a mountain space, or None for a place off the mountain."""
        for level, spaces in self.levels.items():
            if space in spaces:
                return level
        return None


class Board(Provenanced):
    """``board.json``: the 19 tile ``sites``, the ``tower``, the ``paths``, the ``river``
    (sites in order: each neighbouring pair is one section, G), the ``lake``'s lakeside
    sites, the ``mountain``, the Montane King mushrooms' spaces by player count (B) and the
    ``first_game`` layout (site -> tile id, B)."""

    note: str = ""
    sites: list[str] = Field(min_length=19, max_length=19)
    tower: str
    paths: list[Route]
    river: list[str] = Field(min_length=4, max_length=4)
    lake: list[str] = Field(min_length=2)
    mountain: Mountain
    montane_kings: dict[str, list[str]]
    first_game: dict[str, str]


# -- the tiles -------------------------------------------------------------------------

class Village(Provenanced):
    """A village tile (A-L): ``id`` letter, ``name``, the mushroom colours that ``grows``
    there (its symbols, B, F). A village buys the colours that do not grow there (C.3)."""

    id: str = Field(pattern=r"^[A-L]$")
    name: str
    grows: list[Literal["blue", "yellow", "red"]] = Field(min_length=1)

    @property
    def buys(self) -> frozenset[str]:
        """Colours this village buys: those that do not grow there (C.3)."""
        return frozenset(COLOURS) - set(self.grows)


class Shop(Provenanced):
    """A shop tile (three, A): ``id`` and ``name``."""

    id: str
    name: str


class House(Provenanced):
    """A gnome house tile (four, A): ``id``, the ``colour`` of its gnome, what ``grows`` there (F)."""

    id: str
    colour: Literal["red", "yellow", "blue", "green"]
    grows: list[Literal["blue", "yellow", "red"]]


class Tiles(ContentModel):
    """``tiles.json``: villages, shops, houses, the ``tunnel``'s two villages (A: Grifola and
    Hydnum), the gems laid on each village (B), gem values (B) and the gem the Sorcerer
    pays from the supply (house rule, ambiguity 12)."""

    villages: list[Village] = Field(min_length=12, max_length=12)
    shops: list[Shop] = Field(min_length=3, max_length=3)
    houses: list[House] = Field(min_length=4, max_length=4)
    tunnel: list[str] = Field(min_length=2, max_length=2)
    village_gems: dict[Literal["brown", "green", "white"], int]
    gem_values: dict[Literal["brown", "green", "white"], int]
    sorcerer_pays: Literal["brown", "green", "white"]

    def ids(self) -> list[str]:
        """Every location tile's id, villages first."""
        return [v.id for v in self.villages] + [s.id for s in self.shops] + [h.id for h in self.houses]


# -- the calendar ------------------------------------------------------------------------

class Season(ContentModel):
    """A season and the calendar week it starts ``from``."""

    name: Literal["spring", "summer", "autumn", "winter"]
    from_: int = Field(alias="from", ge=0)


class Calendar(Provenanced):
    """``calendar.json`` (F, G, H): ``start`` and ``end`` week, ``seasons`` in order, the week
    the sun symbols (and the frog) start, the colours that sprout and rot at given weeks
    (keys are weeks, as text), and the week the water freezes."""

    note: str = ""
    start: int
    end: int
    seasons: list[Season] = Field(min_length=4, max_length=4)
    sun_from: int
    sprout: dict[str, list[Literal["blue", "yellow", "red"]]]
    rot: dict[str, list[Literal["blue", "yellow", "red"]]]
    freeze_at: int

    def season_at(self, week: int) -> str:
        """The season at calendar ``week``."""
        name = self.seasons[0].name
        for s in self.seasons:
            if week >= s.from_:
                name = s.name
        return name


# -- the cards ---------------------------------------------------------------------------

class TravelCard(Provenanced):
    """A travel card (C.1): ``kind`` single, double, free or nugget; ``terrain`` (None for
    free and nugget cards), ``icons`` it gives towards three-for-free, ``weeks`` on its sand
    timer, and ``copies`` in the deck."""

    id: str
    kind: Literal["single", "double", "free", "nugget"]
    terrain: Literal["meadow", "forest", "mountain"] | None
    icons: int = Field(ge=1, le=2)
    weeks: int = Field(ge=0, le=2)
    copies: int = Field(ge=1)


class Equipment(Provenanced):
    """An equipment card (A, I). ``cost`` in brown gems (0 for starting equipment);
    ``move``: the route it travels without a card (``water``: river and lake) and the
    ``weeks`` it takes; ``hand`` (rucksacks) and ``mushrooms`` (baskets) capacities;
    ``once``: discarded after use; ``no_winter``: removed when winter comes (G);
    ``route``: a map's mountain spaces, low to high; ``starter``: one is dealt to each shop
    at set-up (B); ``copies`` in the shop deck."""

    id: str
    name: str
    cost: int = Field(default=0, ge=0)
    move: Literal["meadow", "forest", "mountain", "black", "water"] | None = None
    weeks: int | None = None
    hand: int | None = None
    mushrooms: int | None = None
    once: bool = False
    no_winter: bool = False
    route: list[str] | None = None
    starter: bool = False
    copies: int = Field(default=1, ge=1)


class Treasure(Provenanced):
    """A treasure card (B, C.4, H): bought for ``cost``, scores ``value`` from the hand."""

    id: str
    name: str
    cost: int = Field(ge=1)
    value: int = Field(ge=1)


class Quest(Provenanced):
    """A Sorcerer's quest card (C.7): ``reward`` paid at once (``brown`` gems, or an
    ``item_from`` a shop, treasure excluded), the ``task`` (``sell`` a colour ``at`` one of
    some villages, ``cross`` the lake, ``visit`` another player's house, ``reach`` the
    summit), the ``penalty`` in points at the end if not done, ``no_winter`` (G)."""

    id: str
    reward: dict[str, int | str]
    task: dict[str, str | list[str]]
    penalty: int = Field(ge=1)
    no_winter: bool


class Cards(ContentModel):
    """``cards.json``: the travel deck, starting equipment, shop deck, treasures, quests and
    the numbers around them (quests on display, dream piles, shop stock, maps held, the
    golden mushroom's points and the mountain bonus gem)."""

    travel: list[TravelCard]
    starting_equipment: list[Equipment] = Field(min_length=4, max_length=4)
    shop: list[Equipment]
    treasures: list[Treasure] = Field(min_length=8, max_length=8)
    quests: list[Quest]
    quest_display: int = Field(ge=1)
    dream_piles: list[int]
    shop_stock: int
    max_maps: int
    golden_mushroom: int
    mountain_bonus: Literal["brown", "green", "white"]


class Content(ContentModel):
    """Every file, checked together (see the module docstring)."""

    board: Board
    tiles: Tiles
    calendar: Calendar
    cards: Cards

    @model_validator(mode="after")
    def _consistent(self) -> "Content":
        b, t, cards = self.board, self.tiles, self.cards
        ids = t.ids()
        if len(set(ids)) != 19:
            raise ValueError("the 19 location tiles need distinct ids (A: 12 villages, 3 shops, 4 houses)")
        if sorted(b.first_game) != sorted(b.sites) or sorted(b.first_game.values()) != sorted(ids):
            raise ValueError("the first-game layout lays each location tile on one site (B)")
        spaces = {s for level in b.mountain.levels.values() for s in level}
        places = set(b.sites) | {b.tower} | spaces
        for p in b.paths:
            if p.a not in places or p.b not in places:
                raise ValueError(f"path {p.a}-{p.b} leaves the board")
            if (p.terrain == "black") != (b.tower in (p.a, p.b)):
                raise ValueError("black routes, and only they, lead to the Sorcerer's tower (C.1)")
        into = [p for p in b.paths if (p.a in spaces) != (p.b in spaces)]
        if sorted(p.a if p.a in spaces else p.b for p in into) != sorted(b.mountain.levels["grass"]):
            raise ValueError("one path from the board reaches each grass-level space (C.1)")
        if not set(b.river) <= set(b.sites) or not set(b.lake) <= set(b.sites):
            raise ValueError("river and lakeside locations are sites")
        if b.mountain.summit not in b.mountain.levels["snow"]:
            raise ValueError("the summit is on the snow level")
        for n, kings in b.montane_kings.items():
            if len(kings) != int(n) or not set(kings) <= spaces:
                raise ValueError(f"{n} players: {n} Montane King mushrooms on mountain spaces (B)")
        if not _connected(set(b.sites) | {b.tower} | set(b.mountain.levels["grass"]), b.paths):
            raise ValueError("every site, the tower and the grass level are reachable along the paths")
        villages = {v.id: v for v in t.villages}
        if sum("blue" in tile.grows for tile in (*t.villages, *t.houses)) != 8:
            raise ValueError("eight location tiles carry a blue mushroom symbol (B)")
        if not set(t.tunnel) <= set(villages):
            raise ValueError("the tunnel joins two villages (A)")
        for q in cards.quests:
            if "sell" in q.task:
                for v in q.task["at"]:
                    if q.task["sell"] not in villages[v].buys:
                        raise ValueError(f"quest {q.id}: {villages[v].name} must buy {q.task['sell']} (C.3)")
        shops = {s.id for s in t.shops}
        for q in cards.quests:
            if "item_from" in q.reward and q.reward["item_from"] not in shops:
                raise ValueError(f"quest {q.id}: no shop {q.reward['item_from']!r}")
        for e in cards.shop:
            if e.route is not None:
                levels = [b.mountain.level_of(s) for s in e.route]
                if None in levels or len(set(levels)) != len(levels):
                    raise ValueError(f"map {e.id}: one space per level, on the mountain")
        if sum(1 for e in cards.shop if e.starter) != len(t.shops):
            raise ValueError("one starter card (canteen, short axe, hill boots) for each shop (B)")
        weeks = [s.from_ for s in self.calendar.seasons]
        if weeks != sorted(weeks) or weeks[0] != self.calendar.start:
            raise ValueError("seasons follow each other from the start of the calendar")
        return self


def _connected(places: set[str], paths: list[Route]) -> bool:
    """True if every one of ``places`` is reachable from the others along ``paths`` between
    them (the higher mountain levels are reached by maps, not paths: leave them out)."""
    nbrs: dict[str, set[str]] = {p: set() for p in places}
    for p in paths:
        if p.a in places and p.b in places:
            nbrs[p.a].add(p.b)
            nbrs[p.b].add(p.a)
    start = min(places)
    seen, todo = {start}, deque([start])
    while todo:
        for n in nbrs[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == places


def load() -> Content:
    """Read and check every content file. Raises pydantic ``ValidationError`` if one is wrong."""
    return Content.model_validate(read_files(Content, CONTENT_DIR))


@lru_cache(maxsize=1)
def content() -> Content:
    """The checked content, read once."""
    return load()
