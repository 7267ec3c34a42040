"""Sealed bid: all seats bid at once in secret; the bids are revealed together.

Each of 3 rounds every seat with budget left commits a bid of 0..budget. A seat sees
its own bid (a private event) and that the others have sealed theirs (public events),
never their amounts, until the last bid is in and all are revealed at once. The
highest bid wins the round (ties: the lowest seat); the bid is spent from the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.rules.core import Event, IllegalMove, Op, Rules, register

ROUNDS = 3
BUDGET = 5


@dataclass(slots=True)
class State:
    config: dict[str, Any] = field(default_factory=dict)
    players: int = 0
    round: int = 0
    budget: list[int] = field(default_factory=list)
    sealed: list[bool] = field(default_factory=list)
    bids: dict[int, int] = field(default_factory=dict)  # secret until revealed
    wins: list[int] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)


class SealedBid(Rules):
    name = "sealed_bid"
    title = "Sealed bid (test game)"
    min_players = 2
    max_players = 4

    def new_state(self) -> State:
        return State()

    def evolve(self, state: State, event: Event) -> None:
        d = event.data
        if event.type == "GameCreated":
            state.config = d["config"]
            state.players = d["config"]["players"]
            state.budget = [BUDGET] * state.players
            state.sealed = [False] * state.players
            state.wins = [0] * state.players
        elif event.type == "BidSealed":
            state.sealed[d["seat"]] = True
        elif event.type == "BidChosen":
            state.bids[d["seat"]] = d["amount"]
        elif event.type == "BidsRevealed":
            bids = d["bids"]
            for seat, amount in enumerate(bids):
                state.budget[seat] -= amount
            state.wins[d["winner"]] += 1
            state.history.append(bids)
            state.bids = {}
            state.sealed = [False] * state.players
            state.round += 1
        else:
            raise ValueError(f"unknown event {event.type}")

    def to_move(self, state: State) -> list[int]:
        if state.round >= ROUNDS:
            return []
        return [s for s in range(state.players) if not state.sealed[s]]

    def candidates(self, state: State, seat: int):
        return [{"type": "bid", "amount": a} for a in range(state.budget[seat] + 1)]

    def check(self, state: State, seat: int, move: dict[str, Any]) -> None:
        if move.get("type") != "bid" or not isinstance(move.get("amount"), int):
            raise IllegalMove('the only move is {"type": "bid", "amount": <int>}')
        if not 0 <= move["amount"] <= state.budget[seat]:
            raise IllegalMove(f"bid {move['amount']} is outside 0..{state.budget[seat]}")

    def plan(self, state: State, seat: int, move: dict[str, Any]) -> list[Op]:
        ops = [Op("market", "seal", {"seat": seat, "amount": move["amount"]})]
        if len(self.to_move(state)) == 1:
            ops.append(Op("market", "reveal"))
        return ops

    def handle(self, state: State, op: Op, chance) -> list[Event]:
        if op.name == "seal":
            seat = op.args["seat"]
            return [Event("BidSealed", {"seat": seat}), Event("BidChosen", dict(op.args), seat)]
        if op.name == "reveal":
            bids = [state.bids[s] for s in range(state.players)]
            winner = max(range(state.players), key=lambda s: (bids[s], -s))
            return [Event("BidsRevealed", {"bids": bids, "winner": winner})]
        raise ValueError(op.name)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out = {"round": state.round, "budget": state.budget, "sealed": state.sealed,
               "wins": state.wins, "history": state.history}
        if seat is not None and seat in state.bids:
            out["my_bid"] = state.bids[seat]
        return out

    def outcome(self, state: State):
        if state.round < ROUNDS:
            return None
        best = max(state.wins)
        return {"reason": "all rounds played", "scores": state.wins,
                "winners": [s for s, w in enumerate(state.wins) if w == best]}


GAME = register(SealedBid())
