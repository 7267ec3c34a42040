"""The ISMCTS bot: legal moves in every game, a decision fixed by seed, version and view, never
a read of the true hidden state, and determinisations drawn from what the seat has not seen.

Positions come from seeded random play on the forward model; searches use a few iterations.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import pytest

from services.bots import ismcts
from services.bots.decide import BOT_KINDS, decide, decide_for
from services.bots.players import make_bot
from services.rules.core import canonical_json, get_rules
from tests.support.positions import after, hidden, other_truth, position

GAMES = ("noggin", "gnomes", "resource_hog")
ITERATIONS = 12


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_returns_a_legal_move_in_every_game(game):
    rules, state, seat = position(game, f"legal-{game}", after(30))
    legal = rules.legal_moves(state, seat)
    for version in range(3):
        move = decide("ismcts", "bot", rules, state, seat, version, iterations=ITERATIONS)
        assert move in legal
    move = decide_for({"kind": "ismcts", "seed": "bot", "iterations": ITERATIONS}, rules, state, seat, 7)
    assert move in legal
    decision = ismcts.search(rules, rules.view(state, seat), "bot", 7, ITERATIONS, legal=legal)
    assert decision.move is next(m for m in legal if m == decision.move)
    assert sum(c.visits for c in decision.root.children.values()) == ITERATIONS - decision.failed
    assert decision.failed == 0


def test_ismcts_is_a_bot_kind_on_the_bus_and_by_name():
    assert "ismcts" in BOT_KINDS
    bot = make_bot("ismcts", "s")
    assert bot.kind == "ismcts"
    with pytest.raises(ValueError):
        decide("no such bot", "s", get_rules("gnomes"), None, 0, 0, legal=[{"type": "x"}])


@pytest.mark.parametrize("game", GAMES)
def test_a_decision_is_fixed_by_seed_version_and_view(game):
    rules, state, seat = position(game, f"same-{game}", after(20))
    view = rules.view(state, seat)
    legal = rules.legal_moves(state, seat)

    def stats(seed: str, version: int) -> tuple[Any, dict[str, tuple[int, int, float]]]:
        d = ismcts.search(rules, view, seed, version, ITERATIONS, legal=legal)
        return d.move, {k: (c.visits, c.available, round(c.reward, 9)) for k, c in d.root.children.items()}

    assert stats("a", 5) == stats("a", 5)
    assert decide("ismcts", "a", rules, rules.copy(state), seat, 5, iterations=ITERATIONS) == stats("a", 5)[0]
    # a new bot object with the same seed makes the same choice at the same version
    assert make_bot("ismcts", "a", iterations=ITERATIONS).choose(legal, view, game, 5) == stats("a", 5)[0]


@pytest.mark.parametrize("game", GAMES)
def test_different_seeds_versions_and_iterations_sample_different_determinisations(game):
    rules, state, seat = position(game, f"vary-{game}", hidden(game))
    view = rules.view(state, seat)

    def secret(seed: str, version: int, iteration: int) -> str:
        return canonical_json(ismcts.determinisation(rules, view, seed, version, iteration).secret)

    by_seed = {secret(f"seed{i}", 3, 1) for i in range(12)}
    by_version = {secret("seed", v, 1) for v in range(12)}
    by_iteration = {secret("seed", 3, i) for i in range(12)}
    assert len(by_seed) > 1 and len(by_version) > 1 and len(by_iteration) > 1
    assert ismcts.sample_seed("a", 1, 2) != ismcts.sample_seed("b", 1, 2) != ismcts.sample_seed("a", 2, 2)


@pytest.mark.parametrize("game", GAMES)
def test_a_determinisation_is_the_games_own_sample_from_the_view(game):
    """The cheap path (re-determinising one state rebuilt from the view) draws exactly what
    ``state_from_view`` draws for that iteration's seed."""
    rules, state, seat = position(game, f"cheap-{game}", hidden(game))
    view = rules.view(state, seat)
    base = rules.state_from_view(view, "any")
    for i in range(5):
        full = rules.state_from_view(view, ismcts.sample_seed("bot", 9, i))
        cheap = ismcts.determinisation(rules, view, "bot", 9, i, base)
        assert canonical_json(cheap) == canonical_json(full)
        assert canonical_json(rules.view(cheap, seat)) == canonical_json(view)


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_never_reads_the_true_hidden_state(game, monkeypatch):
    """Two true states that differ only in what the seat cannot see (the other hand, the decks,
    sealed orders, a Saga card's back) give the same search, visit for visit."""
    rules, state, seat = position(game, f"truth-{game}", hidden(game))
    alt = other_truth(rules, state, seat)
    assert canonical_json(rules.view(alt, seat)) == canonical_json(rules.view(state, seat))
    assert canonical_json(alt.secret) != canonical_json(state.secret)
    searches: list[Any] = []
    real = ismcts.search

    def spy(*args: Any, **kwargs: Any) -> Any:
        searches.append(real(*args, **kwargs))
        return searches[-1]

    monkeypatch.setattr(ismcts, "search", spy)
    moves = [decide("ismcts", "bot", rules, truth, seat, 11, iterations=3 * ITERATIONS) for truth in (state, alt)]
    assert moves[0] == moves[1]
    assert len(searches) == 2
    a, b = (tree(d.root) for d in searches)
    assert a == b and len(a) > len(rules.legal_moves(state, seat))


def tree(node: Any, path: str = "") -> dict[str, tuple[int, int, float]]:
    """Every node of a search tree below ``node``, by its path of move keys: visits,
    availability and summed reward."""
    out = {}
    for key, child in node.children.items():
        out[path + "/" + key] = (child.visits, child.available, child.reward)
        out.update(tree(child, path + "/" + key))
    return out


def _multiset(*piles: Any) -> Counter[str]:
    out: Counter[str] = Counter()
    for pile in piles:
        out.update(pile.elements() if isinstance(pile, Counter) else pile)
    return out


def test_gnomes_samples_draw_only_unseen_cards_and_vary():
    """A sampled opponent hand and travel deck never hold a copy of a card the seat sees (its
    own hand, the discard, the dream piles, played cards): with what it sees they never
    exceed the copies the game has. Its own hand and every size are kept."""
    from services.rules.gnomes.content import content
    from services.rules.gnomes.state import treasures

    rules, state, seat = position("gnomes", "unseen-gnomes", hidden("gnomes"))
    other = 1 - seat
    view = rules.view(state, seat)
    cards = content().cards
    travel_copies = Counter({t.id: t.copies for t in cards.travel})
    seen = _multiset(state.travel_discard, *state.dream.values(), *(p.played for p in state.players),
                     [x for x in state.secret["hands"][seat] if x in travel_copies])
    hands = set()
    for i in range(15):
        sample = ismcts.determinisation(rules, view, "bot", 4, i)
        assert sample.secret["hands"][seat] == state.secret["hands"][seat]
        assert len(sample.secret["hands"][other]) == len(state.secret["hands"][other])
        assert sample.travel_size == state.travel_size
        drawn = _multiset([x for x in sample.secret["hands"][other] if x in travel_copies],
                          Counter(sample.secret["travel_deck"]))
        assert not drawn - (travel_copies - seen), f"sample {i} holds a copy the seat can see"
        assert all(x in travel_copies or x in treasures() for x in sample.secret["hands"][other])
        assert not {x for x in sample.secret["hands"][other] if x in treasures()} & set(state.secret["hands"][seat])
        hands.add(tuple(sample.secret["hands"][other]))
    assert len(hands) > 1


def test_resource_hog_samples_keep_own_orders_and_vary_the_others():
    """Sealed orders: the seat that has not ordered sees the other's orders sampled among the
    six (and varying); the seat that has ordered keeps its own in every sample."""
    from services.rules.resource_hog.turns import ORDERS

    rules, state, seat = position("resource_hog", "unseen-rh", hidden("resource_hog"))
    other = 1 - seat
    view = rules.view(state, seat)
    assert view["my_orders"] is None and view["players"][other]["ordered"]
    seen = set()
    for i in range(15):
        sample = ismcts.determinisation(rules, view, "bot", 2, i)
        assert sample.secret["orders"][str(other)] in ORDERS
        assert str(seat) not in sample.secret["orders"]
        seen.add(tuple(sample.secret["orders"][str(other)]))
    assert len(seen) > 1
    theirs = rules.view(state, other)
    for i in range(5):
        sample = ismcts.determinisation(rules, theirs, "bot", 2, i)
        assert sample.secret["orders"] == {str(other): state.secret["orders"][str(other)]}


def test_noggin_samples_a_saga_cards_back_among_its_twins_and_varies():
    from services.rules.noggin import content

    rules, state, seat = position("noggin", "unseen-noggin", hidden("noggin"))
    view = rules.view(state, seat)
    backs: dict[int, set[str]] = {}
    for i in range(15):
        sample = ismcts.determinisation(rules, view, "bot", 6, i)
        for slot, (saga, card) in enumerate(zip(sample.sagas, sample.secret["saga_cards"])):
            if saga is None or saga.current is None:
                assert card is None
                continue
            twins = [c.id for c in content.load().reserve.decks[saga.current.deck]
                     if c.needs == saga.current.needs and c.bonus == saga.current.bonus]
            assert card in twins
            backs.setdefault(slot, set()).add(card)
    assert backs and any(len(cards) > 1 for cards in backs.values())
