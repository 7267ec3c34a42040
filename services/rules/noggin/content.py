"""Game data of Noggin the Nog, loaded from ``content/*.json`` and checked by schema.

The rulebook does not print every tile (rulebook 1.0 lists the components only), so
some items are reconstructed to fit every rule that mentions them; each item carries a
``provenance`` (``rulebook <section>`` or ``reconstructed``). A user who owns the game
can replace a file here. :func:`load` checks the files against pydantic models and the
cross-file totals the rules depend on (set-up C, H, Q; 5.1 "9 Stone").
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

CONTENT_DIR = Path(__file__).parent / "content"
BASIC = ("stone", "wood", "fish", "harvest")
"""The four basic resources (rulebook 3.7)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Provenanced(_Model):
    """Base of every content item that says where it comes from.

    ``provenance`` is ``"rulebook <section>"`` or ``"reconstructed"``; any other value
    raises pydantic ``ValidationError``.
    """

    provenance: str

    @field_validator("provenance")
    @classmethod
    def _provenance(cls, v: str) -> str:
        if not (v == "reconstructed" or v.startswith("rulebook ")):
            raise ValueError('provenance is "reconstructed" or "rulebook <section>"')
        return v


class SetupTable(Provenanced):
    """The set-up numbers, ``setup.json`` (rulebook 1.0, set-up C, H, Q, S, U-Z).

    ``colours``: the 4 player colours in seat order; ``resources``: cubes of each basic
    resource kept in play, by player count (keys ``"2"``-``"4"``, set-up C);
    ``market_stone`` and ``market_harvest_per_player``: cubes on the Nog Market at set-up
    (U, V); ``forest_cubes_extra``: the +2 of P+2 trees per forest zone (H);
    ``mountain_nogs`` / ``reserve_nogs``: Nogs on the Mountains space and in the reserve
    (W, X); ``orchard_trees`` / ``field_harvest``: trees in the Orchard and Harvest cubes
    per field (Y, Z); ``farm_capacity``, ``transport_capacity``, ``upgraded_capacity``:
    storage in cubes (3.7, 3.8, 5.5); ``gold_cubes``: Gold cubes for the Mine tiles (S).
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


class Fishing(_Model):
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


class Transports(_Model):
    """``transports.json``: the three ``transports`` and the ``cost`` of one upgrade (rulebook 3.8 F, 5.5)."""

    transports: list[Transport]
    cost: Cost


class Building(Provenanced):
    """A Year 1 building tile (rulebook appendix, 5.5).

    ``id`` and display ``name``; ``storage``: extra cubes per basic resource; ``nogs``: Nogs
    taken from the reserve when built; ``spaces``: ``"mountains"`` (Long House only) or
    ``"any"``; ``fish_bonus``: extra fish per Fisherman action (Lookout Tower);
    ``adds_space``: the board space it adds (New Land), else None.
    """

    id: str
    name: str
    storage: dict[str, int]
    nogs: int
    spaces: Literal["any", "mountains"]
    fish_bonus: int = 0
    adds_space: str | None = None


class Copies(Provenanced):
    """Copies of each Year 1 building kind: ``each`` (>= 1). Reconstructed so that the kinds
    times ``each`` give the 18 Year 1 tiles of rulebook 1.0.
    """

    each: int = Field(ge=1)


class Buildings(_Model):
    """``buildings.json``: the building ``cost`` (rulebook 5.5), the ``copies`` per kind and the
    ``year1`` kinds (rulebook appendix).
    """

    cost: Cost
    copies: Copies
    year1: list[Building]


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


class Mine(_Model):
    """``mine.json``: the ``grid`` and the ``tiles`` (6 Mine tiles, rulebook 1.0); ``note``: free text."""

    note: str = ""
    grid: Grid
    tiles: list[MineTile]


class Content(_Model):
    """All game data, checked."""

    setup: SetupTable
    popularity: Popularity
    fishing: Fishing
    transports: Transports
    buildings: Buildings
    forest: Forest
    mine: Mine

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
        return self


@lru_cache(maxsize=1)
def load() -> Content:
    """Read and check every content file. Raises pydantic ``ValidationError`` if one is wrong."""
    data = {}
    for name in ("setup", "popularity", "fishing", "transports", "buildings", "forest", "mine"):
        data[name] = json.loads((CONTENT_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return Content.model_validate(data)


@lru_cache(maxsize=1)
def building_index() -> dict[str, Building]:
    """Year 1 buildings by id."""
    return {b.id: b for b in load().buildings.year1}


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
