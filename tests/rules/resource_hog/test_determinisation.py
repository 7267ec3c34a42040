"""Search from a view samples only possible worlds (issue 22, honest determinisation).

A Resource Hog seat cannot see one thing: the other seats' orders before every seat has
ordered (resource-hog-components.md, Round structure hints: orders are secret and
simultaneous; docs/house-rules.md, Resource Hog: The round, 1). ``rules.state_from_view``
must keep everything public and the seat's own orders, and deal each other seat that has
ordered one of the six orders, uniformly; a seat yet to order has none. 1,000 worlds are
sampled from real views of seeded games played by bots, at every stage of a round.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.bots.decide import decide
from services.rules.core import GameConfig, canonical_json
from services.rules.core.canonical import to_plain
from services.rules.core.forward import apply, apply_phase, chance_from, start
from services.rules.core.match import MatchRecord, strike_events
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog.hidden import ORDERS, determinise, match_from_view
from services.rules.resource_hog.state import State

WORLDS = 1000
TOKENS = ("nobles", "peasants", "trade")


def _public(state: State) -> str:
    """Everything but ``secret``, as canonical JSON."""
    data = to_plain(state)
    data.pop("secret", None)
    return canonical_json(data)


def _positions():
    """``(state, seat)`` at decision points of seeded 2-4 seat games played by random and
    scripted bots: every orders decision (some seats ordered, some not) and some action ones."""
    for g in range(9):
        players = 2 + g % 3
        chance = chance_from(f"rh-det-{g}")
        state, _ = start(RULES, GameConfig(game="resource_hog", players=players), chance)
        kinds = ["random", "scripted", "random", "scripted"][:players]
        rng = random.Random(g)
        version = 0
        while RULES.outcome(state) is None:
            if RULES.pending_phase(state):
                apply_phase(RULES, state, chance)
                version += 1
                continue
            seat = RULES.to_move(state)[0]
            if state.stage == "orders" or rng.random() < 0.05:
                yield state, seat
            legal = RULES.legal_moves(state, seat)
            move = decide(kinds[seat], f"s{g}:{seat}", RULES, state, seat, version, legal)
            apply(RULES, state, seat, move, chance, checked=True)
            version += 1


def _check_world(world: State, truth: State, seat: int) -> None:
    assert _public(world) == _public(truth)  # every public thing unchanged
    given = truth.secret.get("orders", {})
    sampled = world.secret["orders"]
    assert sorted(sampled) == sorted(given)  # exactly the seats that ordered have orders
    for k, order in sampled.items():
        assert sorted(order) == list(TOKENS)  # each token once: no token more often than it exists
    if str(seat) in given:
        assert sampled[str(seat)] == given[str(seat)]  # the seat's own private orders kept


@pytest.mark.rules("resource_hog:house rules/orders-secret")
def test_a_thousand_worlds_from_real_views_are_all_possible():
    worlds = 0
    drawn: Counter = Counter()
    stages: Counter = Counter()
    for state, seat in _positions():
        view = RULES.view(state, seat)
        for k in range(5):
            world = RULES.state_from_view(view, f"w{worlds}:{k}")
            _check_world(world, state, seat)
            for s, order in world.secret["orders"].items():
                if s != str(seat):
                    drawn[tuple(order)] += 1
            worlds += 1
        stages[(state.stage, bool(state.secret.get("orders")))] += 1
        if worlds >= WORLDS:
            break
    assert worlds >= WORLDS
    assert stages[("orders", True)] and stages[("orders", False)] and stages[("actions", False)]
    assert set(drawn) == set(ORDERS)  # every order possible, none favoured beyond chance
    mean = sum(drawn.values()) / 6
    assert all(abs(n - mean) < 0.25 * mean for n in drawn.values()), drawn


@pytest.mark.rules("resource_hog:house rules/orders-secret")
def test_determinise_keeps_the_seat_and_public_state_and_never_copies_the_true_orders():
    chance = chance_from("rh-det-orders")
    state, _ = start(RULES, GameConfig(game="resource_hog", players=4), chance)
    for s, order in enumerate(ORDERS[:3]):
        apply(RULES, state, s, {"type": "orders", "order": list(order)}, chance)
    same = Counter()
    for i in range(300):
        world = determinise(state, 0, f"d{i}")
        _check_world(world, state, 0)
        assert "3" not in world.secret["orders"]  # seat 3 has not ordered: nothing to sample
        same[world.secret["orders"]["1"] == state.secret["orders"]["1"]] += 1
    assert 20 < same[True] < 90  # about 1 in 6: the true order is not leaked
    assert state.secret["orders"]["1"] == list(ORDERS[1])  # the true state is untouched


@pytest.mark.rules("resource_hog:agent matches/forfeit-ends-game")
def test_a_view_with_a_match_record_rebuilds_the_record_and_a_forfeit_ends_the_sample():
    chance = chance_from("rh-det-match")
    state, _ = start(RULES, GameConfig(game="resource_hog", players=2), chance)
    for e in strike_events(state, 1, "timeout", 3):
        RULES.evolve(state, e)
    world = RULES.state_from_view(RULES.view(state, 0), "m")
    assert isinstance(world.match, MatchRecord) and world.match.strikes == {1: 1}
    assert _public(world) == _public(state)
    for e in strike_events(state, 1, "timeout", 1):
        RULES.evolve(state, e)
    world = RULES.state_from_view(RULES.view(state, 0), "m")
    assert isinstance(world.match, MatchRecord) and world.match.forfeited == [1]
    assert RULES.outcome(world) == RULES.outcome(state) and RULES.to_move(world) == []
    assert match_from_view(None) is None


def test_a_spectators_view_samples_every_ordered_seat():
    chance = chance_from("rh-det-spectator")
    state, _ = start(RULES, GameConfig(game="resource_hog", players=3), chance)
    apply(RULES, state, 2, {"type": "orders", "order": list(ORDERS[5])}, chance)
    world = RULES.state_from_view(RULES.view(state, None), "x")
    assert list(world.secret["orders"]) == ["2"] and tuple(world.secret["orders"]["2"]) in ORDERS
