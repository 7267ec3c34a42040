"""The state of a game of Resource Hog as plain data, and ``evolve`` (one event at a time).

The design is ``docs/house-rules.md`` (Resource Hog): eight land areas round the Mere, two
seas, a round of secret orders, three action steps and the events of the table. Every
chance outcome (the mixing of the action tokens, dice) arrives in its own event, so a
replay never needs the seed. What no client may see lives in ``State.secret`` alone: each
seat's orders until all are given (the core's simultaneous decisions).

All values are ints, strings, bools, lists and dicts (canonical JSON, no floats, no sets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event
from services.rules.core import match as core_match
from services.rules.core.canonical import OMIT_IF_NONE
from services.rules.core.cow import CopyOnWrite, shared_field
from services.rules.core.match import MatchRecord

from .content import GOODS, content, game_max

FOODS = ("fish", "meat", "grain")
"""Fresh food: fish from fishing, meat (game) from hunting, grain from toiling (the table's
feed event: three types of food)."""
STORE = GOODS
"""What an area's store holds: preserved food, salt and arms and armour (``weapons``); gold
from a mine goes to the purse as money (house rule)."""
WORK = ("fish", "hunt", "toil", "mine", "clear", "build", "population", "knight")
"""What a peasant can be allocated to (the table's allocate rows and the house rules)."""
FORTS = ("manor", "motte", "castle")
"""The fortifications, each extending the one before (table: build)."""
RANSOM = {"money": 10, "salt": 2, "weapons": 1, "preserved": 1, "peasants": 1}
"""What one unit of margin is worth in each kind the loser may pay (table: fight)."""


@dataclass(slots=True)
class Land:
    """One land area: its ``owner`` (the seat with pieces there, or None), ``peasants`` and
    ``nobles`` of the owner, squares (``fields``, ``forests``, ``game`` tokens on them,
    ``stone_heads``), ``buildings`` and its ``store``; during a round, ``moved`` peasants (not
    to be allocated in that phase), ``work`` (allocations: ``"fish:<water>"``, ``"hunt"``,
    ``"toil"``, ``"mine:<good>"``, ``"clear"``, ``"build:<building>"``, ``"population"``,
    ``"knight"`` -> peasants), ``fresh`` food produced this round and ``invaders`` (nobles
    another seat moved in this round, seat -> nobles) with ``invaded_from`` (seat -> the areas,
    in ring order, those invaders moved from: where the attack came from, table: fight);
    ``attacked``: how many of ``nobles`` attacked this round and so do not defend it again that
    round (table: fight); ``nobles_moved``: nobles that moved in here in the action under way
    (a noble moves once an action, house rule); ``ore``: whether a mine can be built here
    (``map.json`` ``ore_lands`` for the number of players, house rule); ``gold``: gold tokens
    still in the area's ore (the table's mine row takes them "from the mine"; house rule, Gold
    deposits)."""

    id: str
    owner: int | None = None
    peasants: int = 0
    nobles: int = 0
    fields: int = 0
    forests: int = 0
    game: int = 0
    stone_heads: int = 0
    buildings: list[str] = field(default_factory=list)
    store: dict[str, int] = field(default_factory=lambda: {g: 0 for g in STORE})
    moved: int = 0
    work: dict[str, int] = field(default_factory=dict)
    fresh: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FOODS})
    invaders: dict[str, int] = field(default_factory=dict)
    attacked: int = 0
    nobles_moved: int = 0
    invaded_from: dict[str, list[str]] = field(default_factory=dict)
    gold: int = 0
    ore: bool = False


@dataclass(slots=True)
class Player:
    """One seat: its ``money`` (the purse) and whether it has given its ``ordered`` tokens."""

    seat: int
    money: int = 0
    ordered: bool = False


@dataclass(slots=True)
class State:
    """Everything on the table.

    ``lands`` by id; ``fish`` per water area; ``board``: goods on the trading board per good;
    ``slaves``: slaves left in the stack, ``slave_track`` and ``mercenary_track``: those on
    offer; ``round`` (1-8); ``stage``: ``orders``, ``actions``, ``events``, ``preserve``
    (owners choose how much salt to spend) or ``over``;
    ``orders``: the revealed orders, seat -> three actions; ``step`` (0-2) and ``queue``:
    the mixed ``[seat, action]`` of this step, ``turn`` its index; ``traded``: goods bought
    or sold by the acting seat this trade phase (``"buy:salt"``); ``held``: in a nobles' action,
    the land areas (ring order) the acting seat held when the action began, from which its
    nobles' one border beyond is counted (house rule: a noble moves once an action), else
    empty; ``fighting``: the seat whose battles are being fought; ``ransom``: a battle's ransom
    awaiting its loser's choice (``area``, ``attacker``, ``winner``, ``loser``, ``margin``);
    ``preserving``: in the stage ``preserve``, area -> the most salt its owner may still choose
    to spend there (house rule, Preserving); ``ended``/``final``;
    ``secret``: ``orders`` given and not yet revealed.
    """

    config: dict[str, Any] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    lands: dict[str, Land] = field(default_factory=dict)
    fish: dict[str, int] = field(default_factory=dict)
    board: dict[str, int] = field(default_factory=dict)
    slaves: int = 0
    slave_track: int = 0
    mercenary_track: int = 0
    round: int = 0
    stage: str = "setup"
    orders: dict[str, list[str]] = field(default_factory=dict)
    step: int = 0
    queue: list[list[Any]] = field(default_factory=list)
    turn: int = 0
    traded: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    fighting: int | None = None
    ransom: dict[str, Any] | None = None
    preserving: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    ended: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    match: MatchRecord | None = field(default=None, metadata={OMIT_IF_NONE: True})  # strikes, forfeit (core.match)
    secret: dict[str, Any] = field(default_factory=dict)
    shared: frozenset[str] = shared_field()  # bookkeeping of copy-on-write clones, not state (core.cow)


def _copy_land(a: Land) -> Land:
    return Land(a.id, a.owner, a.peasants, a.nobles, a.fields, a.forests, a.game, a.stone_heads, list(a.buildings),
                dict(a.store), a.moved, dict(a.work), dict(a.fresh), dict(a.invaders), a.attacked, a.nobles_moved,
                {k: list(v) for k, v in a.invaded_from.items()}, a.gold, a.ore)


def copy_state(s: State) -> State:
    """A deep copy of ``s``, field by field (search copies states often; ``copy.deepcopy`` is
    many times slower). ``config``, ``ended``, ``final`` and the revealed orders' lists are
    never changed in place."""
    return State(
        config=s.config, players=[Player(p.seat, p.money, p.ordered) for p in s.players],
        lands={k: _copy_land(a) for k, a in s.lands.items()}, fish=dict(s.fish), board=dict(s.board),
        slaves=s.slaves, slave_track=s.slave_track, mercenary_track=s.mercenary_track, round=s.round,
        stage=s.stage, orders=dict(s.orders), step=s.step, queue=[list(x) for x in s.queue], turn=s.turn,
        traded=list(s.traded), held=list(s.held), fighting=s.fighting,
        ransom=None if s.ransom is None else dict(s.ransom),
        preserving=dict(s.preserving),
        draws=s.draws, ended=s.ended, final=s.final, match=None if s.match is None else s.match.copy(),
        secret={"orders": dict(s.secret.get("orders", {}))} if s.secret else {})


COPIERS: dict[str, Any] = {
    "players": lambda v: [Player(p.seat, p.money, p.ordered) for p in v],
    "lands": lambda v: {k: _copy_land(a) for k, a in v.items()}, "fish": dict, "board": dict, "orders": dict,
    "queue": lambda v: [list(x) for x in v], "traded": list, "held": list,
    "ransom": lambda v: None if v is None else dict(v), "preserving": dict,
    "match": lambda m: None if m is None else m.copy(),
    "secret": lambda v: {"orders": dict(v.get("orders", {}))} if v else {},
}
"""How a copy-on-write clone copies each part an event may change in place (as :func:`copy_state`
does; ``config``, ``ended``, ``final`` and the revealed orders' lists are never changed in place)."""
_TRADE = ("players", "lands", "board", "traded")
WRITES: dict[str, tuple[str, ...]] = {
    "RoundStarted": ("players", "lands"), "OrdersGiven": ("players",), "OrdersChosen": ("secret",),
    "OrdersRevealed": ("secret",), "TokensMixed": ("lands",), "ActionDone": ("lands",),
    "PeasantsMoved": ("lands",), "PeasantAllocated": ("lands", "fish"), "ActionsEnded": (),
    "WoodlandCleared": ("lands",), "Built": ("players", "lands"), "BuildAbandoned": (),
    "MinesProduced": ("players", "lands"), "NoblesProduced": ("lands",), "Fed": ("lands",),
    "PopulationGrew": ("lands",), "Starved": ("lands",), "PreservingAsked": (),
    "FoodPreserved": ("lands", "preserving"), "FreshFoodSpoiled": ("lands",), "FishGrew": ("fish",),
    "GameGrew": ("lands",), "NoblesMoved": ("players", "lands"), "FightsBegan": (), "BattleFought": (),
    "RansomPaid": ("players", "lands"), "BattleSettled": ("lands",), "GoodsShipped": ("players", "lands"),
    "GoodsBought": _TRADE, "GoodsSold": _TRADE, "TradingBoardAdjusted": (), "FinalScored": (), "GameEnded": (),
    **{t: ("match",) for t in core_match.EVENTS},
}
"""The parts each event's handler changes in place (``tests/rules/test_clone.py`` holds every
handler to it); ``GameCreated``, absent, may change any part."""
COW = CopyOnWrite(State, COPIERS, WRITES)
"""Copy-on-write clones of a :class:`State` (:mod:`services.rules.core.cow`)."""


def acting(state: State) -> tuple[int, str] | None:
    """``(seat, action)`` being resolved now, or None."""
    if state.stage == "actions" and state.turn < len(state.queue):
        seat, action = state.queue[state.turn]
        return seat, action
    return None


def owned(state: State, seat: int) -> list[str]:
    """Land areas ``seat`` owns, in ring order."""
    return [a for a in content().map.ring if state.lands[a].owner == seat]


def retreat_to(state: State, seat: int, area: str, avoid: list[str] | tuple[str, ...] = ()) -> str | None:
    """Where ``seat``'s nobles (and a ransom it wins) go from ``area``: its own land nearest
    round the ring, the earlier in ring order on a tie, never one of ``avoid``; None if it has
    no such land, and then the nobles are lost (house rule, docs/house-rules.md, Resource Hog:
    Fights). ``avoid`` holds the areas a losing attacker that could not pay the ransom in full
    attacked from (table: fight, the loser who cannot pay moves its nobles away)."""
    ring = content().map.ring
    i = ring.index(area)
    for d in range(1, len(ring) // 2 + 1):
        for n in (ring[(i - d) % len(ring)], ring[(i + d) % len(ring)]):
            if state.lands[n].owner == seat and n != area and n not in avoid:
                return n
    return None


def pieces_per_player() -> int:
    """Peasant/noble markers each player has (resource-hog-components.md, Components (variant
    version): 50; ``setup.json`` ``components.pieces_per_player``)."""
    return content().setup.components["pieces_per_player"]


def pieces(state: State, seat: int) -> int:
    """Peasants and nobles ``seat`` has on the map: those of its own land areas and its nobles
    invading another seat's land (resource-hog-components.md, Components: a player's markers)."""
    n = 0
    for a in state.lands.values():
        if a.owner == seat:
            n += a.peasants + a.nobles
        n += a.invaders.get(str(seat), 0)
    return n


def room(state: State, seat: int) -> int:
    """How many more peasants or nobles ``seat`` may put on the map: its markers (50) less
    :func:`pieces`, never below 0. Every way a seat gains a piece (population, produce nobles,
    slaves and mercenaries bought, peasants won in a fight) stops at it
    (resource-hog-components.md, Components; docs/house-rules.md, Resource Hog: The 50 markers)."""
    return max(0, pieces_per_player() - pieces(state, seat))


# -- set-up -----------------------------------------------------------------------------

def setup(state: State, config: dict[str, Any]) -> None:
    """The map, the starting lands and pieces, fish, the trading board at balance and the slave
    stack (house rules, ambiguity 16)."""
    c = content()
    n = config["players"]
    state.config = dict(config)
    state.players = [Player(seat=i, money=c.setup.start.money) for i in range(n)]
    ore = set(c.map.ore_lands[str(n)])
    state.lands = {x.id: Land(id=x.id, fields=x.fields, forests=x.forests, game=x.forests,
                              gold=c.map.gold_deposit if x.id in ore else 0, ore=x.id in ore) for x in c.map.lands}
    for seat, land in enumerate(c.map.starting_lands[str(n)]):
        a = state.lands[land]
        a.owner = seat
        a.peasants = c.setup.start.peasants
        a.nobles = c.setup.start.nobles
        a.store["preserved"] = c.setup.start.preserved
        a.store["weapons"] = c.setup.start.weapons
    state.fish = {w.id: w.start for w in c.map.waters}
    state.board = {g: c.trading.start for g in GOODS}
    state.slaves = c.setup.components["slave_stack"]
    state.secret = {"orders": {}}


# -- evolve -----------------------------------------------------------------------------

def _game_created(s: State, d: dict) -> None:
    setup(s, d["config"])


def _round_started(s: State, d: dict) -> None:
    s.round = d["round"]
    s.stage = "orders"
    s.orders = {}
    s.step = 0
    s.queue = []
    s.turn = 0
    for p in s.players:
        p.ordered = False
    for a in s.lands.values():
        a.moved = 0
        a.work = {}
        a.fresh = {f: 0 for f in FOODS}
        a.invaders = {}
        a.invaded_from = {}
        a.attacked = 0


def _orders_given(s: State, d: dict) -> None:
    s.players[d["seat"]].ordered = True


def _orders_chosen(s: State, d: dict) -> None:
    s.secret["orders"][str(d["seat"])] = list(d["order"])


def _orders_revealed(s: State, d: dict) -> None:
    s.orders = {k: list(v) for k, v in d["orders"].items()}
    s.secret["orders"] = {}
    s.stage = "actions"


def _action_begins(s: State) -> None:
    """Whatever the action now acting starts from: ``held``, the acting seat's land if it is a
    nobles' action (house rule: one border beyond the land held when the action starts)."""
    now = acting(s)
    s.held = owned(s, now[0]) if now is not None and now[1] == "nobles" else []


def _tokens_mixed(s: State, d: dict) -> None:
    s.step = d["step"]
    s.queue = [list(x) for x in d["queue"]]
    s.turn = 0
    for a in s.lands.values():
        a.moved = 0
        a.nobles_moved = 0
    s.traded = []
    _action_begins(s)


def _action_done(s: State, d: dict) -> None:
    s.turn += 1
    s.fighting = None
    s.traded = []
    for a in s.lands.values():
        a.moved = 0
        a.nobles_moved = 0
    _action_begins(s)


def _peasants_moved(s: State, d: dict) -> None:
    src, dst = s.lands[d["from"]], s.lands[d["to"]]
    n = d["count"]
    src.peasants -= n
    dst.peasants += n
    dst.moved += n
    if dst.owner is None:
        dst.owner = d["seat"]
    for g, k in d.get("goods", {}).items():
        src.store[g] -= k
        dst.store[g] += k
    if src.peasants == 0 and src.nobles == 0:
        src.owner = None


def _peasant_allocated(s: State, d: dict) -> None:
    a = s.lands[d["area"]]
    a.work[d["work"]] = a.work.get(d["work"], 0) + 1
    if d["work"].startswith("fish:"):
        water = d["work"].split(":", 1)[1]
        s.fish[water] -= 1
        a.fresh["fish"] += 1 + d.get("harbour", 0)
    elif d["work"] == "hunt":
        a.game -= 1
        a.fresh["meat"] += 1
    elif d["work"] == "toil":
        a.fresh["grain"] = a.work["toil"] // 2


def _phase_ended(s: State, d: dict) -> None:
    s.stage = "events"


def _woodland_cleared(s: State, d: dict) -> None:
    for area, n in d["cleared"].items():
        a = s.lands[area]
        a.forests -= n
        a.game = min(a.game, game_max(a.forests))  # game beyond the smaller maximum goes
        a.fields += n


def _built(s: State, d: dict) -> None:
    a = s.lands[d["area"]]
    b = d["building"]
    s.players[d["seat"]].money -= d["money"]
    for g, k in d.get("goods", {}).items():
        a.store[g] -= k
    if b in ("motte", "castle"):
        a.buildings.remove({"motte": "manor", "castle": "motte"}[b])
    if b == "stone_head":
        a.fields -= 1
        a.stone_heads += 1
    else:
        a.buildings.append(b)


def _mines_produced(s: State, d: dict) -> None:
    gold = content().setup.components["gold_value"]
    for area, goods in sorted(d["produced"].items()):
        a = s.lands[area]
        for g, k in goods.items():
            if g == "gold":  # gold tokens are money: into the owner's purse (house rule), out of the ore
                s.players[a.owner].money += gold * k
                a.gold -= k
            else:
                a.store[g] += k


def _nobles_produced(s: State, d: dict) -> None:
    for area in d["areas"]:
        a = s.lands[area]
        a.nobles += 1
        a.store["weapons"] -= 1


def _fed(s: State, d: dict) -> None:
    for area in sorted(set(d["eaten"]) | set(d["bonus"])):  # a bonus counts where nobody ate too
        a = s.lands[area]
        eaten = d["eaten"].get(area, {})
        for f in FOODS:
            a.fresh[f] -= eaten.get(f, 0)
        a.store["preserved"] -= eaten.get("preserved", 0)
        for f, k in d["bonus"].get(area, {}).items():
            a.fresh[f] += k


def _population_grew(s: State, d: dict) -> None:
    for area, food in d["grew"].items():
        a = s.lands[area]
        a.peasants += 1
        if food == "preserved":
            a.store["preserved"] -= 1
        else:
            a.fresh[food] -= 1


def produces_food(work: str) -> bool:
    """True for the work that feeds its peasant (fishing, hunting, toiling: table, feed)."""
    return work.startswith("fish:") or work in ("hunt", "toil")


def _starved(s: State, d: dict) -> None:
    for area, lost in d["lost"].items():
        a = s.lands[area]
        a.nobles -= lost.get("nobles", 0)
        _starve_peasants(a, lost.get("peasants", 0))
        if a.peasants == 0 and a.nobles == 0:
            a.owner = None


def _starve_peasants(area: Land, n: int) -> None:
    """``n`` unfed peasants of ``area`` die (table: resolve starvation). Those that produced food
    did not eat, so the dead are the free peasants first, then workers at other work, whose
    work is undone with them (allocations are always among the area's peasants)."""
    free = area.peasants - sum(area.work.values())
    area.peasants -= n
    for _ in range(max(0, n - max(0, free))):
        work = sorted(w for w in area.work if not produces_food(w))[-1]
        area.work[work] -= 1
        if not area.work[work]:
            del area.work[work]


def _preserving_asked(s: State, d: dict) -> None:
    s.stage = "preserve"
    s.preserving = dict(d["areas"])


def _preserved(s: State, d: dict) -> None:
    a = s.lands[d["area"]]
    for f, k in d["made"].items():
        a.fresh[f] -= k
        a.store["salt"] -= k
        a.store["preserved"] += k
    s.preserving.pop(d["area"], None)


def _spoiled(s: State, d: dict) -> None:
    for a in s.lands.values():
        a.fresh = {f: 0 for f in FOODS}


def _fish_grew(s: State, d: dict) -> None:
    for w, n in d["fish"].items():
        s.fish[w] = n


def _game_grew(s: State, d: dict) -> None:
    for area, n in d["game"].items():
        s.lands[area].game = n


def _nobles_moved(s: State, d: dict) -> None:
    src, dst = s.lands[d["from"]], s.lands[d["to"]]
    seat, n = d["seat"], d["count"]
    src.nobles -= n
    s.players[seat].money -= d["fee"]
    for g, k in d["goods"].items():
        src.store[g] -= k
        dst.store[g] += k
    if d["invades"]:
        dst.invaders[str(seat)] = dst.invaders.get(str(seat), 0) + n
        origins = set(dst.invaded_from.get(str(seat), [])) | {d["from"]}
        dst.invaded_from[str(seat)] = [a for a in content().map.ring if a in origins]
    else:
        dst.owner = seat
        dst.nobles += n
        dst.nobles_moved += n
    if src.peasants == 0 and src.nobles == 0:
        src.owner = None


def _fights_began(s: State, d: dict) -> None:
    s.fighting = d["seat"]


def _battle_fought(s: State, d: dict) -> None:
    s.ransom = {"area": d["area"], "attacker": d["seat"], "winner": d["winner"], "loser": d["loser"],
                "margin": d["margin"]}


def _ransom_paid(s: State, d: dict) -> None:
    area = s.lands[d["area"]]
    loser, winner = s.players[d["loser"]], s.players[d["winner"]]
    to = retreat_to(s, d["winner"], d["area"]) if d["winner"] != area.owner else d["area"]
    for kind, units in sorted(d["pay"].items()):
        amount = units * RANSOM[kind]
        if kind == "money":
            loser.money -= amount
            winner.money += amount
        elif kind == "peasants":
            _lose_peasants(area, amount)
            if to is not None and to != d["area"]:  # those the winner has no room for leave the map
                s.lands[to].peasants += amount - d.get("left_map", 0)
        else:
            area.store[kind] -= amount
            if to is not None and to != d["area"]:
                s.lands[to].store[kind] += amount


def _lose_peasants(area: Land, n: int) -> None:
    """``n`` peasants leave ``area``: free ones first, then workers (their work undone)."""
    free = area.peasants - sum(area.work.values())
    area.peasants -= n
    for _ in range(max(0, n - max(0, free))):
        work = sorted(area.work)[-1]
        area.work[work] -= 1
        if not area.work[work]:
            del area.work[work]


def _battle_settled(s: State, d: dict) -> None:
    area = s.lands[d["area"]]
    invaders = area.invaders.pop(str(d["attacker"]), 0)
    area.invaded_from.pop(str(d["attacker"]), None)
    if d["takes"]:
        if d["defenders_to"] is not None:
            s.lands[d["defenders_to"]].nobles += area.nobles
            s.lands[d["defenders_to"]].attacked += area.attacked
        area.owner = d["attacker"]
        area.nobles = invaders
        area.attacked = invaders
        _lose_peasants(area, d.get("left_map", 0))  # beyond the attacker's room (house rule)
    elif d["attackers_to"] is not None:
        s.lands[d["attackers_to"]].nobles += invaders
        s.lands[d["attackers_to"]].attacked += invaders
    if area.peasants == 0 and area.nobles == 0:
        area.owner = None
    s.ransom = None


def _goods_shipped(s: State, d: dict) -> None:
    s.players[d["seat"]].money -= d["fee"]
    s.lands[d["from"]].store[d["good"]] -= d["count"]
    s.lands[d["to"]].store[d["good"]] += d["count"]


def _goods_bought(s: State, d: dict) -> None:
    good, n = d["good"], d["count"]
    s.players[d["seat"]].money -= d["money"]
    land = s.lands[d["to"]]
    if good == "slave":
        s.slave_track -= n
        land.peasants += n
    elif good == "mercenary":
        s.mercenary_track -= n
        land.nobles += n
    else:
        s.board[good] = max(0, s.board[good] - n)
        land.store[good] += n
    s.traded.append(f"buy:{good}")


def _goods_sold(s: State, d: dict) -> None:
    good, n = d["good"], d["count"]
    s.players[d["seat"]].money += d["money"]
    land = s.lands[d["from"]]
    if good == "slave":  # the peasants leave the map; a slave marker goes from the stack to the track
        land.peasants -= n
        s.slaves -= n
        s.slave_track += n
        if land.peasants == 0 and land.nobles == 0:
            land.owner = None
    else:
        land.store[good] -= n
        s.board[good] = min(content().trading.capacity, s.board[good] + n)
    s.traded.append(f"sell:{good}")


def _board_adjusted(s: State, d: dict) -> None:
    s.board = dict(d["board"])
    if d["slave"]:
        s.slaves -= 1
        s.slave_track += 1
    else:
        s.mercenary_track += 1


def _final_scored(s: State, d: dict) -> None:
    s.final = dict(d)


def _game_ended(s: State, d: dict) -> None:
    s.stage = "over"
    s.ended = dict(d)


_HANDLERS = {
    "GameEnded": _game_ended,
    "FinalScored": _final_scored,
    "NoblesMoved": _nobles_moved,
    "FightsBegan": _fights_began,
    "BattleFought": _battle_fought,
    "RansomPaid": _ransom_paid,
    "BattleSettled": _battle_settled,
    "GoodsShipped": _goods_shipped,
    "GoodsBought": _goods_bought,
    "GoodsSold": _goods_sold,
    "TradingBoardAdjusted": _board_adjusted,
    "GameCreated": _game_created,
    "RoundStarted": _round_started,
    "OrdersGiven": _orders_given,
    "OrdersChosen": _orders_chosen,
    "OrdersRevealed": _orders_revealed,
    "TokensMixed": _tokens_mixed,
    "ActionDone": _action_done,
    "PeasantsMoved": _peasants_moved,
    "PeasantAllocated": _peasant_allocated,
    "ActionsEnded": _phase_ended,
    "WoodlandCleared": _woodland_cleared,
    "Built": _built,
    "BuildAbandoned": lambda s, d: None,
    "MinesProduced": _mines_produced,
    "NoblesProduced": _nobles_produced,
    "Fed": _fed,
    "PopulationGrew": _population_grew,
    "Starved": _starved,
    "PreservingAsked": _preserving_asked,
    "FoodPreserved": _preserved,
    "FreshFoodSpoiled": _spoiled,
    "FishGrew": _fish_grew,
    "GameGrew": _game_grew,
}
PRIVATE_EVENTS = frozenset({"OrdersChosen"})
"""Events only their ``seat`` may see (its orders before they are revealed)."""
CHANCE_EVENTS = frozenset({"TokensMixed", "BattleFought", "TradingBoardAdjusted"})
"""Events that carry a chance outcome; their count labels the next draw."""


EVENT_TYPES = frozenset(_HANDLERS) - {"GameCreated"}
"""Every event type Resource Hog emits after creation."""


def visibility(event_type: str) -> str:
    """``"private"`` or ``"public"``: who may see events of this type (none is sealed)."""
    return "private" if event_type in PRIVATE_EVENTS else "public"


def evolve(state: State, event: Event) -> None:
    """Apply one event to ``state`` in place (first copying the parts it changes that a
    copy-on-write clone shares, :data:`WRITES`). Raises ValueError on an unknown event type."""
    if state.shared:
        COW.before(state, event.type)
    if event.type in core_match.EVENTS:
        state.match = core_match.evolve(state.match, event)
        return
    fn = _HANDLERS.get(event.type)
    if fn is None:
        raise ValueError(f"Resource Hog has no event {event.type!r}")
    fn(state, event.data)
    if event.type in CHANCE_EVENTS:
        state.draws += 1
