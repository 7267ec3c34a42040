"""Helpers for the Noggin rules tests: build states directly and run moves without a table.

``run`` resolves a move exactly as the coordinator does (check, plan, handle each op with
the deck's chance, evolve), so tests can start from a hand-built state.
"""

from __future__ import annotations

import random
from typing import Any

from services.coordinator.table import embedded_table
from services.rules.core import Chance, Event, GameConfig, get_rules, state_hash
from services.rules.noggin.state import State

RULES = get_rules("noggin")
BASIC = ("stone", "wood", "fish", "harvest")


def new_game(players: int = 3, seed: str = "7"):
    """A table and the id of a fresh game."""
    t = embedded_table()
    return t, t.create(GameConfig(game="noggin", players=players), seed=seed)


def chance_of(seed: str):
    return lambda label: Chance(seed, label)


def _resolve(state: State, ops, seed: str) -> list[Event]:
    out = []
    while ops:
        for op in ops:
            events = RULES.handle(state, op, chance_of(seed) if op.domain == "deck" else None)
            for e in events:
                RULES.evolve(state, e)
            out.extend(events)
        ops = RULES.follow_up(state)
    return out


def fresh(players: int = 3, seed: str = "7") -> State:
    """The state right after set-up, built without a table."""
    state = RULES.new_state()
    config = GameConfig(game="noggin", players=players)
    RULES.evolve(state, RULES.created_event(config))
    _resolve(state, RULES.setup_ops(config), seed)
    return state


def seated(players: int = 3, seed: str = "7") -> State:
    """A fresh state with the markers in seat order (seat 0 first, dummies last) and seat 0 to act."""
    state = fresh(players, seed)
    colours = ["red", "blue", "yellow", "green"]
    from services.rules.noggin.state import Marker

    state.markers = [Marker(colour=c, seat=i if i < players else None) for i, c in enumerate(colours)]
    state.active = 0
    return state


def normal_turn(state: State, seat: int, positions: list[int]) -> State:
    """Put the markers on ``positions`` (every first turn done) and give ``seat`` the turn."""
    for m, p in zip(state.markers, positions):
        m.pos = p
        m.turns = 1
    state.runestone = min(positions)
    state.season = state.runestone // 10 + 1
    state.active = next(i for i, m in enumerate(state.markers) if m.seat == seat)
    return state


def run(state: State, seat: int, move: dict[str, Any], seed: str = "7") -> list[Event]:
    """Check and resolve ``move`` on ``state`` in place; returns the events."""
    move = RULES.parse_move(move)
    RULES.check(state, seat, move)
    return _resolve(state, RULES.plan(state, seat, move), seed)


def run_phase(state: State, seed: str = "7") -> list[Event]:
    phase = RULES.pending_phase(state)
    assert phase
    return _resolve(state, RULES.phase_ops(state, phase), seed)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def totals(state: State) -> dict[str, int]:
    """Every basic cube and Gold wherever it is (supply places of set-up C)."""
    out = {r: state.market[r] for r in BASIC}
    out["gold"] = state.gold_supply + state.market.get("gold", 0)
    out["fish"] += state.fjord
    out["wood"] += sum(state.forest)
    for p in state.players:
        out["wood"] += p.orchard
        out["harvest"] += sum(p.fields)
        for r in (*BASIC, "gold"):
            out[r] += p.stock[r]
    for cube in state.mine.values():
        if cube:
            out[cube] += 1
    if state.action is not None:
        for r, k in state.action.cart.items():
            out[r] += k
    on_cards = [m for saga in state.sagas if saga is not None and saga.current is not None for m in saga.current.met]
    on_cards += [m for inv in state.inventions if inv is not None for m in inv.met]
    for m in on_cards:
        if m is not None and m["paid"] in out:
            out[m["paid"]] += 1
    for p in state.players:
        for held in p.locked.values():
            for r, k in held.items():
                out[r] += k
    return out


def random_game(players: int, seed: str, bot_seed: int = 0, cap: int = 5000):
    """Play a whole game through a table with a uniform random bot; returns (table, id, moves)."""
    t, g = new_game(players, seed)
    rng = random.Random(bot_seed)
    moves = 0
    while True:
        s = t.summary(g)
        if s["status"] == "over":
            return t, g, moves
        rules, state, version = t.state(g)
        seat = s["to_move"][0]
        legal = rules.legal_moves(state, seat)
        assert legal, f"seat {seat} has no legal move"
        t.play(g, seat, rng.choice(legal), version, move_id=f"m{moves}")
        moves += 1
        assert moves < cap, "failure guard: the game did not end"


__all__ = ["BASIC", "RULES", "fresh", "new_game", "normal_turn", "random_game", "run", "run_phase",
           "seated", "state_hash", "totals", "types"]
