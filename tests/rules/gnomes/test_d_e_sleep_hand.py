"""Sleep and the hand limit: a-game-of-gnomes-rulebook.txt D (sleep after the round, the
exhausted gnomes, dream piles, the calendar and the next round's order) and E (cutting a
hand down to the rucksack's limit after sleep, house rule for ambiguity 11)."""

from __future__ import annotations

import pytest

from services.rules.core.forward import apply_phase

from .helpers import (
    RULES,
    active,
    arrange,
    end_turns,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)

SCOUT = {"type": "scout"}
END = {"type": "end_turn"}


def scout_turns(state, chance, weeks: list[int]) -> list:
    """Every seat in turn order scouts ``weeks[seat]`` times, then ends its turn."""
    out = []
    while state.stage == "turns":
        seat = active(state)
        for _ in range(weeks[seat]):
            out += play(state, seat, SCOUT, chance)
        out += play(state, seat, END, chance)
    return out


def discard_down(state, chance) -> list:
    """Every seat over its limit discards the first legal choice."""
    out = []
    while state.stage == "hand":
        seat = active(state)
        out += play(state, seat, legal(state, seat)[0], chance)
    return out


def sleep_example():
    """D's worked example, 4 players (red 0, yellow 1, blue 2, green 3): Red uses 4 weeks,
    Yellow 6, Blue 3, Green 4 (landing on Red's timer, so on top)."""
    s, c = new_game(4, seed="sleepy")
    scout_turns(s, c, [4, 6, 3, 4])
    return s, c


RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3


# -- D: who sleeps, and when -------------------------------------------------------------------

@pytest.mark.rules("gnomes:D/sleep-after-all-turns", "gnomes:D/exhausted-gnome", "gnomes:D/closest-first",
                   "gnomes:D/example-yellow-exhausted")
def test_sleep_begins_after_the_last_turn_with_the_exhausted_gnome_left_out():
    """a-game-of-gnomes-rulebook.txt D: sleep comes only once every seat has had its turn; the
    furthest timer (Yellow, 6 weeks in the example) is exhausted and does not sleep; the
    nearest timer sleeps first."""
    s, c = new_game(4, seed="sleepy")
    for seat, n in ((RED, 4), (YELLOW, 6), (BLUE, 3)):
        for _ in range(n):
            play(s, seat, SCOUT, c)
        ev = play(s, seat, END, c)
        assert "SleepBegan" not in types(ev) and s.stage == "turns"
    for _ in range(4):
        play(s, GREEN, SCOUT, c)
    ev = play(s, GREEN, END, c)
    began = first(ev, "SleepBegan")
    assert s.stage == "sleep" and began.data["exhausted"] == 6
    assert YELLOW not in s.sleepers
    assert s.sleepers[-1] == BLUE  # furthest from Yellow's timer sleeps last
    assert active(s) in (RED, GREEN)
    assert RULES.legal_moves(s, YELLOW) == []


@pytest.mark.rules("gnomes:D/same-space-top-first", "gnomes:C.1 timer/stack-on-top")
def test_of_two_timers_on_one_space_the_upper_sleeps_first():
    """a-game-of-gnomes-rulebook.txt D: Green's timer landed on Red's space after her, so it is
    on top and Green sleeps before Red."""
    s, _ = sleep_example()
    assert s.players[RED].timer == s.players[GREEN].timer == 4
    assert s.sleepers == [GREEN, RED, BLUE]
    assert active(s) == GREEN


@pytest.mark.rules("gnomes:D/exhausted-ties")
def test_every_timer_on_the_furthest_space_is_exhausted():
    """a-game-of-gnomes-rulebook.txt D: two timers share the furthest space, so neither sleeps;
    only the third gnome does."""
    s, c = new_game(3)
    scout_turns(s, c, [3, 3, 1])
    assert s.exhausted == 3 and s.sleepers == [2]
    assert active(s) == 2


# -- D: the dream piles -------------------------------------------------------------------------

@pytest.mark.rules("gnomes:D/sleep-weeks", "gnomes:D/pile-costs", "gnomes:D/example-green",
                   "gnomes:D/timer-to-exhausted", "gnomes:D/dream-refill")
def test_green_takes_the_two_card_pile_and_lands_on_yellow():
    """a-game-of-gnomes-rulebook.txt D example: Green has two sleep weeks (4 to 6); the 3-card
    pile costs 3 and is refused; he takes the 2-card pile, his timer goes on top of Yellow's
    and the two cards are replaced."""
    s, c = sleep_example()
    assert refused(s, GREEN, {"type": "sleep", "piles": [3]}, c)
    assert refused(s, GREEN, {"type": "sleep", "piles": [1, 2]}, c)  # 3 sleep weeks
    pile2 = list(s.dream["2"])
    before = s.players[GREEN].hand_size
    ev = play(s, GREEN, {"type": "sleep", "piles": [2]}, c)
    slept = first(ev, "Slept")
    assert slept.data["weeks"] == 2 and slept.data["cards"] == pile2
    assert s.players[GREEN].hand_size == before + 2
    assert s.players[GREEN].timer == 6 and s.players[GREEN].stamp > s.players[YELLOW].stamp
    refill = first(ev, "DreamPilesRefilled").data["piles"]
    assert len(refill["2"]) == 2 and refill["1"] == [] and refill["3"] == []
    assert [len(s.dream[k]) for k in ("1", "2", "3")] == [1, 2, 3]


@pytest.mark.rules("gnomes:D/example-red", "gnomes:D/may-waste-weeks", "gnomes:D/next-sleeper")
def test_red_takes_pile_one_and_wastes_her_second_week():
    """a-game-of-gnomes-rulebook.txt D example: after Green, Red sleeps next with two weeks;
    she may take pile 1 only and leave her other week unused; one card is replaced."""
    s, c = sleep_example()
    play(s, GREEN, {"type": "sleep", "piles": [2]}, c)
    assert active(s) == RED
    assert refused(s, RED, {"type": "sleep", "piles": [3]}, c)
    ev = play(s, RED, {"type": "sleep", "piles": [1]}, c)
    assert first(ev, "Slept").data["weeks"] == 2 and len(first(ev, "Slept").data["cards"]) == 1
    assert s.players[RED].timer == 6 and s.players[RED].stamp > s.players[GREEN].stamp
    refill = first(ev, "DreamPilesRefilled").data["piles"]
    assert len(refill["1"]) == 1 and refill["2"] == [] and refill["3"] == []
    assert active(s) == BLUE


@pytest.mark.rules("gnomes:D/example-blue", "gnomes:D/several-piles", "gnomes:D/until-all-stacked")
def test_blue_takes_piles_one_and_two_for_three_weeks():
    """a-game-of-gnomes-rulebook.txt D example: Blue has three sleep weeks and takes piles 1
    and 2 (1+2) rather than pile 3; then every timer is stacked on the exhausted one."""
    s, c = sleep_example()
    play(s, GREEN, {"type": "sleep", "piles": [2]}, c)
    play(s, RED, {"type": "sleep", "piles": [1]}, c)
    assert {"type": "sleep", "piles": [3]} in legal(s, BLUE)
    assert refused(s, BLUE, {"type": "sleep", "piles": [1, 3]}, c)
    got = s.dream["1"] + s.dream["2"]
    before = s.players[BLUE].hand_size
    ev = play(s, BLUE, {"type": "sleep", "piles": [1, 2]}, c)
    assert sorted(first(ev, "Slept").data["cards"]) == sorted(got)
    assert s.players[BLUE].hand_size == before + 3
    assert [p.timer for p in s.players] == [6, 6, 6, 6]
    assert "SleepEnded" in types(ev) and s.stage == "hand"


@pytest.mark.rules("gnomes:D/several-piles-example")
def test_four_sleep_weeks_take_piles_one_and_three():
    """a-game-of-gnomes-rulebook.txt D: with 4 sleep weeks a gnome may take piles 1 and 3
    together (all three piles, 6 weeks, are too many)."""
    s, c = new_game(2)
    scout_turns(s, c, [0, 4])
    assert s.sleepers == [0] and s.exhausted == 4
    assert refused(s, 0, {"type": "sleep", "piles": [1, 2, 3]}, c)
    cards = s.dream["1"] + s.dream["3"]
    ev = play(s, 0, {"type": "sleep", "piles": [1, 3]}, c)
    assert sorted(first(ev, "Slept").data["cards"]) == sorted(cards)
    assert s.players[0].hand_size == 4


@pytest.mark.rules("gnomes:D/no-pile-sleeps-on")
def test_a_sleeper_who_can_take_no_pile_moves_on_without_a_decision():
    """a-game-of-gnomes-rulebook.txt D, house rule: with one sleep week and pile 1 empty a gnome
    can take nothing, so its timer joins the stack at once and the next sleeper decides."""
    s, c = new_game(3)
    for seat, weeks in ((0, 3), (1, 2)):
        for _ in range(weeks):
            play(s, seat, SCOUT, c)
        play(s, seat, END, c)
    card = s.dream["1"].pop()  # the single dream card back in the deck
    deck = s.secret["travel_deck"]
    deck[card] = deck.get(card, 0) + 1
    s.travel_size += 1
    ev = play(s, 2, END, c)
    assert s.sleepers == [1, 2]
    slept = first(ev, "Slept")
    assert slept.data["seat"] == 1 and slept.data["piles"] == []
    assert s.players[1].timer == 3 and active(s) == 2


# -- D: the end of the sleep: calendar and the next round ------------------------------------

@pytest.mark.rules("gnomes:D/example-end", "gnomes:D/calendar-advance", "gnomes:D/stack-returns",
                   "gnomes:D/next-round-order", "gnomes:C/top-timer-starts")
def test_the_stack_returns_and_the_calendar_moves_six_weeks():
    """a-game-of-gnomes-rulebook.txt D example: with all timers on Yellow's (week 6) the calendar
    moves six weeks; the stack goes back to the start in its order, so Blue (last on) plays
    first, then Red, Green and Yellow."""
    s, c = sleep_example()
    play(s, GREEN, {"type": "sleep", "piles": [2]}, c)
    play(s, RED, {"type": "sleep", "piles": [1]}, c)
    play(s, BLUE, {"type": "sleep", "piles": [1, 2]}, c)
    discard_down(s, c)
    assert s.stage == "round_end" and s.calendar == 0
    ev = apply_phase(RULES, s, c)
    moved = first(ev, "CalendarMoved").data
    assert moved["weeks"] == 6 and s.calendar == 6
    assert first(ev, "RoundStarted").data["order"] == [BLUE, RED, GREEN, YELLOW]
    assert [p.timer for p in s.players] == [0, 0, 0, 0]
    assert active(s) == BLUE


@pytest.mark.rules("gnomes:D/season-change")
def test_the_calendar_moved_by_sleep_can_change_the_season():
    """a-game-of-gnomes-rulebook.txt D and F: a round whose exhausted timer is on 3 takes the
    calendar from 11 into summer at 14, and summer's yellow mushrooms sprout."""
    s, c = new_game(2)
    s.calendar = 11
    scout_turns(s, c, [3, 0])
    play(s, 1, {"type": "sleep", "piles": []}, c)
    ev = apply_phase(RULES, s, c)
    assert first(ev, "CalendarMoved").data["season"] == "summer" and s.calendar == 14
    assert first(ev, "MushroomsSprouted").data["colour"] == "yellow"


@pytest.mark.rules("gnomes:D/calendar-at-least-one")
def test_the_calendar_moves_one_week_when_nobody_moved():
    """a-game-of-gnomes-rulebook.txt D, house rule: every timer stayed on 0, so nobody sleeps
    and the calendar still moves one week."""
    s, c = new_game(3)
    ev = end_turns(s, c)
    assert first(ev, "SleepBegan").data == {"exhausted": 0, "sleepers": []}
    assert s.stage == "round_end"
    ev = apply_phase(RULES, s, c)
    assert first(ev, "CalendarMoved").data["weeks"] == 1 and s.calendar == 1


# -- E: the hand limit ------------------------------------------------------------------------

@pytest.mark.rules("gnomes:E/amb11-after-sleep", "gnomes:E/after-sleep", "gnomes:C.6/over-limit-during-turn")
def test_the_hand_limit_waits_until_after_sleep():
    """a-game-of-gnomes-rulebook.txt E (house rule, ambiguity 11): a gnome may end its turn with
    more cards than its rucksack holds; no discard is asked until every sleeper has slept."""
    s, c = new_game(2)
    for _ in range(6):
        play(s, 0, SCOUT, c)
    assert s.players[0].hand_size == 6
    assert refused(s, 0, {"type": "discard", "cards": s.secret["hands"][0][:2]}, c)
    play(s, 0, END, c)
    assert s.players[0].hand_size == 6 and active(s) == 1
    play(s, 1, END, c)
    assert s.stage == "sleep" and active(s) == 1
    play(s, 1, {"type": "sleep", "piles": [1, 2]}, c)
    assert s.stage == "hand" and active(s) == 0
    assert all(len(m["cards"]) == 2 for m in legal(s, 0))


@pytest.mark.rules("gnomes:E/excess-discarded", "gnomes:E/discard-choice", "gnomes:E/hand-contents")
def test_the_player_chooses_which_cards_to_discard():
    """a-game-of-gnomes-rulebook.txt E (choice: house rule): a hand of four travel cards and a
    treasure is one over the tiny rucksack's 4; the player chooses the card, exactly one,
    from the hand; a discarded treasure goes to the shop item discard pile."""
    s, c = new_game(2)
    arrange(s, 0, hand=["meadow", "forest", "nugget", "free", "moonstone"])
    end_turns(s, c)
    assert s.stage == "hand" and active(s) == 0
    assert refused(s, 0, {"type": "discard", "cards": []}, c)
    assert refused(s, 0, {"type": "discard", "cards": ["meadow", "forest"]}, c)
    assert refused(s, 0, {"type": "discard", "cards": ["mountain"]}, c)
    ev = play(s, 0, {"type": "discard", "cards": ["moonstone"]}, c)
    assert first(ev, "HandDiscarded").data["cards"] == ["moonstone"]
    assert s.shop_discard[-1] == "moonstone" and "moonstone" not in s.travel_discard
    assert s.secret["hands"][0] == ["forest", "free", "meadow", "nugget"]


@pytest.mark.rules("gnomes:E/excess-discarded")
def test_discarded_travel_cards_go_to_the_travel_discard_pile():
    """a-game-of-gnomes-rulebook.txt E: travel cards over the limit go to the travel discard pile."""
    s, c = new_game(2)
    arrange(s, 1, hand=["meadow", "meadow", "forest", "nugget", "free", "mountain"])
    end_turns(s, c)
    discards = list(s.travel_discard)
    play(s, 1, {"type": "discard", "cards": ["free", "meadow"]}, c)
    assert sorted(s.travel_discard) == sorted(discards + ["free", "meadow"])
    assert s.players[1].hand_size == 4


@pytest.mark.rules("gnomes:E/limit-by-rucksack", "gnomes:I/rucksack-hand-sizes")
@pytest.mark.parametrize("rucksack,limit", [("tiny_rucksack", 4), ("small_rucksack", 5), ("large_rucksack", 6)])
def test_the_limit_follows_the_rucksack(rucksack, limit):
    """a-game-of-gnomes-rulebook.txt E and I: the tiny, small and large rucksacks keep 4, 5 and 6
    cards: a hand of exactly the limit keeps everything, one more card must go."""
    s, c = new_game(2)
    arrange(s, 0, equipment=["tiny_basket", rucksack], hand=["nugget"] * limit)
    arrange(s, 1, equipment=["tiny_basket", rucksack], hand=["nugget"] * (limit + 1))
    end_turns(s, c)
    assert s.stage == "hand" and active(s) == 1
    assert legal(s, 1) == [{"type": "discard", "cards": ["nugget"]}]
    play(s, 1, legal(s, 1)[0], c)
    assert s.stage == "round_end"
    assert (s.players[0].hand_size, s.players[1].hand_size) == (limit, limit)


@pytest.mark.rules("gnomes:E/carry-over", "gnomes:E/round-ready")
def test_cards_within_the_limit_carry_into_the_next_round():
    """a-game-of-gnomes-rulebook.txt E: after the cut the hand keeps what the rucksack holds into
    the next round, which can then begin."""
    s, c = new_game(2)
    arrange(s, 0, hand=["meadow", "forest", "mountain", "free", "nugget"])
    end_turns(s, c)
    ev = play(s, 0, {"type": "discard", "cards": ["nugget"]}, c)
    assert "HandsChecked" in types(ev)
    assert RULES.pending_phase(s) == "round_end"
    ev = apply_phase(RULES, s, c)
    assert "RoundStarted" in types(ev) and s.stage == "turns"
    assert s.secret["hands"][0] == ["forest", "free", "meadow", "mountain"]
