"""What a Resource Hog position is worth to a seat (docs/house-rules.md, Resource Hog): the
evaluation that the greedy bot, ISMCTS and the expert share."""

from __future__ import annotations

from typing import Any

WEIGHTS = {"food": 1.5, "hunger": 4.0, "work": 0.5, "building": 0.6, "goods": 0.5, "land": 2.0}
"""How much :func:`resource_hog_value` weighs each thing beyond the wealth count (its defaults)."""


def value(state: Any, seat: int, weights: dict[str, float] | None = None) -> float:
    """How good ``state`` looks for ``seat`` in Resource Hog (docs/house-rules.md, Resource Hog):
    its wealth now, plus food made and stored against mouths to feed (hunger weighs more
    than plenty), peasants at work, buildings being worked, goods in store and land held."""
    from services.rules.resource_hog.content import content
    from services.rules.resource_hog.rules import wealth

    w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
    content_wealth = content().setup.wealth
    costs = {b.id: b.money for b in content().buildings.buildings}
    value = float(wealth(state)[seat]["total"])
    for a in state.lands.values():
        if a.owner != seat:
            continue
        producers = sum(n for k, n in a.work.items() if k.startswith("fish:") or k in ("hunt", "toil"))
        mouths = a.nobles + max(0, a.peasants - producers)
        food = sum(a.fresh.values()) + a.store["preserved"]
        value += w["food"] * min(food, mouths) - w["hunger"] * max(0, mouths - food)
        value += w["work"] * sum(a.work.values())
        purse = state.players[seat].money
        for k in a.work:
            if k.startswith("build:"):  # only a building the purse can pay for is worth a peasant
                name = k.split(":", 1)[1]
                cost = costs[name]
                value += w["building"] * content_wealth[name] if purse >= cost else -w["work"]
                purse -= cost
        port = 1.5 if "harbour" in a.buildings else 1.0  # goods in a harbour area can be sold
        value += w["goods"] * port * (a.store["salt"] + a.store["weapons"]) + w["land"]
    return value


SCALE = 8.0
"""The value difference that makes a search leaf's reward about 0.73."""
