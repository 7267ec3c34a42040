"""Step race: the seat furthest back moves next, recomputed after every move.

Seats start together on space 0 in seat order. A move advances 1 to 3 spaces; the
mover may not end on an occupied space (it goes on to the next free one, like
Noggin's no-sharing rule, rulebook 4.1). Whoever is furthest back moves next; among
seats on the same space the one that arrived first (lowest seat at the start) moves.
The first to reach space 12 wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event, IllegalMove, Op, Rules, register

GOAL = 12


@dataclass(slots=True)
class State:
    config: dict[str, Any] = field(default_factory=dict)
    position: list[int] = field(default_factory=list)
    arrival: list[int] = field(default_factory=list)  # order of arrival on a space
    clock: int = 0
    winner: int | None = None


class StepRace(Rules):
    name = "step_race"
    title = "Step race (test game)"
    min_players = 2
    max_players = 4

    def new_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> None:
        d = event.data
        if event.type == "GameCreated":
            n = d["config"]["players"]
            state.config = d["config"]
            state.position = [0] * n
            state.arrival = list(range(n))
            state.clock = n
        elif event.type == "Advanced":
            state.position[d["seat"]] = d["to"]
            state.arrival[d["seat"]] = state.clock
            state.clock += 1
            if d["to"] >= GOAL:
                state.winner = d["seat"]
        else:
            raise ValueError(f"unknown event {event.type}")

    def to_move(self, state: State) -> list[int]:
        if state.winner is not None or not state.position:
            return []
        return [min(range(len(state.position)), key=lambda s: (state.position[s], state.arrival[s]))]

    def candidates(self, state: State, seat: int):
        return [{"type": "advance", "steps": k} for k in (1, 2, 3)]

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "advance" or move.get("steps") not in (1, 2, 3):
            raise IllegalMove("advance 1, 2 or 3 steps")

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        return [Op("board", "advance", {"seat": seat, "steps": move["steps"]})]

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        seat = op.args["seat"]
        to = state.position[seat] + op.args["steps"]
        while any(p == to for s, p in enumerate(state.position) if s != seat):
            to += 1
        return [Event("Advanced", {"seat": seat, "to": to})]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"position": state.position, "to_move": self.to_move(state)}

    def outcome(self, state: State):
        if state.winner is None:
            return None
        return {"reason": f"seat {state.winner} reached space {GOAL}", "scores": state.position,
                "winners": [state.winner]}


GAME = register(StepRace())
