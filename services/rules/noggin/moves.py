"""The move shapes of Noggin the Nog: strict pydantic models, each with its JSON shape, its
Step cost and the rulebook section in its docstring, so the move API documents itself.

Every cost a seat pays names its cubes in ``pay`` (Gold and coins may stand in for any
resource, 5.1, 6.6); ``pay`` may be left out, and then the named resources go first,
then Gold, then coins (house rule). ``legal_moves`` always lists ``pay`` explicitly,
once per distinct choice.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator

from .abilities import FREE_ABILITIES


def _whole_number(value: Any) -> Any:
    """Refuse anything but an int before a ``Literal`` of ints sees it: pydantic matches such a
    Literal by equality even in strict mode, so ``true`` and ``4.0`` would pass for 1 and 4."""
    if type(value) is not int:
        raise ValueError(f"a whole number is wanted, not {value!r}")
    return value


def one_of(*values: int) -> Any:
    """The type of a field that takes one of ``values`` (ints) and nothing equal to one of them
    (``true`` for 1, ``4.0`` for 4): ``Literal[values]``, checked by :func:`_whole_number` first."""
    return Annotated[Literal[values], BeforeValidator(_whole_number)]  # type: ignore[valid-type]

Square = Annotated[list[int], Field(min_length=2, max_length=2)]
Resource = Literal["stone", "wood", "fish", "harvest"]
Cube = Literal["stone", "wood", "fish", "harvest", "gold", "coin"]
Pay = Annotated[list[Cube], Field(max_length=4)]
Character = Literal["noggin", "nooka", "knut", "graculus", "thor", "olaf", "romf"]
Deck = Literal["A", "B", "C"]
Action = Literal["miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day"]


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # "3", 3.0 and true are not 3


class MinerDig(_Move):
    """``{"type": "miner", "op": "dig", "square": [row, col]}``: dig the Stone or Gold on a
    Mine square orthogonally next to the Miner into the mine cart; the Miner moves onto
    it. 1 Step (rulebook 5.1).
    """

    type: Literal["miner"]
    op: Literal["dig"]
    square: Square


class MinerWalk(_Move):
    """``{"type": "miner", "op": "walk", "square": [row, col]}``: move the Miner to an empty
    gallery square joined to his by empty squares. 1 Step; free once per action with the
    Moon Stone (rulebook 5.1, appendix).
    """

    type: Literal["miner"]
    op: Literal["walk"]
    square: Square


class MinerDiscover(_Move):
    """``{"type": "miner", "op": "discover", "slot": [row, col], "rotation": 0|90|180|270,
    "flip": "h"|"v"}``: draw a Mine tile and place it in the empty grid slot next to the
    Miner, turned ``rotation`` degrees clockwise then flipped; needs 9 or more Stone at
    the Nog Market. 1 Step (rulebook 5.1).
    """

    type: Literal["miner"]
    op: Literal["discover"]
    slot: Square
    rotation: one_of(0, 90, 180, 270)  # type: ignore[valid-type]
    flip: Literal["h", "v"]


MinerMove = Annotated[Union[MinerDig, MinerWalk, MinerDiscover], Field(discriminator="op")]


class FishermanMove(_Move):
    """``{"type": "fisherman", "draws": 1-4}``: draw that many Fishing tokens and take the
    fish shown from the fjord. ``draws`` Steps; ends the action unless the Coral Necklace
    may put a token back (rulebook 5.2, appendix).
    """

    type: Literal["fisherman"]
    draws: int = Field(ge=1, le=4)


class FishingTokensMove(_Move):
    """``{"type": "fishing_tokens", "put_back": null|k}``: with the Coral Necklace ready, keep
    the drawn tokens, or put token ``k`` back in the bag and draw another; then the catch.
    No Step (appendix).
    """

    type: Literal["fishing_tokens"]
    put_back: int | None = Field(default=None, ge=0, le=3)


class WoodcutterMove(_Move):
    """``{"type": "woodcutter", "op": "advance"|"orchard"|"jump"}``: walk to the next forest
    clearing and cut its trees into the wood cart, cut one Orchard tree, or (Bird's Crown,
    once a season) jump over the next clearing to cut in the one after. 1 Step each
    (rulebook 5.3, appendix).
    """

    type: Literal["woodcutter"]
    op: Literal["advance", "orchard", "jump"]


class FarmerMove(_Move):
    """``{"type": "farmer", "op": "sow"|"harvest", "field": 0|1}`` or ``{"type": "farmer",
    "op": "apple", "tree": 0|1}``: sow a field in Spring, reap it in Summer or Autumn, or
    pick one tree's apples in Autumn. 1 Step each (rulebook 5.4). The wrong target for
    the ``op`` raises ``ValidationError``.
    """

    type: Literal["farmer"]
    op: Literal["sow", "harvest", "apple"]
    field: int | None = Field(default=None, ge=0, le=1)
    tree: int | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _target(self) -> "FarmerMove":
        if self.op == "apple" and (self.tree is None or self.field is not None):
            raise ValueError('picking apples names a "tree" (0 or 1) and no field')
        if self.op != "apple" and (self.field is None or self.tree is not None):
            raise ValueError(f'{self.op} names a "field" (0 or 1) and no tree')
        return self


class BuilderMove(_Move):
    """``{"type": "builder", "building": id, "space": space, "pay": [...]}`` or ``{"type":
    "builder", "transport": id, "pay": [...]}``: build a Year 1 or Year 2 tile on a board
    space (``"beside"`` for New Land) for 2 Wood and 1 Stone, or upgrade a transport to
    capacity 4 for 2 Wood. 2 Steps; ends the action (the Good Genie allows a second build
    for no Step) (rulebook 5.5, appendix). Neither form, or both, raises ``ValidationError``.
    """

    type: Literal["builder"]
    building: Literal["fish_smokery", "granary", "long_house", "lookout_tower", "new_land", "woodcutters_hut",
                      "blacksmith", "goldsmith", "hillside_farm", "inventors_workshop", "knuts_seat", "merchant",
                      "nookas_kitchen_garden", "omruds_ornamental_garden", "royal_dungeon",
                      "royal_horse_trough", "royal_kitchens", "seers_tower", "town_walls", "windmill"] | None = None
    space: Literal["mountains", "field0", "field1", "orchard", "meadow", "new_land", "beside"] | None = None
    transport: Literal["mine_cart", "wood_cart", "boat"] | None = None
    pay: Pay | None = None

    @model_validator(mode="after")
    def _one_form(self) -> "BuilderMove":
        if self.transport is None and (self.building is None or self.space is None):
            raise ValueError('a Builder move names a "building" and a "space", or a "transport"')
        if self.transport is not None and (self.building is not None or self.space is not None):
            raise ValueError("build a building or upgrade a transport, not both (rulebook 5.5)")
        return self


class RestockMove(_Move):
    """``{"type": "restock", "kind": "trees"|"fish", "amount": 4|8|12, "orchard": 0-2}``:
    move exactly ``amount`` cubes from the Nog Market to the fjord, or to the forest with
    ``orchard`` of them in the player's Orchard, and score for the amount (3, 7, 11 fish
    with the Butterfly Net). 2 Steps; ends the action (rulebook 5.6, appendix).
    """

    type: Literal["restock"]
    kind: Literal["trees", "fish"]
    amount: one_of(3, 4, 7, 8, 11, 12)  # type: ignore[valid-type]
    orchard: int = Field(default=0, ge=0, le=2)


class MarketTrade(_Move):
    """``{"type": "market_day", "op": "trade", "give": [c1, c2], "take": c}``: one trade at the
    Nog Market: 2 cubes (3 while Nogbad brings Bad News) for 1, or ``["coin"]`` for any 1
    (``op`` may be left out). 1 Step for the Market Day, further trades free (6.0, 6.6).
    """

    type: Literal["market_day"]
    op: Literal["trade"] = "trade"
    give: Annotated[list[Cube], Field(min_length=1, max_length=3)]
    take: Cube


class MarketCharacter(_Move):
    """``{"type": "market_day", "op": "character", "character": c, "pay": [food], ...}``: pay
    1 Food (none under S.O.S.) for a character's ability (6.1). Arguments by character:
    Noggin ``owner`` and ``action`` (the Nog he replaces); Nooka ``saga`` and ``deck``
    (B or C); Knut ``deck`` (then a ``knut`` decision); Graculus ``target``; Thor
    ``direction`` (1 or -1); Romf ``top`` and ``bottom`` (tile positions); Olaf nothing.
    1 Step for the Market Day.
    """

    type: Literal["market_day"]
    op: Literal["character"]
    character: Character
    pay: Pay | None = None
    owner: int | None = Field(default=None, ge=0, le=3)
    action: Action | None = None
    saga: int | None = Field(default=None, ge=0, le=1)
    deck: Deck | None = None
    target: Character | None = None
    direction: one_of(-1, 1) | None = None  # type: ignore[valid-type]
    top: int | None = Field(default=None, ge=0, le=3)
    bottom: int | None = Field(default=None, ge=0, le=3)

    @model_validator(mode="after")
    def _arguments(self) -> "MarketCharacter":
        _exactly(self, CHARACTER_ARGS[self.character], f"{self.character}'s ability")
        return self


CHARACTER_ARGS = {"noggin": ("owner", "action"), "nooka": ("saga", "deck"), "knut": ("deck",), "graculus": ("target",),
                  "thor": ("direction",), "olaf": (), "romf": ("top", "bottom")}
"""The arguments each character's ability takes besides ``pay`` (rulebook 6.1)."""


def _exactly(move: BaseModel, wanted: tuple[str, ...], what: str, optional: tuple[str, ...] = ("pay",),
             selector: str = "character") -> None:
    """Raise ValueError unless ``move`` gives every argument of ``wanted`` and no other
    (``selector`` is the field that chose the shape: the character, or the card)."""
    given = {k for k, v in move if v is not None and k not in ("type", "op", selector)}
    missing = [k for k in wanted if k not in given]
    extra = sorted(given - set(wanted) - set(optional))
    if missing:
        raise ValueError(f"{what} needs {', '.join(repr(k) for k in missing)}")
    if extra:
        raise ValueError(f"{what} takes no {', '.join(repr(k) for k in extra)}")


class MarketEvict(_Move):
    """``{"type": "market_day", "op": "evict", "by": "thor"|"graculus_romf"|"romf"|"graculus",
    "pay": [food...]}``: send Nogbad home (or to the Royal Dungeon): Thor Nogson for 1 Food
    and 1 point, Graculus and Romf for 2 Food and 2 points, Romf or Graculus alone with the
    Roman Medal. 1 Step for the Market Day (6.2, appendix).
    """

    type: Literal["market_day"]
    op: Literal["evict"]
    by: Literal["thor", "graculus_romf", "romf", "graculus"]
    pay: Pay | None = None


class MarketAuction(_Move):
    """``{"type": "market_day", "op": "auction"}``: auction the Counting House card round the
    table; other seats then bid (``bid`` moves). 1 Step for the Market Day (6.3).
    """

    type: Literal["market_day"]
    op: Literal["auction"]


class MarketSaga(_Move):
    """``{"type": "market_day", "op": "saga", "saga": 0|1, "condition": k, "nog": true|false,
    "bonus": true?, "pay": [cube]}``: meet one condition of the Saga's Reserve card: a
    character recruited from the Castle for 1 Food, or the resource; place a Nog (``nog``)
    or score 1 point; ``bonus`` puts the Nog on the Counting House icon of a C card. One
    Saga per Market Day; 1 Step for the Market Day (6.4).
    """

    type: Literal["market_day"]
    op: Literal["saga"]
    saga: int = Field(ge=0, le=1)
    condition: int = Field(ge=0, le=3)
    nog: bool = True
    bonus: bool | None = None
    pay: Pay | None = None


class MarketInvention(_Move):
    """``{"type": "market_day", "op": "invention", "invention": 0|1, "condition": k, "pay":
    [cube]}``: meet one condition of an Invention with a Nog (Olaf for 1 Food, or the
    resource; ``[]`` for a Wood or Stone the Blacksmith spares). One Invention per Market
    Day; 1 Step for the Market Day (6.5, appendix).
    """

    type: Literal["market_day"]
    op: Literal["invention"]
    invention: int = Field(ge=0, le=1)
    condition: int = Field(ge=0, le=3)
    pay: Pay | None = None


def _market_op(v: Any) -> str:
    if isinstance(v, dict):
        return v.get("op", "trade")
    return getattr(v, "op", "trade")


MarketDayMove = Annotated[Union[
    Annotated[MarketTrade, Tag("trade")], Annotated[MarketCharacter, Tag("character")],
    Annotated[MarketEvict, Tag("evict")], Annotated[MarketAuction, Tag("auction")],
    Annotated[MarketSaga, Tag("saga")], Annotated[MarketInvention, Tag("invention")],
], Discriminator(_market_op)]


class DrawReserveMove(_Move):
    """``{"type": "draw_reserve", "saga": 0|1, "deck": "B"|"C"}``: the Saga's Reserve card is
    done and it needs more: draw the next from the bottom of the chosen deck. No Step (6.4).
    """

    type: Literal["draw_reserve"]
    saga: int = Field(ge=0, le=1)
    deck: Literal["B", "C"]


class BidMove(_Move):
    """``{"type": "bid", "steps": n}``: in the Counting House auction, bid ``n`` Steps (more
    than the highest bid, within your limit) or pass with 0 (6.3)."""

    type: Literal["bid"]
    steps: int = Field(ge=0, le=9)


class KeepCardMove(_Move):
    """``{"type": "keep_card", "face": "up"|"down"}``: the auction's winner keeps the card face
    up (its artefact, 2 points every season) or face down (8 points now) (6.3)."""

    type: Literal["keep_card"]
    face: Literal["up", "down"]


class KnutMove(_Move):
    """``{"type": "knut", "swap": true|false}``: put back the two cards Knut looked at, in the
    same order or swapped. Only this seat learns which (6.1)."""

    type: Literal["knut"]
    swap: bool


class SeersTowerMove(_Move):
    """``{"type": "seers_tower", "adjust": -1|0|1}``: as a Saga finishes, count one Nog more
    or less for Noggin's popularity; 4 points if the Dragon then moves further (appendix)."""

    type: Literal["seers_tower"]
    adjust: one_of(-1, 0, 1)  # type: ignore[valid-type]


class FireworksMove(_Move):
    """``{"type": "fireworks", "play": true|false}``: as a Saga finishes, play the Fireworks for
    +1 to Noggin's popularity (the card then leaves the game), or keep it (appendix)."""

    type: Literal["fireworks"]
    play: bool


class DonateMove(_Move):
    """``{"type": "donate", "wood": 0|1, "food": "fish"|"harvest"}``: in Winter, between
    actions, give 1 Wood and/or 1 Food to the Nog Market for points. No Step, no Nog
    (rulebook 7.2).
    """

    type: Literal["donate"]
    wood: int = Field(default=0, ge=0, le=1)
    food: Literal["fish", "harvest"] | None = None


class UseMove(_Move):
    """``{"type": "use", "card": id, ...}``: between actions on your turn, use an artefact,
    Invention or Year 2 building you own (appendix). Arguments by card: windmill
    ``harvest`` (1|2) and ``pay``; gardens and trough ``resource`` to lock; darkness_tome
    ``direction``; telescope ``deck``; war_banner ``action`` and ``pay``; potion
    ``resource``; hnefetfl ``steps`` (1|2, spent on the Step track); flying_boat
    ``character``, ``to`` ("saga"|"invention"), ``slot``, ``condition``, ``nog`` and
    ``pay``; knuts_seat, royal_kitchens and heated_storkery nothing.
    """

    type: Literal["use"]
    card: Literal[FREE_ABILITIES]  # type: ignore[valid-type]
    harvest: one_of(1, 2) | None = None  # type: ignore[valid-type]
    pay: Pay | None = None
    resource: Resource | None = None
    direction: one_of(-1, 1) | None = None  # type: ignore[valid-type]
    deck: Deck | None = None
    action: Action | None = None
    steps: one_of(1, 2) | None = None  # type: ignore[valid-type]
    character: Character | None = None
    to: Literal["saga", "invention"] | None = None
    slot: int | None = Field(default=None, ge=0, le=1)
    condition: int | None = Field(default=None, ge=0, le=3)
    nog: bool | None = None

    @model_validator(mode="after")
    def _arguments(self) -> "UseMove":
        wanted, optional = USE_ARGS[self.card]
        _exactly(self, wanted, f"using {self.card}", optional, selector="card")
        return self


USE_ARGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "knuts_seat": ((), ()), "royal_kitchens": ((), ()), "heated_storkery": ((), ()),
    "windmill": (("harvest",), ("pay",)), "nookas_kitchen_garden": (("resource",), ()),
    "omruds_ornamental_garden": (("resource",), ()), "royal_horse_trough": (("resource",), ()),
    "darkness_tome": (("direction",), ()), "telescope": (("deck",), ()), "war_banner": (("action",), ("pay",)),
    "potion": (("resource",), ()), "hnefetfl": (("steps",), ()),
    "flying_boat": (("character", "to", "slot", "condition"), ("nog", "pay")),
}
"""The arguments each card's ability takes: (required, optional) (appendix)."""


class RecallMove(_Move):
    """``{"type": "recall", "saga": 0|1, "card": k}``: with no Nog on your Mountains space, take
    one back from card ``k`` (0 = the first completed; the current card last) of an
    unfinished Saga, for an action. No Step (rulebook 5.0 B)."""

    type: Literal["recall"]
    saga: int = Field(ge=0, le=1)
    card: int = Field(ge=0, le=4)


class AccuseMove(_Move):
    """``{"type": "accuse", "seat": k}``: Friend or Foe: play your Accusation card against seat
    ``k``: +10 if it holds Nogbad (it is unmasked), -10 if not. Once per game (variants)."""

    type: Literal["accuse"]
    seat: int = Field(ge=0, le=3)


class FinishMove(_Move):
    """``{"type": "finish"}``: finish the current action after at least one sub-move; the
    carts unload into storage. No Step (rulebook 5.1, 5.3).
    """

    type: Literal["finish"]


class EndTurnMove(_Move):
    """``{"type": "end_turn", "cupola_clock": true?}``: end the turn between actions; the
    marker then obeys the no-sharing rule, or jumps ahead if it had to act but could not;
    with the Cupola Clock (once a season) it then steps back one space. No Step (rulebook
    4.2, 4.3, 5.0 A, appendix).
    """

    type: Literal["end_turn"]
    cupola_clock: bool | None = None


Move = Annotated[Union[MinerMove, FishermanMove, FishingTokensMove, WoodcutterMove, FarmerMove, BuilderMove,
                       RestockMove, MarketDayMove, DrawReserveMove, BidMove, KeepCardMove, KnutMove, SeersTowerMove,
                       FireworksMove, DonateMove, UseMove, RecallMove, AccuseMove, FinishMove, EndTurnMove],
                 Field(discriminator="type")]
"""Every Noggin move, told apart by ``type``."""
