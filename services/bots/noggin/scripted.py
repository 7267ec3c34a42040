"""Noggin's ``scripted`` bot: a short hand-written policy that feeds the Sagas and passes
every bid — the sparring partner of the ``expert``.

It rests on the rulebook's own warning (noggin-the-nog-rulebook.txt 2.0, 9.0): unless
enough Sagas are completed, Nogbad takes the crown and every player loses. The Dragon
moves when a Saga is finished, by the Nogs on it divided by 6 rounded up (6.4 "Completing
a Saga"), so the policy:

1. answers a pending decision the cheap way: passes every bid (6.3), keeps a Counting
   House card face down for the 8 points late in the game and face up early (6.3), draws
   the next Reserve card from the C deck (resources only, no character to recruit, 6.4),
   adjusts the Seer's Tower upward (appendix), plays the Fireworks, leaves Knut's order;
2. meets a condition of a Saga's Reserve card whenever it may (Market Day, 6.0 and 6.4),
   with a Nog on the card (more Nogs move the Dragon further), the Saga closest to being
   finished first, and never pays with Gold or coins when a cube will do;
3. otherwise gathers what the Reserve cards still ask for (Food for a character, and the
   resources on them): fishing (5.2), harvesting and apples (5.4), cutting wood (5.3),
   digging Stone (5.1), or trading at the Nog Market (6.6);
4. ends its turn when it may, and else takes the cheapest useful action.

It reads only the seat's player view (``rules.view(state, seat)``) and the legal moves, and
its only randomness is the generator it is given (ties), so a decision is fixed by the seed,
the version and the view.
"""

from __future__ import annotations

import random
from typing import Any

from services.rules.noggin.content import CHARACTERS

FOOD = ("fish", "harvest")
"""The Food cubes (3.7)."""
CUBES = ("stone", "wood", "fish", "harvest")
"""The basic resources (3.7)."""
PRECIOUS = ("gold", "coin")
"""What may stand in for any cube but scores points at the end (5.1, 6.6, 9.0): paid last."""
LATE_SEASON = 5
"""From this season on a Counting House card won is turned face down for its 8 points (6.3)."""


def _kind(move: dict[str, Any]) -> str:
    """``market_day`` moves by their ``op`` (trade by default), others by their ``type``."""
    if move["type"] == "market_day":
        return move.get("op", "trade")
    return move["type"]


def _pay_cost(move: dict[str, Any]) -> int:
    """How many Gold or coins a move's ``pay`` spends (0 for cubes only)."""
    return sum(1 for c in move.get("pay") or [] if c in PRECIOUS)


def saga_needs(view: dict[str, Any]) -> dict[str, int]:
    """What the unmet conditions of the Reserve cards on the Sagas still ask for, in cubes:
    ``{"stone"|"wood"|"fish"|"harvest"|"food": count}``; a character asks for 1 Food (6.4).
    ``view`` is a Noggin player view; a Saga slot that is empty counts for nothing."""
    out: dict[str, int] = {}
    for saga in view.get("sagas") or []:
        cur = saga and saga.get("current")
        if not cur:
            continue
        for need, met in zip(cur["needs"], cur["met"]):
            if met is not None:
                continue
            if need in CHARACTERS:
                if view.get("characters", {}).get(need) == "castle":
                    out["food"] = out.get("food", 0) + 1
            else:
                out[need] = out.get(need, 0) + 1
    return out


def missing(view: dict[str, Any], seat: int, need: dict[str, int] | None = None) -> dict[str, int]:
    """What the seat lacks to meet ``need`` (default :func:`saga_needs`, every open Saga
    condition): the cubes minus its stock (Food may be either Fish or Harvest left after the
    named cubes, 6.4)."""
    stock = dict(view["players"][seat]["stock"])
    need = saga_needs(view) if need is None else need
    out: dict[str, int] = {}
    for r in CUBES:
        short = need.get(r, 0) - stock.get(r, 0)
        stock[r] = max(0, stock.get(r, 0) - need.get(r, 0))
        if short > 0:
            out[r] = short
    food_short = need.get("food", 0) - stock["fish"] - stock["harvest"]
    if food_short > 0:
        out["food"] = food_short
    return out


def _saga_rank(view: dict[str, Any], move: dict[str, Any]) -> tuple:
    """Order of Saga contributions: a Nog placed, no Gold or coin paid, the Counting House
    bonus, the Saga with the fewest cards still to complete, then the condition's order."""
    saga = view["sagas"][move["saga"]]
    left = saga["needed"] - len(saga["done"])
    return (not move.get("nog", True), _pay_cost(move), not move.get("bonus"), left, move["saga"], move["condition"])


def _decision(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The answer to a pending decision, if ``legal`` holds one (6.1, 6.3, 6.4, appendix)."""
    t = legal[0]["type"]
    if t == "bid":
        return next(m for m in legal if m["steps"] == 0)
    if t == "keep_card":
        face = "down" if view.get("season", 1) >= LATE_SEASON else "up"
        return next((m for m in legal if m["face"] == face), legal[0])
    if t == "draw_reserve":
        return next((m for m in legal if m["deck"] == "C"), legal[0])
    if t == "seers_tower":
        return max(legal, key=lambda m: m["adjust"])
    if t == "fireworks":
        return next((m for m in legal if m["play"]), legal[0])
    if t == "knut":
        return next((m for m in legal if not m["swap"]), legal[0])
    if t == "fishing_tokens":
        return next((m for m in legal if m.get("put_back") is None), legal[0])
    return None


def _gather(view: dict[str, Any], seat: int, legal: list[dict[str, Any]], short: dict[str, int]) -> dict[str, Any] | None:
    """An action or sub-action that brings a cube the Sagas still ask for (5.1-5.4, 6.6)."""
    by: dict[str, list[dict[str, Any]]] = {}
    for m in legal:
        by.setdefault(_kind(m), []).append(m)
    want_fish = short.get("fish", 0) + short.get("food", 0)
    want_harvest = short.get("harvest", 0) + short.get("food", 0)
    room = view["players"][seat].get("storage", {}).get("room", {})
    # Harvest from the fields and apples first: 1 Step a field of 2, or an apple (5.4)
    if want_harvest and room.get("harvest", 1) > 0:
        for k in ("harvest", "apple"):
            for m in legal:
                if m["type"] == "farmer" and m.get("op") == k:
                    return m
    if want_fish and by.get("fisherman") and room.get("fish", 1) > 0:
        return max(by["fisherman"], key=lambda m: (min(m["draws"], 2), -m["draws"]))
    if short.get("wood") and room.get("wood", 1) > 0:
        for k in ("orchard", "advance"):
            for m in legal:
                if m["type"] == "woodcutter" and m.get("op") == k:
                    return m
    if short.get("stone") and room.get("stone", 1) > 0:
        digs = [m for m in legal if m["type"] == "miner" and m.get("op") == "dig"]
        mine = view.get("mine") or {}
        stone = [m for m in digs if mine.get(f"{m['square'][0]},{m['square'][1]}") == "stone"]
        if stone:
            return stone[0]
        walks = [m for m in legal if m["type"] == "miner" and m.get("op") == "walk"]
        near = [m for m in walks if _next_to_stone(mine, m["square"])]
        if near and not digs:
            return near[0]
    trades = [m for m in by.get("trade", []) if _pay_cost({"pay": m["give"]}) == 0]
    for r in ("stone", "wood", "fish", "harvest"):
        if short.get(r) or (r in FOOD and short.get("food")):
            for m in trades:
                if m["take"] == r and not any(short.get(g) or (g in FOOD and short.get("food")) for g in m["give"]):
                    return m
    return None


def wanted_characters(view: dict[str, Any]) -> list[str]:
    """Characters an unmet condition of a Reserve card asks for who are not in Noggin's
    Castle (on another Saga, an Invention or an action), so cannot be recruited (6.4)."""
    where = view.get("characters") or {}
    out = []
    for saga in view.get("sagas") or []:
        cur = saga and saga.get("current")
        if not cur:
            continue
        for need, met in zip(cur["needs"], cur["met"]):
            if met is None and need in CHARACTERS and where.get(need, "castle") != "castle" and need not in out:
                out.append(need)
    return out


def _unblock(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Clear the way to the Sagas: evict Nogbad when he blocks an action (6.2, 8.0), and bring a
    character a Reserve card asks for back to the Castle with Graculus (6.1), paying cubes."""
    evicts = sorted((m for m in legal if _kind(m) == "evict" and _pay_cost(m) == 0),
                    key=lambda m: len(m.get("pay") or []))
    if evicts and view.get("nogbad") == "active":
        return evicts[0]
    wanted = wanted_characters(view)
    if wanted:
        for m in legal:
            if (_kind(m) == "character" and m.get("character") == "graculus" and m.get("target") in wanted
                    and _pay_cost(m) == 0):
                return m
    return None


def _next_to_stone(mine: dict[str, str], square: list[int]) -> bool:
    r, c = square
    return any(mine.get(f"{r + dr},{c + dc}") == "stone" for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The scripted move for the seat of ``view`` (a Noggin player view): one of ``legal``
    (the very same dict), chosen by the policy of the module docstring.

    Args:
        rules: the Noggin rules (unused beyond the interface of ``services.bots.decide``).
        rng: breaks ties among equally good moves (seeded by the bot's seed and the version).
    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    seat = view["seat"]
    answer = _decision(view, legal)
    if answer is not None:
        return answer
    sagas = [m for m in legal if _kind(m) == "saga"]
    if sagas:
        return min(sagas, key=lambda m: _saga_rank(view, m))
    helper = _unblock(view, legal)
    if helper is not None:
        return helper
    short = missing(view, seat)
    pick = _gather(view, seat, legal, short)
    in_action = view.get("action") is not None
    if pick is not None and not (in_action and pick["type"] != view["action"]["kind"]):
        return pick
    for k in ("finish", "end_turn"):
        for m in legal:
            if m["type"] == k:
                return m
    # must act: the cheapest useful action; Food is what characters always ask for (6.4)
    order = ("fisherman", "farmer", "woodcutter", "trade", "miner", "character", "builder", "restock")
    for k in order:
        ms = [m for m in legal if _kind(m) == k and _pay_cost(m) == 0]
        if k == "fisherman":
            ms = [m for m in ms if m["draws"] == 1]
        if ms:
            return ms[rng.randrange(len(ms))]
    return legal[rng.randrange(len(legal))]
