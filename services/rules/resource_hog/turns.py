"""Decisions of a Resource Hog round so far: the secret orders and the peasants' action
(``resource-hog-actions-and-events.txt``: move peasants, allocate peasants and its rows;
house rules in ``docs/house-rules.md``, Resource Hog).

Orders are simultaneous: every seat that has not ordered is to move, and each seat's order
stays secret (``OrdersChosen`` goes to that seat only) until all are given. In the action
steps one seat at a time resolves its action as a run of moves ending with ``done``.
"""

from __future__ import annotations

from collections import deque
from itertools import permutations
from typing import Any, Iterator

from services.rules.core import Event, IllegalMove, public

from . import events, nobles, trade
from .content import GOODS, content, lands
from .moves import MAX_COUNT
from .state import FORTS, Land, State, acting

ORDERS = [list(p) for p in permutations(("peasants", "nobles", "trade"))]
"""The six orders of the three action tokens."""
ACTION_MOVES = {"peasants": ("move_peasants", "allocate"), "nobles": ("move_nobles",),
                "trade": ("buy", "sell", "ship")}
"""The moves of each action besides ``done``."""


def to_move(state: State) -> list[int]:
    """Seats whose decision it is: every seat still to order, a battle's loser choosing the
    ransom, or the acting seat (none while its battles are fought)."""
    if state.ransom is not None:
        return [state.ransom["loser"]] if state.ransom["margin"] > 0 else []
    if state.fighting is not None:
        return []
    if state.stage == "orders":
        return [p.seat for p in state.players if not p.ordered]
    if state.stage == "preserve":  # every owner still to choose, in any order (house rule, Preserving)
        return sorted({state.lands[a].owner for a in state.preserving})
    now = acting(state)
    return [now[0]] if now else []


def reachable(state: State, seat: int, start: str) -> list[str]:
    """Land areas reachable from ``start`` over ``seat``'s own land, ring neighbours only
    (table: move peasants, any distance on own land); ``start`` excluded."""
    ring = content().map.ring
    seen = {start}
    todo = deque([start])
    while todo:
        for n in nobles.ring_neighbours(todo.popleft()):
            if n not in seen and state.lands[n].owner == seat:
                seen.add(n)
                todo.append(n)
    return [a for a in ring if a in seen and a != start]


def free_peasants(state: State, area: str) -> int:
    """Peasants of ``area`` neither moved this phase nor allocated this round."""
    a = state.lands[area]
    return a.peasants - a.moved - sum(a.work.values())


def work_targets(state: State, area: str) -> list[str]:
    """What a free peasant of ``area`` may be allocated to now (table: allocate rows; house rules)."""
    a = state.lands[area]
    land = lands()[area]
    work = a.work
    out = []
    for water in [content().map.lake, *([land.coast] if land.coast else [])]:
        if state.fish[water] > 0:
            out.append(f"fish:{water}")
    if a.game > 0 and work.get("hunt", 0) < a.forests:  # one hunter a forest square (table: hunt)
        out.append("hunt")  # hunting already took its game marker off the square (PeasantAllocated)
    if a.fields - work.get("toil", 0) > 0:
        out.append("toil")
    if "mine" in a.buildings:
        out += [f"mine:{g}" for y in content().buildings.mine_yields for g in y
                if g != "gold" or a.gold >= y[g] * (work.get("mine:gold", 0) + 1)]
    if a.forests - work.get("clear", 0) > 0:
        out.append("clear")
    left = _markers_left_all(state)  # the components' markers (6 harbours...), counted once for every building
    claimed = None
    for b in content().buildings.buildings:
        n = left.get(b.id)
        if not work.get(f"build:{b.id}") and events.cannot_build(a, b.id, a.buildings, a.fields) is None \
                and (n is None or n > 0):
            if claimed is None:
                claimed = _claimed(state, a.owner)
            if _affordable(state, a, b.id, claimed):
                out.append(f"build:{b.id}")
    if not work.get("population"):
        out.append("population")
    if not work.get("knight") and any(f in a.buildings for f in FORTS):
        out.append("knight")
    return out


def _markers_left_all(state: State) -> dict[str, int]:
    """:func:`.events.markers_left` of every building that takes markers, in one pass over the map."""
    markers = content().buildings.markers
    side_of = {side: name for name in markers for side in events.MARKER_SIDES.get(name, (name,))}
    left = dict(markers)
    for a in state.lands.values():
        for b in a.buildings:
            name = side_of.get(b)
            if name is not None:
                left[name] -= 1
        if a.work:
            for name in markers:
                left[name] -= a.work.get(f"build:{name}", 0)
    return left


def _claimed(state: State, owner: int | None) -> list[tuple[str, str, int]]:
    """``(area, building, peasants)`` of every build ``owner`` has allocated a peasant to this round."""
    return [(x, w.split(":", 1)[1], n) for x, land in state.lands.items() if land.owner == owner
            for w, n in land.work.items() if w.startswith("build:")]


def affordable(state: State, area: str, name: str) -> bool:
    """Whether the owner of ``area`` can pay for building ``name`` there now on top of every
    building it has allocated a peasant to this round: money from its purse, goods from the
    area's store (house rule, Costs: a peasant is allocated to a building only if the seat can
    pay for it; ``buildings.json`` costs)."""
    a = state.lands[area]
    if a.owner is None:
        return False
    return _affordable(state, a, name, _claimed(state, a.owner))


def _affordable(state: State, a: Land, name: str, claimed: list[tuple[str, str, int]]) -> bool:
    """:func:`affordable` with the owner's claimed builds (:func:`_claimed`) given."""
    if a.owner is None:
        return False
    costs = events.costs()
    money = sum(costs[b].money * n for _, b, n in claimed) + costs[name].money
    if state.players[a.owner].money < money:
        return False
    for g, k in costs[name].goods.items():
        if a.store.get(g, 0) < k + sum(costs[b].goods.get(g, 0) * n for x, b, n in claimed if x == a.id):
            return False
    return True


def check(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise IllegalMove unless ``move`` is legal for ``seat`` now."""
    t = move["type"]
    if state.stage == "orders":
        if t != "orders":
            raise IllegalMove("every seat first gives its orders: the three action tokens in a secret order")
        if sorted(move["order"]) != ["nobles", "peasants", "trade"]:
            raise IllegalMove("orders name each of peasants, nobles and trade once")
        return
    if state.ransom is not None:
        if t != "ransom":
            raise IllegalMove("the battle's loser first chooses how to pay the ransom (table: fight)")
        nobles.check_ransom(state, seat, move)
        return
    if state.stage == "preserve" or t == "preserve":
        _check_preserve(state, seat, move)
        return
    now = acting(state)
    if now is None or now[0] != seat:
        raise IllegalMove("it is not this seat's action")
    action = now[1]
    if t == "done":
        return
    if t not in ACTION_MOVES[action]:
        raise IllegalMove(f"the {t} move is not part of the {action} action")
    if t == "move_peasants":
        _check_move(state, seat, move)
    elif t == "allocate":
        _check_allocate(state, seat, move)
    elif t == "move_nobles":
        nobles.check_move(state, seat, move)
    else:
        trade.check(state, seat, move)


def _check_preserve(state: State, seat: int, move: dict[str, Any]) -> None:
    """A ``preserve`` move: in the stage ``preserve``, for an area of the seat still to choose,
    at most the salt and the fresh food the area has (house rule, Preserving)."""
    if state.stage != "preserve" or move["type"] != "preserve":
        raise IllegalMove("after feeding, the owners first choose how much salt to spend preserving fresh food "
                          "(table: produce preserved foods)" if state.stage == "preserve" else
                          "salt is spent preserving after feeding, in the round's events")
    area = move["area"]
    if area not in state.preserving or state.lands[area].owner != seat:
        raise IllegalMove(f"{area} is not one of your areas with fresh food and salt still to choose for")
    most = state.preserving[area]
    if not 0 <= move["salt"] <= most:
        raise IllegalMove(f"{area} may spend 0 to {most} salt (one salt a fresh food left), not {move['salt']} "
                          f"(table: produce preserved foods)")


def salt_amounts(most: int) -> list[int]:
    """The amounts of salt offered among the legal moves for an area that may spend up to
    ``most``: ``most`` first (all it can, as before the choice), then the powers of two below it
    and 0, so an area's moves stay few (10 at most, for 200); any amount in between is legal too."""
    out = [most]
    k = 1
    while k < most:
        out.append(k)
        k *= 2
    return [most, *sorted(set(out[1:]), reverse=True), 0] if most else [0]


def _check_move(state: State, seat: int, move: dict[str, Any]) -> None:
    src, dst, n = move["from"], move["to"], move["count"]
    if src not in state.lands or state.lands[src].owner != seat:
        raise IllegalMove(f"{src} is not your land")
    if any(a.work for a in state.lands.values() if a.owner == seat):
        raise IllegalMove("peasants move first and are then allocated: once a peasant works, none moves in "
                          "this phase (table: move peasants, allocate peasants)")
    if dst not in reachable(state, seat, src):
        raise IllegalMove(f"peasants move over your own land only; {dst} cannot be reached from {src} "
                          f"(table: move peasants)")
    if not 1 <= n <= free_peasants(state, src):
        raise IllegalMove(f"{src} has {free_peasants(state, src)} peasants free to move, not {n}")
    goods = move.get("goods", {})
    carry = content().setup.carry_per_peasant
    if sum(goods.values()) > carry * n:
        raise IllegalMove(f"{n} peasant(s) carry at most {carry * n} goods (table: move peasants)")
    for g, k in goods.items():
        if g not in GOODS or state.lands[src].store[g] < k:
            raise IllegalMove(f"{src} has {state.lands[src].store.get(g, 0)} {g}, not {k}")


def _check_allocate(state: State, seat: int, move: dict[str, Any]) -> None:
    area, work = move["area"], move["work"]
    if area not in state.lands or state.lands[area].owner != seat:
        raise IllegalMove(f"{area} is not your land")
    if free_peasants(state, area) < 1:
        raise IllegalMove(f"{area} has no peasant free to work: peasants moved this phase cannot be allocated "
                          f"(table: move peasants)")
    if work not in work_targets(state, area):
        a = state.lands[area]
        if work == "mine:gold" and "mine" in a.buildings:
            n = a.work.get("mine:gold", 0)
            raise IllegalMove(f"the ore of {area} holds {a.gold} gold and {n} gold miner(s) already take {2 * n} of "
                              f"it this round: none left for another (house rule: gold deposits)")
        raise IllegalMove(f"a peasant of {area} cannot work {work!r} now")


def candidates(state: State, seat: int) -> Iterator[dict[str, Any]]:
    """Every move worth checking for ``seat`` now."""
    if seat not in to_move(state):
        return
    if state.stage == "orders":
        for order in ORDERS:
            yield {"type": "orders", "order": order}
        return
    if state.ransom is not None:
        for pay in nobles.ransom_choices(state):
            yield {"type": "ransom", "pay": pay}
        return
    if state.stage == "preserve":
        for area in content().map.ring:
            if area in state.preserving and state.lands[area].owner == seat:
                for salt in salt_amounts(state.preserving[area]):
                    yield {"type": "preserve", "area": area, "salt": salt}
        return
    yield {"type": "done"}
    action = acting(state)[1]  # type: ignore[index]
    mine = [a for a in content().map.ring if state.lands[a].owner == seat]
    if action == "nobles":
        for src in mine:
            free = state.lands[src].nobles - state.lands[src].nobles_moved
            if free:
                for dst in nobles.distances(state, seat, src):
                    yield {"type": "move_nobles", "from": src, "to": dst, "count": free, "goods": {}}
                    if free > 1:
                        yield {"type": "move_nobles", "from": src, "to": dst, "count": 1, "goods": {}}
        return
    if action == "trade":
        ports = trade.harbours(state, seat)
        for good in GOODS:
            for port in ports:
                yield {"type": "buy", "good": good, "count": 1, "to": port}
                if state.lands[port].store[good]:
                    yield {"type": "sell", "good": good, "count": min(state.lands[port].store[good], MAX_COUNT),
                           "from": port}
            for src in mine:
                if state.lands[src].store[good]:
                    for dst in mine:
                        if dst != src:
                            yield {"type": "ship", "good": good, "count": min(state.lands[src].store[good], MAX_COUNT),
                                   "from": src, "to": dst}
        for port in ports[:1]:
            yield {"type": "buy", "good": "slave", "count": 1, "to": port}
        for area in mine:  # a mercenary joins in any area of the buyer's (house rule: mercenaries march in)
            yield {"type": "buy", "good": "mercenary", "count": 1, "to": area}
        for port in ports:
            yield {"type": "sell", "good": "slave", "count": 1, "from": port}
        return
    for src in mine:
        if free_peasants(state, src) < 1:
            continue
        for dst in reachable(state, seat, src):
            yield {"type": "move_peasants", "from": src, "to": dst, "count": 1, "goods": {}}
        for work in work_targets(state, src):
            yield {"type": "allocate", "area": src, "work": work}


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """The legal moves of ``seat``, whose decision it is now (the caller makes sure), in the
    order of :func:`candidates`: exactly the candidates :func:`check` accepts. The peasants'
    and the trade actions are generated legal (their candidates are built from the very facts
    :func:`check` reads; trade: :func:`.trade.legal_moves`); every other decision checks its
    few candidates."""
    now = acting(state)
    if state.ransom is None and now is not None and now[1] == "trade" and now[0] == seat:
        mine = [a for a in content().map.ring if state.lands[a].owner == seat]
        return [{"type": "done"}, *trade.legal_moves(state, seat, mine, MAX_COUNT)]
    if state.ransom is not None or now is None or now[1] != "peasants":
        out = []
        for move in candidates(state, seat):
            try:
                check(state, seat, move)
            except IllegalMove:
                continue
            out.append(move)
        return out
    out = [{"type": "done"}]
    mine = [a for a in content().map.ring if state.lands[a].owner == seat]
    # once a peasant works, none moves in this phase (table: move peasants, allocate peasants)
    may_move = not any(state.lands[a].work for a in mine)
    for src in mine:
        if free_peasants(state, src) < 1:
            continue
        if may_move:
            for dst in reachable(state, seat, src):
                out.append({"type": "move_peasants", "from": src, "to": dst, "count": 1, "goods": {}})
        for work in work_targets(state, src):
            out.append({"type": "allocate", "area": src, "work": work})
    return out


def events_of(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """The events of a checked peasants' move or ``done``."""
    t = move["type"]
    if t == "ransom":
        return nobles.ransom_events(state, seat, move)
    if t == "preserve":
        return events.preserve(state, seat, move["area"], move["salt"])
    if t == "done":
        if acting(state)[1] == "nobles" and nobles.battles_due(state, seat):  # type: ignore[index]
            return [public("FightsBegan", seat=seat, areas=nobles.battles_due(state, seat))]
        return [public("ActionDone", seat=seat, action=acting(state)[1])]  # type: ignore[index]
    if t == "move_nobles":
        return nobles.move_events(state, seat, move)
    if t in ("buy", "sell", "ship"):
        return trade.events_of(state, seat, move)
    if t == "move_peasants":
        return [public("PeasantsMoved", seat=seat, **{"from": move["from"]}, to=move["to"], count=move["count"],
                       goods=dict(move.get("goods", {})))]
    data: dict[str, Any] = {"seat": seat, "area": move["area"], "work": move["work"]}
    if move["work"] == f"fish:{lands()[move['area']].coast}" and "harbour" in state.lands[move["area"]].buildings:
        data["harbour"] = 1  # sea fishing from a harbour: one more surplus from the bank (table: fish)
    return [public("PeasantAllocated", **data)]
