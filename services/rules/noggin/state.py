"""The state of a game of Noggin the Nog as plain data, and ``evolve`` (one event at a time).

Set-up (rulebook 1.0) is applied from the ``GameCreated`` event, which is deterministic;
every chance outcome (turn order, building rows, Mine tiles, Fishing tokens) arrives in
its own public event, so replaying the log never needs the seed. The order of undrawn
piles is never stored: only how many items have been drawn.

All values are ints, strings, lists and dicts (canonical JSON, no floats, no sets).
Mine squares are keyed ``"r,c"``; row -1 is the surface above the Mine (set-up R).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event

from . import content
from .content import BASIC

SEASONS = ("spring", "summer", "autumn", "winter")
ACTIONS = ("miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day")
"""The action spaces (rulebook 3.3; Restock is the space 3.3 calls Vendor)."""
TRANSPORTS = ("mine_cart", "wood_cart", "boat")
SPACES = ("mountains", "field0", "field1", "orchard", "meadow", "new_land")
"""Building spaces of a player board (rulebook 3.8; New Land, itself placed "beside" the
board, adds the ``new_land`` space, 5.5 and appendix)."""


@dataclass(slots=True)
class Player:
    """One seat's player board (rulebook 3.8) and score."""

    seat: int
    colour: str
    mountains: int = 0
    reserve: int = 0
    stock: dict[str, int] = field(default_factory=dict)  # stone, wood, fish, harvest, gold
    fields: list[int] = field(default_factory=list)  # Harvest cubes on each field's labourers
    orchard: int = 0  # trees
    buildings: dict[str, str] = field(default_factory=dict)  # building id -> space
    transports: list[str] = field(default_factory=list)  # upgraded transports
    placed: dict[str, int] = field(default_factory=dict)  # action -> Nogs on that action space
    uses: dict[str, int] = field(default_factory=dict)  # action -> times used this season
    score: int = 0


@dataclass(slots=True)
class Marker:
    """A large Nog meeple on the Step track (absolute positions, see turns.py)."""

    colour: str
    seat: int | None  # None = dummy player
    pos: int = 0
    turns: int = 0  # turns finished (0 = still on its first turn, rulebook 4.1)


@dataclass(slots=True)
class Action:
    """The action being carried out (a series of sub-moves, finished by ``finish``)."""

    seat: int
    kind: str
    ops: int = 0
    cart: dict[str, int] = field(default_factory=dict)
    mode: str = ""  # woodcutter: "forest" or "orchard"
    apples: list[int] = field(default_factory=list)  # trees picked in this action


@dataclass(slots=True)
class State:
    """Everything on the table in one game (rulebook 1.0, 3.1, 3.8), as plain data.

    Player boards and scores; the Step markers (absolute positions, 10 per season) with
    the ``active`` one, the Runestone and the season (1-8); the Nog Market, fjord, forest
    and Woodcutter; the Mine and Miner; building rows and piles; transport piles; the
    Crow and Dragon (spaces from the crown); the action in progress; the chance outcome
    the next operation reads (``drawn``); and ``ended`` / ``final`` once the game is over.
    """

    config: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)  # in set-up (turn) order
    active: int | None = None  # index into markers of the marker whose turn it is
    runestone: int = 0
    season: int = 1
    market: dict[str, int] = field(default_factory=dict)  # the Nog Market: 4 basic resources and Gold
    fjord: int = 0
    forest: list[int] = field(default_factory=list)  # trees per forest zone
    woodcutter: int = -1  # clearing index; -1 = his starting space
    mine_tiles: list[dict[str, Any]] = field(default_factory=list)  # placed: slot, tile, rotation, flip
    mine: dict[str, str] = field(default_factory=dict)  # "r,c" -> "stone" | "gold" | "" (gallery)
    miner: list[int] = field(default_factory=list)
    mine_drawn: int = 0
    gold_supply: int = 0  # the 5 Gold cubes beside the board, for Mine tiles (set-up S)
    fishing_draws: int = 0
    drawn: dict[str, Any] = field(default_factory=dict)  # chance outcome the next op reads
    rows: dict[str, list[str]] = field(default_factory=dict)  # "top"/"bottom": tile ids ("" = taken)
    buildings_drawn: int = 0
    building_discard: list[str] = field(default_factory=list)
    year1_pile: list[str] = field(default_factory=list)  # face-up from season 5
    transport_piles: dict[str, int] = field(default_factory=dict)
    crow: int = 0  # spaces from the crown
    dragon: int = 0
    action: Action | None = None
    ended: dict[str, Any] | None = None  # {"reason", "crown"} once the game stopped (9.0)
    final: dict[str, Any] | None = None  # final scoring


def copy_state(s: State) -> State:
    """A fast deep copy (the state is small and its shape is known)."""
    a = s.action
    return State(
        config=s.config,  # never changed after GameCreated
        players=[Player(p.seat, p.colour, p.mountains, p.reserve, dict(p.stock), list(p.fields), p.orchard,
                        dict(p.buildings), list(p.transports), dict(p.placed), dict(p.uses), p.score)
                 for p in s.players],
        markers=[Marker(m.colour, m.seat, m.pos, m.turns) for m in s.markers],
        active=s.active, runestone=s.runestone, season=s.season, market=dict(s.market), fjord=s.fjord,
        forest=list(s.forest), woodcutter=s.woodcutter, mine_tiles=[dict(t) for t in s.mine_tiles],
        mine=dict(s.mine), miner=list(s.miner), mine_drawn=s.mine_drawn, gold_supply=s.gold_supply,
        fishing_draws=s.fishing_draws, drawn=dict(s.drawn),
        rows={k: list(v) for k, v in s.rows.items()}, buildings_drawn=s.buildings_drawn,
        building_discard=list(s.building_discard), year1_pile=list(s.year1_pile),
        transport_piles=dict(s.transport_piles), crow=s.crow, dragon=s.dragon,
        action=None if a is None else Action(a.seat, a.kind, a.ops, dict(a.cart), a.mode, list(a.apples)),
        ended=None if s.ended is None else dict(s.ended),
        final=None if s.final is None else dict(s.final),
    )


def key(r: int, c: int) -> str:
    """The ``"r,c"`` key of the Mine square at row ``r``, column ``c`` (squares, not tiles)."""
    return f"{r},{c}"


def season_name(season: int) -> str:
    """``"spring"``, ``"summer"``, ``"autumn"`` or ``"winter"`` for season 1-8 (rulebook 2.0, 7.0)."""
    return SEASONS[(season - 1) % 4]


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
    """Set-up of rulebook 1.0 (A-C, F transport, H, I, J, Q, R, S, U, V, L, W-Z); chance parts come later."""
    c = content.load()
    s = c.setup
    n = config["players"]
    res = s.resources[str(n)]
    state.config = config
    state.players = [
        Player(seat=i, colour=s.colours[i], mountains=s.mountain_nogs, reserve=s.reserve_nogs,
               stock={r: 0 for r in (*BASIC, "gold")}, fields=[s.field_harvest, s.field_harvest],
               orchard=s.orchard_trees, placed={a: 0 for a in ACTIONS}, uses={a: 0 for a in ACTIONS})
        for i in range(n)
    ]
    state.season = 1
    state.runestone = 0
    state.market = {"stone": s.market_stone, "wood": 0, "fish": 0, "harvest": s.market_harvest_per_player * n,
                    "gold": 0}  # spent Gold comes here too (3.7)
    state.fjord = res["fish"]
    state.forest = [n + s.forest_cubes_extra for _ in c.forest.zones]
    start = next(t for t in c.mine.tiles if t.start)
    slot = list(c.mine.grid.start_slot)
    state.mine_tiles = [{"slot": slot, "tile": start.id, "rotation": 0, "flip": ""}]
    _, gallery = place_tile(state, slot, start.rows)
    state.mine = {key(*sq): "stone" for sq in gallery}
    state.miner = [-1, slot[1] * 4]
    state.gold_supply = s.gold_cubes
    state.transport_piles = {t: n for t in TRANSPORTS}
    state.rows = {"top": [], "bottom": []}
    state.crow = c.popularity.crow_start
    state.dragon = c.popularity.dragon_start[str(n)]


def _unload(p: Player, cart: dict[str, int]) -> None:
    for r, k in cart.items():
        p.stock[r] += k


def evolve(state: State, event: Event) -> None:
    """Apply one event in place. Raises ValueError on an unknown event type."""
    d = event.data
    t = event.type
    h = _HANDLERS.get(t)
    if h is None:
        raise ValueError(f"unknown Noggin event {t!r}")
    h(state, d)


def _game_created(s: State, d: dict) -> None:
    setup(s, d["config"])


def _turn_order_drawn(s: State, d: dict) -> None:
    s.markers = [Marker(colour=m["colour"], seat=m["seat"]) for m in d["markers"]]


def _row_drawn(s: State, d: dict) -> None:
    s.rows[d["row"]] = list(d["tiles"])
    s.buildings_drawn += len(d["tiles"])


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


def _dummy_moved(s: State, d: dict) -> None:
    m = s.markers[d["marker"]]
    m.pos = d["to"]
    m.turns += 1


def _action_started(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    p.mountains -= d["nogs"]
    p.placed[d["action"]] += d["nogs"]
    p.uses[d["action"]] += 1
    s.action = Action(seat=d["seat"], kind=d["action"])


def _action_finished(s: State, d: dict) -> None:
    a = s.action
    assert a is not None
    _unload(s.players[a.seat], a.cart)
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
    _op(s)
    s.miner = list(d["square"])


def _mine_tile_drawn(s: State, d: dict) -> None:
    s.mine_drawn += 1
    s.drawn = {"mine_tile": d["tile"]}


def _mine_tile_discovered(s: State, d: dict) -> None:
    _op(s)
    s.mine_tiles.append({"slot": list(d["slot"]), "tile": d["tile"], "rotation": d["rotation"], "flip": d["flip"]})
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
    s.drawn = {"fish": sum(t["fish"] for t in d["tokens"])}


def _fish_caught(s: State, d: dict) -> None:
    _op(s)
    s.fjord -= d["fish"]
    s.players[d["seat"]].stock["fish"] += d["fish"]
    s.drawn = {}


def _woodcutter_moved(s: State, d: dict) -> None:
    a = _op(s)
    a.mode = "forest"
    s.woodcutter = d["clearing"]
    s.forest[d["zone"]] -= d["wood"]
    a.cart["wood"] = a.cart.get("wood", 0) + d["wood"]


def _orchard_cut(s: State, d: dict) -> None:
    a = _op(s)
    a.mode = "orchard"
    p = s.players[d["seat"]]
    p.orchard -= 1
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


def _pay(s: State, p: Player, paid: dict[str, int]) -> None:
    """Spent resources, Gold included, always return to the Nog Market (3.7)."""
    for r, k in paid.items():
        p.stock[r] -= k
        s.market[r] += k


def _building_built(s: State, d: dict) -> None:
    _op(s)
    p = s.players[d["seat"]]
    _pay(s, p, d["paid"])
    p.buildings[d["building"]] = d["space"]
    p.reserve -= d["nogs"]
    p.mountains += d["nogs"]
    if d["from"] == "pile":
        s.year1_pile.remove(d["building"])
    else:
        row = s.rows["bottom"]
        row[row.index(d["building"])] = ""


def _transport_upgraded(s: State, d: dict) -> None:
    _op(s)
    p = s.players[d["seat"]]
    _pay(s, p, d["paid"])
    p.transports.append(d["transport"])
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
    _op(s)
    p = s.players[d["seat"]]
    _pay(s, p, {r: d["give"].count(r) for r in set(d["give"])})
    s.market[d["take"]] -= 1
    p.stock[d["take"]] += 1


def _donated(s: State, d: dict) -> None:
    p = s.players[d["seat"]]
    for r, k in d["given"].items():
        p.stock[r] -= k
        s.market[r] += k


def _crow_advanced(s: State, d: dict) -> None:
    s.crow = d["to"]


def _game_ended(s: State, d: dict) -> None:
    s.ended = {"reason": d["reason"], "crown": d["crown"]}
    s.active = None


def _season_advanced(s: State, d: dict) -> None:
    s.season = d["season"]


def _nogs_returned(s: State, d: dict) -> None:
    for p in s.players:
        for a in ACTIONS:
            p.mountains += p.placed[a]
            p.placed[a] = 0
            p.uses[a] = 0


def _harvests_wilted(s: State, d: dict) -> None:
    for p in s.players:
        s.market["harvest"] += sum(p.fields)
        p.fields = [0 for _ in p.fields]


def _rows_changed(s: State, d: dict) -> None:
    s.building_discard.extend(t for t in s.rows["bottom"] if t)
    s.rows["bottom"] = s.rows["top"]
    s.rows["top"] = list(d["drawn"])
    s.buildings_drawn += len(d["drawn"])


def _pile_formed(s: State, d: dict) -> None:
    s.year1_pile = list(d["tiles"])
    s.rows = {"top": [], "bottom": []}
    s.building_discard = []
    s.buildings_drawn = len(content.year1_tiles())


def _final_scored(s: State, d: dict) -> None:
    s.final = {"scores": list(d["scores"]), "breakdown": list(d["breakdown"]), "winners": list(d["winners"])}


_HANDLERS = {
    "GameCreated": _game_created,
    "TurnOrderDrawn": _turn_order_drawn,
    "BuildingRowDrawn": _row_drawn,
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
    "CrowAdvanced": _crow_advanced,
    "GameEnded": _game_ended,
    "SeasonAdvanced": _season_advanced,
    "NogsReturned": _nogs_returned,
    "HarvestsWilted": _harvests_wilted,
    "BuildingRowsChanged": _rows_changed,
    "Year1PileFormed": _pile_formed,
    "FinalScored": _final_scored,
}
