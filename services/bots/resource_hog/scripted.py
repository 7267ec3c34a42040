"""The ``scripted`` Resource Hog bot: feed first, grow slowly (issue 22's sparring partner).

A short hand-written policy (``docs/house-rules.md``, Resource Hog; the table's events Feed,
Population increases and Increase fish/game populations in
``resource-hog-actions-and-events.txt``):

* orders: peasants, nobles, trade, every round;
* peasants: in each of its areas, one peasant a round asks for a new peasant as soon as the
  area has food to spare for it; free peasants fish and hunt only while the pool left behind
  still regrows by two (fish) or at all (game), then toil the fields; if the area would still go hungry,
  the remaining peasants fish or hunt whatever is left (nobody starves while there is food);
* it never moves peasants or nobles, never builds, never trades (``done``);
* a ransom: the first way to pay offered; preserving: all the salt it can (the first move offered).
"""

from __future__ import annotations

import random
from typing import Any

from services.rules.resource_hog import turns
from services.rules.resource_hog.state import State

from . import economy

ORDER = ["peasants", "nobles", "trade"]
"""The scripted bot's orders every round."""
FISH_KEEP = 5
"""Fish left in a pool: it then regrows by two (table: increase fish populations)."""
GAME_KEEP = 1
"""Game left on an area's squares: it then regrows (table: increase game populations)."""


def _state(rules: Any, view: dict[str, Any]) -> State:
    return rules.state_from_view(view, "scripted")


def allocation(state: State, seat: int, legal: list[dict[str, Any]], fish_keep: int = FISH_KEEP,
               game_keep: int = GAME_KEEP, grow: bool = True) -> dict[str, Any] | None:
    """The next peasant allocation of the feed-first policy for ``seat`` (one of ``legal``), or
    None when every area is settled. Areas in ring order; in each: one population peasant a
    round as soon as the area has food to spare for it, food that regrows, then toil, then
    any food while the area would go hungry."""
    popped = any(state.lands[a].work.get("population") for a in economy.owned(state, seat))
    for area in economy.owned(state, seat):
        a = state.lands[area]
        if turns.free_peasants(state, area) < 1:
            continue
        targets = turns.work_targets(state, area)
        if grow and not popped and "population" in targets and economy.balance(a) >= 1:
            return economy.find(legal, type="allocate", area=area, work="population")
        for w in economy.waters(area):
            if f"fish:{w}" in targets and economy.regrows(state.fish[w], fish_keep):
                return economy.find(legal, type="allocate", area=area, work=f"fish:{w}")
        if "hunt" in targets and economy.regrows(a.game, game_keep):
            return economy.find(legal, type="allocate", area=area, work="hunt")
        if "toil" in targets:
            return economy.find(legal, type="allocate", area=area, work="toil")
        if economy.balance(a) < 0:
            for work in [*(f"fish:{w}" for w in economy.waters(area)), "hunt"]:
                if work in targets:
                    return economy.find(legal, type="allocate", area=area, work=work)
    return None


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The scripted move for the seat of ``view`` (a Resource Hog player view): one of ``legal``
    (the very object). Deterministic: ``rng`` (seeded by the caller from seed and version) only
    breaks a case the policy does not cover.

    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    seat = view["seat"]
    kinds = {m["type"] for m in legal}
    if "orders" in kinds:
        return economy.find(legal, type="orders", order=ORDER) or legal[0]
    if "ransom" in kinds or "preserve" in kinds:  # the first preserve move spends all the salt it can
        return legal[0]
    state = _state(rules, view)
    if "allocate" in kinds or "move_peasants" in kinds:
        move = allocation(state, seat, legal)
        if move is not None:
            return move
    done = economy.find(legal, type="done")
    return done if done is not None else legal[rng.randrange(len(legal))]
