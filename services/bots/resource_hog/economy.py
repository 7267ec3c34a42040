"""The economy of a Resource Hog seat, as the bots reason about it: food made and food needed
in an area this round, what a fish pool or a forest's game gives back, and the wealth count
that wins (``resource-hog-actions-and-events.txt``, events Feed nobles and peasants, Population
increases, Resolve starvings, Increase fish/game populations; ``docs/house-rules.md``,
Resource Hog: Length and winner).

Every function reads a :class:`services.rules.resource_hog.state.State` (a bot rebuilds one
from its player view with ``rules.state_from_view``) and never changes it.
"""

from __future__ import annotations

from typing import Any

from services.rules.resource_hog.content import content, lands
from services.rules.resource_hog.events import growth
from services.rules.resource_hog.state import FOODS, Land, State, produces_food

WEALTH_NOBLE = 5
"""Wealth of a noble at the end (house rule, Length and winner)."""
WEALTH_PEASANT = 2
"""Wealth of a peasant at the end (house rule, Length and winner)."""


def producers(a: Land) -> int:
    """Peasants of ``a`` allocated to food work this round (fish, hunt, toil): they do not eat
    (table: feed)."""
    return sum(n for w, n in a.work.items() if produces_food(w))


def mouths(a: Land) -> int:
    """Who eats in ``a`` at the feed event if nothing changes: every noble and every peasant
    not producing food, free ones included (table: feed)."""
    return a.nobles + max(0, a.peasants - producers(a))


def variety_bonus(fresh: dict[str, int]) -> int:
    """Extra grain for an area that produced two kinds of fresh food (1) or three (2) (table: feed)."""
    return {2: 1, 3: 2}.get(sum(1 for f in FOODS if fresh.get(f, 0) > 0), 0)


def food(a: Land) -> int:
    """Food ``a`` will have at the feed event from what is allocated so far: fresh food, the
    variety bonus and preserved food in store (table: feed)."""
    return sum(a.fresh.values()) + variety_bonus(a.fresh) + a.store["preserved"]


def balance(a: Land) -> int:
    """``food(a) - mouths(a)``: negative means that many pieces would starve (table: resolve
    starvings), positive the spare food a population peasant can use (table: population)."""
    return food(a) - mouths(a)


def waters(area: str) -> list[str]:
    """The water areas a peasant of ``area`` may fish: the Mere and its coast's sea (house rule map)."""
    land = lands()[area]
    return [content().map.lake, *([land.coast] if land.coast else [])]


def water_max(water: str) -> int:
    """A water area's most fish (house rule map)."""
    return next(w.max for w in content().map.waters if w.id == water)


def regrows(pool: int, keep: int) -> bool:
    """Whether one more fish (or game) may be taken from ``pool`` and leave at least ``keep``
    (at least 1: an empty pool never regrows, table: increase fish/game populations)."""
    return pool - 1 >= max(1, keep)


def sustainable_keep(cap: int) -> int:
    """The pool to leave after taking that gives most back each round: the smallest pool
    whose growth reaches ``cap``, else the one growing most per round (table: increase fish
    populations: +1 from 1, +2 from 5, +3 from 9)."""
    best, best_yield = 1, 0
    for keep in range(1, cap + 1):
        back = growth(keep, cap) - keep
        if back > best_yield:
            best, best_yield = keep, back
    return best


def rounds_left(state: State) -> int:
    """Rounds still to play after this one (8 rounds, house rule)."""
    return max(0, content().setup.rounds - state.round)


def wealth(state: State, seat: int) -> int:
    """The wealth count that wins (house rule, Length and winner): money, 5 a noble, 2 a peasant
    and the buildings of the seat's land."""
    from services.rules.resource_hog.rules import wealth as rows

    return rows(state)[seat]["total"]


def owned(state: State, seat: int) -> list[str]:
    """The seat's land areas in ring order."""
    return [a for a in content().map.ring if state.lands[a].owner == seat]


def find(legal: list[dict[str, Any]], **want: Any) -> dict[str, Any] | None:
    """The first move of ``legal`` whose fields include ``want`` (the very object), or None."""
    for m in legal:
        if all(m.get(k) == v for k, v in want.items()):
            return m
    return None
