"""The state of a game of Noggin the Nog as plain data, and ``evolve`` (one event at a time).

Set-up (rulebook 1.0) is applied from the ``GameCreated`` event, which is deterministic;
every chance outcome (turn order, building rows, cards, Mine tiles, Fishing tokens)
arrives in its own event, so replaying the log never needs the seed. The order of
undrawn piles is never stored: only how many items have been drawn from each end.

What no client may see lives in ``State.secret`` alone (views drop it): the identity of
each Reserve card lying front up on a Saga (its back is hidden until turned, 6.4), the
Reserve discard piles and reshuffled decks, the top-two order Knut chose (6.1) and each
seat's Friend or Foe card (variants). Events that carry it are sealed (``to`` = -1) or
private to the seat that may know it.

All values are ints, strings, bools, lists and dicts (canonical JSON, no floats, no
sets). Mine squares are keyed ``"r,c"``; row -1 is the surface above the Mine (set-up R).
Nested dicts inside lists (conditions met, completed Reserve cards, Counting House cards)
are never changed in place: ``evolve`` replaces them, so :func:`copy_state` may share them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event
from services.rules.core import match as core_match
from services.rules.core.match import EVENTS as MATCH_EVENTS
from services.rules.core.canonical import OMIT_IF_NONE
from services.rules.core.cow import CopyOnWrite, shared_field
from services.rules.core.match import MatchRecord

from . import content
from .content import BASIC, CHARACTERS

SEASONS = ("spring", "summer", "autumn", "winter")
ACTIONS = ("miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day")
"""The action spaces (rulebook 3.3; Restock is the space 3.3 calls Vendor)."""
TRANSPORTS = ("mine_cart", "wood_cart", "boat")
SPACES = ("mountains", "field0", "field1", "orchard", "meadow", "new_land")
"""Building spaces of a player board (rulebook 3.8; New Land, itself placed "beside" the
board, adds the ``new_land`` space, 5.5 and appendix)."""
SUBSTITUTES = ("gold", "coin")
"""What may be paid instead of any resource: Gold (5.1) and coins (6.6)."""
HOLDINGS = (*BASIC, *SUBSTITUTES)
"""What a player's stock holds: the four basic resources, Gold and coins (3.7, 6.6)."""
DECKS = ("A", "B", "C")
"""The three Reserve decks (1.0, 6.4)."""
CASTLE = "castle"
"""Where the characters start and return (set-up D, 6.1, 6.4)."""


@dataclass(slots=True)
class Player:
    """One seat's player board (rulebook 3.8), score and the cards beside the board.

    ``stock``: cubes in storage plus Gold and coins; ``placed``/``uses``: Nogs on each action
    space and times used this season (5.0); ``counting_house``: ``{"card", "up"}`` per
    Counting House card owned (6.3); ``inventions``: Invention cards won (6.5); ``used`` /
    ``turn_used``: abilities already used this season / this turn (their Nog laid down,
    6.3, 6.5); ``forge``: holds the Forge token (6.5); ``locked``: resources locked on
    Year 2 tiles and ``tile_nogs``: Nogs on Year 2 tiles (appendix); ``orchard_cut``: an
    Orchard tree was cut (So Long variant); ``accused`` / ``unmasked``: Friend or Foe.
    """

    seat: int
    colour: str
    mountains: int = 0
    reserve: int = 0
    stock: dict[str, int] = field(default_factory=dict)
    fields: list[int] = field(default_factory=list)  # Harvest cubes on each field's labourers
    orchard: int = 0  # trees
    buildings: dict[str, str] = field(default_factory=dict)  # building id -> space
    transports: list[str] = field(default_factory=list)  # upgraded transports
    placed: dict[str, int] = field(default_factory=dict)  # action -> Nogs on that action space
    uses: dict[str, int] = field(default_factory=dict)  # action -> times used this season
    score: int = 0
    counting_house: list[dict[str, Any]] = field(default_factory=list)
    inventions: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    turn_used: list[str] = field(default_factory=list)
    forge: bool = False
    locked: dict[str, dict[str, int]] = field(default_factory=dict)
    tile_nogs: dict[str, int] = field(default_factory=dict)
    orchard_cut: bool = False
    accused: bool = False
    unmasked: bool = False
    shown: str = ""  # the Friend or Foe card shown when the seat was accused


@dataclass(slots=True)
class Marker:
    """A large Nog meeple on the Step track (absolute positions, see turns.py)."""

    colour: str
    seat: int | None  # None = dummy player
    pos: int = 0
    turns: int = 0  # turns finished (0 = still on its first turn, rulebook 4.1)


@dataclass(slots=True)
class ReserveCard:
    """The Reserve card on a Saga's Harbourside, resource side up (6.4).

    ``needs``: its conditions; ``met``: per condition ``None`` or ``{"seat", "paid", "nog"}``
    (``paid`` the cube placed on the icon, None when a character came free; ``nog`` 1 if a
    Nog was placed, 0 if the point was taken); ``nogs``: Nogs per seat on the card (a Nog
    taken back under 5.0 B leaves its space empty for good); ``bonus``: the Counting House
    icon and ``bonus_seat`` the seat whose Nog claimed it.
    """

    deck: str
    needs: list[str]
    met: list[dict[str, Any] | None]
    nogs: list[int]
    bonus: bool = False
    bonus_seat: int | None = None


@dataclass(slots=True)
class Saga:
    """A face-up Saga card (6.4): ``card`` id, ``needed`` Reserve cards, the completed
    Reserve cards under it in ``done`` (first completed first; ``{"deck", "card",
    "nogbad", "nogs"}``) and the ``current`` card on its Harbourside."""

    card: str
    needed: int
    done: list[dict[str, Any]] = field(default_factory=list)
    current: ReserveCard | None = None


@dataclass(slots=True)
class Invention:
    """A face-up Invention card (6.5): its ``needs``, ``met`` per condition (``None`` or
    ``{"seat", "paid"}``; every condition met carries that seat's Nog) and ``first``, the
    seat of the standing first Nog (the tie-breaker)."""

    card: str
    needs: list[str]
    met: list[dict[str, Any] | None]
    first: int | None = None


@dataclass(slots=True)
class Action:
    """The action being carried out (a series of sub-moves, finished by ``finish``).

    Market Day (6.0): ``picks`` lists what was done in order (``"character"``, then one of
    ``"trade"``, ``"saga"``, ``"invention"``, ``"auction"``, ``"evict"``; Honey & Mead
    allows one more), ``saga``/``invention`` the card being worked on, ``olaf`` Olaf's
    swap still unused. Builder: ``builds`` done (Good Genie allows 2). Miner: ``free_walk``
    (Moon Stone used). Fisherman: ``tokens`` drawn and waiting for the Coral Necklace.
    """

    seat: int
    kind: str
    ops: int = 0
    cart: dict[str, int] = field(default_factory=dict)
    mode: str = ""  # woodcutter: "forest" or "orchard"
    apples: list[int] = field(default_factory=list)  # trees picked in this action
    picks: list[str] = field(default_factory=list)
    saga: int | None = None
    invention: int | None = None
    olaf: bool = False
    builds: int = 0
    free_walk: bool = False
    tokens: list[dict[str, Any]] | None = None
    rest: int | None = None  # woodcutter: the clearing he stays in when the action ends (5.3)


@dataclass(slots=True)
class State:
    """Everything on the table in one game (rulebook 1.0, 3.1, 3.8), as plain data.

    Player boards and scores; the Step markers (absolute positions, 10 per season) with
    the ``active`` one, the Runestone and the season (1-8); the Nog Market, fjord, forest
    and Woodcutter; the Mine and Miner; building rows and piles; transport piles; the Crow
    and Dragon (spaces from the crown); the characters, Nogbad and the Infamous Crow's
    ``wheel`` quarter; Sagas, Reserve decks, Inventions and the Counting House; the action
    in progress; a pending ``decision`` of some seat; the chance outcome the next
    operation reads (``drawn``); ``ended`` / ``final`` once the game is over; ``seen``;
    ``secret``.

    ``State.seen``: the public record of cards that left the table and so are no longer on
    it, which every seat saw and a search must not deal again (None until the first one):
    ``{"inventions": [card], "counting_house": [card], "discard": {deck: [entry]}}`` — Invention
    and Counting House cards discarded at a Change of Season (7.1) or played (the Fireworks),
    and each Reserve deck's discard pile since it was last made again (6.4 step 5, house rule),
    an entry ``{"card": id}`` for a card turned over (its back was shown) or ``{"needs": [...],
    "bonus": bool}`` for a card Nooka sent away resource side up (6.1: its back stays hidden).
    """

    config: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)  # in set-up (turn) order
    active: int | None = None  # index into markers of the marker whose turn it is
    runestone: int = 0
    season: int = 1
    market: dict[str, int] = field(default_factory=dict)  # the Nog Market: basic resources, Gold, coins
    fjord: int = 0
    forest: list[int] = field(default_factory=list)  # trees per forest zone
    woodcutter: int = -1  # clearing index; -1 = his starting space
    mine_tiles: list[dict[str, Any]] = field(default_factory=list)  # placed: slot, tile, rotation, flip
    mine: dict[str, str] = field(default_factory=dict)  # "r,c" -> "stone" | "gold" | "" (gallery)
    miner: list[int] = field(default_factory=list)
    mine_drawn: int = 0
    mine_first: str = "start"  # the tile of set-up Q (Another Train may change it)
    gold_supply: int = 0  # the 5 Gold cubes beside the board, for Mine tiles (set-up S)
    fishing_draws: int = 0
    drawn: dict[str, Any] = field(default_factory=dict)  # chance outcome the next op reads
    rows: dict[str, list[str]] = field(default_factory=dict)  # "top"/"bottom": tile ids ("" = taken)
    buildings_drawn: int = 0
    building_discard: list[str] = field(default_factory=list)
    year1_pile: list[str] = field(default_factory=list)  # face-up from season 5
    year2_drawn: int = 0
    transport_piles: dict[str, int] = field(default_factory=dict)
    crow: int = 0  # spaces from the crown
    dragon: int = 0
    characters: dict[str, str] = field(default_factory=dict)  # character -> castle | saga:i | invention:i | action:<kind>
    nogbad: str = CASTLE  # "castle", "active" (on the wheel's space) or "dungeon"
    wheel: int = 0  # quarter of the Infamous Crow (8.0)
    gaoler: int | None = None  # seat whose Nog guards Nogbad in the Royal Dungeon
    infamy: int = 0  # Nogbad portraits turned and not yet carried out (6.4 D)
    sagas: list[Saga | None] = field(default_factory=list)
    saga_vacant: list[int] = field(default_factory=list)  # slots waiting for a new Saga (6.4 step 7)
    sagas_drawn: int = 0
    sagas_done: list[str] = field(default_factory=list)
    saga_end: dict[str, Any] | None = None  # a finished Saga being scored (6.4 "Completing a Saga")
    reserve: dict[str, dict[str, int]] = field(default_factory=dict)  # deck -> epoch, size, top, bottom, discard
    inventions: list[Invention | None] = field(default_factory=list)
    inventions_drawn: int = 0
    counting_house: str | None = None  # the face-up Counting House card
    ch_drawn: int = 0
    auction: dict[str, Any] | None = None
    decision: dict[str, Any] | None = None  # a seat's pending decision: knut, keep_card, seers_tower, fireworks
    coins: bool = False  # the Money Saga is completed (6.6)
    recalled: bool = False  # Nogs taken back from a Saga this turn must go to an action (5.0 B)
    action: Action | None = None
    ended: dict[str, Any] | None = None  # {"reason", "crown"} once the game stopped (9.0)
    final: dict[str, Any] | None = None  # final scoring
    match: MatchRecord | None = field(default=None, metadata={OMIT_IF_NONE: True})  # strikes, forfeit (core.match)
    seen: dict[str, Any] | None = field(default=None, metadata={OMIT_IF_NONE: True})  # see Seen below
    secret: dict[str, Any] = field(default_factory=dict)
    shared: frozenset[str] = shared_field()  # bookkeeping of copy-on-write clones, not state (core.cow)


def _seen(s: State) -> dict[str, Any]:
    """``s.seen``, made on first use; its lists are replaced, never changed in place."""
    if s.seen is None:
        s.seen = {"inventions": [], "counting_house": [], "discard": {d: [] for d in DECKS}}
    return s.seen


def _saw(s: State, kind: str, item: Any, deck: str | None = None) -> None:
    seen = _seen(s)
    if deck is None:
        seen[kind] = [*seen[kind], item]
    else:
        seen["discard"] = {**seen["discard"], deck: [*seen["discard"][deck], item]}


def _copy_player(p: Player) -> Player:
    return Player(p.seat, p.colour, p.mountains, p.reserve, dict(p.stock), list(p.fields), p.orchard,
                  dict(p.buildings), list(p.transports), dict(p.placed), dict(p.uses), p.score,
                  list(p.counting_house), list(p.inventions), list(p.used), list(p.turn_used), p.forge,
                  dict(p.locked), dict(p.tile_nogs), p.orchard_cut, p.accused, p.unmasked, p.shown)


def _copy_saga(s: Saga | None) -> Saga | None:
    if s is None:
        return None
    c = s.current
    cur = None if c is None else ReserveCard(c.deck, list(c.needs), list(c.met), list(c.nogs), c.bonus, c.bonus_seat)
    return Saga(s.card, s.needed, list(s.done), cur)


def _copy_invention(i: Invention | None) -> Invention | None:
    return None if i is None else Invention(i.card, list(i.needs), list(i.met), i.first)


def copy_state(s: State) -> State:
    """A fast deep copy (the shape is known; inner dicts are replaced, never changed, by ``evolve``)."""
    a = s.action
    return State(
        config=s.config,  # never changed after GameCreated
        players=[_copy_player(p) for p in s.players],
        markers=[Marker(m.colour, m.seat, m.pos, m.turns) for m in s.markers],
        active=s.active, runestone=s.runestone, season=s.season, market=dict(s.market), fjord=s.fjord,
        forest=list(s.forest), woodcutter=s.woodcutter, mine_tiles=list(s.mine_tiles),
        mine=dict(s.mine), miner=list(s.miner), mine_drawn=s.mine_drawn, mine_first=s.mine_first,
        gold_supply=s.gold_supply, fishing_draws=s.fishing_draws, drawn=dict(s.drawn),
        rows={k: list(v) for k, v in s.rows.items()}, buildings_drawn=s.buildings_drawn,
        building_discard=list(s.building_discard), year1_pile=list(s.year1_pile), year2_drawn=s.year2_drawn,
        transport_piles=dict(s.transport_piles), crow=s.crow, dragon=s.dragon,
        characters=dict(s.characters), nogbad=s.nogbad, wheel=s.wheel, gaoler=s.gaoler, infamy=s.infamy,
        sagas=[_copy_saga(x) for x in s.sagas], saga_vacant=list(s.saga_vacant), sagas_drawn=s.sagas_drawn,
        sagas_done=list(s.sagas_done), saga_end=None if s.saga_end is None else dict(s.saga_end),
        reserve=dict(s.reserve), inventions=[_copy_invention(x) for x in s.inventions],
        inventions_drawn=s.inventions_drawn, counting_house=s.counting_house, ch_drawn=s.ch_drawn,
        auction=None if s.auction is None else dict(s.auction),
        decision=None if s.decision is None else dict(s.decision), coins=s.coins, recalled=s.recalled,
        action=None if a is None else Action(a.seat, a.kind, a.ops, dict(a.cart), a.mode, list(a.apples),
                                             list(a.picks), a.saga, a.invention, a.olaf, a.builds,
                                             a.free_walk, None if a.tokens is None else list(a.tokens), a.rest),
        ended=None if s.ended is None else dict(s.ended),
        final=None if s.final is None else dict(s.final),
        match=None if s.match is None else s.match.copy(),
        seen=None if s.seen is None else dict(s.seen),
        secret={k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                for k, v in s.secret.items()},
    )


def _copy_action(a: Action | None) -> Action | None:
    return None if a is None else Action(a.seat, a.kind, a.ops, dict(a.cart), a.mode, list(a.apples), list(a.picks),
                                         a.saga, a.invention, a.olaf, a.builds, a.free_walk,
                                         None if a.tokens is None else list(a.tokens), a.rest)


_maybe_dict = lambda v: None if v is None else dict(v)  # noqa: E731
COPIERS: dict[str, Any] = {
    "players": lambda v: [_copy_player(p) for p in v],
    "markers": lambda v: [Marker(m.colour, m.seat, m.pos, m.turns) for m in v],
    "market": dict, "forest": list, "mine_tiles": list, "mine": dict, "miner": list, "drawn": dict,
    "rows": lambda v: {k: list(x) for k, x in v.items()}, "building_discard": list, "year1_pile": list,
    "transport_piles": dict, "characters": dict, "sagas": lambda v: [_copy_saga(x) for x in v],
    "saga_vacant": list, "sagas_done": list, "saga_end": _maybe_dict, "reserve": dict,
    "inventions": lambda v: [_copy_invention(x) for x in v], "auction": _maybe_dict, "decision": _maybe_dict,
    "action": _copy_action, "ended": _maybe_dict, "final": _maybe_dict,
    "match": lambda m: None if m is None else m.copy(), "seen": _maybe_dict,
    "secret": lambda v: {k: (dict(x) if isinstance(x, dict) else list(x) if isinstance(x, list) else x)
                         for k, x in v.items()},
}
"""How a copy-on-write clone copies each part an event may change in place (as :func:`copy_state`
does; ``config`` is never changed after ``GameCreated``)."""
WRITES: dict[str, tuple[str, ...]] = {
    "TurnStarted": (), "RunestoneMoved": (), "StepsSpent": ("markers",), "DummyMoved": ("markers",),
    "TurnEnded": ("markers", "players"), "ActionStarted": ("players",), "ActionFinished": ("players",),
    "StoneDug": ("action", "mine"), "MinerWalked": ("action",), "PointsScored": ("players",), "BidMade": (),
    **{t: ("match",) for t in core_match.EVENTS},
}
"""The parts the handlers of the most frequent events change in place (``tests/rules/test_clone.py``
holds each to it); any other event may change any part, and is given its own copy of all."""
COW = CopyOnWrite(State, COPIERS, WRITES)
"""Copy-on-write clones of a :class:`State` (:mod:`services.rules.core.cow`)."""


def key(r: int, c: int) -> str:
    """The ``"r,c"`` key of the Mine square at row ``r``, column ``c`` (squares, not tiles)."""
    return f"{r},{c}"


def season_name(season: int) -> str:
    """``"spring"``, ``"summer"``, ``"autumn"`` or ``"winter"`` for season 1-8 (rulebook 2.0, 7.0)."""
    return SEASONS[(season - 1) % 4]


def option(state: State, name: str) -> bool:
    """True if the variant ``name`` was chosen at game creation (rulebook, Variants)."""
    return bool(state.config.get("options", {}).get(name))


def orient(rows: list[str], rotation: int, flip: str) -> list[str]:
    """Turn a 4x4 tile ``rotation`` degrees clockwise, then flip it ``"h"`` or ``"v"`` (5.1)."""
    g = [list(r) for r in rows]
    for _ in range((rotation // 90) % 4):
        n = len(g)
        g = [[g[n - 1 - j][i] for j in range(n)] for i in range(n)]
    if flip == "h":
        g = [list(reversed(r)) for r in g]
    elif flip == "v":
        g = list(reversed(g))
    return ["".join(r) for r in g]


def place_tile(state: State, slot: list[int], rows: list[str]) -> tuple[list[int] | None, list[list[int]]]:
    """Squares of an oriented tile placed in ``slot``: (gold square, gallery squares)."""
    gold, gallery = None, []
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            sq = [slot[0] * 4 + i, slot[1] * 4 + j]
            if ch == "A":
                gold = sq
            elif ch == "G":
                gallery.append(sq)
    return gold, gallery


def setup(state: State, config: dict[str, Any]) -> None:
    """Set-up of rulebook 1.0 (A-D, F transport, G, H, I, J, Q-Z) with the variants that change
    it (Arrival, Move on, You Owe Me One); chance parts (E, F rows, N, O, P, and the first
    Mine tile under Another Train) come later in their own events."""
    c = content.load()
    s = c.setup
    n = config["players"]
    res = s.resources[str(n)]
    state.config = config
    arrival = bool(config.get("options", {}).get("arrival"))
    state.players = [
        Player(seat=i, colour=s.colours[i], mountains=s.mountain_nogs, reserve=s.reserve_nogs,
               stock={r: 0 for r in HOLDINGS}, fields=[0 if arrival else s.field_harvest] * 2,
               orchard=s.orchard_trees, placed={a: 0 for a in ACTIONS}, uses={a: 0 for a in ACTIONS})
        for i in range(n)
    ]
    state.season = 1
    state.runestone = 0
    state.market = {"stone": s.market_stone, "wood": 0, "fish": 0, "harvest": s.market_harvest_per_player * n,
                    "gold": 0, "coin": 0}  # spent Gold and coins come here too (3.7, 6.6)
    state.fjord = res["fish"]
    state.forest = [n + s.forest_cubes_extra for _ in c.forest.zones]
    start = next(t for t in c.mine.tiles if t.start)
    slot = list(c.mine.grid.start_slot)
    state.mine_tiles = [{"slot": slot, "tile": start.id, "rotation": 0, "flip": ""}]
    _, gallery = place_tile(state, slot, start.rows)
    state.mine = {key(*sq): "stone" for sq in gallery}
    state.miner = [-1, slot[1] * 4]
    state.gold_supply = s.gold_cubes
    fewer = 1 if config.get("options", {}).get("you_owe_me_one") else 0
    state.transport_piles = {t: n - fewer for t in TRANSPORTS}
    state.rows = {"top": [], "bottom": []}
    state.crow = c.popularity.crow_start
    state.dragon = c.popularity.dragon_start[str(n)] - (1 if config.get("options", {}).get("move_on") else 0)
    state.characters = {ch: CASTLE for ch in CHARACTERS}
    state.nogbad = CASTLE
    state.wheel = 0
    state.sagas = [None] * s.saga_display
    state.inventions = [None] * s.invention_display
    state.reserve = {d: {"epoch": 0, "size": len(content.reserve_ids(d)), "top": 0, "bottom": 0, "discard": 0}
                     for d in DECKS}
    state.secret = {"saga_cards": [None] * s.saga_display, "pool": {}, "swaps": {d: [] for d in DECKS},
                    "discard": {d: [] for d in DECKS}, "loyalty": []}


def _unload(p: Player, cart: dict[str, int]) -> None:
    for r, k in cart.items():
        p.stock[r] += k


def evolve(state: State, event: Event) -> None:
    """Apply one event in place (first copying the parts it changes that a copy-on-write clone
    shares, :data:`WRITES`). Raises ValueError on an unknown event type."""
    t = event.type
    if state.shared:
        COW.before(state, t)
    h = _HANDLERS.get(t)
    if h is None:
        if t in MATCH_EVENTS:
            state.match = core_match.evolve(state.match, event)
            return
        raise ValueError(f"unknown Noggin event {t!r}")
    h(state, event.data)


# -- set-up and turns ---------------------------------------------------------------------

def _game_created(s: State, d: dict) -> None:
    setup(s, d["config"])


def _turn_order_drawn(s: State, d: dict) -> None:
    s.markers = [Marker(colour=m["colour"], seat=m["seat"]) for m in d["markers"]]


def _row_drawn(s: State, d: dict) -> None:
    s.rows[d["row"]] = list(d["tiles"])
    if d.get("year", 1) == 2:
        s.year2_drawn += len(d["tiles"])
    else:
        s.buildings_drawn += len(d["tiles"])


def _first_mine_tile(s: State, d: dict) -> None:
    """Another Train: the first Mine tile drawn at random, its Gold far from the top (variants)."""
    s.mine_first = d["tile"]
    s.mine_tiles = [{"slot": list(d["slot"]), "tile": d["tile"], "rotation": d["rotation"], "flip": d["flip"]}]
    s.mine = {key(*sq): "" for sq in d["gallery"]}
    for sq in d["stone"]:
        s.mine[key(*sq)] = "stone"
    s.market["stone"] += d["market_stone"]
    if d["gold"] is not None:
        s.mine[key(*d["gold"])] = "gold"
        s.gold_supply -= 1


def _turn_started(s: State, d: dict) -> None:
    s.active = d["marker"]


def _runestone_moved(s: State, d: dict) -> None:
    s.runestone = d["to"]


def _marker_moved(s: State, d: dict) -> None:
    s.markers[d["marker"]].pos = d["to"]


def _turn_ended(s: State, d: dict) -> None:
    m = s.markers[d["marker"]]
    m.pos = d["to"]
    m.turns += 1
    s.active = None
    s.recalled = False
    if m.seat is not None:
        s.players[m.seat].turn_used = []
        if d.get("clock"):
            s.players[m.seat].used = [*s.players[m.seat].used, "cupola_clock"]


def _dummy_moved(s: State, d: dict) -> None:
    m = s.markers[d["marker"]]
    m.pos = d["to"]
    m.turns += 1


# -- actions (5.0-5.6) --------------------------------------------------------------------

def _action_started(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.mountains -= d["nogs"]
    p.placed[d["action"]] += d["nogs"]
    p.uses[d["action"]] += 1
    s.action = Action(seat=d["seat"], kind=d["action"])
    s.recalled = False


def _action_finished(s: State, d: dict) -> None:
    a = s.action
    assert a is not None
    _unload(s.players[a.seat], a.cart)
    if a.rest is not None:  # 5.3: he stays in the last clearing where he cut wood
        s.woodcutter = a.rest
    s.action = None
    s.drawn = {}


def _op(s: State) -> Action:
    a = s.action
    assert a is not None
    a.ops += 1
    return a


def _stone_dug(s: State, d: dict) -> None:
    a = _op(s)
    cube = s.mine[key(*d["square"])]
    s.mine[key(*d["square"])] = ""
    a.cart[cube] = a.cart.get(cube, 0) + 1
    s.miner = list(d["square"])


def _miner_walked(s: State, d: dict) -> None:
    a = _op(s)
    if d.get("free"):
        a.free_walk = True
    s.miner = list(d["square"])


def _mine_tile_drawn(s: State, d: dict) -> None:
    s.mine_drawn += 1
    s.drawn = {"mine_tile": d["tile"]}


def _mine_tile_discovered(s: State, d: dict) -> None:
    _op(s)
    s.mine_tiles = [*s.mine_tiles, {"slot": list(d["slot"]), "tile": d["tile"], "rotation": d["rotation"],
                                    "flip": d["flip"]}]
    for sq in d["gallery"]:
        s.mine[key(*sq)] = ""
    for sq in d["stone"]:
        s.mine[key(*sq)] = "stone"
    s.market["stone"] -= len(d["stone"])
    if d["gold"] is not None:
        s.mine[key(*d["gold"])] = "gold"
        s.gold_supply -= 1
    s.drawn = {}


def _tokens_drawn(s: State, d: dict) -> None:
    s.fishing_draws += 1
    tokens = list(d["tokens"])
    if d.get("replacing") is not None and s.action is not None and s.action.tokens is not None:
        kept = list(s.action.tokens)
        kept[d["replacing"]] = tokens[0]
        tokens = kept
    if d.get("wait") and s.action is not None:
        s.action.tokens = tokens
    elif s.action is not None:
        s.action.tokens = None
    s.drawn = {"fish": sum(t["fish"] for t in tokens)}


def _fish_caught(s: State, d: dict) -> None:
    a = _op(s)
    a.tokens = None
    s.fjord -= d["fish"]
    s.players[d["seat"]].stock["fish"] += d["fish"]
    s.drawn = {}


def _woodcutter_moved(s: State, d: dict) -> None:
    a = _op(s)
    a.mode = "forest"
    if a.rest is None:
        a.rest = s.woodcutter
    if d["wood"] > 0:
        a.rest = d["clearing"]
    s.woodcutter = d["clearing"]
    s.forest[d["zone"]] -= d["wood"]
    a.cart["wood"] = a.cart.get("wood", 0) + d["wood"]


def _orchard_cut(s: State, d: dict) -> None:
    a = _op(s)
    a.mode = "orchard"
    p = s.players[d["seat"]]
    p.orchard -= 1
    p.orchard_cut = True
    p.stock["wood"] += 1


def _field_sown(s: State, d: dict) -> None:
    _op(s)
    s.players[d["seat"]].fields[d["field"]] += d["harvest"]
    s.market["harvest"] -= d["harvest"]


def _field_harvested(s: State, d: dict) -> None:
    _op(s)
    p = s.players[d["seat"]]
    p.fields[d["field"]] -= d["harvest"]
    p.stock["harvest"] += d["harvest"]


def _apple_picked(s: State, d: dict) -> None:
    a = _op(s)
    a.apples.append(d["tree"])
    s.players[d["seat"]].stock["harvest"] += 1
    s.market["harvest"] -= 1


def pay(s: State, p: Player, paid: list[str] | dict[str, int]) -> None:
    """Spent resources, Gold and coins included, always return to the Nog Market (3.7, 6.6)."""
    items = paid.items() if isinstance(paid, dict) else ((r, 1) for r in paid)
    for r, k in items:
        p.stock[r] -= k
        s.market[r] += k


def _building_built(s: State, d: dict) -> None:
    a = _op(s)
    a.builds += 1
    p = s.players[d["seat"]]
    pay(s, p, d["paid"])
    p.buildings[d["building"]] = d["space"]
    p.reserve -= d["nogs"]
    p.mountains += d["nogs"]
    if d.get("genie"):
        p.used = [*p.used, "good_genie"]
    if d["from"] == "pile":
        s.year1_pile.remove(d["building"])
    else:
        row = s.rows["bottom"]
        row[row.index(d["building"])] = ""


def _transport_upgraded(s: State, d: dict) -> None:
    a = _op(s)
    a.builds += 1
    p = s.players[d["seat"]]
    pay(s, p, d["paid"])
    p.transports.append(d["transport"])
    if d.get("genie"):
        p.used = [*p.used, "good_genie"]
    s.transport_piles[d["transport"]] -= 1


def _restocked(s: State, d: dict) -> None:
    _op(s)
    p = s.players[d["seat"]]
    if d["kind"] == "fish":
        s.market["fish"] -= d["amount"]
        s.fjord += d["amount"]
    else:
        s.market["wood"] -= d["amount"]
        p.orchard += d["orchard"]
        for zone in d["forest"]:
            s.forest[zone] += 1


def _points_scored(s: State, d: dict) -> None:
    s.players[d["seat"]].score += d["points"]


def _traded(s: State, d: dict) -> None:
    a = _op(s)
    if not a.picks or a.picks[-1] != "trade":
        a.picks.append("trade")
    p = s.players[d["seat"]]
    pay(s, p, d["give"])
    s.market[d["take"]] -= 1
    p.stock[d["take"]] += 1


def _donated(s: State, d: dict) -> None:
    pay(s, s.players[d["seat"]], d["given"])


# -- characters and Nogbad (6.1, 6.2, 8.0) ------------------------------------------------

def _character_used(s: State, d: dict) -> None:
    a = _op(s)
    a.picks.append("character")
    if d["character"] == "olaf":
        a.olaf = True
    pay(s, s.players[d["seat"]], d["paid"])


def _noggin_swapped(s: State, d: dict) -> None:
    owner = s.players[d["owner"]]
    owner.placed[d["action"]] -= 1
    owner.mountains += 1
    s.characters["noggin"] = f"action:{d['action']}"


def _character_moved(s: State, d: dict) -> None:
    s.characters[d["character"]] = d["to"]


def _crow_turned(s: State, d: dict) -> None:
    s.wheel = d["quarter"]
    if d.get("used"):
        p = s.players[d["seat"]]
        p.used = [*p.used, d["used"]]


def _nogbad_moved(s: State, d: dict) -> None:
    was = s.nogbad
    s.nogbad = d["to"]
    if was == "dungeon" and d["to"] != "dungeon" and s.gaoler is not None:
        s.players[s.gaoler].mountains += 1
        s.players[s.gaoler].tile_nogs["royal_dungeon"] = 0
        s.gaoler = None
    if d["to"] == "dungeon":
        s.gaoler = d["gaoler"]
        g = s.players[d["gaoler"]]
        g.mountains -= 1
        g.tile_nogs["royal_dungeon"] = 1
    if d.get("strike"):
        s.infamy -= 1


def _nogbad_evicted(s: State, d: dict) -> None:
    a = _op(s)
    a.picks.append("evict")
    pay(s, s.players[d["seat"]], d["paid"])


def _tiles_swapped(s: State, d: dict) -> None:
    top, bottom = list(s.rows["top"]), list(s.rows["bottom"])
    top[d["top"]], bottom[d["bottom"]] = bottom[d["bottom"]], top[d["top"]]
    s.rows = {"top": top, "bottom": bottom}


def _reserve_discarded(s: State, d: dict) -> None:
    saga = s.sagas[d["saga"]]
    assert saga is not None and saga.current is not None
    deck = saga.current.deck
    _saw(s, "discard", {"needs": list(saga.current.needs), "bonus": bool(saga.current.bonus)}, deck)
    saga.current = None
    r = dict(s.reserve[deck])
    r["discard"] += 1
    s.reserve[deck] = r
    card = s.secret["saga_cards"][d["saga"]]
    if card is not None:
        _secret_discard(s, deck, card)
        _secret_saga_card(s, d["saga"], None)


def _secret_discard(s: State, deck: str, card: str) -> None:
    disc = dict(s.secret["discard"])
    disc[deck] = [*disc[deck], card]
    s.secret["discard"] = disc


def _secret_saga_card(s: State, slot: int, card: str | None) -> None:
    cards = list(s.secret["saga_cards"])
    cards[slot] = card
    s.secret["saga_cards"] = cards


def reserve_place(s: State, deck: str, end: str, k: int = 0) -> int:
    """The place in Reserve deck ``deck``'s current order (0: the first card ever on top) of its
    ``k``-th card from ``end`` (``"top"`` or ``"bottom"``) among those still in it (6.4)."""
    r = s.reserve[deck]
    return r["top"] + k if end == "top" else r["size"] - 1 - r["bottom"] - k


def _reserve_peeked(s: State, d: dict) -> None:
    """Knut or the Telescope: only the seat sees the cards (a private event). Nothing on the
    table changes; the seat's own record of what it saw (``secret["peeks"]``, read by
    :func:`live_peeks`) gains the cards at their places in the deck: Knut's the top two
    (6.1), the Telescope's the bottom one (appendix)."""
    deck = d["deck"]
    r = s.reserve[deck]
    end = "top" if d.get("by") == "knut" else "bottom"
    places = [reserve_place(s, deck, end, k) for k in range(len(d["cards"]))]
    peeks = dict(s.secret.get("peeks") or {})
    mine = dict(peeks.get(str(d["seat"])) or {})
    known = mine.get(deck) or {}
    cards = dict(known.get("cards") or {}) if known.get("epoch") == r["epoch"] else {}
    cards.update({str(i): c["card"] for i, c in zip(places, d["cards"])})
    mine[deck] = {"epoch": r["epoch"], "cards": cards}
    peeks[str(d["seat"])] = mine
    s.secret["peeks"] = peeks


def _saga_peeked(s: State, slot: int, deck: str, place: int) -> None:
    """A Reserve card drawn from ``place`` of ``deck`` onto Saga ``slot``: a seat that saw the
    card there (Knut, the Telescope) knows which card lies on the Saga (``secret["saga_peeks"]``,
    read by :func:`saga_peeks`); what any seat knew of the slot's earlier card is forgotten."""
    epoch = s.reserve[deck]["epoch"]
    old = s.secret.get("saga_peeks") or {}
    out: dict[str, dict[str, str]] = {seat: {k: c for k, c in cards.items() if k != str(slot)}
                                      for seat, cards in old.items()}
    for seat, decks_seen in (s.secret.get("peeks") or {}).items():
        known = decks_seen.get(deck) or {}
        card = known.get("cards", {}).get(str(place)) if known.get("epoch") == epoch else None
        if card is not None:
            out.setdefault(seat, {})[str(slot)] = card
    if out or old:
        s.secret["saga_peeks"] = {seat: cards for seat, cards in out.items() if cards}


def saga_peeks(s: State, seat: int | None) -> dict[int, str]:
    """``{Saga slot: card id}``: the Reserve cards lying resource side up on a Saga that ``seat``
    saw by Knut (6.1) or the Telescope (appendix) before they were drawn (6.4). Empty for a
    spectator."""
    if seat is None:
        return {}
    cards = (s.secret.get("saga_peeks") or {}).get(str(seat)) or {}
    return {int(k): c for k, c in cards.items()
            if s.sagas[int(k)] is not None and s.sagas[int(k)].current is not None}


def live_peeks(s: State, seat: int | None) -> dict[str, dict[int, str]]:
    """What ``seat`` saw by Knut (6.1) or the Telescope (appendix) and still lies in a Reserve
    deck: ``{deck: {place in the deck's current order (0 = the first card ever on top):
    card id}}``; places drawn since, or from an earlier shuffle of the deck, are left out.
    Empty for a spectator or a seat that saw nothing."""
    if seat is None:
        return {}
    out: dict[str, dict[int, str]] = {}
    for deck, known in ((s.secret.get("peeks") or {}).get(str(seat)) or {}).items():
        r = s.reserve[deck]
        if known.get("epoch") != r["epoch"]:
            continue
        live = {int(i): c for i, c in known["cards"].items() if r["top"] <= int(i) < r["size"] - r["bottom"]}
        if live:
            out[deck] = live
    return out


def _cards_returned(s: State, d: dict) -> None:
    """Knut put the cards back: the public half of his ability; the decision is over."""
    s.decision = None


def _knut_ordered(s: State, d: dict) -> None:
    """Knut's order (private to his seat): the top two cards swapped or not (6.1)."""
    if d["swap"]:
        swaps = dict(s.secret["swaps"])
        swaps[d["deck"]] = [*swaps[d["deck"]], list(d["positions"])]
        s.secret["swaps"] = swaps
        mine = ((s.secret.get("peeks") or {}).get(str(d["seat"])) or {}).get(d["deck"])
        if mine and mine.get("epoch") == s.reserve[d["deck"]]["epoch"]:
            i, j = (str(x) for x in d["positions"])
            cards = dict(mine["cards"])
            if i in cards and j in cards:
                cards[i], cards[j] = cards[j], cards[i]
            peeks = dict(s.secret["peeks"])
            peeks[str(d["seat"])] = {**peeks[str(d["seat"])], d["deck"]: {"epoch": mine["epoch"], "cards": cards}}
            s.secret["peeks"] = peeks


def _decision_opened(s: State, d: dict) -> None:
    s.decision = dict(d)


# -- Sagas and Reserve cards (6.4) --------------------------------------------------------

def _saga_drawn(s: State, d: dict) -> None:
    s.sagas[d["slot"]] = Saga(card=d["card"], needed=d["needed"])
    s.sagas_drawn += 1
    if d["slot"] in s.saga_vacant:
        s.saga_vacant = [v for v in s.saga_vacant if v != d["slot"]]


def _reserve_drawn(s: State, d: dict) -> None:
    saga = s.sagas[d["saga"]]
    assert saga is not None
    n = len(s.players)
    saga.current = ReserveCard(deck=d["deck"], needs=list(d["needs"]), met=[None] * len(d["needs"]),
                               nogs=[0] * n, bonus=bool(d.get("bonus")))
    _saga_peeked(s, d["saga"], d["deck"], reserve_place(s, d["deck"], d["end"]))
    r = dict(s.reserve[d["deck"]])
    r[d["end"]] += 1
    s.reserve[d["deck"]] = r
    for ch in d.get("recalled", []):  # 6.4 note: a character asked for again goes back to the Castle
        s.characters[ch] = CASTLE


def _reserve_sealed(s: State, d: dict) -> None:
    _secret_saga_card(s, d["saga"], d["card"])


def _reserve_reshuffled(s: State, d: dict) -> None:
    if s.seen is not None:
        s.seen = {**s.seen, "discard": {**s.seen["discard"], d["deck"]: []}}
    s.reserve[d["deck"]] = {"epoch": s.reserve[d["deck"]]["epoch"] + 1, "size": d["size"], "top": 0,
                            "bottom": 0, "discard": 0}


def _pool_sealed(s: State, d: dict) -> None:
    pool = dict(s.secret["pool"])
    pool[d["deck"]] = list(d["cards"])
    s.secret["pool"] = pool
    swaps = dict(s.secret["swaps"])
    swaps[d["deck"]] = []
    s.secret["swaps"] = swaps
    disc = dict(s.secret["discard"])
    disc[d["deck"]] = []
    s.secret["discard"] = disc


def _market_day_pick(s: State, d: dict, kind: str) -> Any:
    """A condition met during Market Day (unless the event says otherwise) counts as one
    operation of it; a new card (``kind`` ``saga`` or ``invention``, ``d[kind]`` its index)
    starts a new pick (noggin-the-nog-rulebook.txt 6.0 Market Day). Returns the Market Day
    action, or None outside it."""
    a = s.action
    if a is None or a.kind != "market_day" or not d.get("market_day", True):
        return None
    a.ops += 1
    if not a.picks or a.picks[-1] != kind or getattr(a, kind) != d[kind]:
        a.picks.append(kind)
    setattr(a, kind, d[kind])
    return a


def _saga_condition_met(s: State, d: dict) -> None:
    a = _market_day_pick(s, d, "saga")
    saga = s.sagas[d["saga"]]
    assert saga is not None and saga.current is not None
    card = saga.current
    seat = d["seat"]
    p = s.players[seat]
    if d["paid"] is not None:
        p.stock[d["paid"]] -= 1
    card.met[d["condition"]] = {"seat": seat, "paid": d["paid"], "nog": d["nog"]}
    if d["nog"]:
        p.mountains -= 1
        nogs = list(card.nogs)
        nogs[seat] += 1
        card.nogs = nogs
    if d.get("bonus"):
        card.bonus_seat = seat
    need = card.needs[d["condition"]]
    if need in CHARACTERS:
        s.characters[need] = f"saga:{d['saga']}"


def _reserve_turned(s: State, d: dict) -> None:
    """6.4 completion steps A-C and E: resources to the Nog Market, the card turned and slid
    under the Saga with its Nogs; D (Nogbad) is owed in ``infamy``; F is derived."""
    saga = s.sagas[d["saga"]]
    assert saga is not None and saga.current is not None
    card = saga.current
    for m in card.met:
        if m is not None and m["paid"] is not None:
            s.market[m["paid"]] += 1
    saga.done = [*saga.done, {"deck": card.deck, "card": d["card"], "nogbad": d["nogbad"], "nogs": list(card.nogs)}]
    saga.current = None
    _secret_saga_card(s, d["saga"], None)
    if d["nogbad"]:
        s.infamy += 1
    if len(saga.done) >= saga.needed:
        s.saga_end = {"saga": d["saga"], "stage": "seer", "adjust": 0, "fireworks": False}


def _saga_end_stage(s: State, d: dict) -> None:
    assert s.saga_end is not None
    end = dict(s.saga_end)
    end["stage"] = d["stage"]
    if "adjust" in d:
        end["adjust"] = d["adjust"]
    if d.get("fireworks"):
        end["fireworks"] = True
        p = s.players[d["seat"]]
        p.counting_house = [c for c in p.counting_house if c["card"] != "fireworks"]
        _saw(s, "counting_house", "fireworks")
        p.mountains += 1
    s.saga_end = end


def _dragon_moved(s: State, d: dict) -> None:
    s.dragon = d["to"]


def _saga_nogs_home(s: State, d: dict) -> None:
    saga = s.sagas[d["saga"]]
    assert saga is not None
    for i, n in enumerate(d["nogs"]):
        s.players[i].mountains += n
    saga.done = [dict(c, nogs=[0] * len(c["nogs"])) for c in saga.done]


def _saga_cleared(s: State, d: dict) -> None:
    """6.4 steps 4-6: characters to the Castle, Reserve cards to their discard piles, the Saga aside."""
    slot = d["saga"]
    saga = s.sagas[slot]
    assert saga is not None
    for ch, where in s.characters.items():
        if where == f"saga:{slot}":
            s.characters[ch] = CASTLE
    for c in saga.done:
        r = dict(s.reserve[c["deck"]])
        r["discard"] += 1
        s.reserve[c["deck"]] = r
        _secret_discard(s, c["deck"], c["card"])
        _saw(s, "discard", {"card": c["card"]}, c["deck"])
    s.sagas_done = [*s.sagas_done, saga.card]
    if content.saga_index()[saga.card].money:
        s.coins = True
        s.market["coin"] += d.get("coins", 0)
    s.sagas[slot] = None
    s.saga_vacant = [*s.saga_vacant, slot]
    s.saga_end = None
    if s.action is not None and s.action.saga == slot:
        s.action.saga = None  # the Saga of this Market Day is done; its replacement is another card (6.0)


def _nogs_recalled(s: State, d: dict) -> None:
    saga = s.sagas[d["saga"]]
    assert saga is not None
    seat = d["seat"]
    if d["card"] == len(saga.done):
        assert saga.current is not None
        nogs = list(saga.current.nogs)
        nogs[seat] -= 1
        saga.current.nogs = nogs
    else:
        done = list(saga.done)
        c = done[d["card"]]
        nogs = list(c["nogs"])
        nogs[seat] -= 1
        done[d["card"]] = dict(c, nogs=nogs)
        saga.done = done
    s.players[seat].mountains += 1
    s.recalled = True


# -- Inventions (6.5) ---------------------------------------------------------------------

def _invention_drawn(s: State, d: dict) -> None:
    info = content.invention_index()[d["card"]]
    s.inventions[d["slot"]] = Invention(card=d["card"], needs=list(info.needs), met=[None] * len(info.needs))
    s.inventions_drawn += 1


def _invention_condition_met(s: State, d: dict) -> None:
    a = _market_day_pick(s, d, "invention")
    if a is not None and d.get("olaf"):
        a.olaf = False
    inv = s.inventions[d["invention"]]
    assert inv is not None
    seat = d["seat"]
    p = s.players[seat]
    if d["paid"] is not None:
        p.stock[d["paid"]] -= 1
    p.mountains -= 1
    entry = {"seat": seat, "paid": d["paid"], "at": d["at"]}
    if d.get("free"):
        entry["free"] = True
    inv.met[d["condition"]] = entry
    if inv.first is None:
        inv.first = seat
    if inv.needs[d["condition"]] == "olaf" and d.get("character", True):
        s.characters["olaf"] = f"invention:{d['invention']}"


def _invention_completed(s: State, d: dict) -> None:
    slot = d["invention"]
    inv = s.inventions[slot]
    assert inv is not None
    for m in inv.met:
        if m is not None and m["paid"] is not None:
            s.market[m["paid"]] += 1
    for i, n in enumerate(d["nogs"]):
        s.players[i].mountains += n
    w = s.players[d["winner"]]
    w.mountains -= 1
    w.inventions = [*w.inventions, inv.card]
    if d.get("forge"):
        w.forge = True
    if s.characters.get("olaf") == f"invention:{slot}":
        s.characters["olaf"] = CASTLE
    s.inventions[slot] = None


def _invention_discarded(s: State, d: dict) -> None:
    s.inventions[d["slot"]] = None
    _saw(s, "inventions", d["card"])


# -- Counting House (6.3) ----------------------------------------------------------------

def _ch_drawn(s: State, d: dict) -> None:
    s.counting_house = d["card"]
    s.ch_drawn += 1


def _ch_discarded(s: State, d: dict) -> None:
    s.counting_house = None
    _saw(s, "counting_house", d["card"])


def _auction_started(s: State, d: dict) -> None:
    a = _op(s)
    a.picks.append("auction")
    s.auction = {"card": d["card"], "order": list(d["order"]), "next": 0, "bid": 0, "leader": None}


def _bid(s: State, d: dict) -> None:
    assert s.auction is not None
    au = dict(s.auction)
    au["next"] += 1
    if d["steps"]:
        au["bid"] = d["steps"]
        au["leader"] = d["seat"]
    s.auction = au


def _auction_won(s: State, d: dict) -> None:
    assert s.auction is not None
    s.markers[d["marker"]].pos = d["to"]
    s.auction = None
    s.counting_house = None
    s.decision = {"kind": "keep_card", "seat": d["seat"], "card": d["card"]}


def _auction_lost(s: State, d: dict) -> None:
    s.auction = None


def _card_kept(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.counting_house = [*p.counting_house, {"card": d["card"], "up": d["up"]}]
    p.mountains -= 1
    s.decision = None


# -- abilities as free actions, Year 2 tiles, Friend or Foe -------------------------------

def _ability_used(s: State, d: dict) -> None:
    """An artefact, Invention or Year 2 building used: its Nog laid down for the season or the
    turn, resources paid, Nogs placed, resources gained or locked (appendix)."""
    p = s.players[d["seat"]]
    if d.get("once") == "season":
        p.used = [*p.used, d["card"]]
    elif d.get("once") == "turn":
        p.turn_used = [*p.turn_used, d["card"]]
    pay(s, p, d.get("paid", []))
    for r, k in d.get("gained", {}).items():
        s.market[r] -= k
        p.stock[r] += k
    if d.get("nogs"):
        p.mountains -= d["nogs"]
        p.tile_nogs = dict(p.tile_nogs)
        p.tile_nogs[d["card"]] = p.tile_nogs.get(d["card"], 0) + d["nogs"]
    if d.get("locked"):
        locked = dict(p.locked.get(d["card"], {}))
        for r, k in d["locked"].items():
            p.stock[r] -= k
            locked[r] = locked.get(r, 0) + k
        p.locked = {**p.locked, d["card"]: locked}
    if d.get("action_nog"):
        p.placed[d["action_nog"]] -= 1
        p.mountains += 1


def _steps_used(s: State, d: dict) -> None:
    s.markers[d["marker"]].pos = d["to"]


def _loyalty_dealt(s: State, d: dict) -> None:
    loyalty = list(s.secret.get("loyalty", [])) or [""] * len(s.players)
    loyalty[d["seat"]] = d["card"]
    s.secret["loyalty"] = loyalty


def _accused(s: State, d: dict) -> None:
    s.players[d["seat"]].accused = True
    s.players[d["accused"]].shown = d["card"]
    if d["right"]:
        s.players[d["accused"]].unmasked = True


# -- seasons and the end -------------------------------------------------------------------

def _crow_advanced(s: State, d: dict) -> None:
    s.crow = d["to"]


def _game_ended(s: State, d: dict) -> None:
    s.ended = {"reason": d["reason"], "crown": d["crown"]}
    s.active = None
    s.decision = None
    s.auction = None


def _season_advanced(s: State, d: dict) -> None:
    s.season = d["season"]


def _nogs_returned(s: State, d: dict) -> None:
    trapped = d.get("trapped", {})
    for p in s.players:
        keep = trapped.get(str(p.seat))
        for a in ACTIONS:
            if a == keep:
                continue
            p.mountains += p.placed[a]
            p.placed[a] = 0
            p.uses[a] = 0
        for b in ("royal_kitchens", "windmill"):
            if p.tile_nogs.get(b):
                p.mountains += p.tile_nogs[b]
                p.tile_nogs = {**p.tile_nogs, b: 0}
        p.used = []
    if s.characters.get("noggin", "").startswith("action:"):
        s.characters["noggin"] = CASTLE


def _harvests_wilted(s: State, d: dict) -> None:
    for p in s.players:
        s.market["harvest"] += sum(p.fields)
        p.fields = [0 for _ in p.fields]


def _rows_changed(s: State, d: dict) -> None:
    s.building_discard.extend(t for t in s.rows["bottom"] if t)
    s.rows["bottom"] = s.rows["top"]
    s.rows["top"] = list(d["drawn"])
    if d.get("year", 1) == 2:
        s.year2_drawn += len(d["drawn"])
    else:
        s.buildings_drawn += len(d["drawn"])


def _pile_formed(s: State, d: dict) -> None:
    s.year1_pile = list(d["tiles"])
    s.rows = {"top": [], "bottom": []}
    s.building_discard = []
    s.buildings_drawn = d["total"]  # every Year 1 tile is now face up


def _final_scored(s: State, d: dict) -> None:
    s.final = {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}


PRIVATE_EVENTS = frozenset({"LoyaltyDealt", "ReserveCardsPeeked", "KnutOrdered"})
"""Events only the seat they name may see: its Friend or Foe card (variants), the cards Knut or
the Telescope showed it (6.1, appendix), the order Knut chose (6.1)."""
SEALED_EVENTS = frozenset({"ReserveCardSealed", "ReservePoolSealed"})
"""Events no client may see: the identity (so the back) of a Reserve card lying resource side
up (6.4), the cards of a Reserve deck made again from its discard pile."""


def visibility(event_type: str) -> str:
    """``"private"``, ``"sealed"`` or ``"public"``: who may see events of this type."""
    if event_type in PRIVATE_EVENTS:
        return "private"
    if event_type in SEALED_EVENTS:
        return "sealed"
    return "public"


_HANDLERS = {
    "GameCreated": _game_created,
    "TurnOrderDrawn": _turn_order_drawn,
    "BuildingRowDrawn": _row_drawn,
    "FirstMineTilePlaced": _first_mine_tile,
    "TurnStarted": _turn_started,
    "RunestoneMoved": _runestone_moved,
    "StepsSpent": _marker_moved,
    "TurnEnded": _turn_ended,
    "DummyMoved": _dummy_moved,
    "ActionStarted": _action_started,
    "ActionFinished": _action_finished,
    "StoneDug": _stone_dug,
    "MinerWalked": _miner_walked,
    "MineTileDrawn": _mine_tile_drawn,
    "MineTileDiscovered": _mine_tile_discovered,
    "FishingTokensDrawn": _tokens_drawn,
    "FishCaught": _fish_caught,
    "WoodcutterMoved": _woodcutter_moved,
    "OrchardTreeCut": _orchard_cut,
    "FieldSown": _field_sown,
    "FieldHarvested": _field_harvested,
    "ApplePicked": _apple_picked,
    "BuildingBuilt": _building_built,
    "TransportUpgraded": _transport_upgraded,
    "Restocked": _restocked,
    "PointsScored": _points_scored,
    "Traded": _traded,
    "Donated": _donated,
    "CharacterUsed": _character_used,
    "NogginSwapped": _noggin_swapped,
    "CharacterMoved": _character_moved,
    "CrowTurned": _crow_turned,
    "NogbadMoved": _nogbad_moved,
    "NogbadEvicted": _nogbad_evicted,
    "TilesSwapped": _tiles_swapped,
    "ReserveCardDiscarded": _reserve_discarded,
    "ReserveCardsPeeked": _reserve_peeked,
    "ReserveCardsReturned": _cards_returned,
    "KnutOrdered": _knut_ordered,
    "DecisionOpened": _decision_opened,
    "SagaDrawn": _saga_drawn,
    "ReserveCardDrawn": _reserve_drawn,
    "ReserveCardSealed": _reserve_sealed,
    "ReserveDeckReshuffled": _reserve_reshuffled,
    "ReservePoolSealed": _pool_sealed,
    "SagaConditionMet": _saga_condition_met,
    "ReserveCardTurned": _reserve_turned,
    "SagaEndStage": _saga_end_stage,
    "DragonMoved": _dragon_moved,
    "SagaNogsHome": _saga_nogs_home,
    "SagaCleared": _saga_cleared,
    "NogsRecalled": _nogs_recalled,
    "InventionDrawn": _invention_drawn,
    "InventionConditionMet": _invention_condition_met,
    "InventionCompleted": _invention_completed,
    "InventionDiscarded": _invention_discarded,
    "CountingHouseDrawn": _ch_drawn,
    "CountingHouseDiscarded": _ch_discarded,
    "AuctionStarted": _auction_started,
    "BidMade": _bid,
    "AuctionWon": _auction_won,
    "AuctionLost": _auction_lost,
    "CountingHouseCardKept": _card_kept,
    "AbilityUsed": _ability_used,
    "StepsUsed": _steps_used,
    "LoyaltyDealt": _loyalty_dealt,
    "Accused": _accused,
    "CrowAdvanced": _crow_advanced,
    "GameEnded": _game_ended,
    "SeasonAdvanced": _season_advanced,
    "NogsReturned": _nogs_returned,
    "HarvestsWilted": _harvests_wilted,
    "BuildingRowsChanged": _rows_changed,
    "Year1PileFormed": _pile_formed,
    "FinalScored": _final_scored,
}
