"""The move shapes of A Game of Gnomes: strict pydantic models (``"3"``, ``3.0`` and ``true``
are not 3), each with its JSON shape, its weeks and its rulebook section.

Places are site ids (``s01``-``s19``, the location tiles on them are in the view's
``layout``), ``tower`` and the mountain spaces (``g1``-``g4``, ``r1``-``r4``,
``n1``-``n2``). Cards and items are named by id (``content/cards.json``).
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Place = Annotated[str, Field(min_length=1, max_length=16)]
CardId = Annotated[str, Field(min_length=1, max_length=40)]
Mushroom = Literal["blue", "yellow", "red", "king"]
Gem = Literal["brown", "green", "white"]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Travel(_Move):
    """``{"type": "travel", "card": "meadow", "path": ["s02"]}``: play one travel card; a
    single or free card crosses one route, a double one or two of its terrain. Weeks: the
    card's sand timer (rulebook C.1). On the frog any card crosses any route (B)."""

    type: Literal["travel"]
    card: CardId
    path: Annotated[list[Place], Field(min_length=1, max_length=2)]


class ThreeForFree(_Move):
    """``{"type": "three_for_free", "cards": ["double_mountain", "nugget"], "to": "s07"}``: cards
    with 3 or more icons (none spare) cross any one land route, black and mountain ones
    included. Weeks: the sum of their sand timers (rulebook C.1)."""

    type: Literal["three_for_free"]
    cards: Annotated[list[CardId], Field(min_length=1, max_length=3)]
    to: Place


class UseEquipment(_Move):
    """``{"type": "equipment", "item": "canteen", "to": "s02"}``: move with an item instead of a
    card: Canteen (meadow), Short Axe (forest), Hill Boots (mountain), Compass (black),
    1 week each; Leaf Boat (river or lake), 2 weeks; Tunnel or Spare Key (Grifola to
    Hydnum), no time, used up (rulebook B equipment, I)."""

    type: Literal["equipment"]
    item: CardId
    to: Place


class Ice(_Move):
    """``{"type": "ice", "to": "s16"}``: in winter, walk over the frozen river or lake to the
    next location. 2 weeks (rulebook G)."""

    type: Literal["ice"]
    to: Place


class WinterPath(_Move):
    """``{"type": "winter_path", "to": "tower"}``: in winter, follow the Sorcerer's footprints
    along a black route. 1 week (rulebook G)."""

    type: Literal["winter_path"]
    to: Place


class Climb(_Move):
    """``{"type": "climb", "map": "map_g1_r1", "to": "r1"}``: change level on Gnome Mountain
    between spaces the map shows. No time, not an action (rulebook C.1 mountain)."""

    type: Literal["climb"]
    map: CardId
    to: Place


class PondPipes(_Move):
    """``{"type": "pond_pipes"}``: ride the frog for the rest of the round (from summer, one
    player a round). No time (rulebook B equipment, F)."""

    type: Literal["pond_pipes"]


class Pick(_Move):
    """``{"type": "pick", "mushroom": "blue"}``: pick a mushroom here into the basket. 1 week
    (rulebook C.2)."""

    type: Literal["pick"]
    mushroom: Mushroom


class Sell(_Move):
    """``{"type": "sell", "mushroom": "red", "gem": "white"}``: sell a carried mushroom here for
    one gem of the location's (the Sorcerer pays brown from the supply). No time
    (rulebook C.3)."""

    type: Literal["sell"]
    mushroom: Mushroom
    gem: Gem


class Buy(_Move):
    """``{"type": "buy", "card": "compass", "nuggets": 0}``: buy a card on offer at this shop,
    ``nuggets`` nugget cards paying part of the price; ``return_map`` names the map handed
    to the shop when buying a third. No time (rulebook C.4)."""

    type: Literal["buy"]
    card: CardId
    nuggets: int = Field(default=0, ge=0, le=10)
    return_map: CardId | None = None


class Restock(_Move):
    """``{"type": "restock"}``: new stock for the shop here. 2 weeks (rulebook C.5)."""

    type: Literal["restock"]


class Scout(_Move):
    """``{"type": "scout"}``: draw a travel card. 1 week (rulebook C.6)."""

    type: Literal["scout"]


class Quest(_Move):
    """``{"type": "quest", "quest": "cross_the_lake"}``: take a quest at the tower, its reward
    at once; an item reward names the ``item`` (and ``return_map`` for a third map). No
    time (rulebook C.7)."""

    type: Literal["quest"]
    quest: CardId
    item: CardId | None = None
    return_map: CardId | None = None


class EndTurn(_Move):
    """``{"type": "end_turn"}``: end the turn (rulebook C end)."""

    type: Literal["end_turn"]


class Sleep(_Move):
    """``{"type": "sleep", "piles": [1, 3]}``: take dream piles (1, 2 or 3 cards for as many
    sleep weeks), or ``[]`` (rulebook D)."""

    type: Literal["sleep"]
    piles: Annotated[list[Annotated[int, Field(ge=1, le=3)]], Field(max_length=3)]  # a strict int: true is not 1


class Discard(_Move):
    """``{"type": "discard", "cards": ["meadow", "free"]}``: discard down to the rucksack's hand
    limit (rulebook E)."""

    type: Literal["discard"]
    cards: Annotated[list[CardId], Field(max_length=40)]


Move = Annotated[Union[Travel, ThreeForFree, UseEquipment, Ice, WinterPath, Climb, PondPipes, Pick, Sell, Buy,
                       Restock, Scout, Quest, EndTurn, Sleep, Discard], Field(discriminator="type")]
"""Every move of A Game of Gnomes."""
TURN_MOVES = ("travel", "three_for_free", "equipment", "ice", "winter_path", "climb", "pond_pipes", "pick", "sell",
              "buy", "restock", "scout", "quest", "end_turn")
"""Moves of a turn (C); ``sleep`` is D and ``discard`` is E."""
