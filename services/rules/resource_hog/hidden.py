"""What a Resource Hog seat cannot see, and search over what it knows.

The only hidden part of a Resource Hog state is ``State.secret["orders"]``: the order of the
three action tokens that each seat chose in secret, kept until every seat has ordered
(``resource-hog-components.md``, Round structure hints: "each player's orders are secret and
simultaneous"; ``docs/house-rules.md``, Resource Hog: The round, 1. Orders). A seat sees its
own orders (``view["my_orders"]``) and, for every other seat, only whether it has ordered
(``players[].ordered``). Everything else — the map, every store, the purses, the trading
board, the mixed token queue, a match record — is public.

:func:`determinise` and :func:`state_from_view` therefore keep everything public and the
seat's own orders as they are, and deal each other seat that has ordered one of the six
orders uniformly at random (any of them is possible: no order is used up by another seat's).
A seat that has not ordered yet has no orders in the sample, as in the true state.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from services.rules.core.match import MatchRecord

from .state import Land, Player, State, copy_state

ORDERS: tuple[tuple[str, str, str], ...] = (
    ("peasants", "nobles", "trade"), ("peasants", "trade", "nobles"), ("nobles", "peasants", "trade"),
    ("nobles", "trade", "peasants"), ("trade", "peasants", "nobles"), ("trade", "nobles", "peasants"))
"""The six orders of the three action tokens, in the order of :data:`.turns.ORDERS`."""


def sample_orders(ordered: list[int], seat: int | None, own: list[str] | None, seed: str) -> dict[str, list[str]]:
    """Secret orders for a sample: ``{str(seat): order}`` for every seat in ``ordered`` (those
    that have given their orders), the seat's own ``own`` kept, the others drawn uniformly
    from :data:`ORDERS` with ``random.Random(f"{seed}:determinise")`` in seat order.

    Raises:
        ValueError: ``seat`` has ordered but ``own`` is not one of :data:`ORDERS`.
    """
    rng = random.Random(f"{seed}:determinise")
    out: dict[str, list[str]] = {}
    for s in sorted(ordered):
        if seat is not None and s == seat:
            if own is None or tuple(own) not in ORDERS:
                raise ValueError(f"seat {seat} has ordered, but its own orders {own!r} are not an order")
            out[str(s)] = list(own)
        else:
            out[str(s)] = list(ORDERS[rng.randrange(len(ORDERS))])
    return out


def determinise(state: State, seat: int | None, seed: str) -> State:
    """A copy of ``state`` in which the orders ``seat`` cannot see (every other seat's, before
    they are revealed) are resampled with ``seed`` (see the module docstring); ``seat``
    ``None`` (a spectator) has every seat's orders sampled. ``state`` is not changed."""
    out = copy_state(state)
    given = state.secret.get("orders", {}) if state.secret else {}
    own = given.get(str(seat)) if seat is not None else None
    out.secret = {"orders": sample_orders([int(k) for k in given], seat, own, seed)}
    return out


def match_from_view(data: Any) -> MatchRecord | None:
    """The :class:`~services.rules.core.match.MatchRecord` of a view's ``match`` entry (plain
    data, strike counts keyed by the seat as a string), or ``None`` when the view has none.

    Raises:
        TypeError: ``data`` is neither ``None``, a dict nor a record.
    """
    if data is None or isinstance(data, MatchRecord):
        return None if data is None else data.copy()
    if not isinstance(data, dict):
        raise TypeError(f"a view's match is a dict, not {type(data).__name__}")
    return MatchRecord({int(k): int(v) for k, v in dict(data.get("strikes", {})).items()},
                       [int(s) for s in data.get("forfeited", [])])


def state_from_view(view: dict[str, Any], seed: str) -> State:
    """A full :class:`State` rebuilt from the player view ``view`` (``rules.view(state, seat)``):
    every public field as it is (players, lands with their stores and work, fish, the trading
    board, the revealed orders and token queue, a battle's ransom, the end, the match record
    as a :class:`MatchRecord`), the seat's own orders from ``view["my_orders"]`` and the
    hidden orders of the other seats sampled with ``seed`` (:func:`sample_orders`).

    Raises:
        KeyError: ``view`` lacks ``players`` or ``lands``.
    """
    names = {f.name for f in fields(State)}
    data = {k: v for k, v in view.items() if k in names and k not in ("secret", "players", "lands", "match")}
    state = State(**data)
    state.config = dict(view.get("config") or {})
    state.players = [Player(**p) for p in view["players"]]
    state.lands = {k: Land(**v) for k, v in view["lands"].items()}
    for a in state.lands.values():
        a.buildings = list(a.buildings)
        a.store, a.work, a.fresh, a.invaders = dict(a.store), dict(a.work), dict(a.fresh), dict(a.invaders)
        a.invaded_from = {k: list(v) for k, v in a.invaded_from.items()}
    state.fish = dict(state.fish)
    state.board = dict(state.board)
    state.orders = {k: list(v) for k, v in state.orders.items()}
    state.queue = [list(x) for x in state.queue]
    state.traded = list(state.traded)
    state.held = list(state.held)
    state.ransom = None if state.ransom is None else dict(state.ransom)
    state.preserving = dict(state.preserving)
    state.match = match_from_view(view.get("match"))
    seat = view.get("seat")
    ordered = [p.seat for p in state.players if p.ordered] if state.stage == "orders" else []
    own = view.get("my_orders")
    state.secret = {"orders": sample_orders(ordered, seat, own, seed)}
    return state
