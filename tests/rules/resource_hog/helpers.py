"""Helpers for Resource Hog rules tests: a game set up on the forward model, the ring, a seat's
home land and orders given for every seat."""

from __future__ import annotations

from typing import Any

import pytest

from services.rules.core import GameConfig, IllegalMove, state_hash
from services.rules.core.forward import apply, chance_from, start
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog.state import State

RING = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
"""The land areas in ring order (house rule map)."""


def new_game(players: int = 2, seed: str = "rh") -> tuple[State, Any]:
    """A set-up game of ``players``: ``(state, chance)``."""
    chance = chance_from(seed)
    state, _ = start(RULES, GameConfig(game="resource_hog", players=players), chance)
    return state, chance


def home(state: State, seat: int) -> str:
    """The first land ``seat`` owns in ring order."""
    return next(a for a in RING if state.lands[a].owner == seat)


def order_all(state: State, chance: Any, order: list[str]) -> int:
    """Every seat gives ``order``; returns the seat that acts first."""
    for seat in range(len(state.players)):
        apply(RULES, state, seat, {"type": "orders", "order": list(order)}, chance)
    return state.queue[0][0]


def run_step(state: State, step: Any) -> dict[str, Any]:
    """The events of one event step (a function of ``events.py``) evolved into ``state``: their
    data by type."""
    out = step(state)
    for e in out:
        RULES.evolve(state, e)
    return {e.type: e.data for e in out}


def refused(state: State, seat: int, move: dict[str, Any], chance: Any, match: str | None = None) -> None:
    """``move`` by ``seat`` is refused (IllegalMove, its message matching ``match``) and the state
    is exactly as it was."""
    before = state_hash(state)
    with pytest.raises(IllegalMove, match=match):
        apply(RULES, state, seat, move, chance)
    assert state_hash(state) == before
