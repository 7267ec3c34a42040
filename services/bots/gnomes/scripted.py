"""The ``scripted`` bot of A Game of Gnomes, the sparring partner: pick, carry, sell.

A short hand-written policy (rulebook C.1-C.3, C.6, D, E), in order:

1. sleep: take the dream piles with the most cards (D); discard: keep the best cards (E);
2. sell here if a buyer takes a carried mushroom, for its best gem (C.3);
3. pick a mushroom here if the basket has room and a buyer can still be reached (C.2);
4. walk towards the best buyer of what it carries, or with an empty basket towards the best
   mushroom to pick (a round trip valued in points less the weeks, :mod:`.policy`), by the
   move that brings it nearest (C.1);
5. scout for a card when no move gets it closer (C.6), else end the turn.

It never buys, takes no quest and climbs no mountain; the ``expert`` does.
"""

from __future__ import annotations

import random
from typing import Any

from . import policy


def choose(rules: Any, view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """The scripted move for the seat of ``view`` (its player view), one of ``legal`` (the same dict).

    Args:
        rules: the Gnomes rules (``rules.state_from_view`` rebuilds what the view shows).
        view: the seat's player view; nothing else of the game is read.
        legal: the seat's legal moves.
        rng: unused (the policy is fixed), kept for the dispatcher's signature.
    Raises:
        ValueError: ``legal`` is empty.
    """
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return legal[0]
    seat = view["seat"]
    if legal[0]["type"] == "sleep":
        return policy.sleep_move(legal)
    if legal[0]["type"] == "discard":
        return policy.discard_move(legal)
    state = rules.state_from_view(view, "scripted")
    return turn_move(state, seat, legal)


def turn_move(state: Any, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Steps 2-5 of the module docstring for a turn."""
    end = policy.by_type(legal, "end_turn")[0]
    move = policy.sell_move(state, seat, legal)
    if move is not None:
        return move
    move = policy.pick_move(state, seat, legal)
    if move is not None:
        return move
    p = state.players[seat]
    goal = None
    if p.basket:
        goal = policy.best_sale(state, seat)[1]
    if goal is None and policy.basket_room(p) > 0:
        goal = policy.best_pick(state, seat)[1]
    if goal is None:
        return end
    move = policy.step_towards(state, seat, legal, goal)
    if move is not None:
        return move
    scout = policy.by_type(legal, "scout")
    return scout[0] if scout else end
