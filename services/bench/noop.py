"""A test-only game for the hosted path's floor (``make bench``): every move is a no-op.

Registered as ``noop`` when a process lists ``services.bench.noop`` in
``LONGHOUSE_EXTRA_GAMES``. Seats take turns; each move is ``{"type": "tick"}``, resolved by
one ``board`` operation into one public ``Ticked`` event; the game ends after
:data:`TICKS` moves. Nothing is drawn and nothing is hidden, so what a hosted move of it
costs is the path itself: the coordinator, one domain call, the commit and the bus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.rules.core import Event, IllegalMove, Op, Rules, register

TICKS = 200
"""Moves in one game."""


@dataclass(slots=True)
class NoopState:
    """Seats and moves made so far."""

    players: int = 0
    ticks: int = 0


class NoopRules(Rules):
    """A game whose every move changes nothing but the count (see the module docstring)."""

    name = "noop"
    title = "No-op (benchmark floor)"
    min_players = 1
    max_players = 4

    def new_state(self) -> NoopState:
        return NoopState()

    def evolve(self, state: NoopState, event: Event) -> None:
        if event.type == "GameCreated":
            state.players = event.data["config"]["players"]
        elif event.type == "Ticked":
            state.ticks += 1
        else:
            raise ValueError(f"unknown noop event {event.type!r}")

    def copy(self, state: NoopState) -> NoopState:
        return NoopState(state.players, state.ticks)

    def to_move(self, state: NoopState) -> list[int]:
        return [] if state.ticks >= TICKS or not state.players else [state.ticks % state.players]

    def candidates(self, state: NoopState, seat: int) -> list[dict[str, Any]]:
        return [{"type": "tick"}] if seat in self.to_move(state) else []

    def check(self, state: NoopState, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "tick":
            raise IllegalMove('the only move is {"type": "tick"}')

    def plan(self, state: NoopState, seat: int, move: dict[str, Any]) -> list[Op]:
        return [Op("board", "tick", {"seat": seat})]

    def handle(self, state: NoopState, op: Op, chance: Any) -> list[Event]:
        return [Event("Ticked", {"seat": op.args["seat"]})]

    def view(self, state: NoopState, seat: int | None) -> dict[str, Any]:
        return {"ticks": state.ticks, "players": state.players}

    def outcome(self, state: NoopState) -> dict[str, Any] | None:
        if state.ticks < TICKS:
            return None
        return {"reason": f"{TICKS} ticks", "scores": [0] * state.players, "winners": []}


GAME = register(NoopRules())
