"""Positions for the bots' tests: decisions reached by seeded random play on the forward model,
chosen by a predicate (after some moves, or where another seat holds something hidden), and
true states that differ only in what a seat cannot see."""

from __future__ import annotations

import random
from typing import Any, Callable

from services.rules.core import GameConfig, canonical_json, get_rules
from services.rules.core.forward import apply, apply_phase, chance_from, start


def position(game: str, seed: str, ready: Callable[[Any, Any, int], bool], cap: int = 600) -> tuple[Any, Any, int]:
    """``(rules, state, seat)``: the first decision of seeded random 2-player play where
    ``ready(rules, state, seat)`` holds (``seat``: the seat to decide, with a choice)."""
    rules = get_rules(game)
    chance = chance_from(seed)
    state, _ = start(rules, GameConfig(game=game, players=2), chance)
    rng = random.Random(seed)
    for _ in range(cap):
        assert rules.outcome(state) is None, f"{game} ended before a position with {ready.__name__}"
        if rules.pending_phase(state):
            apply_phase(rules, state, chance)
            continue
        for seat in rules.to_move(state):
            if len(rules.legal_moves(state, seat)) > 1 and ready(rules, state, seat):
                return rules, state, seat
        seat = rules.to_move(state)[0]
        legal = rules.legal_moves(state, seat)
        apply(rules, state, seat, legal[rng.randrange(len(legal))], chance, checked=True)
    raise AssertionError(f"no position with {ready.__name__} in {cap} steps of {game}")


def after(moves: int) -> Callable[[Any, Any, int], bool]:
    """A position once ``moves`` decisions have been checked (a counter kept in the closure)."""
    seen = [0]

    def after_moves(rules: Any, state: Any, seat: int) -> bool:
        seen[0] += 1
        return seen[0] > moves

    return after_moves


def hidden(game: str) -> Callable[[Any, Any, int], bool]:
    """A position where the other seat holds something this seat cannot see (a gnome hand,
    sealed Resource Hog orders), or, in Noggin, where a Saga's Reserve card has one condition
    left: its hidden back decides what meeting it does, so a search that read it would differ."""
    def hidden_info(rules: Any, state: Any, seat: int) -> bool:
        other = 1 - seat
        if game == "gnomes":
            return bool(state.secret["hands"][other]) and bool(state.secret["hands"][seat])
        if game == "resource_hog":
            return str(other) in state.secret.get("orders", {}) and str(seat) not in state.secret["orders"]
        return any(saga is not None and saga.current is not None and saga.current.met.count(None) == 1
                   for saga in state.sagas)

    return hidden_info


def other_truth(rules: Any, state: Any, seat: int) -> Any:
    """A true state that differs from ``state`` only in what ``seat`` cannot see."""
    for i in range(50):
        alt = rules.determinise(state, seat, f"another truth {i}")
        if canonical_json(alt.secret) != canonical_json(state.secret):
            return alt
    raise AssertionError("no other hidden state found")
