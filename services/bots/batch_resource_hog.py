"""The Resource Hog part of the bot batch (:mod:`.batch`): how games are set up and what each
must show: every action (orders, each kind of peasant work, noble moves, fights and ransoms,
buying, selling, shipping) and every event type (docs/house-rules.md, Resource Hog)."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

from .batch_audience import count_audience

GREEDY_SHARE = 0.6
"""Chance that a seat is played by the greedy bot."""
EXPERT_SHARE = 0.2
"""Chance that a seat is played by the expert (the others are random): no starting land has ore
(house rule: the map), and the expert is the bot that settles a land with ore and mines it."""


def _seed(*parts: Any) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


def game_setup(seed: str, index: int) -> tuple[int, dict[str, bool], list[str]]:
    """Players and bot kinds of game ``index`` (all from the seed); Resource Hog has no options."""
    rng = random.Random(_seed(seed, index, "resource-hog-setup"))
    players = rng.choice((2, 3, 4))
    kinds = []
    for _ in range(players):
        x = rng.random()
        kinds.append("greedy" if x < GREEDY_SHARE else "expert" if x < GREEDY_SHARE + EXPERT_SHARE else "random")
    return players, {}, kinds


def count_events(events: list[Any], counts: Counter[str]) -> None:
    """Add what ``events`` show occurred to ``counts`` (keys ``<category>:<name>``)."""
    from services.rules.resource_hog.state import visibility

    for e in events:
        d, t = e.data, e.type
        count_audience(e, visibility(t), counts)
        if t == "PeasantAllocated":
            counts[f"work:{d['work'].split(':', 1)[0]}"] += 1
        elif t in ("GoodsBought", "GoodsSold", "GoodsShipped"):
            counts[f"action:{t[5:].lower()}"] += 1
        elif t == "PeasantsMoved":
            counts["action:move_peasants"] += 1
        elif t == "NoblesMoved":
            counts["action:move_nobles"] += 1
        elif t == "RansomPaid" and d["pay"]:
            counts["action:ransom"] += 1
        elif t == "Built":
            counts[f"building:{d['building']}"] += 1


def expected() -> dict[str, list[str]]:
    """Every name the batch must see at least once, by category."""
    from services.rules.resource_hog.state import EVENT_TYPES

    return {
        "action": ["move_peasants", "move_nobles", "ransom", "bought", "sold", "shipped"],
        "work": ["fish", "hunt", "toil", "mine", "clear", "build", "population", "knight"],
        "building": ["road", "harbour", "mine", "stone_head", "manor", "motte", "castle"],
        "event": sorted(EVENT_TYPES),
    }
