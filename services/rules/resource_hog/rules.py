"""The Resource Hog ``Rules``: set-up, the secret orders, the mixing of the action tokens,
the three actions (peasants, nobles with their fights, trade), the round's events on the
phase worker (the phase ``events``, up to feeding), the owners' choices of how much salt to
spend preserving (house rule; the events after it follow the last choice) and the wealth count
after the last round
(``resource-hog-actions-and-events.txt``; house rules in ``docs/house-rules.md``).
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import TypeAdapter

from services.rules.core import match as core_match
from services.rules.core import Chance, Event, Op, Rules, public
from services.rules.core.events import Event as _Event

from . import events, hidden, nobles, trade, turns
from .content import content
from .moves import Move
from .state import COW, State, acting, copy_state, evolve

Handler = Callable[[State, dict[str, Any], Any], list[Event]]


def _mix(state: State, chance: Any, step: int, orders: dict[str, list[str]] | None = None) -> list[Event]:
    """``TokensMixed``: the ``step``-th token of every seat (of ``orders``, else the revealed
    ones), mixed by chance (house rule)."""
    rng: Chance = chance(f"resource_hog:mix:{state.draws}")
    given = state.orders if orders is None else orders
    tokens = [[int(seat), order[step]] for seat, order in sorted(given.items(), key=lambda kv: int(kv[0]))]
    return [public("TokensMixed", step=step, queue=rng.shuffled(tokens))]


def _reveal(state: State, chance: Any) -> list[Event]:
    """``OrdersRevealed`` with every seat's orders, then the first step's tokens mixed."""
    orders = {k: list(v) for k, v in sorted(state.secret["orders"].items(), key=lambda kv: int(kv[0]))}
    return [public("OrdersRevealed", orders=orders), *_mix(state, chance, 0, orders)]


def _orders(state: State, seat: int, order: list[str]) -> list[Event]:
    return [public("OrdersGiven", seat=seat), _Event("OrdersChosen", {"seat": seat, "order": list(order)}, seat)]


def _next_round(state: State) -> list[Event]:
    if state.round >= content().setup.rounds:
        return [public("GameEnded", reason="rounds", round=state.round)]
    return [public("RoundStarted", round=state.round + 1)]


def wealth(state: State) -> list[dict[str, int]]:
    """Each seat's wealth at the end (house rule, ambiguity 16): money, 5 a noble, 2 a peasant,
    and the buildings of its land (road 1, harbour 3, mine 3, manor 5, motte 12, castle 25,
    stone head 4); ``total`` the sum."""
    w = content().setup.wealth
    rows = []
    for p in state.players:
        lands = [a for a in state.lands.values() if a.owner == p.seat]
        row = {"money": p.money, "nobles": w["noble"] * sum(a.nobles for a in lands),
               "peasants": w["peasant"] * sum(a.peasants for a in lands),
               "buildings": sum(w[b] for a in lands for b in a.buildings) + sum(w["stone_head"] * a.stone_heads
                                                                               for a in lands)}
        row["total"] = sum(row.values())
        rows.append(row)
    return rows


def _final(state: State) -> list[Event]:
    rows = wealth(state)
    best = max((r["total"], r["money"]) for r in rows)
    winners = [i for i, r in enumerate(rows) if (r["total"], r["money"]) == best]
    return [public("FinalScored", scores=[r["total"] for r in rows], breakdown=rows, winners=winners)]


def _settle_zero(state: State) -> list[Event]:
    r = state.ransom
    return nobles.ransom_events(state, r["loser"], {"type": "ransom", "pay": {}})


OPERATIONS: dict[tuple[str, str], Handler] = {
    ("deck", "fight"): lambda s, a, c: nobles.fight(s, c, s.fighting, a["area"]),
    ("board", "settle_zero"): lambda s, a, c: _settle_zero(s),
    ("board", "action_done"): lambda s, a, c: [public("ActionDone", seat=s.fighting, action="nobles")],
    ("deck", "adjust_board"): lambda s, a, c: trade.adjust_board(s, c),
    ("score", "final_scoring"): lambda s, a, c: _final(s),
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
    """Resource Hog for 2-4 players (see the module docstring). Stateless: the state is a
    :class:`.state.State`, moves are the models of :mod:`.moves`."""

    name = "resource_hog"
    title = "Resource Hog"
    min_players = 2
    max_players = 4

    _adapter: TypeAdapter | None = None

    def move_model(self) -> TypeAdapter:
        """A ``TypeAdapter`` of the discriminated union of every move shape (extra fields forbidden)."""
        if ResourceHogRules._adapter is None:
            ResourceHogRules._adapter = TypeAdapter(Move)
        return ResourceHogRules._adapter

    def new_state(self) -> State:
        return State()

    def setup_ops(self, config) -> list[Op]:
        return [Op("board", "start_round")]

    def evolve(self, state: State, event: Event) -> None:
        evolve(state, event)

    def copy(self, state: State) -> State:
        return copy_state(state)

    def clone(self, state: State) -> State:
        """A copy-on-write clone of ``state`` (:data:`.state.COW`): changed only through
        :meth:`evolve`, like ``state`` while the clone lives."""
        return COW.clone(state)

    def to_move(self, state: State) -> list[int]:
        return [] if core_match.over(state) else turns.to_move(state)

    def candidates(self, state: State, seat: int):
        return turns.candidates(state, seat)

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The legal moves of ``seat`` in a stable order (empty if not its decision): the same
        moves as checking every candidate (:func:`.turns.legal_moves`)."""
        if seat not in self.to_move(state):
            return []
        return turns.legal_moves(state, seat)

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
        if state.ended is not None:
            return [Op("score", "final_scoring")] if state.final is None else []
        if state.ransom is not None:
            return [Op("board", "settle_zero")] if state.ransom["margin"] == 0 else []
        if state.fighting is not None:
            due = nobles.battles_due(state, state.fighting)
            return [Op("deck", "fight", {"area": due[0]})] if due else [Op("board", "action_done")]
        if state.stage == "orders" and state.players and all(p.ordered for p in state.players):
            return [Op("deck", "reveal")]
        if state.stage == "actions" and state.turn >= len(state.queue):
            return [Op("deck", "mix")] if state.step < 2 else [Op("board", "end_actions")]
        if state.stage == "preserve" and not state.preserving:  # every owner has chosen
            return [*(Op("board", f"event:{fn.__name__}") for fn in events.AFTER_PRESERVING),
                    Op("deck", "adjust_board"), Op("board", "next_round")]
        return []

    def pending_phase(self, state: State) -> str | None:
        if core_match.over(state):
            return None
        return "events" if state.stage == "events" else None

    def phase_ops(self, state: State, phase: str) -> list[Op]:
        if phase != "events":
            raise ValueError(f"resource_hog has no phase {phase!r}")
        return [Op("board", f"event:{fn.__name__}") for fn in events.BEFORE_PRESERVING]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The player view of ``seat`` (``None``: a spectator): the whole table without
        ``secret``; ``my_orders``, the seat's own orders before they are revealed; who has
        ordered is public (``players[].ordered``), what is not (house rule)."""
        out = self.table_view(state, seat)
        out["acting"] = list(acting(state)) if acting(state) else None
        out["my_orders"] = state.secret.get("orders", {}).get(str(seat)) if seat is not None else None
        return out

    def determinise(self, state: State, seat: int | None, seed: str) -> State:
        """A copy in which the other seats' unrevealed orders are a uniform sample (``seed``):
        :func:`.hidden.determinise`."""
        return hidden.determinise(state, seat, seed)

    def state_from_view(self, view: dict[str, Any], seed: str) -> State:
        """A state rebuilt from a player view, other seats' unrevealed orders sampled:
        :func:`.hidden.state_from_view`."""
        return hidden.state_from_view(view, seed)

    def outcome(self, state: State) -> dict[str, Any] | None:
        forfeit = core_match.outcome(state, len(state.players))
        if forfeit is not None:
            return forfeit
        if state.final is None:
            return None
        return {"reason": "rounds", "scores": list(state.final["scores"]), "winners": list(state.final["winners"]),
                "breakdown": state.final["breakdown"]}
