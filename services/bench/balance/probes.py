"""Single-strategy policies that ``make balance`` plays against the experts: if one of them wins
far more than its share, the game has a dominant strategy (issue "balance").

Each probe is a :data:`services.bots.arena.Policy` (``probe(rules, view, legal, rng)``): it plays
its one track when it can and the game's ``scripted`` bot otherwise, so it stays a whole player.

* Resource Hog (``resource-hog-actions-and-events.txt``): ``passive`` (the scripted grower:
  never builds, trades or moves nobles), ``builder`` (every build it may start), ``miner`` (a
  mine, then mining), ``trader`` (trade first; buys and sells whatever it can), ``warmonger``
  (nobles first; marches them into any land not its own).
* Noggin: ``sagas`` (the scripted Saga feeder). A Game of Gnomes: ``seller`` (the scripted
  pick-carry-seller).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from services.bots.arena import Policy
from services.bots.registry import game_module


def _fallback(game: str) -> Policy:
    scripted = game_module(game, "scripted")
    if scripted is None:
        return lambda rules, view, legal, rng: legal[rng.randrange(len(legal))]
    return scripted.choose


def _first(legal: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    return next((m for m in legal if test(m)), None)


def _track(game: str, pick: Callable[[Any, dict[str, Any], list[dict[str, Any]]], dict[str, Any] | None]) -> Policy:
    """A probe that plays ``pick(rules, view, legal)`` when it names a move, else the scripted bot."""
    fallback = _fallback(game)

    def probe(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        move = pick(rules, view, legal)
        return move if move is not None else fallback(rules, view, legal, rng)

    return probe


def _orders(first: str) -> Callable[[Any, dict[str, Any], list[dict[str, Any]]], dict[str, Any] | None]:
    def pick(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        return _first(legal, lambda m: m["type"] == "orders" and m["order"][0] == first)
    return pick


def _builder(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    return _first(legal, lambda m: m["type"] == "allocate" and m["work"].startswith("build:"))


def _miner(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    return (_first(legal, lambda m: m["type"] == "allocate" and m["work"] == "build:mine")
            or _first(legal, lambda m: m["type"] == "allocate" and m["work"].startswith("mine:")))


def _trader(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    return (_orders("trade")(rules, view, legal)
            or _first(legal, lambda m: m["type"] == "sell")
            or _first(legal, lambda m: m["type"] == "buy"))


def _warmonger(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    mine = {a for a, land in view.get("lands", {}).items() if land.get("owner") == view["seat"]}
    return (_orders("nobles")(rules, view, legal)
            or _first(legal, lambda m: m["type"] == "move_nobles" and m["to"] not in mine))


def probes(game: str) -> dict[str, Policy]:
    """The probes of ``game`` by name (none for a game without a scripted bot)."""
    if game_module(game, "scripted") is None:
        return {}
    if game == "resource_hog":
        return {"passive": _fallback(game), "builder": _track(game, _builder), "miner": _track(game, _miner),
                "trader": _track(game, _trader), "warmonger": _track(game, _warmonger)}
    if game == "noggin":
        return {"sagas": _fallback(game)}
    if game == "gnomes":
        return {"seller": _fallback(game)}
    return {}


def ablations(game: str) -> dict[str, Policy]:
    """The expert with one choice taken away, by name (``"without:mine"``): what ``make balance``
    measures a building's worth against, in games paired with the experts' (same seeds). Resource
    Hog only: its expert never allocates a peasant to build that building (every other choice as
    the expert's own); other games have none."""
    if game != "resource_hog":
        return {}
    from services.bots.resource_hog import expert
    from services.rules.resource_hog.content import content

    def without(building: str) -> Policy:
        forbid = frozenset({f"build:{building}"})

        def play(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
            return expert.policy(rules, view, legal, "expert", int(view.get("version", 0)), forbid)
        return play

    return {f"without:{b.id}": without(b.id) for b in content().buildings.buildings}
