"""A Game of Gnomes, honest determinisation: every world that search samples from a seat's
view (``rules.state_from_view``) is a world the view allows.

What a seat cannot see (a-game-of-gnomes-rulebook.txt B, B equipment, C.4-C.6, E): the
travel draw deck, the shuffled part of the shop item draw deck and the other seats' hands
(travel and treasure cards). Equipment lies face up (B equipment) and a restock puts the
shop's cards under the shop deck in a known order (C.5). A sample must deal the hidden
places from exactly the cards the seat has not seen, uniformly, and leave its own hand and
everything public as they were.

Positions come from seeded games played by the built-in bots at 2, 3 and 4 seats.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from services.bots.decide import decide
from services.rules.core import GameConfig, canonical_json
from services.rules.core.forward import apply, apply_phase, chance_from, start
from services.rules.core.match import MatchRecord
from services.rules.gnomes.content import content
from services.rules.gnomes.state import treasures

from .helpers import RULES

WORLDS = 1000
"""Worlds sampled in all by the impossibility test."""


def _positions(players: int, kinds: tuple[str, ...], seed: str, every: int):
    """A copy of the state at every ``every``-th version of a seeded bot game where a seat
    chooses: ``(state, seat)``."""
    chance = chance_from(seed)
    state, _ = start(RULES, GameConfig(game="gnomes", players=players), chance)
    version = 0
    while RULES.outcome(state) is None:
        if RULES.pending_phase(state):
            apply_phase(RULES, state, chance)
            version += 1
            continue
        seat = RULES.to_move(state)[0]
        legal = RULES.legal_moves(state, seat)
        if version % every == 0 and len(legal) > 1:
            yield RULES.copy(state), seat
        move = decide(kinds[seat % len(kinds)], f"{seed}:{seat}", RULES, state, seat, version, legal)
        apply(RULES, state, seat, move, chance, checked=True)
        version += 1


def _everywhere(state) -> Counter:
    """Every travel and shop item card in the game, wherever it is (decks, piles, shops, hands,
    cards played, items in front of the gnomes, cards out of the game)."""
    out: Counter = Counter()
    out.update(state.secret["travel_deck"])
    out.update(state.secret["shop_deck"])
    for h in state.secret["hands"]:
        out.update(h)
    for v in state.shops.values():
        out.update(v)
    for v in state.dream.values():
        out.update(v)
    out.update(state.shop_bottom)
    out.update(state.shop_discard)
    out.update(state.travel_discard)
    out.update(x for x in state.removed if not x.startswith(tuple(q.id for q in content().cards.quests)))
    for p in state.players:
        out.update(p.played)
        out.update(p.equipment)
    return out


def _views():
    """About 100 views from six games of the built-in bots at 2, 3 and 4 seats, early to late
    (the expert buys treasure near the end, so other hands hold treasure too)."""
    games = [(2, ("random", "greedy"), "det-a", 13), (3, ("greedy", "expert", "scripted"), "det-b", 17),
             (4, ("random",), "det-c", 19), (2, ("expert",), "det-d", 11), (3, ("random", "greedy", "random"), "det-e", 15),
             (4, ("expert", "scripted"), "det-f", 23), (3, ("expert",), "det-g", 9)]
    for players, kinds, seed, every in games:
        for state, seat in _positions(players, kinds, seed, every):
            yield state, seat


@pytest.mark.rules("gnomes:B equipment/display-face-up", "gnomes:B equipment/treasure-in-hand",
                   "gnomes:C.5/old-stock-under-deck")
def test_a_thousand_worlds_sampled_from_real_views_are_all_possible():
    """1,000 worlds rebuilt from views of bot games: no card more often than it exists (nor
    fewer: every card is somewhere), the seat's own hand and the whole public view unchanged
    (so nothing the seat has seen is placed elsewhere), hand and deck sizes kept, the travel
    deck only travel cards, the shop deck only shop items, hands only travel and treasure."""
    travel = {t.id for t in content().cards.travel}
    shop = {e.id for e in content().cards.shop} | set(treasures())
    positions = list(_views())
    assert len(positions) >= 50
    assert any(x in treasures() for s, seat in positions for o, h in enumerate(s.secret["hands"]) if o != seat
               for x in h), "no position where another hand holds treasure"
    per = -(-WORLDS // len(positions))
    sampled = 0
    for n, (truth, seat) in enumerate(positions):
        view = RULES.view(truth, seat)
        expected = _everywhere(truth)
        for i in range(per):
            if sampled == WORLDS:
                break
            world = RULES.state_from_view(view, f"world-{n}-{i}")
            sampled += 1
            assert _everywhere(world) == expected, (n, i)
            assert world.secret["hands"][seat] == truth.secret["hands"][seat]
            assert canonical_json(RULES.view(world, seat)) == canonical_json(view)
            assert [len(h) for h in world.secret["hands"]] == [len(h) for h in truth.secret["hands"]]
            assert set(world.secret["travel_deck"]) <= travel
            assert set(world.secret["shop_deck"]) <= shop - travel
            assert all(x in travel or x in treasures() for h in world.secret["hands"] for x in h)
            assert world.shop_size == truth.shop_size and world.travel_size == truth.travel_size
            assert RULES.legal_moves(world, seat) == RULES.legal_moves(truth, seat)
    assert sampled == WORLDS


def test_the_other_hands_are_dealt_uniformly_from_the_unseen_cards():
    """Uniform dealing: over many samples each unseen travel card lands in the other hands as
    often as their share of the hidden travel places says (hands are not filled with travel
    cards first, nor treasure last)."""
    truth, seat = next((s, seat) for s, seat in _positions(3, ("greedy",), "det-uniform", 1)
                       if sum(p.hand_size for p in s.players if p.seat != seat) >= 3 and s.travel_size >= 10)
    view = RULES.view(truth, seat)
    others = [p.seat for p in truth.players if p.seat != seat]
    in_hands: Counter = Counter()
    in_deck: Counter = Counter()
    samples = 400
    for i in range(samples):
        world = RULES.state_from_view(view, f"uniform-{i}")
        for o in others:
            in_hands.update(x for x in world.secret["hands"][o] if x not in treasures())
        in_deck.update(world.secret["travel_deck"])
    hand_travel = sum(in_hands.values()) / samples
    share = hand_travel / (hand_travel + truth.travel_size)
    for card in in_deck:
        total = in_hands[card] + in_deck[card]
        if total >= 200:
            assert abs(in_hands[card] / total - share) < 0.08, (card, in_hands[card] / total, share)


def test_a_view_with_a_match_record_is_rebuilt_with_the_record():
    """After an agent's strike or forfeit the view carries the match record (strikes by seat,
    JSON keys as strings); the rebuilt state holds a :class:`MatchRecord` again, so the rules
    (``to_move``, ``outcome``) read it as on the true state."""
    truth, seat = next(_positions(3, ("random",), "det-match", 5))
    truth.match = MatchRecord({1: 2}, [])
    view = RULES.view(truth, seat)
    assert view["match"] == {"strikes": {"1": 2}, "forfeited": []}
    world = RULES.state_from_view(view, "strike")
    assert world.match == MatchRecord({1: 2}, [])
    assert RULES.to_move(world) == RULES.to_move(truth)
    truth.match = MatchRecord({1: 3}, [1])
    world = RULES.state_from_view(RULES.view(truth, seat), "forfeit")
    assert RULES.outcome(world) == RULES.outcome(truth)
    assert RULES.to_move(world) == []


def test_treasure_in_the_other_hands_goes_to_any_of_them():
    """Uniform dealing between hands: where other seats hold treasure (bought face up but kept
    in the hand, C.4), every sample puts exactly as many treasures in the other hands as the
    view allows (the shop deck holds every unseen equipment card), and over the samples each
    other hand gets one in turn, not always the last (before, the hands were dealt travel
    cards first and treasure only when they ran out)."""
    truth, seat = next((s, seat) for s, seat in _views() if len(s.players) >= 3
                       and any(x in treasures() for o, h in enumerate(s.secret["hands"]) if o != seat for x in h)
                       and sum(1 for p in s.players if p.seat != seat and p.hand_size) >= 2)
    others = [p.seat for p in truth.players if p.seat != seat and p.hand_size]
    count = sum(x in treasures() for o in others for x in truth.secret["hands"][o])
    view = RULES.view(truth, seat)
    got: Counter = Counter()
    for i in range(200):
        world = RULES.state_from_view(view, f"treasure-{i}")
        held = {o: sum(x in treasures() for x in world.secret["hands"][o]) for o in others}
        assert sum(held.values()) == count
        got.update(o for o, n in held.items() if n)
    assert all(got[o] >= 10 for o in others), got
