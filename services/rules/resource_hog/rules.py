"""The Resource Hog ``Rules`` so far: set-up, the secret orders, the mixing of the action
tokens, the peasants' action and the round's events on the phase worker. The nobles' action
(moves and fights) and the trade action are still to come: in them a seat can only say
``done``, and the trading board does not move yet. The game is therefore not registered.
"""

from __future__ import annotations

from typing import Any, Callable

from services.rules.core import Chance, Event, Op, Rules, public
from services.rules.core.events import Event as _Event

from . import events, turns
from .content import content
from .state import State, copy_state, evolve

Handler = Callable[[State, dict[str, Any], Any], list[Event]]


def _mix(state: State, chance: Any, step: int) -> list[Event]:
    """``TokensMixed``: the ``step``-th token of every seat, mixed by chance (house rule)."""
    rng: Chance = chance(f"resource_hog:mix:{state.draws}")
    tokens = [[int(seat), order[step]] for seat, order in sorted(state.orders.items(), key=lambda kv: int(kv[0]))]
    return [public("TokensMixed", step=step, queue=rng.shuffled(tokens))]


def _reveal(state: State, chance: Any) -> list[Event]:
    orders = {k: list(v) for k, v in sorted(state.secret["orders"].items(), key=lambda kv: int(kv[0]))}
    revealed = public("OrdersRevealed", orders=orders)
    scratch = copy_state(state)
    evolve(scratch, revealed)
    return [revealed, *_mix(scratch, chance, 0)]


def _orders(state: State, seat: int, order: list[str]) -> list[Event]:
    return [public("OrdersGiven", seat=seat), _Event("OrdersChosen", {"seat": seat, "order": list(order)}, seat)]


def _next_round(state: State) -> list[Event]:
    if state.round >= content().setup.rounds:
        return [public("GameEnded", reason="rounds", round=state.round)]
    return [public("RoundStarted", round=state.round + 1)]


OPERATIONS: dict[tuple[str, str], Handler] = {
    ("board", "start_round"): lambda s, a, c: _next_round(s),
    ("board", "orders"): lambda s, a, c: _orders(s, a["seat"], a["order"]),
    ("deck", "reveal"): lambda s, a, c: _reveal(s, c),
    ("deck", "mix"): lambda s, a, c: _mix(s, c, s.step + 1),
    ("board", "peasants"): lambda s, a, c: turns.events_of(s, a["seat"], a["move"]),
    ("board", "end_actions"): lambda s, a, c: [public("ActionsEnded", round=s.round)],
    **{("board", f"event:{fn.__name__}"): (lambda fn: lambda s, a, c: fn(s))(fn) for fn in events.EVENT_STEPS},
    ("board", "next_round"): lambda s, a, c: _next_round(s),
}


class ResourceHogRules(Rules):
    """Resource Hog for 2-4 players, as far as it is built (see the module docstring)."""

    name = "resource_hog"
    title = "Resource Hog"
    min_players = 2
    max_players = 4

    def new_state(self) -> State:
        return State()

    def setup_ops(self, config) -> list[Op]:
        return [Op("board", "start_round")]

    def evolve(self, state: State, event: Event) -> None:
        evolve(state, event)

    def copy(self, state: State) -> State:
        return copy_state(state)

    def to_move(self, state: State) -> list[int]:
        return turns.to_move(state)

    def candidates(self, state: State, seat: int):
        return turns.candidates(state, seat)

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        self.require_turn(state, seat)
        turns.check(state, seat, move)

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        if move["type"] == "orders":
            return [Op("board", "orders", {"seat": seat, "order": move["order"]})]
        return [Op("board", "peasants", {"seat": seat, "move": move})]

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        fn = OPERATIONS.get((op.domain, op.name))
        if fn is None:
            raise ValueError(f"unknown Resource Hog operation {op.domain}.{op.name}")
        return fn(state, op.args, chance)

    def follow_up(self, state: State) -> list[Op]:
        if state.stage == "orders" and state.players and all(p.ordered for p in state.players):
            return [Op("deck", "reveal")]
        if state.stage == "actions" and state.turn >= len(state.queue):
            return [Op("deck", "mix")] if state.step < 2 else [Op("board", "end_actions")]
        return []

    def pending_phase(self, state: State) -> str | None:
        return "events" if state.stage == "events" else None

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        if phase != "events":
            raise ValueError(f"resource_hog has no phase {phase!r}")
        return [*(Op("board", f"event:{fn.__name__}") for fn in events.EVENT_STEPS), Op("board", "next_round")]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        from services.rules.core import to_plain

        out = to_plain(state)
        del out["secret"]
        out["seat"] = seat
        out["my_orders"] = state.secret.get("orders", {}).get(str(seat)) if seat is not None else None
        return out

    def outcome(self, state: State) -> dict[str, Any] | None:
        return None
