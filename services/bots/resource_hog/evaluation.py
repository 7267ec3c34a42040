"""What a Resource Hog position is worth to a seat: the evaluation that the greedy bot, ISMCTS
and the expert share (issue 22: food before expansion, the wealth count that wins).

The unit is the wealth that wins (``docs/house-rules.md``, Resource Hog: Length and winner):
money, 5 a noble, 2 a peasant and the buildings. To it :func:`value` adds what the round
under way will bring or cost at its events (``resource-hog-actions-and-events.txt``: build,
produce from mines, feed, population, starvation):

* **food before expansion**: every piece that would go unfed at the feed event is counted lost
  (its wealth, times ``hunger``), after the free peasants that are left have gone to the food
  work the area offers; a noble alone in land with no food is such a loss;
* work under way: a building worked and affordable adds the wealth it adds (a motte less the
  manor it replaces) less its cost, a fortification plus ``building`` times its wealth, a mine its
  gold to come (``mine`` a round left); a peasant mining gold adds its 10 money, salt or arms
  their resale; a population peasant with food to spare adds a peasant;
* goods in store a little (``goods``; preserved food is next round's food, ``food``).
"""

from __future__ import annotations

from typing import Any

WEIGHTS = {"hunger": 1.5, "food": 0.5, "goods": 0.5, "work": 0.2, "mine": 4.0, "land": 0.5, "building": 1.0}
"""How much :func:`value` weighs each term beyond the wealth count (its defaults): ``hunger``
times the wealth of each piece that would starve, ``food`` each preserved food in store,
``goods`` each salt or arms and armour in store, ``work`` each peasant at any work, ``mine``
each round left for a mine (built or worked), ``land`` each land area held, ``building`` times
a worked fortification's wealth on top of it (its use beyond the count: defence in a fight,
knighting; a playing style that builds raises it)."""

SEARCH_WEIGHTS = {"building": 0.0}
"""What search (:func:`rewards`) overrides: no bonus for fortifications beyond their wealth
(measured: with it, ISMCTS builds forts that cost more than they count and lost to greedy
5 games of 8)."""

SCALE = 8.0
"""The value difference that makes a search leaf's reward about 0.73 (for a game without
:func:`rewards`; kept for callers of the generic evaluation)."""
REWARD_SCALE = 3.0
"""The lead in wealth that makes a leaf's reward about 0.73 in :func:`rewards`: sharp, since a
peasant (2) or a noble (5) lost is what a decision here turns on."""


def _free_food(state: Any, area: str, free: int) -> int:
    """Food the ``free`` peasants of ``area`` could still add: each producer stops eating and
    makes one (fish or game while the pools hold any, a field for every second toiler)."""
    from services.rules.resource_hog import turns

    a = state.lands[area]
    targets = turns.work_targets(state, area) if free else []
    spots = sum(state.fish[t.split(":", 1)[1]] for t in targets if t.startswith("fish:"))
    spots += min(a.game, a.forests - a.work.get("hunt", 0)) if "hunt" in targets else 0  # one hunter a square
    toil = (a.fields - a.work.get("toil", 0)) if "toil" in targets else 0
    hunters = min(free, spots)
    toilers = min(free - hunters, toil)
    return 2 * hunters + toilers + toilers // 2


def peasants_to_come(state: Any, seat: int) -> bool:
    """Whether ``seat`` still has (or is in) its peasants action this round, so its free
    peasants may yet be allocated (house rule, The round: orders, then three mixed steps)."""
    if state.stage == "orders":
        return True
    if state.stage != "actions":
        return False
    order = state.orders.get(str(seat))
    if not order or "peasants" not in order:
        return False
    p = order.index("peasants")
    if p != state.step:
        return p > state.step
    mine = [i for i, (s, act) in enumerate(state.queue) if s == seat and act == "peasants"]
    return bool(mine) and mine[0] >= state.turn


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` (a :class:`services.rules.resource_hog.state.State`) looks for ``seat``
    (an index of ``state.players``), in wealth (see the module docstring); ``weights`` override
    some of :data:`WEIGHTS`. Never raises for a valid state."""
    from services.rules.resource_hog import turns
    from services.rules.resource_hog.content import content
    from services.rules.resource_hog.rules import wealth
    from services.rules.resource_hog.state import FORTS

    from .economy import WEALTH_NOBLE, WEALTH_PEASANT, balance, rounds_left

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    worth = content().setup.wealth
    costs = {b.id: b.money for b in content().buildings.buildings}
    needs = {b.id: b.needs for b in content().buildings.buildings}
    total = float(wealth(state)[seat]["total"])
    purse = state.players[seat].money
    left = rounds_left(state)
    pending = state.stage in ("orders", "actions")  # the round's events are still to come
    to_come = pending and peasants_to_come(state, seat)
    for area, a in state.lands.items():
        if a.owner != seat:
            continue
        total += w["land"] + w["food"] * a.store["preserved"] + w["goods"] * (a.store["salt"] + a.store["weapons"])
        if not pending:
            continue
        free = 0
        if to_come:
            free = turns.free_peasants(state, area) if state.stage == "actions" else a.peasants - sum(a.work.values())
        bal = balance(a) + _free_food(state, area, max(0, free))
        if bal < 0:
            unfed_nobles = min(a.nobles, -bal)
            unfed_peasants = min(a.peasants, -bal - unfed_nobles)
            total -= w["hunger"] * (WEALTH_NOBLE * unfed_nobles + WEALTH_PEASANT * unfed_peasants)
        elif a.work.get("population"):
            total += WEALTH_PEASANT if bal >= 1 else 0
        total += w["work"] * sum(a.work.values())
        for k, n in a.work.items():
            if k.startswith("build:"):
                name = k.split(":", 1)[1]
                if purse >= costs[name]:
                    gain = worth.get(name, 0) - w["building"] * worth.get(needs.get(name) or "", 0)  # less the manor it replaces
                    total += gain - costs[name] + (w["building"] * worth.get(name, 0) if name in FORTS else 0)
                    total += w["mine"] * left if name == "mine" else 0
                    purse -= costs[name]
                else:
                    total -= w["work"] * 2  # a builder whose building cannot be paid wastes a round
            elif k == "mine:gold" and "mine" in a.buildings:
                total += 10 * n
            elif k.startswith("mine:") and "mine" in a.buildings:
                total += w["goods"] * 2 * n
        if "mine" in a.buildings:
            total += w["mine"] * left
    return total


def rewards(state: Any) -> list[float]:
    """Each seat's reward in (0, 1) at a search leaf (ISMCTS, :func:`services.bots.evaluation.rewards`):
    ``1 / (1 + exp(-(value(seat) - best other wealth) / REWARD_SCALE))``. A seat's own :func:`value`
    (with what its round under way brings) is set against the others' plain wealth count, so
    the random moves a rollout gives the other seats (which change only what is under way) do
    not drown the seat's own choice in noise; the game is won on the wealth count. Search values
    with :data:`SEARCH_WEIGHTS`."""
    import math

    from services.rules.resource_hog.rules import wealth

    counts = [row["total"] for row in wealth(state)]
    out = []
    for s in range(len(state.players)):
        others = [counts[o] for o in range(len(counts)) if o != s]
        diff = (value(state, s, SEARCH_WEIGHTS) - (max(others) if others else 0)) / REWARD_SCALE
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, diff)))))
    return out

ISMCTS_DEPTH = 0
"""Rollout moves ISMCTS plays after its tree before scoring a Resource Hog leaf
(:func:`services.bots.ismcts.default_depth` reads it): none, since :func:`value` already counts
what the free peasants can still do and a random move after the tree (a ``done``, a building
nobody can pay) only adds noise (measured against greedy at 150 iterations: 4/8 games won at
depth 2, 8/8 at 0)."""
