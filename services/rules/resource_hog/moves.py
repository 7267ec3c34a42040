"""The move shapes of Resource Hog: strict pydantic models (``"3"``, ``3.0`` and ``true`` are not
3), each with its JSON shape and its row of ``resource-hog-actions-and-events.txt``.

Areas are the land areas ``L1``-``L8``; waters ``west_sea``, ``east_sea``, ``mere``; goods
``preserved``, ``salt``, ``weapons``.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field

Area = Annotated[str, Field(pattern=r"^L[1-8]$")]
Good = Literal["preserved", "salt", "weapons"]
MAX_COUNT = 200
"""The most pieces or goods one move names (a bound of the move format, not of the rules: a larger
store is sold or shipped over several moves)."""
Count = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Goods = Annotated[dict[Good, Annotated[int, Field(ge=0, le=200)]], Field(max_length=3)]
Action = Literal["peasants", "nobles", "trade"]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Orders(_Move):
    """``{"type": "orders", "order": ["trade", "peasants", "nobles"]}``: the secret order of the
    three action tokens (house rule, the round)."""

    type: Literal["orders"]
    order: Annotated[list[Action], Field(min_length=3, max_length=3)]


class MovePeasants(_Move):
    """``{"type": "move_peasants", "from": "L1", "to": "L2", "count": 2, "goods": {"salt": 2}}``:
    peasants over own land, 2 goods each (table: move peasants)."""

    type: Literal["move_peasants"]
    from_: Area = Field(alias="from")
    to: Area
    count: Count
    goods: Goods = Field(default_factory=dict)


class Allocate(_Move):
    """``{"type": "allocate", "area": "L1", "work": "fish:mere"}``: one free peasant to work:
    ``fish:<water>``, ``hunt``, ``toil``, ``mine:<gold|salt|weapons>``, ``clear``,
    ``build:<building>``, ``population`` or ``knight`` (table: allocate rows)."""

    type: Literal["allocate"]
    area: Area
    work: Annotated[str, Field(min_length=1, max_length=32)]


class MoveNobles(_Move):
    """``{"type": "move_nobles", "from": "L1", "to": "L2", "count": 1}``: nobles over own land and
    at most one border beyond; goods carried pay 1 money a border (table: move nobles)."""

    type: Literal["move_nobles"]
    from_: Area = Field(alias="from")
    to: Area
    count: Count
    goods: Goods = Field(default_factory=dict)


class Ransom(_Move):
    """``{"type": "ransom", "pay": {"money": 1, "peasants": 1}}``: a battle's loser pays the
    margin in units of 10 money, 2 salt, 1 weapons, 1 preserved or 1 peasant (table: fight)."""

    type: Literal["ransom"]
    pay: Annotated[dict[Literal["money", "salt", "weapons", "preserved", "peasants"],
                        Annotated[int, Field(ge=0, le=200)]], Field(max_length=5)]


class Buy(_Move):
    """``{"type": "buy", "good": "salt", "count": 2, "to": "L1"}``: goods (or a ``slave``) from
    the trading board into a harbour area of the buyer (table: buy); a ``mercenary`` into any of
    the buyer's areas (house rule: mercenaries march in)."""

    type: Literal["buy"]
    good: Literal["preserved", "salt", "weapons", "slave", "mercenary"]
    count: Count
    to: Area


class Sell(_Move):
    """``{"type": "sell", "good": "salt", "count": 2, "from": "L1"}``: goods from a harbour area
    onto the trading board (table: sell); ``"good": "slave"`` sells peasants of the harbour area
    not allocated this round as slaves, while the slave stack lasts (house rule: slaves)."""

    type: Literal["sell"]
    good: Literal["preserved", "salt", "weapons", "slave"]
    count: Count
    from_: Area = Field(alias="from")


class Ship(_Move):
    """``{"type": "ship", "good": "salt", "count": 2, "from": "L2", "to": "L1"}``: goods from own
    land to any area, 1 money a border unless both have roads (table: sell)."""

    type: Literal["ship"]
    good: Good
    count: Count
    from_: Area = Field(alias="from")
    to: Area


class Preserve(_Move):
    """``{"type": "preserve", "area": "L1", "salt": 2}``: in the round's events, after feeding, the
    owner of an area with fresh food left and salt in store spends ``salt`` salt (0 keeps it all
    for sale), each preserving one fresh token, fish first, then meat, then grain (table:
    produce preserved foods; house rule, Preserving)."""

    type: Literal["preserve"]
    area: Area
    salt: Annotated[int, Field(ge=0, le=MAX_COUNT)]


class Done(_Move):
    """``{"type": "done"}``: end the action (a nobles' action then fights its battles)."""

    type: Literal["done"]


Move = Annotated[Union[Orders, MovePeasants, Allocate, MoveNobles, Ransom, Buy, Sell, Ship, Preserve, Done],
                 Field(discriminator="type")]
"""Every move of Resource Hog."""
