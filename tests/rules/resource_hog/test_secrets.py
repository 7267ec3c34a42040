"""Hidden information in Resource Hog: a seat's orders are seen by that seat alone until every
seat has ordered, then revealed together; everything else is public (house rule, the round).
Whole seeded games check every event type's audience and every view."""

from __future__ import annotations

import random

from services.rules.core import GameConfig, canonical_json
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog.state import EVENT_TYPES, visibility

GAMES = 8


def test_orders_reach_their_seat_alone_and_no_view_shows_another_seats_orders():
    seen = set()
    views = 0
    for i in range(GAMES):
        config = GameConfig(game="resource_hog", players=2 + i % 3)
        state = RULES.new_state()
        RULES.evolve(state, RULES.created_event(config))
        chance = chance_from(f"rh-secrets-{i}")
        events = resolve(RULES, state, RULES.setup_ops(config), chance)
        rng = random.Random(i)
        while RULES.outcome(state) is None:
            for e in events:
                seen.add(e.type)
                assert e.to == (e.data["seat"] if visibility(e.type) == "private" else None), e
            if state.stage == "orders":
                given = state.secret["orders"]
                for seat in [None, *range(len(state.players))]:
                    view = RULES.view(state, seat)
                    text = canonical_json({k: v for k, v in view.items() if k != "my_orders"})
                    assert "secret" not in view
                    assert view["my_orders"] == (given.get(str(seat)) if seat is not None else None)
                    assert '"orders":{}' in text  # nothing revealed before all have ordered
                    views += 1
            if RULES.pending_phase(state):
                events = apply_phase(RULES, state, chance)
                continue
            seat = RULES.to_move(state)[0]
            events = apply(RULES, state, seat, rng.choice(RULES.legal_moves(state, seat)), chance, checked=True)
    for e in events:
        seen.add(e.type)
    assert views > 50
    assert {"OrdersChosen", "OrdersGiven", "OrdersRevealed", "TokensMixed", "FinalScored"} <= seen
    assert seen <= EVENT_TYPES
