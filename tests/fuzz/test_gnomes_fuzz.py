"""Rule fuzzing of A Game of Gnomes (tests/fuzz/harness.py): seeded games of 2-4 players with
either layout and the gem variant, legal and illegal moves mixed, the invariants below checked
after every step.

Where each component may be (a-game-of-gnomes-rulebook.txt):

* travel cards (B dream piles and draw deck, C.1, C.6, D, E): every copy is in the travel draw
  deck, a dream pile, a hand, among the cards played this turn or in the travel discard pile;
* shop cards and the 8 treasures (B, C.4, C.5, C.7, E, G, I): in the shop item deck (shuffled
  part or the restocked cards under it), a shop, a player's equipment (treasures: a hand), the
  shop item discard pile or out of the game;
* starting items (B equipment): each seat's four, in its equipment or out of the game;
* quests (C.7, G): in the quest deck, on display, held by one seat, discarded or out of the game;
* mushrooms (A, B, C.2, C.3, F): at most 10 wooden mushrooms of each colour on the board and in
  baskets; the Montane Kings placed at set-up (2, 3 or 4 by players) are on the mountain, in a
  basket or sold for a golden mushroom, and each seat's kings picked are those it carries or sold;
* the counts the state keeps (travel and shop deck sizes, each hand's size) match the cards.

Limits: no basket holds more than its size (C.2, ambiguity 10); once hands are cut after sleep
(E), each hand is within its rucksack's limit when the next round starts.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.rules.gnomes import state as gs
from services.rules.gnomes.content import COLOURS, content
from services.rules.gnomes.state import KING, STARTING_ITEMS, WOODEN_MUSHROOMS, State

from .harness import fuzz_game, fuzz_settings


def gnomes_invariant(state: State) -> None:
    """Conservation and limits of the module docstring; AssertionError names what broke."""
    c = content().cards
    n = len(state.players)
    hands = state.secret["hands"]
    travel_kinds = {t.id for t in c.travel}
    treasure_ids = {t.id for t in c.treasures}
    quest_ids = {q.id for q in c.quests}

    travel = Counter(state.secret["travel_deck"])
    travel.update(state.travel_discard)
    for pile in state.dream.values():
        travel.update(pile)
    for p, h in zip(state.players, hands):
        travel.update(x for x in h if x in travel_kinds)
        travel.update(p.played)
    assert travel == Counter({t.id: t.copies for t in c.travel}), f"travel cards {travel}"
    assert state.travel_size == sum(state.secret["travel_deck"].values())

    shop = Counter(state.secret["shop_deck"])
    shop.update(state.shop_bottom)
    shop.update(state.shop_discard)
    shop.update(x for x in state.removed if x not in quest_ids and x not in STARTING_ITEMS)
    for stock in state.shops.values():
        shop.update(stock)
    for p, h in zip(state.players, hands):
        shop.update(e for e in p.equipment if e not in STARTING_ITEMS)
        shop.update(x for x in h if x in treasure_ids)
    expected = Counter({e.id: e.copies for e in c.shop})
    expected.update(treasure_ids)
    assert shop == expected, f"shop cards and treasures {shop - expected} extra, {expected - shop} missing"
    assert state.shop_size == sum(state.secret["shop_deck"].values()) + len(state.shop_bottom)

    starting = Counter(x for x in state.removed if x in STARTING_ITEMS)
    for p in state.players:
        starting.update(e for e in p.equipment if e in STARTING_ITEMS)
    assert starting == Counter({e: n for e in STARTING_ITEMS}), f"starting items {starting}"

    quests = Counter(state.quest_deck + state.quests + state.quest_discard)
    quests.update(x for x in state.removed if x in quest_ids)
    quests.update(p.quest for p in state.players if p.quest is not None)
    assert quests == Counter(quest_ids), f"quests {quests}"
    assert all(q in state.quest_discard for p in state.players for q in p.quests_done)

    for colour in COLOURS:
        assert 0 <= gs.mushroom_supply(state, colour) <= WOODEN_MUSHROOMS, f"{colour} mushrooms"
    kings_placed = len(content().board.montane_kings[str(n)])
    on_board = sum(v.count(KING) for v in state.mushrooms.values())
    carried = [p.basket.count(KING) for p in state.players]
    assert on_board + sum(carried) + sum(p.golden for p in state.players) == kings_placed, "Montane Kings"
    assert [p.kings for p in state.players] == [k + p.golden for k, p in zip(carried, state.players)]

    for p, h in zip(state.players, hands):
        assert p.hand_size == len(h), f"seat {p.seat} hand size {p.hand_size} holds {len(h)}"
        assert gs.basket_room(p) >= 0, f"seat {p.seat} basket {p.basket} is over its size"
    if state.stage == "turns" and state.turn == 0 and all(p.timer == 0 for p in state.players) and state.round > 1:
        for p in state.players:
            assert p.hand_size <= gs.hand_limit(p), f"seat {p.seat} kept {p.hand_size} cards over its limit"


@pytest.mark.rules("gnomes:A/wooden-mushrooms", "gnomes:A/montane-king-mushrooms", "gnomes:B/montane-kings-2",
                   "gnomes:B/montane-kings-3", "gnomes:B/montane-kings-4", "gnomes:B/shop-draw-deck",
                   "gnomes:B/travel-draw-deck", "gnomes:B equipment/four-to-start", "gnomes:C.2/pick-needs-room",
                   "gnomes:E/after-sleep", "gnomes:E/limit-by-rucksack")
@fuzz_settings(default_examples=6)
@given(players=st.integers(2, 4), seed=st.integers(0, 10 ** 6), random_layout=st.booleans(),
       gem_variant=st.booleans(), choices=st.lists(st.integers(0, (1 << 30) - 1), max_size=40))
def test_gnomes_fuzzed_games_keep_the_invariants(players, seed, random_layout, gem_variant, choices):
    """Every step of a fuzzed Gnomes game keeps the invariants; refused moves change nothing; the
    game ends; the accepted moves replay to the same log and hash (harness)."""
    options = {k: True for k, on in (("random_layout", random_layout), ("gem_variant", gem_variant)) if on}
    report = fuzz_game("gnomes", players, str(seed), choices, gnomes_invariant, move_cap=1500, options=options,
                       negative_ok=frozenset({".final.scores[]", ".final.breakdown[].total",
                                              ".final.breakdown[].quest"}))
    assert report.accepted and report.final_hash


def _fresh(players: int = 3) -> State:
    from services.coordinator.table import embedded_table
    from services.rules.core import GameConfig

    table = embedded_table()
    return table.state(table.create(GameConfig(game="gnomes", players=players), seed="1"))[1]


@pytest.mark.parametrize("tamper", ["travel card lost", "treasure doubled", "king added", "basket overfull",
                                    "quest lost", "hand over limit"])
def test_the_invariant_sees_what_the_rules_forbid(tamper):
    """The invariant holds after set-up and fails on each kind of breach it states."""
    state = _fresh()
    gnomes_invariant(state)
    p = state.players[0]
    if tamper == "travel card lost":
        deck = state.secret["travel_deck"]
        card = sorted(deck)[0]
        deck[card] -= 1
        state.travel_size -= 1
    elif tamper == "treasure doubled":
        state.shop_discard.append(content().cards.treasures[0].id)
    elif tamper == "king added":
        p.basket.append(KING)
        p.kings += 1
    elif tamper == "basket overfull":  # the Tiny Basket holds one
        colour = next(c for ms in state.mushrooms.values() for c in ms if c != KING)
        place = next(k for k, ms in state.mushrooms.items() if colour in ms)
        state.mushrooms[place].remove(colour)
        p.basket += [colour, KING]
        p.kings += 1
        king_place = next(k for k, ms in state.mushrooms.items() if KING in ms)
        state.mushrooms[king_place].remove(KING)
    elif tamper == "quest lost":
        state.quest_deck.pop()
    else:  # the start of round 2 with 5 cards kept under a Tiny Rucksack's 4
        state.round, state.turn = 2, 0
        deck = state.secret["travel_deck"]
        for card in sorted(deck)[:5]:
            deck[card] -= 1
            state.secret["hands"][0].append(card)
        state.travel_size -= 5
        p.hand_size = 5
    with pytest.raises(AssertionError):
        gnomes_invariant(state)
