"""The A Game of Gnomes part of the bot batch (:mod:`.batch`): how games are set up and what
each must show.

Each game mixes 2-4 players, the first-game and random layouts (rulebook B) and the game
variant (J), and random and greedy bots. What is counted, from the events: every action
of a turn, sleep and discard (C-E), every movement kind (a single, double, free or
nugget card, three for free, each moving item, the ice, the winter footprints, a map,
the frog; C.1, G), every equipment card gained (C.4, C.7; treasures are counted
too, not required), every quest taken (and done, counted), every colour sold and the
Montane King (C.3), the layouts and the variant.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

from .batch_audience import count_audience

GREEDY_SHARE = 0.6
"""Chance that a seat is played by the greedy bot (the others are random)."""

ACTION_OF = {"GnomeMoved": "move", "MushroomPicked": "pick", "MushroomSold": "sell", "CardBought": "buy",
             "ShopRestocked": "restock", "Scouted": "scout", "QuestAccepted": "quest", "PondPipesUsed": "pond_pipes",
             "TurnEnded": "end_turn", "HandDiscarded": "discard"}
"""The action (C.1-C.7, C end, E) each event shows."""


def _seed(*parts: Any) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


def game_setup(seed: str, index: int) -> tuple[int, dict[str, bool], list[str]]:
    """Players, options and bot kinds of game ``index`` (all from the seed)."""
    rng = random.Random(_seed(seed, index, "gnomes-setup"))
    players = rng.choice((2, 3, 4))
    options = {k: True for k in ("random_layout", "gem_variant") if rng.random() < 0.5}
    bots = ["greedy" if rng.random() < GREEDY_SHARE else "random" for _ in range(players)]
    return players, options, bots


def movement(data: dict[str, Any]) -> list[str]:
    """The movement kinds one ``GnomeMoved`` shows."""
    from services.rules.gnomes.state import travel_cards

    by = data["by"]
    out = ["frog"] if data.get("frog") else []
    if by == "card":
        out.append(travel_cards()[data["cards"][0]].kind)
        if len(data["path"]) == 2:
            out.append("double_two_routes")
    elif by == "three_for_free":
        out.append("three_for_free")
        if "nugget" in data["cards"]:
            out.append("nugget")
    elif by == "equipment":
        out.append(data["item"])
    else:
        out.append(by)
    if data.get("crossed"):
        out.append(f"crossed_{data['crossed']}")
    return out


def count_events(events: list[Any], counts: Counter[str]) -> None:
    """Add what ``events`` show occurred to ``counts`` (keys ``<category>:<name>``)."""
    from services.rules.gnomes.state import treasures, visibility

    for e in events:
        d, t = e.data, e.type
        count_audience(e, visibility(t), counts)
        if t in ACTION_OF:
            counts[f"action:{ACTION_OF[t]}"] += 1
        if t == "Slept" and d["piles"]:
            counts["action:sleep"] += 1
        if t == "GnomeMoved":
            for m in movement(d):
                counts[f"movement:{m}"] += 1
            if d["by"] == "map":
                counts["action:climb"] += 1
        elif t in ("CardBought", "QuestRewardTaken"):
            counts[f"{'treasure' if d['card'] in treasures() else 'equipment'}:{d['card']}"] += 1
        elif t == "QuestAccepted":
            counts[f"quest:{d['quest']}"] += 1
        elif t == "QuestCompleted":
            counts[f"quest_done:{d['quest']}"] += 1
        elif t == "MushroomSold":
            counts[f"sold:{d['mushroom']}"] += 1
        elif t == "LayoutPlaced":
            counts[f"layout:{'random' if d['random'] else 'first_game'}"] += 1
        elif t == "WinterCame":
            counts["season:winter"] += 1


def expected() -> dict[str, list[str]]:
    """Every name the batch must see at least once, by category."""
    from services.rules.gnomes.content import content
    from services.rules.gnomes.rules import OPTIONS

    c = content().cards
    return {
        "action": ["move", "climb", "pond_pipes", "pick", "sell", "buy", "restock", "scout", "quest", "end_turn",
                   "sleep", "discard"],
        "movement": ["single", "double", "double_two_routes", "free", "three_for_free", "nugget", "frog", "canteen",
                     "short_axe", "hill_boots", "compass", "leaf_boat", "tunnel_key", "spare_key", "ice",
                     "winter_path", "map", "crossed_river", "crossed_lake"],
        "equipment": sorted({e.id for e in c.shop}),
        "quest": sorted(q.id for q in c.quests),
        "sold": ["blue", "yellow", "red", "king"],
        "layout": ["first_game", "random"],
        "variant": list(OPTIONS),
    }
