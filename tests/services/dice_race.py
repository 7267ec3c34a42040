"""A test-only game that needs all four domains and the deck's secret seed.

Set-up: the deck shuffles the turn order. A move ``{"type": "roll"}`` is resolved by
four operations, one per domain, each seeing the events of the ones before it only as
pending events: the deck rolls a die (chance from the seed), the board advances the
runner by the roll, the market takes one coin of toll, the score track adds the roll.
When a runner reaches the goal the rules owe one more score operation (final scoring
with a tie-break on coins). Played over gRPC it proves that chance, pending events and
follow-ups give the same log as the embedded adapters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event, IllegalMove, Op, Rules, register

GOAL = 10
COINS = 6


@dataclass(slots=True)
class State:
    config: dict[str, Any] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    turn: int = 0
    roll: int = 0
    position: list[int] = field(default_factory=list)
    coins: list[int] = field(default_factory=list)
    score: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None


class DiceRace(Rules):
    name = "dice_race"
    title = "Dice race (test game)"
    min_players = 2
    max_players = 4

    def new_state(self) -> State:
        return State()

    def setup_ops(self, config) -> list[Op]:
        return [Op("deck", "shuffle_order", {"players": config.players})]

    def evolve(self, state: State, event: Event) -> None:
        d = event.data
        if event.type == "GameCreated":
            n = d["config"]["players"]
            state.config = d["config"]
            state.position, state.coins, state.score = [0] * n, [COINS] * n, [0] * n
        elif event.type == "TurnOrderDrawn":
            state.order = d["order"]
        elif event.type == "DieRolled":
            state.roll = d["roll"]
        elif event.type == "Advanced":
            state.position[d["seat"]] = d["to"]
        elif event.type == "TollPaid":
            state.coins[d["seat"]] -= d["coins"]
        elif event.type == "Scored":
            state.score[d["seat"]] += d["points"]
            state.turn += 1
        elif event.type == "GameScored":
            state.result = d
        else:
            raise ValueError(f"unknown event {event.type}")

    def to_move(self, state: State) -> list[int]:
        if state.result is not None or not state.order:
            return []
        return [state.order[state.turn % len(state.order)]]

    def candidates(self, state: State, seat: int):
        return [{"type": "roll"}]

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "roll":
            raise IllegalMove('the only move is {"type": "roll"}')

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        return [Op("deck", "roll", {"turn": state.turn}), Op("board", "advance", {"seat": seat}),
                Op("market", "toll", {"seat": seat}), Op("score", "tally", {"seat": seat})]

    def follow_up(self, state: State) -> list[Op]:
        if state.result is None and max(state.position, default=0) >= GOAL:
            return [Op("score", "final")]
        return []

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        a = op.args
        if op.name == "shuffle_order":
            return [Event("TurnOrderDrawn", {"order": chance("order").shuffled(range(a["players"]))})]
        if op.name == "roll":
            return [Event("DieRolled", {"roll": chance(f"roll:{a['turn']}").below(6) + 1})]
        if op.name == "advance":
            return [Event("Advanced", {"seat": a["seat"], "to": state.position[a["seat"]] + state.roll})]
        if op.name == "toll":
            return [Event("TollPaid", {"seat": a["seat"], "coins": 1 if state.coins[a["seat"]] else 0})]
        if op.name == "tally":
            return [Event("Scored", {"seat": a["seat"], "points": state.roll})]
        if op.name == "final":
            best = max(zip(state.score, state.coins))
            winners = [s for s in range(len(state.score)) if (state.score[s], state.coins[s]) == best]
            return [Event("GameScored", {"scores": state.score, "winners": winners})]
        raise ValueError(f"unknown operation {op.name!r}")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"position": state.position, "coins": state.coins, "score": state.score}

    def outcome(self, state: State):
        if state.result is None:
            return None
        return {"reason": "a runner reached the goal", **state.result}


GAME = register(DiceRace())
