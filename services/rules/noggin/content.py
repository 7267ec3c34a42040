"""Game data of Noggin the Nog, loaded from ``content/*.json`` and checked by schema.

The rulebook does not print every tile (rulebook 1.0 lists the components only), so
some items are reconstructed to fit every rule that mentions them; each item carries a
``provenance`` (``rulebook <section>`` or ``reconstructed``). A user who owns the game
can replace a file here. :func:`load` checks the files against pydantic models and the
cross-file totals the rules depend on (set-up C, H, Q; 5.1 "9 Stone").
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from services.rules.core.content import ContentModel, Provenanced, read_files

CONTENT_DIR = Path(__file__).parent / "content"
BASIC = ("stone", "wood", "fish", "harvest")
"""The four basic resources (rulebook 3.7)."""




class SetupTable(Provenanced):
    """The set-up numbers, ``setup.json`` (rulebook 1.0, set-up C, H, Q, S, U-Z).

    ``colours``: the 4 player colours in seat order; ``resources``: cubes of each basic
    resource kept in play, by player count (keys ``"2"``-``"4"``, set-up C);
    ``market_stone`` and ``market_harvest_per_player``: cubes on the Nog Market at set-up
    (U, V); ``forest_cubes_extra``: the +2 of P+2 trees per forest zone (H);
    ``mountain_nogs`` / ``reserve_nogs``: Nogs on the Mountains space and in the reserve
    (W, X); ``orchard_trees`` / ``field_harvest``: trees in the Orchard and Harvest cubes
    per field (Y, Z); ``farm_capacity``, ``transport_capacity``, ``upgraded_capacity``:
    storage in cubes (3.7, 3.8, 5.5); ``gold_cubes``: Gold cubes for the Mine tiles (S);
    ``coins``: coins beside the board (T); ``counting_house_display``, ``invention_display``,
    ``saga_display``: cards face up (N); ``market_day_food``: Food paid for a character (6.1).
    """

    colours: list[str] = Field(min_length=4, max_length=4)
    resources: dict[str, dict[str, int]]
    market_stone: int
    market_harvest_per_player: int
    forest_cubes_extra: int
    mountain_nogs: int
    reserve_nogs: int
    orchard_trees: int
    field_harvest: int
    farm_capacity: int
    transport_capacity: int
    upgraded_capacity: int
    gold_cubes: int
    coins: int
    counting_house_display: int
    invention_display: int
    saga_display: int
    market_day_food: int


class Popularity(Provenanced):
    """Start of the popularity track, ``popularity.json`` (reconstructed).

    Distances from the crown in spaces: ``crow_start`` (>= 1) for Nogbad's Crow,
    ``dragon_start`` for Noggin's Dragon by player count (set-up I); ``note``: free text.
    """

    note: str = ""
    crow_start: int = Field(ge=1)
    dragon_start: dict[str, int]


class FishingToken(Provenanced):
    """One Fishing token of the fish bag (rulebook 1.0, 5.2): ``id`` and ``fish`` caught,
    0 (an old boot) to 2. The fish counts of the fish tokens are reconstructed.
    """

    id: str
    fish: int = Field(ge=0, le=2)


class Fishing(ContentModel):
    """``fishing.json``: the ``tokens`` in the fish bag (10, rulebook 1.0; checked by :class:`Content`)."""

    tokens: list[FishingToken]


class Transport(Provenanced):
    """A means of transport on the player board (rulebook 3.8 F): ``id`` and the resources it ``carries``."""

    id: Literal["mine_cart", "wood_cart", "boat"]
    carries: list[str]


class Cost(Provenanced):
    """A price in cubes, ``wood`` and ``stone`` (0 if absent): a building or a transport
    upgrade (rulebook 5.5).
    """

    wood: int = 0
    stone: int = 0


class Transports(ContentModel):
    """``transports.json``: the three ``transports`` and the ``cost`` of one upgrade (rulebook 3.8 F, 5.5)."""

    transports: list[Transport]
    cost: Cost


class Building(Provenanced):
    """A building tile, Year 1 or Year 2 (rulebook appendix, 5.5).

    ``id`` and display ``name``; ``storage``: extra cubes per basic resource; ``nogs``: Nogs
    taken from the reserve when built (Year 2: 0); ``spaces``: ``"mountains"`` (Long House
    only) or ``"any"``; ``fish_bonus``: extra fish per Fisherman action (Lookout Tower);
    ``adds_space``: the board space it adds (New Land), else None; ``copies``: Year 2 tiles
    of this building (Year 1 copies are :class:`Copies`); ``holds`` and ``points``: the
    resources to lock on the tile and the points they score at the end (Year 2 gardens and
    trough, appendix).
    """

    id: str
    name: str
    storage: dict[str, int]
    nogs: int
    spaces: Literal["any", "mountains"]
    fish_bonus: int = 0
    adds_space: str | None = None
    copies: int = Field(default=1, ge=1)
    holds: dict[str, int] = Field(default_factory=dict)
    points: int = 0


class Copies(Provenanced):
    """Copies of each Year 1 building kind: ``each`` (>= 1). Reconstructed so that the kinds
    times ``each`` give the 18 Year 1 tiles of rulebook 1.0.
    """

    each: int = Field(ge=1)


class Buildings(ContentModel):
    """``buildings.json``: the building ``cost`` (rulebook 5.5), the ``copies`` per Year 1 kind,
    the ``year1`` kinds and the ``year2`` buildings with their copies (rulebook appendix).
    """

    cost: Cost
    copies: Copies
    year1: list[Building]
    year2_note: str = ""
    year2: list[Building]


class Zone(Provenanced):
    """A forest zone (reconstructed): ``id`` and ``hexes``, its tree spaces; it must hold P+2
    trees (set-up H).
    """

    id: int
    hexes: int


class Clearing(Provenanced):
    """A clearing on the Woodcutter's trail (reconstructed, rulebook 5.3): ``id`` in trail order,
    the ``zone`` whose trees it cuts and ``number`` (>= 0), the trees to cut there.
    """

    id: int
    zone: int
    number: int = Field(ge=0)


class Forest(Provenanced):
    """``forest.json`` (reconstructed): the ``zones`` and the trail's ``clearings``, visited
    counter-clockwise (rulebook 5.3, 5.6); ``note``: free text. A clearing naming an
    unknown zone raises ``ValidationError``.
    """

    note: str = ""
    zones: list[Zone]
    clearings: list[Clearing]

    @model_validator(mode="after")
    def _zones_exist(self) -> "Forest":
        ids = {z.id for z in self.zones}
        if any(c.zone not in ids for c in self.clearings):
            raise ValueError("a clearing names an unknown forest zone")
        return self


class Grid(Provenanced):
    """The Mine grid (reconstructed): ``rows`` x ``cols`` tile slots and ``start_slot``, the
    (row, col) slot of the starting tile (set-up Q).
    """

    rows: int
    cols: int
    start_slot: tuple[int, int]


class MineTile(Provenanced):
    """A Mine tile (rulebook 1.0, 5.1; layouts reconstructed): ``id``; ``start`` for the tile
    with no Gold (set-up Q); ``rows``: 4 strings of 4 squares, ``G`` gallery, ``A`` Gold,
    ``#`` rock. Any other shape raises ``ValidationError``.
    """

    id: str
    start: bool
    rows: list[str] = Field(min_length=4, max_length=4)

    @field_validator("rows")
    @classmethod
    def _square(cls, rows: list[str]) -> list[str]:
        if any(len(r) != 4 or set(r) - set("GA#") for r in rows):
            raise ValueError("a mine tile is 4 rows of 4 squares among 'G', 'A', '#'")
        return rows


class Mine(ContentModel):
    """``mine.json``: the ``grid`` and the ``tiles`` (6 Mine tiles, rulebook 1.0); ``note``: free text."""

    note: str = ""
    grid: Grid
    tiles: list[MineTile]


CHARACTERS = ("noggin", "nooka", "knut", "graculus", "thor", "olaf", "romf")
"""The seven characters of Noggin's Castle (set-up D, 6.1), Nogbad not among them."""
NEEDS = frozenset({*CHARACTERS, *BASIC, "food"})
"""What a condition of a Reserve or Invention card can ask for: a character (recruited
with 1 Food), a basic resource, or ``food`` (a Fish or a Harvest cube) (6.4, 6.5)."""


class ReserveCard(Provenanced):
    """A Reserve card (rulebook 1.0, 6.4; reconstructed): ``id``; ``needs``, the conditions on
    its resource side; ``bonus``, the Counting House bonus icon (C cards only); ``nogbad``,
    Nogbad's portrait on its back (else Nooka's knife).
    """

    id: str
    needs: list[str] = Field(min_length=1, max_length=4)
    bonus: bool = False
    nogbad: bool = False

    @field_validator("needs")
    @classmethod
    def _needs(cls, v: list[str]) -> list[str]:
        bad = [n for n in v if n not in NEEDS]
        if bad:
            raise ValueError(f"unknown condition(s) {bad}")
        return v


class Reserve(ContentModel):
    """``reserve.json``: the ``decks`` A, B and C (rulebook 1.0: 16, 19 and 19 cards). A cards
    ask only for characters, C cards only for resources, and only C cards carry the bonus
    icon (6.4); each deck must have cards with Nogbad's portrait on the back (8.0), and every
    front must be printed on cards with both backs, so that no front tells its back."""

    note: str = ""
    decks: dict[Literal["A", "B", "C"], list[ReserveCard]]

    @model_validator(mode="after")
    def _decks(self) -> "Reserve":
        sizes = {"A": 16, "B": 19, "C": 19}
        for d, cards in self.decks.items():
            if len(cards) != sizes[d]:
                raise ValueError(f"the {d} deck has {sizes[d]} cards (rulebook 1.0)")
            if not any(c.nogbad for c in cards):
                raise ValueError(f"the {d} deck needs cards with Nogbad's portrait (8.0)")
            for c in cards:
                chars = [n for n in c.needs if n in CHARACTERS]
                if d == "A" and len(chars) != len(c.needs):
                    raise ValueError(f"{c.id}: A cards ask only for characters (6.4)")
                if d == "C" and chars:
                    raise ValueError(f"{c.id}: C cards ask only for resources (6.4)")
                if c.bonus and d != "C":
                    raise ValueError(f"{c.id}: only C cards carry the Counting House icon (6.4)")
            fronts: dict[tuple, list[bool]] = {}
            for c in cards:
                fronts.setdefault((tuple(c.needs), c.bonus), []).append(c.nogbad)
            for front, backs in fronts.items():
                if len(set(backs)) < 2:
                    raise ValueError(f"{d} deck: the front {list(front[0])} must be on cards with both backs, "
                                     f"so that a front never tells the back (6.4)")
        return self


class SagaCard(Provenanced):
    """A Saga card (rulebook 1.0, 6.4): ``id``, ``name``, ``reserve`` (Reserve cards to
    complete, 2-4) and ``money`` for the Money Saga (6.6)."""

    id: str
    name: str
    reserve: int = Field(ge=2, le=4)
    money: bool = False


class Sagas(ContentModel):
    """``sagas.json``: the 20 Saga cards (rulebook 1.0), exactly one of them the Money Saga."""

    note: str = ""
    sagas: list[SagaCard]

    @model_validator(mode="after")
    def _count(self) -> "Sagas":
        if len(self.sagas) != 20 or sum(s.money for s in self.sagas) != 1:
            raise ValueError("20 Saga cards, one of them the Money Saga (rulebook 1.0, 6.6)")
        return self


class InventionCard(Provenanced):
    """An Invention card (rulebook 1.0, 6.5, appendix): ``id``, ``name``, ``needs`` (Olaf plus
    2 or 3 resources), ``ability`` (4 conditions with an ability, 3 without, 6.5) and
    ``once`` (``"season"``, ``"turn"`` or None: how often the ability may be used)."""

    id: str
    name: str
    needs: list[str]
    ability: bool
    once: Literal["season", "turn"] | None = None

    @model_validator(mode="after")
    def _shape(self) -> "InventionCard":
        if self.needs[0] != "olaf" or any(n in CHARACTERS for n in self.needs[1:]):
            raise ValueError(f"{self.id}: Olaf, then resources (6.5)")
        if len(self.needs) != (4 if self.ability else 3):
            raise ValueError(f"{self.id}: 4 conditions with an ability, 3 without (6.5)")
        return self


class Inventions(ContentModel):
    """``inventions.json``: the 11 Invention cards (rulebook 1.0)."""

    note: str = ""
    inventions: list[InventionCard] = Field(min_length=11, max_length=11)


class CountingHouseCard(Provenanced):
    """A Counting House card (rulebook 1.0, 6.3, appendix): ``id``, ``name`` and ``once``:
    ``"season"`` (its Nog laid down until the Change of Season), ``"action"``, ``"game"``
    (Fireworks, removed once played) or None (always on)."""

    id: str
    name: str
    once: Literal["season", "action", "game"] | None = None


class CountingHouse(ContentModel):
    """``counting_house.json``: the 15 Counting House cards (rulebook 1.0)."""

    note: str = ""
    cards: list[CountingHouseCard] = Field(min_length=15, max_length=15)


class Character(Provenanced):
    """A character token of Noggin's Castle (set-up D, 6.1): ``id`` and ``name``."""

    id: Literal["noggin", "nooka", "knut", "graculus", "thor", "olaf", "romf"]
    name: str


class Quarter(Provenanced):
    """A quarter of Nogbad's Wheel of Infamy (8.0): ``quarter`` (0-3, clockwise from the
    Fish quarter of set-up G), ``id``, ``name`` and ``space``, the action space Nogbad
    stands on there."""

    quarter: int = Field(ge=0, le=3)
    id: Literal["fish", "home", "bears", "news"]
    name: str
    space: Literal["fisherman", "market_day", "woodcutter"]


class FriendOrFoe(Provenanced):
    """The Friend or Foe variant's 8 cards (rulebook variants): ``friends`` with Noggin's
    portrait and ``foes`` with Nogbad's, and the ``accusation_points`` won or lost."""

    friends: int
    foes: int
    accusation_points: int


class Characters(ContentModel):
    """``characters.json``: the 7 ``characters``, the 4 quarters of the ``wheel`` and the
    ``friend_or_foe`` cards."""

    note: str = ""
    characters: list[Character] = Field(min_length=7, max_length=7)
    wheel: list[Quarter] = Field(min_length=4, max_length=4)
    friend_or_foe: FriendOrFoe

    @model_validator(mode="after")
    def _eight(self) -> "Characters":
        if self.friend_or_foe.friends + self.friend_or_foe.foes != 8:
            raise ValueError("8 Friend or Foe cards (rulebook variants)")
        return self


class Content(ContentModel):
    """All game data, checked."""

    setup: SetupTable
    popularity: Popularity
    fishing: Fishing
    transports: Transports
    buildings: Buildings
    forest: Forest
    mine: Mine
    reserve: Reserve
    sagas: Sagas
    inventions: Inventions
    counting_house: CountingHouse
    characters: Characters

    @model_validator(mode="after")
    def _totals(self) -> "Content":
        s = self.setup
        starts = [t for t in self.mine.tiles if t.start]
        if len(starts) != 1:
            raise ValueError("exactly one starting mine tile (set-up Q)")
        start_stone = sum(r.count("G") for r in starts[0].rows)
        for n, res in s.resources.items():
            p = int(n)
            if start_stone + s.market_stone != res["stone"]:
                raise ValueError("starting tile Stone + market Stone must equal the Stone of set-up C")
            wood = len(self.forest.zones) * (p + s.forest_cubes_extra) + p * s.orchard_trees
            if wood != res["wood"]:
                raise ValueError(f"forest and orchard trees ({wood}) must equal set-up C Wood at {p} players")
            if p * (2 * s.field_harvest + s.market_harvest_per_player) != res["harvest"]:
                raise ValueError(f"fields and market Harvest must equal set-up C at {p} players")
            if any(z.hexes < p + s.forest_cubes_extra for z in self.forest.zones):
                raise ValueError("every forest zone needs room for P+2 cubes (set-up H)")
        gold_tiles = [t for t in self.mine.tiles if not t.start]
        for t in gold_tiles:
            if sum(r.count("A") for r in t.rows) != 1:
                raise ValueError(f"mine tile {t.id} must have exactly one Gold square")
            if sum(r.count("G") for r in t.rows) > s.market_stone + 1:
                raise ValueError(f"mine tile {t.id} needs more Stone than the 5.1 rule guarantees")
        if len(gold_tiles) != s.gold_cubes:
            raise ValueError("one Gold cube per Gold tile")
        if self.mine.grid.rows * self.mine.grid.cols < len(self.mine.tiles):
            raise ValueError("the Mine grid must hold every tile")
        if len(self.fishing.tokens) != 10:
            raise ValueError("the fish bag holds 10 Fishing tokens (rulebook 1.0)")
        if len(self.buildings.year1) * self.buildings.copies.each != 18:
            raise ValueError("18 Year 1 Building tiles (rulebook 1.0)")
        if sum(b.copies for b in self.buildings.year2) != 17 or len(self.buildings.year2) != 14:
            raise ValueError("17 Year 2 Building tiles of the 14 buildings in the appendix (rulebook 1.0)")
        return self


@lru_cache(maxsize=1)
def load() -> Content:
    """Read and check every content file. Raises pydantic ``ValidationError`` if one is wrong."""
    return Content.model_validate(read_files(Content, CONTENT_DIR))


@lru_cache(maxsize=1)
def building_index() -> dict[str, Building]:
    """Every building, Year 1 and Year 2, by id."""
    return {b.id: b for b in (*load().buildings.year1, *load().buildings.year2)}


@lru_cache(maxsize=1)
def year1_ids() -> frozenset[str]:
    """Ids of the Year 1 buildings (they give Nogs, 5.5)."""
    return frozenset(b.id for b in load().buildings.year1)


@lru_cache(maxsize=1)
def year2_tiles() -> tuple[str, ...]:
    """The 17 Year 2 Building tiles in a fixed order (before any shuffle)."""
    return tuple(b.id for b in load().buildings.year2 for _ in range(b.copies))


@lru_cache(maxsize=1)
def reserve_index() -> dict[str, ReserveCard]:
    """Every Reserve card by id."""
    return {c.id: c for cards in load().reserve.decks.values() for c in cards}


@lru_cache(maxsize=3)
def reserve_ids(deck: str) -> tuple[str, ...]:
    """The ids of Reserve deck ``deck`` (A, B or C) in file order."""
    return tuple(c.id for c in load().reserve.decks[deck])


@lru_cache(maxsize=1)
def saga_index() -> dict[str, SagaCard]:
    """Saga cards by id."""
    return {s.id: s for s in load().sagas.sagas}


@lru_cache(maxsize=1)
def invention_index() -> dict[str, InventionCard]:
    """Invention cards by id."""
    return {c.id: c for c in load().inventions.inventions}


@lru_cache(maxsize=1)
def counting_house_index() -> dict[str, CountingHouseCard]:
    """Counting House cards by id."""
    return {c.id: c for c in load().counting_house.cards}


@lru_cache(maxsize=1)
def year1_tiles() -> tuple[str, ...]:
    """The 18 Year 1 Building tiles in a fixed order (before any shuffle)."""
    c = load().buildings
    return tuple(b.id for b in c.year1 for _ in range(c.copies.each))


@lru_cache(maxsize=1)
def mine_tile_index() -> dict[str, MineTile]:
    """Mine tiles by id."""
    return {t.id: t for t in load().mine.tiles}


@lru_cache(maxsize=1)
def gold_tile_ids() -> tuple[str, ...]:
    """The Mine tiles of the face-down pile (all but the starting tile), in file order."""
    return tuple(t.id for t in load().mine.tiles if not t.start)
