"""Nobles at war, as the Resource Hog bots reason about it: the odds of a battle, what an area is
worth to whoever holds it at the count, which of a seat's areas another seat's nobles can reach,
and the attacks worth making (``resource-hog-actions-and-events.txt``, rows Move nobles and
Fight; ``docs/house-rules.md``, Resource Hog: Fights and Length and winner).

A battle throws a d6 a noble, the defender first, each 1-3 capturing an enemy noble, until one
side has none (table: fight). A side with no nobles loses at once, and a defender left without
nobles loses the area, its peasants, goods and buildings to the attacker (house rules: a side
with no nobles, the area changes hands). So an area with no noble that another seat's noble can
reach is there for the taking, and the count at the end pays for every piece and building in it.

Every function reads a :class:`services.rules.resource_hog.state.State` and never changes it.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

from services.rules.resource_hog.content import content
from services.rules.resource_hog.nobles import distances, ring_neighbours
from services.rules.resource_hog.state import State

from . import economy

GOOD_WORTH = {"preserved": 3, "salt": 2, "weapons": 6}
"""What a good in an area's store is worth to its holder, in money (about the trading board's
middle prices, house rule: the trading board)."""
ATTACK_WORTH = 8
"""The least an area must be worth (:func:`area_worth`) for the expert to take it."""


def _binom(k: int, hits: int) -> float:
    return comb(k, hits) / 2 ** k


@lru_cache(maxsize=None)
def win_chance(attackers: int, defenders: int, defender_rolls: bool = True) -> float:
    """The chance that ``attackers`` nobles beat ``defenders`` (table: fight: a d6 a noble, 1-3 a
    hit, the defender first, until one side has none), a probability in [0, 1].

    A throw with no hit hands the dice over, so the two sides' chances at the same counts depend
    on each other: with ``x`` the chance when the defender throws and ``y`` when the attacker
    does, ``x = X + q_d y`` and ``y = Y + q_a x`` (``q`` the chance of no hit, ``X``/``Y`` the
    throws with hits), solved for ``x``."""
    if attackers <= 0:
        return 0.0
    if defenders <= 0:
        return 1.0
    q_d, q_a = 0.5 ** defenders, 0.5 ** attackers
    x = sum(_binom(defenders, h) * win_chance(attackers - h, defenders, False) for h in range(1, defenders + 1))
    y = sum(_binom(attackers, h) * win_chance(attackers, defenders - h, True) for h in range(1, attackers + 1))
    when_defender = (x + q_d * y) / (1 - q_d * q_a)
    return when_defender if defender_rolls else y + q_a * when_defender


def area_worth(state: State, area: str) -> int:
    """What holding ``area`` at the count is worth, in wealth (house rule, Length and winner): 2 a
    peasant, its buildings and stone heads, its goods (:data:`GOOD_WORTH`) and the gold its ore
    still holds where a mine stands (house rule, Gold deposits: 5 money a token)."""
    a = state.lands[area]
    w = content().setup.wealth
    worth = economy.WEALTH_PEASANT * a.peasants + sum(w[b] for b in a.buildings) + w["stone_head"] * a.stone_heads
    worth += sum(GOOD_WORTH.get(g, 0) * n for g, n in a.store.items())
    if "mine" in a.buildings:
        worth += content().setup.components["gold_value"] * a.gold
    return worth


def reach(state: State, seat: int) -> dict[str, int]:
    """Areas ``seat``'s nobles can end in this action, with how many nobles can get there (its
    nobles that have not attacked, from every area of its land; table: move nobles)."""
    out: dict[str, int] = {}
    for src in economy.owned(state, seat):
        a = state.lands[src]
        free = a.nobles - a.attacked
        if free <= 0:
            continue
        for dst in distances(state, seat, src):
            out[dst] = out.get(dst, 0) + free
    return out


def threat(state: State, seat: int, area: str) -> int:
    """Nobles of other seats that could move into ``seat``'s ``area`` in their next nobles'
    action (table: move nobles, one border beyond their land)."""
    return sum(reach(state, other).get(area, 0) for other in range(len(state.players)) if other != seat)


def exposed(state: State, seat: int, area: str) -> bool:
    """Whether ``seat``'s ``area`` is worth taking (:data:`ATTACK_WORTH`) and another seat's
    nobles can reach it (:func:`threat`)."""
    return area_worth(state, area) >= ATTACK_WORTH and threat(state, seat, area) > 0


def defenders(state: State, area: str) -> int:
    """Nobles that would defend ``area`` now (those that attacked this round do not: table, fight)."""
    a = state.lands[area]
    return a.nobles - a.attacked


def attack(state: State, seat: int, legal: list[dict[str, Any]], worth: int = ATTACK_WORTH) -> dict[str, Any] | None:
    """The best attack among ``legal`` noble moves for ``seat``: into another seat's area worth
    at least ``worth`` that no noble defends (a sure win that takes the area, house rules), from
    an area that keeps a noble or is worth less than the prize; most worth first. None if there
    is none."""
    best, best_worth = None, worth - 1
    for m in legal:
        if m.get("type") != "move_nobles":
            continue
        dst = state.lands[m["to"]]
        if dst.owner is None or dst.owner == seat or defenders(state, m["to"]) > 0:
            continue
        prize = area_worth(state, m["to"])
        src = state.lands[m["from"]]
        left = src.nobles - m["count"]
        if left < 1 and area_worth(state, m["from"]) >= prize:
            continue
        if m["count"] == 1 and prize > best_worth:
            best, best_worth = m, prize
    return best


def guard(state: State, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A noble move (one of ``legal``) that puts a noble into the seat's most valuable area that
    has none and is :func:`exposed`, from an area that keeps one, is not exposed or is worth
    less; None if no area needs one."""
    needy = sorted((a for a in economy.owned(state, seat) if state.lands[a].nobles == 0 and exposed(state, seat, a)),
                   key=lambda a: -area_worth(state, a))
    for area in needy:
        for m in legal:
            if m.get("type") != "move_nobles" or m["to"] != area or m["count"] != 1:
                continue
            src = state.lands[m["from"]]
            if src.nobles > 1 or not exposed(state, seat, m["from"]) \
                    or area_worth(state, m["from"]) < area_worth(state, area):
                return m
    return None


def advance(state: State, seat: int, legal: list[dict[str, Any]], worth: int = ATTACK_WORTH) -> dict[str, Any] | None:
    """A noble move (one of ``legal``) into unowned land next to another seat's area worth at
    least ``worth`` that no noble defends, so that the noble can take it in the next round (a
    noble crosses one border from its owner's land: table, move nobles), from an area that is
    not left :func:`exposed` without a noble; the richest prize first. None if there is none."""
    best, best_worth = None, worth - 1
    for m in legal:
        if m.get("type") != "move_nobles" or m["count"] != 1 or state.lands[m["to"]].owner is not None:
            continue
        src = state.lands[m["from"]]
        if src.nobles - 1 < 1 and exposed(state, seat, m["from"]):
            continue
        for n in ring_neighbours(m["to"]):
            other = state.lands[n]
            if other.owner is not None and other.owner != seat and defenders(state, n) == 0:
                prize = area_worth(state, n)
                if prize > best_worth:
                    best, best_worth = m, prize
    return best


def best_prize(state: State, seat: int) -> int:
    """The most another seat's area next to ``seat``'s land is worth (:func:`area_worth`), 0 if
    none: what a noble more could take (table: move nobles, one border beyond)."""
    mine = set(economy.owned(state, seat))
    best = 0
    for area in mine:
        for n in ring_neighbours(area):
            other = state.lands[n]
            if other.owner is not None and other.owner != seat:
                best = max(best, area_worth(state, n))
    return best


def prize_borders(state: State, seat: int) -> list[str]:
    """``seat``'s areas next to another seat's area worth :func:`best_prize`, in ring order
    (empty when :func:`best_prize` is 0): where a noble more could set out to take it."""
    best = best_prize(state, seat)
    if best <= 0:
        return []
    return [a for a in economy.owned(state, seat)
            if any(state.lands[n].owner not in (None, seat) and area_worth(state, n) == best
                   for n in ring_neighbours(a))]
