"""Hidden information in A Game of Gnomes: hands (travel and treasure cards) are private, the
travel deck and shop item deck orders and contents are hidden, everything else is public
(rulebook C.4, C.6, E; DESIGN "Clients, bots and agents").

Whole seeded games are played on the forward model; every event of every type is checked
against who may see it, and every view of every seat (and a spectator's) against the
secret part of the state at that moment.
"""

from __future__ import annotations

import json
import random

import pytest

from services.rules.core import GameConfig, canonical_json
from services.rules.core.forward import apply_phase, chance_from, resolve
from services.rules.gnomes.state import EVENT_TYPES, PRIVATE_EVENTS, visibility

from .helpers import RULES, active, new_game, play

GAMES = 12


def _quest_done():
    """A quest taken at the tower and done by a sale (C.7): random games seldom finish one."""
    from .test_c7_quests import display, sell, take

    state, chance = new_game()
    display(state, ["cross_the_lake", "visit_a_house", "red_for_gems"])
    yield state, take(state, 0, "red_for_gems", chance)
    yield state, sell(state, 0, "H", "red", chance)


def _games():
    """Seeded random games (2-4 players, both layouts, variant J mixed), then a quest done: yields
    ``(state, events of one step)`` after every step, set-up included."""
    yield from _quest_done()
    for i in range(GAMES):
        config = GameConfig(game="gnomes", players=2 + i % 3,
                            options={"random_layout": bool(i % 2), "gem_variant": bool(i % 4 >= 2)})
        chance = chance_from(f"secrets-{i}")
        state = RULES.new_state()
        created = RULES.created_event(config)
        RULES.evolve(state, created)
        rng = random.Random(i)
        yield state, [created, *resolve(RULES, state, RULES.setup_ops(config), chance)]
        while RULES.outcome(state) is None:
            if RULES.pending_phase(state):
                yield state, apply_phase(RULES, state, chance)
                continue
            seat = active(state)
            legal = RULES.legal_moves(state, seat)
            moves = [m for m in legal if m["type"] != "end_turn"]
            move = rng.choice(moves) if moves and rng.random() < 0.9 else rng.choice(legal)
            yield state, play(state, seat, move, chance)


@pytest.mark.rules("gnomes:B equipment/treasure-in-hand", "gnomes:C.4/treasure-to-hand",
                   "gnomes:C.6/scout-draw")
def test_every_event_type_goes_only_to_who_may_see_it_and_no_view_shows_a_secret():
    """Each event type of the game occurs, a scouted card reaches only its seat, no event is
    sealed, and no view holds ``secret``, another seat's hand or the decks' contents."""
    seen = set()
    checked_views = 0
    for state, events in _games():
        for e in events:
            seen.add(e.type)
            if visibility(e.type) == "private":
                assert e.to == e.data["seat"], e
            else:
                assert e.to is None, e
        if not events or state.players[0].timer % 3:
            continue  # views are checked often, not after every step
        hands = state.secret["hands"]
        for seat in [None, *range(len(state.players))]:
            view = RULES.view(state, seat)
            text = canonical_json(view)
            assert "secret" not in view and "travel_deck" not in text and "shop_deck" not in text
            assert view["hand"] == (None if seat is None else hands[seat])
            assert [p["hand_size"] for p in view["players"]] == [len(h) for h in hands]
            json.dumps(view)  # a view is plain JSON
            checked_views += 1
    assert sorted(EVENT_TYPES - seen) == []
    assert checked_views > 100
    assert PRIVATE_EVENTS == {"TravelCardDrawn"}


def test_a_scouted_card_is_seen_by_its_seat_alone():
    """C.6: the drawn card is in the scout's private event and hand; the public event and the
    other seats' views say only that a card was drawn."""
    state, chance = new_game(3, seed="scout-secret")
    seat = active(state)
    before = [RULES.view(state, s)["hand"] for s in range(3)]
    events = play(state, seat, {"type": "scout"}, chance)
    drawn = next(e for e in events if e.type == "TravelCardDrawn")
    public = [e for e in events if e.to is None]
    assert drawn.to == seat and drawn.data["card"] in state.secret["hands"][seat]
    assert all("card" not in e.data for e in public)
    for other in range(3):
        view = RULES.view(state, other)
        assert view["players"][seat]["hand_size"] == 1
        if other != seat:
            assert view["hand"] == before[other]


def test_search_never_reads_another_seats_hand():
    """A determinised copy (information-set search) keeps the seat's own hand and every hand's
    size, and samples the other hands from cards the seat has not seen: over many samples
    the opponent's true hand is not simply copied."""
    state, chance = new_game(2, seed="determinise")
    for _ in range(3):
        play(state, active(state), {"type": "scout"}, chance)
    me = 0
    them = 1 - me
    truth = state.secret["hands"][them]
    copies = [RULES.determinise(state, me, f"s{i}") for i in range(20)]
    assert all(c.secret["hands"][me] == state.secret["hands"][me] for c in copies)
    assert all(len(c.secret["hands"][them]) == len(truth) for c in copies)
    assert any(c.secret["hands"][them] != truth for c in copies) or not truth
    rebuilt = RULES.state_from_view(RULES.view(state, me), "from-view")
    assert rebuilt.secret["hands"][me] == state.secret["hands"][me]
    assert rebuilt.travel_size == state.travel_size
