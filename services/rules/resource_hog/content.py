"""Game data of Resource Hog, loaded from ``content/*.json`` and checked by schema.

The table (``resource-hog-actions-and-events.txt``) names the things a game needs — land
areas with field and forest squares, mines, seas and lakes with fish pools and maxima,
game, starting lands, buildings, the trading board — but prints no map, no cost table and
no prices (ambiguities 14-16). Everything here is therefore ``reconstructed`` (the reasons
are in ``docs/house-rules.md``, Resource Hog); a user who owns the game can replace a file.
:func:`load` checks the files against pydantic models and against what the rules rely on.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from services.rules.core.content import ContentModel, Provenanced, read_files

CONTENT_DIR = Path(__file__).parent / "content"
GOODS = ("preserved", "salt", "weapons")
"""The goods of the trading board (the table's food, salt and weapons: arms and armour)."""


class Land(ContentModel):
    """A land area: its field and forest squares (each forest square holds one game token at
    the start) and the sea it borders, if any. Which lands have ore depends on the number of
    players (:attr:`Map.ore_lands`)."""

    id: str
    name: str
    fields: int = Field(ge=0, le=6)
    forests: int = Field(ge=0, le=6)
    coast: str | None = None


class Water(ContentModel):
    """A sea or lake area with its fish pool's maximum and starting fish."""

    id: str
    name: str
    kind: Literal["sea", "lake"]
    max: int = Field(ge=1)
    start: int = Field(ge=0)


class Map(Provenanced):
    """``map.json``: the lands in their ``ring`` order (each borders its two neighbours and the
    ``lake``), the waters, the most game tokens a forest square holds (``game_per_forest``; an
    area's game maximum is that times its forest squares), the gold tokens an area with ore
    holds at the start (``gold_deposit``: its mine gives no more, house rule), the lands with
    ore (where a mine can be built) by player count (``ore_lands``: each starting land has as
    much ore next to it as every other, house rule) and the starting lands by player count."""

    note: str = ""
    lands: list[Land] = Field(min_length=4)
    waters: list[Water]
    game_per_forest: int = Field(ge=1)
    gold_deposit: int = Field(ge=0)
    ore_lands: dict[str, list[str]]
    ring: list[str]
    lake: str
    starting_lands: dict[str, list[str]]


class Start(ContentModel):
    """What each player starts with in its starting land (and purse)."""

    peasants: int
    nobles: int
    preserved: int
    weapons: int
    money: int


class Setup(Provenanced):
    """``setup.json``: the start, the number of rounds, the three action tokens, goods a moved
    peasant carries, what counts for wealth at the end, and the components' counts."""

    note: str = ""
    start: Start
    rounds: int = Field(ge=1)
    actions: list[Literal["peasants", "nobles", "trade"]] = Field(min_length=3, max_length=3)
    carry_per_peasant: int
    wealth: dict[str, int]
    components: dict[str, int]


class Building(ContentModel):
    """A building: its ``money`` and ``goods`` cost, the building it extends (``needs``), and
    where it may stand (``any``, ``coast``, ``ore``, ``field``: a stone head takes a field)."""

    id: Literal["road", "harbour", "mine", "stone_head", "manor", "motte", "castle"]
    money: int = Field(ge=0)
    goods: dict[str, int]
    needs: str | None
    where: Literal["any", "coast", "ore", "field"]


class Buildings(Provenanced):
    """``buildings.json``: the cost table, the fortifications' defence, a mine's yields and the
    ``markers`` of the components page (resource-hog-components.md, Components): how many of
    each building may stand on the map at once, by the building that takes a new marker
    (``motte`` counts the two-sided motte-and-bailey/castle markers; a castle turns its motte's
    marker over and a stone head a field marker, so neither takes one)."""

    note: str = ""
    buildings: list[Building]
    defence: dict[str, int]
    mine_yields: list[dict[str, int]]
    markers: dict[Literal["road", "harbour", "mine", "manor", "motte"], int]


class Trading(Provenanced):
    """``trading.json``: per good the price of each row, bottom to top; slots per row; the
    balance count and the start; the d6 table (good, goods added or taken); slave and
    mercenary prices, and what a peasant sold as a slave fetches (``slave_sell_price``)."""

    note: str = ""
    goods: dict[Literal["preserved", "salt", "weapons"], list[int]]
    slots_per_row: int
    balance: int
    start: int
    d6: dict[Literal["1", "2", "3", "4", "5", "6"], tuple[Literal["preserved", "salt", "weapons"], int]]
    slave_price: int
    slave_sell_price: int = Field(ge=0)
    mercenary_price: int

    @property
    def rows(self) -> int:
        """Rows of a column of the board (five, house rule)."""
        return len(next(iter(self.goods.values())))

    @property
    def capacity(self) -> int:
        """Goods a column holds below its unlimited top row counted as two (10)."""
        return self.rows * self.slots_per_row


class Content(ContentModel):
    """Every file, checked together."""

    map: Map
    setup: Setup
    buildings: Buildings
    trading: Trading

    @model_validator(mode="after")
    def _consistent(self) -> "Content":
        m = self.map
        lands = {x.id for x in m.lands}
        waters = {w.id: w for w in m.waters}
        if sorted(m.ring) != sorted(lands):
            raise ValueError("the ring lists every land area once")
        if m.lake not in waters or waters[m.lake].kind != "lake":
            raise ValueError("the ring's lake is a lake area")
        for x in m.lands:
            if x.coast is not None and (x.coast not in waters or waters[x.coast].kind != "sea"):
                raise ValueError(f"{x.id}: its coast is a sea area")
        for w in m.waters:
            if w.start > w.max:
                raise ValueError(f"{w.id}: starts above its maximum")
        for n, starts in m.starting_lands.items():
            if len(starts) != int(n) or not set(starts) <= lands:
                raise ValueError(f"{n} players: {n} starting lands")
        for row in self.trading.goods.values():
            if row != sorted(row, reverse=True) or len(row) % 2 == 0:
                raise ValueError("each column has an odd number of rows, dearest at the bottom")
        needs = {b.id: b.needs for b in self.buildings.buildings}
        if needs.get("motte") != "manor" or needs.get("castle") != "motte":
            raise ValueError("a motte extends a manor and a castle a motte (table: build)")
        return self


def game_max(forests: int) -> int:
    """The most game an area with ``forests`` forest squares holds: ``map.json``
    ``game_per_forest`` (4) a square (table: increase game populations, up to the area max;
    house rule map, so that growth by 2 from five and by 3 from nine can happen)."""
    return forests * content().map.game_per_forest


@lru_cache(maxsize=1)
def lands() -> dict[str, Land]:
    """The map's land areas by id."""
    return {x.id: x for x in content().map.lands}


def load() -> Content:
    """Read and check every content file. Raises pydantic ``ValidationError`` if one is wrong."""
    return Content.model_validate(read_files(Content, CONTENT_DIR))


@lru_cache(maxsize=1)
def content() -> Content:
    """The checked content, read once."""
    return load()
