"""A Game of Gnomes' own bots: the evaluation, the way-finder, ``scripted`` and ``expert``.

Each returns one of the legal moves (the same dict), decides the same for the same view,
never reads what its seat cannot see, and plays the rulebook's economy
(a-game-of-gnomes-rulebook.txt C.1 moving, C.2 picking, C.3 selling, C.4 shops, C.7 quests):
tests that would fail if the policies were taken out (the dispatcher falls back to the
greedy bot for ``scripted`` and to ISMCTS for ``expert``).
"""

from __future__ import annotations

import random

import pytest

from services.bots.decide import decide
from services.bots.gnomes import evaluation, expert, plan, scripted
from services.rules.core import canonical_json
from services.rules.core.forward import apply, chance_from
from tests.rules.gnomes.helpers import RULES, arrange, at, new_game
from tests.support.positions import after, hidden, other_truth, position

KINDS = ("scripted", "expert")


def _choose(kind, state, seat, legal, seed="bot", version=3):
    view = RULES.view(state, seat)
    if kind == "scripted":
        return scripted.choose(RULES, view, legal, random.Random(f"{seed}:{version}"))
    return expert.choose(RULES, view, legal, seed, version)


def _fresh(seat_place: str | None = None, **arranged):
    """A 3-seat game at its first decision, seat 0 arranged (``seat_place``: a tile id)."""
    state, chance = new_game(3, seed="policies")
    if seat_place is not None:
        arranged["place"] = at(state, seat_place)
    arrange(state, 0, **arranged)
    return state, chance


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("moves", (5, 30, 70))
def test_a_legal_move_the_same_for_the_same_view(kind, moves):
    rules, state, seat = position("gnomes", f"policy-{kind}-{moves}", after(moves))
    legal = rules.legal_moves(state, seat)
    move = _choose(kind, state, seat, legal)
    assert any(move is m for m in legal)
    assert _choose(kind, state, seat, legal) == move
    assert _choose(kind, state, seat, [dict(m) for m in legal]) == move
    assert decide(kind, "bot", rules, state, seat, 3, legal) == move


@pytest.mark.parametrize("kind", KINDS)
def test_the_hidden_state_does_not_change_the_choice(kind):
    """Two true states that differ only in the other hand and the decks give the same move."""
    rules, state, seat = position("gnomes", f"policy-truth-{kind}", hidden("gnomes"))
    alt = other_truth(rules, state, seat)
    assert canonical_json(rules.view(alt, seat)) == canonical_json(rules.view(state, seat))
    legal = rules.legal_moves(state, seat)
    assert _choose(kind, state, seat, legal) == _choose(kind, alt, seat, rules.legal_moves(alt, seat))


@pytest.mark.parametrize("kind", KINDS)
def test_a_carried_mushroom_is_sold_at_a_buyer_for_its_best_gem(kind):
    """C.3: at Amanita, which buys blue, a gnome with a blue mushroom sells it for the white gem."""
    state, _ = _fresh("A", basket=["blue"])
    legal = RULES.legal_moves(state, 0)
    assert _choose(kind, state, 0, legal) == {"type": "sell", "mushroom": "blue", "gem": "white"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_mushroom_here_is_picked_into_an_empty_basket(kind):
    """C.2: at Calvatia, where a blue mushroom grows, an empty basket takes it."""
    state, _ = _fresh("C", basket=[])
    assert "blue" in state.mushrooms[at(state, "C")]
    assert _choose(kind, state, 0, RULES.legal_moves(state, 0)) == {"type": "pick", "mushroom": "blue"}


@pytest.mark.parametrize("kind", KINDS)
def test_a_carried_mushroom_is_walked_towards_a_buyer(kind):
    """C.1: from Calvatia with a blue mushroom and a meadow card, the gnome walks the meadow path
    to Amanita (which buys blue) rather than scouting or ending its turn."""
    state, _ = _fresh("C", basket=["blue"], hand=["meadow"])
    move = _choose(kind, state, 0, RULES.legal_moves(state, 0))
    assert move == {"type": "travel", "card": "meadow", "path": [at(state, "A")]}


def test_the_evaluation_prefers_selling_at_a_buyer_to_keeping_the_mushroom():
    """The fault of the old evaluation (a sale looked like a loss): at a buyer, the position after
    the sale is worth more than the position that keeps the mushroom, for every gem it pays
    (rulebook C.3, H)."""
    state, chance = _fresh("A", basket=["blue"])
    keep = evaluation.value(state, 0)
    for gem in ("white", "green", "brown"):
        sold = RULES.copy(state)
        apply(RULES, sold, 0, {"type": "sell", "mushroom": "blue", "gem": gem}, chance_from("sell"), checked=True)
        if gem == "white":
            assert evaluation.value(sold, 0) > keep
    ended = RULES.copy(state)
    apply(RULES, ended, 0, {"type": "end_turn"}, chance, checked=True)
    assert evaluation.value(ended, 0) < keep  # ending a turn with all its weeks unused is a loss


def test_the_evaluation_counts_a_quest_penalty_and_a_golden_mushroom():
    """H: an open quest's penalty counts against a seat whose task is out of reach; a Montane King
    carried near a buyer is worth its golden mushroom."""
    state, _ = _fresh("A", basket=[])
    base = evaluation.value(state, 0)
    arrange(state, 0, quest="reach_the_summit")  # no map: the summit cannot be reached
    assert evaluation.value(state, 0) <= base - 9
    state, _ = _fresh("A", basket=["king"])
    assert evaluation.value(state, 0) > base + 8


def test_the_way_finder_counts_weeks_by_item_and_card():
    """C.1, I: a meadow route costs 1 week with a Canteen or a meadow card, 2 without (scout, then
    play); a map's climb costs no time."""
    state, _ = _fresh("C", basket=[])
    a = at(state, "A")
    assert plan.weeks_from(state, 0)[a] == plan.CARDLESS
    arrange(state, 0, hand=["meadow"])
    assert plan.weeks_from(state, 0)[a] == 1
    assert plan.weeks_from(state, 0, cards=False)[a] == plan.CARDLESS
    arrange(state, 0, hand=[], equipment=["tiny_basket", "tiny_rucksack", "canteen"])
    assert plan.weeks_from(state, 0)[a] == 1
    arrange(state, 0, place="g2", equipment=["tiny_basket", "map_g2_r2"])
    assert plan.weeks_from(state, 0)["r2"] < 0.1


def test_the_expert_buys_an_item_that_moves_it_early():
    """C.4, I: at the Hillview Hut in spring with gems, the expert buys the Canteen (a meadow route
    for a week without a card until winter takes it, G); the scripted bot never buys."""
    state, _ = _fresh("hillview_hut", basket=[], gems={"white": 1})
    state.shops["hillview_hut"] = ["canteen", "spare_key", "small_rucksack", "compass"]
    move = expert.choose(RULES, RULES.view(state, 0), RULES.legal_moves(state, 0), "bot", 1)
    assert move["type"] == "buy" and move["card"] == "canteen"
    assert scripted.choose(RULES, RULES.view(state, 0), RULES.legal_moves(state, 0), random.Random(1))["type"] != "buy"


def test_the_expert_takes_no_quest_it_cannot_complete():
    """C.7: at the tower without a map the summit cannot be reached, so the expert refuses the
    quest paying 5 gems with a penalty of 10; another player's house a few weeks away is a
    quest it takes (C.7: 2 gems at once)."""
    state, _ = _fresh(None, place="tower", basket=[])
    state.quests = ["reach_the_summit"]
    legal = RULES.legal_moves(state, 0)
    assert {"type": "quest", "quest": "reach_the_summit"} in legal
    assert expert.choose(RULES, RULES.view(state, 0), legal, "bot", 1)["type"] != "quest"
    state.quests = ["visit_a_house"]  # the yellow house (s04) is 3 weeks away: compass, meadow, meadow
    arrange(state, 0, place="tower", hand=["meadow", "meadow"],
            equipment=["tiny_basket", "tiny_rucksack", "compass"])
    legal = RULES.legal_moves(state, 0)
    assert expert.choose(RULES, RULES.view(state, 0), legal, "bot", 1) == {"type": "quest", "quest": "visit_a_house"}


def test_a_map_to_a_montane_king_is_worth_buying_only_at_three_seats(monkeypatch):
    """C.1 mountain, C.4: a map that opens the way to a Montane King is worth KING_MAP at 3
    seats, nothing at 2 seats (the kings grow on the snow level there; measured in
    ``expert.KING_MAP_TWO``)."""
    from services.rules.gnomes.state import equipment

    card = next(c for c, e in sorted(equipment().items()) if e.route)
    monkeypatch.setattr(expert, "opens_king", lambda state, seat, c: True)
    three, _ = new_game(3, seed="policies")
    two, _ = new_game(2, seed="policies")
    assert expert.item_gain(three, 0, card) == expert.KING_MAP > 0
    assert expert.item_gain(two, 0, card) == expert.KING_MAP_TWO == 0.0
