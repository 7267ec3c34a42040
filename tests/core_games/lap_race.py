"""Lap race: a race whose lap end is a phase run between moves (test-only game).

Seats take turns in seat order; a move runs 1 to 3 spaces. When every seat has run
once the lap is over and the phase ``lap_end`` must run before anyone moves again
(the shape of Noggin's change of season): it records the lap's leader. After
``LAPS`` laps the seat with most distance wins (ties: every seat with the best).
While the phase is pending nobody may move and the game's status is ``phase``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event, IllegalMove, Op, Rules, register

LAPS = 2


@dataclass(slots=True)
class State:
    config: dict[str, Any] = field(default_factory=dict)
    players: int = 0
    lap: int = 0
    distance: list[int] = field(default_factory=list)
    ran: list[bool] = field(default_factory=list)
    leaders: list[int] = field(default_factory=list)


class LapRace(Rules):
    name = "lap_race"
    title = "Lap race (test game)"
    min_players = 2
    max_players = 4

    def new_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> None:
        d = event.data
        if event.type == "GameCreated":
            state.config = d["config"]
            state.players = d["config"]["players"]
            state.distance = [0] * state.players
            state.ran = [False] * state.players
        elif event.type == "Ran":
            state.distance[d["seat"]] += d["pace"]
            state.ran[d["seat"]] = True
        elif event.type == "LapClosed":
            state.leaders.append(d["leader"])
            state.ran = [False] * state.players
            state.lap += 1
        else:
            raise ValueError(f"unknown event {event.type}")

    def _over(self, state: State) -> bool:
        return state.lap >= LAPS

    def to_move(self, state: State) -> list[int]:
        if not state.ran or self._over(state) or all(state.ran):
            return []
        return [state.ran.index(False)]

    def candidates(self, state: State, seat: int):
        return [{"type": "run", "pace": k} for k in (1, 2, 3)]

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "run" or move.get("pace") not in (1, 2, 3):
            raise IllegalMove("run at pace 1, 2 or 3")

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        return [Op("board", "run", {"seat": seat, "pace": move["pace"]})]

    def pending_phase(self, state: State) -> str | None:
        if state.ran and all(state.ran) and not self._over(state):
            return "lap_end"
        return None

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        if phase != "lap_end":
            raise ValueError(f"{self.name} has no phase {phase!r}")
        return [Op("score", "close_lap")]

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        if op.name == "run":
            return [Event("Ran", dict(op.args))]
        if op.name == "close_lap":
            leader = max(range(state.players), key=lambda s: (state.distance[s], -s))
            return [Event("LapClosed", {"lap": state.lap, "leader": leader})]
        raise ValueError(op.name)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"lap": state.lap, "distance": state.distance, "ran": state.ran,
                "leaders": state.leaders}

    def outcome(self, state: State):
        if not self._over(state):
            return None
        best = max(state.distance)
        return {"reason": f"{LAPS} laps run", "scores": state.distance,
                "winners": [s for s, d in enumerate(state.distance) if d == best]}


GAME = register(LapRace())
