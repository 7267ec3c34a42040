"""Hidden information in Noggin: what each seat and a spectator may learn, and nothing more.

What is hidden: the back of every Reserve card lying resource side up (6.4), the order of
every deck and pile (1.0 set-up N-S, 6.4), the cards Knut or the Telescope show one seat
and the order Knut chooses (6.1, appendix), each seat's Friend or Foe card (variants).
The approach: build two worlds that differ only in a hidden fact and check that every
view, legal-move list and event a spectator or another seat receives is the same in
both; and check, over whole games, that no view or visible event names a hidden card.
"""

from __future__ import annotations

import json
import random

import pytest

from services.rules.core import SEALED, Event, GameConfig, visible
from services.rules.core.forward import apply, apply_phase, chance_from, resolve
from services.rules.noggin import content
from services.rules.noggin.decks import draw_reserve, knut_look, knut_order, telescope
from services.rules.noggin.state import _HANDLERS, copy_state, visibility

from .helpers import RULES, chance_of, give, own_card, put_reserve, run, scenario

SPECTATOR = None


def _twin(card: str) -> str:
    """A card of the same deck with the same front and the other back."""
    info = content.reserve_index()[card]
    deck = card[0]
    twins = [c.id for c in content.load().reserve.decks[deck]
             if c.needs == info.needs and c.bonus == info.bonus and c.nogbad != info.nogbad]
    assert twins, f"{card} has no twin with the other back"
    return twins[0]


def _views(state, seats):
    return {s: json.dumps(RULES.view(state, s), sort_keys=True) for s in seats}


def _face_down_ids(state) -> set[str]:
    turned = {c["card"] for saga in state.sagas if saga is not None for c in saga.done}
    return {c for c in state.secret["saga_cards"] if c is not None} - turned


@pytest.mark.rules("noggin:secrets/reserve-front-twins")
def test_every_front_is_on_cards_with_both_backs():
    """6.4, 8.0: a front never tells the card or its back: every front (conditions and bonus
    icon) is printed on at least two cards of its deck, some with Nogbad's portrait and some
    with Nooka's knife; the content loader refuses a deck where a front has one back only."""
    for deck, cards in content.load().reserve.decks.items():
        for card in cards:
            twin = _twin(card.id)
            assert content.reserve_index()[twin].nogbad != card.nogbad
    raw = json.loads((content.CONTENT_DIR / "reserve.json").read_text(encoding="utf-8"))
    lonely = json.loads(json.dumps(raw))
    lonely["decks"]["C"][0]["needs"] = ["harvest"]
    with pytest.raises(ValueError, match="never tells the back"):
        content.Reserve.model_validate(lonely)


@pytest.mark.rules("noggin:secrets/reserve-back-not-in-view", "noggin:secrets/spectator-public-only",
                   "noggin:secrets/other-seat-view", "noggin:6.4/back-hidden")
def test_a_reserve_cards_back_changes_no_view_until_it_is_turned():
    """Two worlds that differ only in which twin lies on Saga 0 (one with Nogbad's portrait on
    its back): every seat's view, every legal-move list and the events every client sees are
    the same until the card is turned; the turn then reveals the back to everyone."""
    a = scenario(3)
    put_reserve(a, 0, ["stone", "food"], deck="C", card="C14")
    b = copy_state(a)
    b.secret["saga_cards"] = [_twin("C14"), *b.secret["saga_cards"][1:]]
    assert content.reserve_index()["C14"].nogbad != content.reserve_index()[b.secret["saga_cards"][0]].nogbad
    seats = [SPECTATOR, 0, 1, 2]
    assert _views(a, seats) == _views(b, seats)
    assert RULES.legal_moves(a, 0) == RULES.legal_moves(b, 0)
    for s in (a, b):
        give(s, 0, stone=1, fish=1)
    move1 = {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["stone"]}
    ea, eb = run(a, 0, move1), run(b, 0, move1)
    assert [visible(ea, s) for s in seats] == [visible(eb, s) for s in seats]
    assert _views(a, seats) == _views(b, seats)
    move2 = {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "nog": True, "pay": ["fish"]}
    ea, eb = run(a, 0, move2), run(b, 0, move2)
    turned_a = next(e for e in ea if e.type == "ReserveCardTurned")
    turned_b = next(e for e in eb if e.type == "ReserveCardTurned")
    assert turned_a.to is None and turned_a.data["card"] == "C14"  # now both sides are seen by all
    assert turned_a.data["nogbad"] != turned_b.data["nogbad"]


@pytest.mark.rules("noggin:secrets/sealed-events-never-sent")
def test_a_drawn_reserve_cards_identity_is_sealed():
    """6.4: the card drawn onto a Saga shows its front to all (public event without the card's
    identity) while its identity travels only in a sealed event that no client receives."""
    s = scenario(3)
    s.sagas[0].current = None
    events = draw_reserve(s, chance_of("7"), 0, "B", "bottom")
    public, sealed_ = [e for e in events if e.to is None], [e for e in events if e.to == SEALED]
    assert [e.type for e in public] == ["ReserveCardDrawn"] and "card" not in public[0].data
    assert [e.type for e in sealed_] == ["ReserveCardSealed"]
    for seat in (SPECTATOR, 0, 1, 2):
        assert all(e.type != "ReserveCardSealed" for e in visible(events, seat))
    assert not Event("X", {}, SEALED).visible_to(-1)  # not even a seat number a client could forge


@pytest.mark.rules("noggin:secrets/sealed-events-never-sent", "noggin:house rules/amb3-reshuffle")
def test_a_reshuffled_deck_lists_its_cards_only_in_a_sealed_event():
    """House rule (ambiguity 3): an empty B deck is made again from its discard pile; the
    public event gives only its size, the cards go in a sealed event."""
    s = scenario(3)
    r = dict(s.reserve["B"])
    r.update(top=0, bottom=r["size"], discard=3)
    s.reserve["B"] = r
    s.secret["discard"] = {**s.secret["discard"], "B": ["B01", "B05", "B07"]}
    s.sagas[0].current = None
    events = draw_reserve(s, chance_of("7"), 0, "B", "bottom")
    assert [(e.type, e.to) for e in events] == [("ReservePoolSealed", SEALED), ("ReserveDeckReshuffled", None),
                                                 ("ReserveCardDrawn", None), ("ReserveCardSealed", SEALED)]
    assert events[1].data == {"deck": "B", "size": 3}
    for e in events:
        if e.to is None:
            assert not {"B01", "B05", "B07"} & set(json.dumps(e.data).replace('"', " ").split())


@pytest.mark.rules("noggin:secrets/knut-cards-private", "noggin:secrets/knut-choice-private",
                   "noggin:6.1/knut-look", "noggin:6.1/knut-order")
def test_knut_shows_two_cards_to_his_seat_alone_and_his_order_stays_secret():
    """6.1: Knut's seat alone sees both sides of the top two cards; whether it swaps them is
    written only in an event private to it; every other client sees the same events and views
    whatever it chose, yet the deck's order did change."""
    s = scenario(3)
    give(s, 0, fish=1)
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "knut", "deck": "A", "pay": ["fish"]})
    peek = next(e for e in events if e.type == "ReserveCardsPeeked")
    assert peek.to == 0 and len(peek.data["cards"]) == 2 and "nogbad" in peek.data["cards"][0]
    assert all(e.type != "ReserveCardsPeeked" for seat in (SPECTATOR, 1, 2) for e in visible(events, seat))
    assert RULES.to_move(s) == [0] and RULES.view(s, 1)["pending"] == "knut"
    keep, swap = copy_state(s), copy_state(s)
    ek, es = run(keep, 0, {"type": "knut", "swap": False}), run(swap, 0, {"type": "knut", "swap": True})
    for seat in (SPECTATOR, 1, 2):
        assert visible(ek, seat) == visible(es, seat)
    assert _views(keep, [SPECTATOR, 1, 2]) == _views(swap, [SPECTATOR, 1, 2])
    assert [e.data["swap"] for e in visible(ek, 0) if e.type == "KnutOrdered"] == [False]
    assert [e.data["swap"] for e in visible(es, 0) if e.type == "KnutOrdered"] == [True]
    # the next A card drawn differs: the order really changed, as the seat was shown
    first, second = (c["card"] for c in peek.data["cards"])
    assert draw_reserve(keep, chance_of("7"), 0, "A", "top")[-1].data["card"] == first
    assert draw_reserve(swap, chance_of("7"), 0, "A", "top")[-1].data["card"] == second


@pytest.mark.rules("noggin:secrets/telescope-private", "noggin:appendix counting house/telescope")
def test_the_telescope_shows_the_bottom_card_to_its_owner_only():
    """Appendix: once a season the owner looks at both sides of a deck's bottom card; others
    learn only that the Telescope was used on that deck; the card stays where it was."""
    s = scenario(3)
    own_card(s, 0, "telescope")
    before = s.reserve["C"]
    events = run(s, 0, {"type": "use", "card": "telescope", "deck": "C"})
    peek = next(e for e in events if e.type == "ReserveCardsPeeked")
    assert peek.to == 0 and len(peek.data["cards"]) == 1
    assert visible(events, 1) == [next(e for e in events if e.type == "AbilityUsed")]
    assert s.reserve["C"] == before  # put back under its deck
    nxt = draw_reserve(s, chance_of("7"), 0, "C", "bottom")[-1].data["card"]
    assert nxt == peek.data["cards"][0]["card"]


@pytest.mark.rules("noggin:secrets/loyalty-private", "noggin:variants/friend-or-foe-deal")
def test_each_seat_sees_only_its_own_friend_or_foe_card():
    """Variants: each seat gets one card in secret: its own view shows it, no other view does,
    and permuting the other seats' cards changes nothing a seat or a spectator sees."""
    s = scenario(4, options={"friend_or_foe": True})
    loyalty = s.secret["loyalty"]
    assert len(loyalty) == 4 and set(loyalty) <= {"noggin", "nogbad"}
    for seat in range(4):
        assert RULES.view(s, seat)["my_loyalty"] == loyalty[seat]
    assert RULES.view(s, None)["my_loyalty"] is None
    other = copy_state(s)
    other.secret["loyalty"] = [loyalty[0], *reversed(loyalty[1:])]
    if other.secret["loyalty"] == loyalty:
        other.secret["loyalty"] = [loyalty[0], *("nogbad" if c == "noggin" else "noggin" for c in loyalty[1:])]
    assert _views(s, [SPECTATOR, 0]) == _views(other, [SPECTATOR, 0])


@pytest.mark.rules("noggin:secrets/loyalty-revealed-at-end")
def test_the_end_reveals_every_friend_or_foe_card():
    """Variants, 9.0: the outcome of a Friend or Foe game lists every seat's card."""
    s = scenario(4, options={"friend_or_foe": True})
    s.crow, s.season, s.runestone = 1, 8, 80
    s.active = None
    for m in s.markers:
        m.pos = 80
    out = RULES.outcome(s) or {}
    assert "loyalty" not in out
    from .helpers import run_phase

    run_phase(s)
    assert RULES.outcome(s)["loyalty"] == s.secret["loyalty"]


@pytest.mark.rules("noggin:secrets/deck-order-not-in-view", "noggin:secrets/reserve-back-not-in-view",
                   "noggin:secrets/other-seat-view", "noggin:secrets/spectator-public-only")
@pytest.mark.parametrize("seed", ["7", "secret-2"])
def test_over_whole_games_no_view_or_visible_event_names_a_hidden_card(seed):
    """Whole random games (4 seats, Friend or Foe): at every decision, no view holds the
    ``secret`` part, a face-down Reserve card, a deck order (decks show counts only) or
    another seat's card (a seat's own view names only the face-down cards Knut or the Telescope
    showed it, ``my_peeks`` and ``my_saga_peeks``); every event reaches only the clients its
    kind allows, and no event a client sees names a card that is still face down."""
    rules = RULES
    config = GameConfig(game="noggin", players=4, options={"friend_or_foe": True})
    state = rules.new_state()
    rules.evolve(state, rules.created_event(config))
    chance = chance_from(seed)
    events = resolve(rules, state, rules.setup_ops(config), chance)
    rng = random.Random(seed)
    shown: dict[int, set[str]] = {s: set() for s in range(4)}  # what Knut or the Telescope showed each seat
    for _ in range(700):
        hidden = _face_down_ids(state)
        for e in events:
            if e.type == "ReserveCardsPeeked":
                shown[e.to] |= {c["card"] for c in e.data["cards"]}
            kind = visibility(e.type)
            assert (e.to is None) == (kind == "public") and (e.to == SEALED) == (kind == "sealed")
            if kind == "private":
                assert e.to == e.data["seat"]
            if e.to != SEALED:
                words = set(json.dumps(e.data).replace('"', " ").replace(",", " ").split())
                assert not (hidden & words), (e.type, hidden & words)
        if rules.outcome(state) is not None:
            break
        for seat in (None, 0, 1, 2, 3):
            v = rules.view(state, seat)
            text = json.dumps(v)
            assert "secret" not in v and "loyalty" not in {k for k in v if k != "my_loyalty"}
            mine = shown[seat] if seat is not None else set()
            assert not any(f'"{c}"' in text for c in hidden - mine)
            own = {p["card"] for p in v["my_saga_peeks"]} | {p["card"] for p in v["my_peeks"]}
            assert own <= mine  # a seat's view names only face-down cards it was shown itself
            assert all(set(r) == {"epoch", "size", "top", "bottom", "discard"} for r in v["reserve"].values())
            assert v["my_loyalty"] == (state.secret["loyalty"][seat] if seat is not None else None)
        if rules.pending_phase(state):
            events = apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        events = apply(rules, state, seat, rng.choice(rules.legal_moves(state, seat)), chance, checked=True)


@pytest.mark.rules("noggin:secrets/sealed-events-never-sent", "noggin:secrets/knut-cards-private",
                   "noggin:secrets/loyalty-private")
def test_every_event_type_has_a_declared_audience():
    """Every event type of the game is public, private to the seat it names, or sealed; the
    private and sealed ones are exactly the hidden facts listed in this module's docstring."""
    kinds = {t: visibility(t) for t in _HANDLERS}
    assert {t for t, k in kinds.items() if k == "sealed"} == {"ReserveCardSealed", "ReservePoolSealed"}
    assert {t for t, k in kinds.items() if k == "private"} == {"LoyaltyDealt", "ReserveCardsPeeked", "KnutOrdered"}
    s = scenario(4, options={"friend_or_foe": True})
    own_card(s, 0, "telescope")
    peeks = knut_look(s, chance_of("7"), 0, "B") + telescope(s, chance_of("7"), 0, "A")
    assert {(e.type, e.to) for e in peeks if e.type == "ReserveCardsPeeked"} == {("ReserveCardsPeeked", 0)}
    s.decision = {"kind": "knut", "seat": 0, "deck": "B", "cards": 2}
    assert [(e.type, e.to) for e in knut_order(s, 0, True)] == [("KnutOrdered", 0), ("ReserveCardsReturned", None)]
