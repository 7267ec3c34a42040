"""The nobles' action of Resource Hog: moving nobles and fighting (``resource-hog-actions-and-events.txt``,
rows Move nobles and Fight; house rules in ``docs/house-rules.md``, Resource Hog).

A noble move goes any distance over its owner's land, or ends one border beyond it in
unowned or enemy land; goods carried pay 1 money per border. Nobles moved into enemy land
are *invaders*; when the seat says ``done`` every area it invaded is fought over, in ring
order, with dice from the deck domain. The loser chooses the ransom (a decision) or, if it
cannot pay it all, pays what it can and its nobles leave the area. Peasants the winner gains
(as ransom, or with an area it takes) beyond its room among its 50 peasant/noble markers leave
the map (resource-hog-components.md, Components; docs/house-rules.md, Resource Hog: The 50 markers).
"""

from __future__ import annotations

from collections import deque
from itertools import product
from typing import Any, Iterator

from services.rules.core import Chance, Event, IllegalMove, public

from .content import GOODS, content
from .state import FORTS, RANSOM, State, acting, retreat_to, room


def ring_neighbours(area: str) -> tuple[str, str]:
    """The two land areas next to ``area`` on the ring (house rule map)."""
    ring = content().map.ring
    i = ring.index(area)
    return ring[i - 1], ring[(i + 1) % len(ring)]


def distances(state: State, seat: int, start: str) -> dict[str, int]:
    """Borders crossed from ``start`` to each area a noble may end in: own land at any distance,
    and one border beyond it into land that is not the seat's (table: move nobles). Own land is
    the land the seat held when its action began (``State.held``; the seat's land now when no
    nobles' action is under way): land an earlier noble took in the same action is an end, not
    a way through (house rule: a noble moves once an action, so one border beyond is counted
    from the land held when the action starts; docs/house-rules.md, Resource Hog: Fights)."""
    now = acting(state)
    held = set(state.held) if now == (seat, "nobles") else {a for a, x in state.lands.items() if x.owner == seat}
    out = {start: 0}
    todo = deque([start])
    while todo:
        at = todo.popleft()
        for n in ring_neighbours(at):
            if n in out:
                continue
            out[n] = out[at] + 1
            if n in held:
                todo.append(n)
    del out[start]
    return out


def check_move(state: State, seat: int, move: dict[str, Any]) -> None:
    """A noble move: from own land, ``count`` nobles that have not attacked, to a reachable area,
    with goods the purse can pay the border fee for."""
    src, dst, n = move["from"], move["to"], move["count"]
    a = state.lands.get(src)
    if a is None or a.owner != seat:
        raise IllegalMove(f"{src} is not your land")
    dist = distances(state, seat, src).get(dst)
    if dist is None:
        raise IllegalMove(f"nobles go over your own land and at most one border beyond it; not to {dst} "
                          f"(table: move nobles)")
    if not 1 <= n <= a.nobles - a.nobles_moved:
        raise IllegalMove(f"{src} has {a.nobles - a.nobles_moved} nobles that have not moved in this action, "
                          f"not {n}: a noble moves once an action (table: move nobles)")
    goods = move.get("goods", {})
    for g, k in goods.items():
        if g not in GOODS or a.store[g] < k:
            raise IllegalMove(f"{src} has {a.store.get(g, 0)} {g}, not {k}")
    owner = state.lands[dst].owner
    if goods and owner is not None and owner != seat:
        raise IllegalMove("nobles invading enemy land carry no goods (house rule)")
    fee = dist if sum(goods.values()) else 0
    if state.players[seat].money < fee:
        raise IllegalMove(f"carrying goods across {dist} border(s) costs {fee} money; the purse holds "
                          f"{state.players[seat].money} (table: move nobles)")


def move_events(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``NoblesMoved`` (``invades`` when the target is another seat's land)."""
    dst = move["to"]
    goods = dict(move.get("goods", {}))
    dist = distances(state, seat, move["from"])[dst]
    owner = state.lands[dst].owner
    return [public("NoblesMoved", seat=seat, **{"from": move["from"]}, to=dst, count=move["count"], goods=goods,
                   fee=dist if sum(goods.values()) else 0, invades=owner is not None and owner != seat)]


def battles_due(state: State, seat: int) -> list[str]:
    """Areas ``seat`` invaded this action and not yet fought over, in ring order."""
    return [a for a in content().map.ring if state.lands[a].invaders.get(str(seat))]


def fight(state: State, chance: Any, seat: int, area: str) -> list[Event]:
    """One battle (table: fight): a d6 per noble, the defender first, each 1-3 captures an enemy
    noble, until one side has none; captured nobles go home after. The margin (the winner's
    nobles left, less 1/2/3 for a losing defender's manor/motte/castle) is owed as ransom."""
    a = state.lands[area]
    rng: Chance = chance(f"resource_hog:fight:{state.draws}")
    attackers, defenders = a.invaders[str(seat)], a.nobles - a.attacked  # attackers do not defend that round
    rolls: list[list[int]] = []
    side = "defender"
    while attackers and defenders:
        dice = [1 + rng.below(6) for _ in range(defenders if side == "defender" else attackers)]
        rolls.append(dice)
        hits = sum(1 for d in dice if d <= 3)
        if side == "defender":
            attackers = max(0, attackers - hits)
            side = "attacker"
        else:
            defenders = max(0, defenders - hits)
            side = "defender"
    attacker_won = attackers > 0
    margin = attackers if attacker_won else defenders
    if attacker_won:
        fort = next((f for f in FORTS if f in a.buildings), None)
        margin = max(0, margin - (content().buildings.defence[fort] if fort else 0))
    return [public("BattleFought", seat=seat, area=area, defender=a.owner, rolls=rolls,
                   winner=seat if attacker_won else a.owner, loser=a.owner if attacker_won else seat,
                   margin=margin)]


def payable(state: State, loser: int, area: str, attacker: int) -> dict[str, int]:
    """Units of ransom the loser can pay of each kind: money from its purse, goods and peasants
    from the area of conflict (the attacker as loser pays goods only from what it has there:
    none, house rule)."""
    a = state.lands[area]
    out = {"money": state.players[loser].money // RANSOM["money"]}
    for g in ("salt", "weapons", "preserved"):
        out[g] = a.store[g] // RANSOM[g] if loser == a.owner else 0
    out["peasants"] = a.peasants if loser == a.owner else 0
    return out


def ransom_choices(state: State) -> Iterator[dict[str, int]]:
    """Every way the pending loser may pay: units of each kind adding up to the margin, or, if it
    cannot pay it all, everything it can (table: fight)."""
    r = state.ransom
    can = payable(state, r["loser"], r["area"], r["attacker"])
    total = sum(can.values())
    if total <= r["margin"]:
        yield {k: v for k, v in can.items() if v}
        return
    kinds = [k for k in RANSOM if can[k]]
    for combo in product(*(range(min(can[k], r["margin"]) + 1) for k in kinds)):
        if sum(combo) == r["margin"]:
            yield {k: n for k, n in zip(kinds, combo) if n}


def check_ransom(state: State, seat: int, move: dict[str, Any]) -> None:
    """The loser's payment must be one of :func:`ransom_choices`."""
    pay = {k: v for k, v in move["pay"].items() if v}
    if pay not in list(ransom_choices(state)):
        raise IllegalMove(f"the ransom is {state.ransom['margin']} unit(s), each 10 money, 2 salt, 1 weapon, "
                          f"1 preserved food or 1 peasant, goods from the area of conflict; all you can if you "
                          f"cannot pay it all (table: fight)")


def ransom_events(state: State, seat: int, move: dict[str, Any]) -> list[Event]:
    """``RansomPaid``, then where the nobles go (house rule): the attacker's invaders go home
    unless it won and the defender could not pay it all or had no nobles there (house rule: the
    area changes hands); then the defender's nobles leave and the area, its peasants and goods
    pass to the attacker. An attacker that lost and could not pay it all moves its nobles away
    (table: fight): they go to its own land nearest the area other than every area the attack
    came from (``Land.invaded_from``), and are lost if it has none (house rule,
    docs/house-rules.md, Resource Hog: Fights).

    Shapes: ``RansomPaid(loser, winner, area, pay={kind: units}, full)`` and
    ``BattleSettled(area, attacker, takes, attackers_to, defenders_to)``. The winner keeps only
    as many peasants as it has room for among its 50 peasant/noble markers on the map (see
    :func:`.state.room`); the rest leave the map (house rule), free ones first, and the event
    that moves them says how many in ``left_map``, present only when some leave: peasants paid
    as ransom first, then those of an area taken (resource-hog-components.md, Components;
    docs/house-rules.md, Resource Hog: Fights and The 50 markers)."""
    r = state.ransom
    pay = {k: v for k, v in move["pay"].items() if v}
    full = sum(pay.values()) >= r["margin"]
    area = r["area"]
    space = room(state, r["winner"])
    paid = pay.get("peasants", 0) * RANSOM["peasants"]
    to = retreat_to(state, r["winner"], area) if r["winner"] != state.lands[area].owner else area
    ransom: dict[str, Any] = {"loser": r["loser"], "winner": r["winner"], "area": area, "pay": pay, "full": full}
    if paid and to is not None and to != area:  # where _ransom_paid puts them
        placed = min(paid, space)
        space -= placed
        if paid > placed:
            ransom["left_map"] = paid - placed
    attacker = r["attacker"]
    takes = r["winner"] == attacker and (not full or state.lands[area].nobles == 0)
    # a losing attacker short of the ransom moves its nobles away: not back to where the attack
    # came from (table: fight, "the attacker may be thus forced to move out"; house rule)
    leave = state.lands[area].invaded_from.get(str(attacker), []) if r["loser"] == attacker and not full else []
    home = retreat_to(state, attacker, area, avoid=leave)
    settled: dict[str, Any] = {"area": area, "attacker": attacker, "takes": takes,
                               "attackers_to": None if takes else home,
                               "defenders_to": retreat_to(state, r["loser"], area) if takes else None}
    if takes:
        passing = state.lands[area].peasants - paid  # the peasants paid have left the area
        if passing > space:
            settled["left_map"] = passing - space
    return [public("RansomPaid", **ransom), public("BattleSettled", **settled)]
