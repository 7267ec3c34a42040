"""Moving a gnome across the board and the timing track (a-game-of-gnomes-rulebook.txt C.1,
"Remember to move your gnome timer" and "The Timer track"): travel cards by terrain,
single, double, free and nugget cards, three for free, equipment moves, and what each move
costs on the timing track. Moves are played through the forward model; the first-game
layout puts Descina (D) on s07, the Market Meadow Shop on s10 and so on (board.json)."""

from __future__ import annotations

import pytest

from services.rules.core import MalformedMove
from services.rules.gnomes import geo
from services.rules.gnomes.content import content
from services.rules.gnomes.state import STARTING_ITEMS, hand
from services.rules.gnomes.views import timing_track

from .helpers import (
    active,
    arrange,
    at,
    end_turns,
    finish_round,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)


def _game(players: int = 3):
    return new_game(players, seed="c1-move")


def _turn_of(state, chance, seat: int) -> None:
    """End turns until it is ``seat``'s."""
    while active(state) != seat:
        play(state, active(state), {"type": "end_turn"}, chance)


def _moved(events):
    return first(events, "GnomeMoved").data


# -- C.1: terrain, single cards ----------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1/path-terrain", "gnomes:C.1/one-icon-per-path")
def test_each_path_needs_a_card_of_its_own_terrain():
    """C.1: a path's colour is its terrain; one matching icon crosses it, another terrain's does not."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["meadow", "forest", "mountain"])
    # s02-s01 is meadow, s02-s03 forest, s02-s06 mountain (board.json)
    assert "no route" in refused(s, 0, {"type": "travel", "card": "forest", "path": ["s01"]}, c)
    assert "no route" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["s06"]}, c)
    assert "no route" in refused(s, 0, {"type": "travel", "card": "mountain", "path": ["s03"]}, c)
    play(s, 0, {"type": "travel", "card": "mountain", "path": ["s06"]}, c)
    assert s.players[0].place == "s06"
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s03"]}, c)  # s06-s03 meadow
    play(s, 0, {"type": "travel", "card": "forest", "path": ["s02"]}, c)  # s03-s02 forest
    assert s.players[0].place == "s02" and hand(s, 0) == []
    # a single icon crosses one path only
    arrange(s, 0, hand=["meadow"])
    assert "one route" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["s01", "g1"]}, c)


@pytest.mark.rules("gnomes:C.1/one-icon-per-path", "gnomes:C.1/nugget-one-icon")
def test_a_nugget_alone_moves_nobody():
    """C.1: a nugget gives an icon towards three for free but crosses no path by itself."""
    s, c = _game()
    arrange(s, 0, hand=["nugget"])
    assert "nugget" in refused(s, 0, {"type": "travel", "card": "nugget", "path": ["s02"]}, c)
    assert not [m for m in legal(s, 0) if m["type"] in ("travel", "three_for_free")]


@pytest.mark.rules("gnomes:C.1/meadow-example")
def test_a_meadow_card_walks_to_the_adjoining_village():
    """C.1's example: a meadow card takes a gnome from a village to the next along a yellow path."""
    s, c = _game()
    arrange(s, 0, place=at(s, "A"), hand=["meadow"])  # Amanita, meadow path to Calvatia
    ev = play(s, 0, {"type": "travel", "card": "meadow", "path": [at(s, "C")]}, c)
    assert s.layout[s.players[0].place] == "C"
    assert _moved(ev)["cards"] == ["meadow"] and s.players[0].timer == 1


@pytest.mark.rules("gnomes:C.1/single-one-week", "gnomes:C.1/single-move-then-timer",
                   "gnomes:C.1/time-from-cards", "gnomes:C.1 timer/always-move-timer")
def test_a_single_card_moves_one_path_for_one_week():
    """C.1: a single card moves the gnome one path, then its timer 1 week."""
    s, c = _game()
    arrange(s, 0, hand=["meadow", "forest"])
    ev = play(s, 0, {"type": "travel", "card": "meadow", "path": ["s02"]}, c)
    d = _moved(ev)
    assert (d["from"], d["path"], d["weeks"]) == ("s01", ["s02"], 1)
    assert (s.players[0].place, s.players[0].timer) == ("s02", 1)
    play(s, 0, {"type": "travel", "card": "forest", "path": ["s03"]}, c)
    assert (s.players[0].place, s.players[0].timer) == ("s03", 2)


@pytest.mark.rules("gnomes:C.1/no-crowding-on-board")
def test_any_number_of_gnomes_share_a_board_location():
    """C.1: a board location holds any number of gnomes; ending a turn there pushes nobody."""
    s, c = _game()
    arrange(s, 1, place="s02")
    arrange(s, 2, place="s02")
    arrange(s, 0, hand=["meadow"])
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s02"]}, c)
    ev = play(s, 0, {"type": "end_turn"}, c)
    assert first(ev, "TurnEnded").data["displaced"] == []
    assert [p.place for p in s.players] == ["s02", "s02", "s02"]


# -- C.1: double and free cards ----------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1/double-two-paths", "gnomes:C.1/double-two-weeks")
def test_a_double_card_moves_two_paths_of_its_terrain_for_two_weeks():
    """C.1: a double card moves up to two paths matching its icon, then the timer 2 weeks."""
    s, c = _game()
    arrange(s, 0, place="s06", hand=["double_forest", "double_forest"])
    # s06-s08 forest, s08-s05 meadow: the second path must match too
    assert "no route" in refused(s, 0, {"type": "travel", "card": "double_forest", "path": ["s08", "s05"]}, c)
    ev = play(s, 0, {"type": "travel", "card": "double_forest", "path": ["s08", "s11"]}, c)
    assert _moved(ev)["weeks"] == 2
    assert (s.players[0].place, s.players[0].timer) == ("s11", 2)
    assert s.players[0].route == ["s06", "s08", "s11"]


@pytest.mark.rules("gnomes:C.1/double-two-paths")
def test_a_double_card_moves_no_more_than_two_paths():
    """C.1: a double card is good for two paths, not three."""
    s, c = _game()
    arrange(s, 0, place="s06", hand=["double_forest"])
    with pytest.raises(MalformedMove):
        play(s, 0, {"type": "travel", "card": "double_forest", "path": ["s08", "s11", "s15"]}, c)
    assert s.players[0].place == "s06" and hand(s, 0) == ["double_forest"]


@pytest.mark.rules("gnomes:C.1/double-may-stop", "gnomes:C.1/double-stop-loses-rest",
                   "gnomes:C.1/double-two-weeks")
def test_a_double_card_may_stop_after_one_path_and_loses_the_other():
    """C.1: a double card may be used for one path; the second move is lost and it still
    costs 2 weeks."""
    s, c = _game()
    arrange(s, 0, place="s06", hand=["double_forest"])
    play(s, 0, {"type": "travel", "card": "double_forest", "path": ["s08"]}, c)
    assert (s.players[0].place, s.players[0].timer) == ("s08", 2)
    assert s.players[0].played == ["double_forest"] and hand(s, 0) == []
    # the unused second forest move cannot be taken later
    assert "not in your hand" in refused(s, 0, {"type": "travel", "card": "double_forest", "path": ["s11"]}, c)
    assert not [m for m in legal(s, 0) if m["type"] == "travel"]


@pytest.mark.rules("gnomes:C.1/free-any-terrain", "gnomes:C.1/free-two-weeks")
def test_a_free_card_crosses_one_path_of_any_terrain_for_two_weeks():
    """C.1: a free card moves once through meadow, forest or mountain, for 2 weeks."""
    for to in ("s01", "s03", "s06"):  # meadow, forest and mountain paths from s02
        s, c = _game()
        arrange(s, 0, place="s02", hand=["free"])
        ev = play(s, 0, {"type": "travel", "card": "free", "path": [to]}, c)
        assert _moved(ev)["weeks"] == 2
        assert (s.players[0].place, s.players[0].timer) == (to, 2)
    s, c = _game()
    arrange(s, 0, place="s02", hand=["free"])
    assert "one route" in refused(s, 0, {"type": "travel", "card": "free", "path": ["s01", "s05"]}, c)


# -- C.1: three for free -----------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1/three-for-free", "gnomes:C.1/three-for-free-cards",
                   "gnomes:C.1/three-for-free-time")
def test_three_single_cards_of_another_terrain_cross_any_path():
    """C.1: three cards giving 3 icons move the gnome along one route of any kind, for the
    sum of their timers."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["meadow", "meadow", "meadow"])
    # s02-s06 is a mountain path: no meadow card crosses it alone
    assert "no route" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["s06"]}, c)
    ev = play(s, 0, {"type": "three_for_free", "cards": ["meadow", "meadow", "meadow"], "to": "s06"}, c)
    d = _moved(ev)
    assert (d["by"], d["weeks"], d["path"]) == ("three_for_free", 3, ["s06"])
    assert (s.players[0].place, s.players[0].timer) == ("s06", 3)


@pytest.mark.rules("gnomes:C.1/three-for-free", "gnomes:C.1/three-for-free-cards")
def test_three_for_free_moves_one_route_only_and_needs_a_route():
    """C.1: three for free moves along one route between neighbouring locations."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["meadow", "forest", "mountain"])
    cards = ["forest", "meadow", "mountain"]
    assert "no land route" in refused(s, 0, {"type": "three_for_free", "cards": cards, "to": "s09"}, c)
    assert "3 icons" in refused(s, 0, {"type": "three_for_free", "cards": ["forest", "meadow"], "to": "s06"}, c)
    play(s, 0, {"type": "three_for_free", "cards": cards, "to": "s06"}, c)
    assert s.players[0].place == "s06" and hand(s, 0) == []


@pytest.mark.rules("gnomes:C.1/double-gives-two-icons", "gnomes:C.1/three-for-free-cards",
                   "gnomes:C.1/three-for-free-time")
def test_a_double_and_a_single_make_three_for_free():
    """C.1: a double card counts 2 icons, so two cards can make three for free; weeks 2 + 1."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["double_forest", "meadow"])
    assert "3 icons" in refused(s, 0, {"type": "three_for_free", "cards": ["double_forest"], "to": "s06"}, c)
    ev = play(s, 0, {"type": "three_for_free", "cards": ["double_forest", "meadow"], "to": "s06"}, c)
    assert _moved(ev)["weeks"] == 3 and s.players[0].timer == 3


@pytest.mark.rules("gnomes:C.1/free-card-one-icon", "gnomes:C.1/nugget-one-icon",
                   "gnomes:C.1/three-for-free-time")
def test_free_cards_give_one_icon_but_cost_two_weeks():
    """C.1: a free card gives only 1 icon towards three for free yet costs 2 weeks; a nugget
    gives 1 icon for nothing."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["free", "free", "nugget"])
    assert "give 2" in refused(s, 0, {"type": "three_for_free", "cards": ["free", "free"], "to": "s06"}, c)
    ev = play(s, 0, {"type": "three_for_free", "cards": ["free", "free", "nugget"], "to": "s06"}, c)
    assert _moved(ev)["weeks"] == 4 and s.players[0].timer == 4


@pytest.mark.rules("gnomes:C.1/nugget-no-time", "gnomes:C.1/nugget-one-icon", "gnomes:C.1/three-for-free-time")
def test_a_nugget_adds_an_icon_and_no_time():
    """C.1: a double card and a nugget make 3 icons and cost the double's 2 weeks only."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["double_meadow", "nugget"])
    ev = play(s, 0, {"type": "three_for_free", "cards": ["double_meadow", "nugget"], "to": "s06"}, c)
    assert _moved(ev)["weeks"] == 2 and s.players[0].timer == 2


@pytest.mark.rules("gnomes:C.1/three-nuggets-no-time", "gnomes:C.1/nugget-no-time",
                   "gnomes:C.1 timer/week-7-limit")
def test_three_nuggets_move_for_no_time_even_at_week_seven():
    """C.1: three nugget cards move the gnome once for no time, so even a timer on week 7
    (C.1 timer) may still do it."""
    s, c = _game()
    arrange(s, 0, place="s02", timer=7, hand=["nugget", "nugget", "nugget", "meadow"])
    assert "past week 7" in refused(s, 0, {"type": "travel", "card": "meadow", "path": ["s01"]}, c)
    stamp = s.players[0].stamp
    ev = play(s, 0, {"type": "three_for_free", "cards": ["nugget", "nugget", "nugget"], "to": "s06"}, c)
    assert _moved(ev)["weeks"] == 0
    assert (s.players[0].place, s.players[0].timer, s.players[0].stamp) == ("s06", 7, stamp)
    assert hand(s, 0) == ["meadow"]


@pytest.mark.rules("gnomes:C.1/three-for-free-no-spare")
def test_three_for_free_plays_no_spare_card():
    """C.1, house rule: three for free plays only the cards it needs; a set that would still
    give 3 icons without one of its cards is refused, two doubles (4 icons) are not."""
    s, c = _game()
    arrange(s, 0, place="s02", hand=["double_meadow", "double_forest", "nugget", "nugget", "meadow"])
    for cards in (["double_meadow", "nugget", "nugget"], ["double_meadow", "meadow", "nugget"]):
        assert "house rule" in refused(s, 0, {"type": "three_for_free", "cards": cards, "to": "s06"}, c)
    offered = [sorted(m["cards"]) for m in legal(s, 0) if m["type"] == "three_for_free" and m["to"] == "s06"]
    assert ["double_meadow", "nugget", "nugget"] not in offered and ["double_meadow", "nugget"] in offered
    ev = play(s, 0, {"type": "three_for_free", "cards": ["double_meadow", "double_forest"], "to": "s06"}, c)
    assert _moved(ev)["weeks"] == 4


# -- C.1: Daniel's example ---------------------------------------------------------------------

def _daniel():
    s, c = _game()
    arrange(s, 0, place=at(s, "market_meadow"), hand=["double_mountain", "nugget"])
    return s, c


@pytest.mark.rules("gnomes:C.1/daniel-example-route", "gnomes:C.1/daniel-example-single")
def test_daniel_could_have_walked_to_descina_with_one_meadow_card():
    """C.1, Daniel's example: the way to Descina is a yellow meadow path, so a meadow card
    would have taken him there in one week, and no other terrain's single card does."""
    s, c = _daniel()
    descina = at(s, "D")
    assert geo.crosses(s.players[0].place, descina, frozenset({"meadow"}))
    assert "no route" in refused(s, 0, {"type": "travel", "card": "double_mountain", "path": [descina]}, c)
    arrange(s, 0, hand=["meadow", "forest", "mountain"])
    for card in ("forest", "mountain"):
        assert "no route" in refused(s, 0, {"type": "travel", "card": card, "path": [descina]}, c)
    play(s, 0, {"type": "travel", "card": "meadow", "path": [descina]}, c)
    assert (s.players[0].place, s.players[0].timer) == (descina, 1)


@pytest.mark.rules("gnomes:C.1/daniel-example-three-for-free", "gnomes:C.1/daniel-example-time",
                   "gnomes:C.1/cards-discarded-at-end", "gnomes:C.1/nugget-no-time")
def test_daniel_reaches_descina_by_three_for_free_in_two_weeks():
    """C.1, Daniel's example: no meadow card, so a double mountain (2 icons) and a nugget (1)
    make three for free to Descina; 2 + 0 weeks; the cards go to the discard pile."""
    s, c = _daniel()
    descina = at(s, "D")
    assert "3 icons" in refused(s, 0, {"type": "three_for_free", "cards": ["double_mountain"], "to": descina}, c)
    ev = play(s, 0, {"type": "three_for_free", "cards": ["double_mountain", "nugget"], "to": descina}, c)
    d = _moved(ev)
    assert d["cards"] == ["double_mountain", "nugget"] and d["weeks"] == 2
    assert s.layout[s.players[0].place] == "D" and s.players[0].timer == 2 and hand(s, 0) == []
    ev = play(s, 0, {"type": "end_turn"}, c)
    assert sorted(first(ev, "TurnEnded").data["discarded"]) == ["double_mountain", "nugget"]
    assert sorted(s.travel_discard) == ["double_mountain", "nugget"]


@pytest.mark.rules("gnomes:C.1/cards-discarded-at-end")
def test_played_cards_wait_until_the_end_of_the_turn_for_the_discard_pile():
    """C.1: cards played lie before the player until the turn ends, then go to the travel
    discard pile."""
    s, c = _game()
    arrange(s, 0, hand=["meadow", "meadow"])
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s02"]}, c)
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s01"]}, c)
    assert s.travel_discard == [] and s.players[0].played == ["meadow", "meadow"]
    play(s, 0, {"type": "end_turn"}, c)
    assert s.travel_discard == ["meadow", "meadow"] and s.players[0].played == []


@pytest.mark.rules("gnomes:C.1/equipment-movement", "gnomes:C.1 timer/item-time")
def test_equipment_moves_without_a_card_for_the_time_on_it():
    """C.1 and I: a Canteen crosses a meadow path with no card, 1 week per use (C.1 timer)."""
    s, c = _game()
    arrange(s, 0, equipment=[*STARTING_ITEMS, "canteen"], hand=["forest"])
    ev = play(s, 0, {"type": "equipment", "item": "canteen", "to": "s02"}, c)
    assert "cards" not in _moved(ev) and _moved(ev)["weeks"] == 1
    ev = play(s, 0, {"type": "equipment", "item": "canteen", "to": "s05"}, c)  # s02-s05 meadow
    assert (s.players[0].place, s.players[0].timer) == ("s05", 2)
    assert hand(s, 0) == ["forest"] and "canteen" in s.players[0].equipment
    assert "crosses meadow" in refused(s, 0, {"type": "equipment", "item": "canteen", "to": "s01"}, c)  # forest


@pytest.mark.rules("gnomes:C.1/map-sites")
def test_the_board_has_19_sites_and_31_paths_between_them():
    """C.1, house rule: 19 sites joined by 31 meadow, forest and mountain paths."""
    b = content().board
    sites = set(b.sites)
    between = {frozenset((a, n)) for a in sites for n in geo.neighbours(a, geo.LAND_ICONS) if n in sites}
    assert len(sites) == 19 and len(between) == 31
    terrains = {t for a in sites for n, icons in geo.land_routes()[a] if n in sites for t in icons}
    assert terrains == {"meadow", "forest", "mountain"}


# -- C.1 timer ---------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.1 timer/always-move-timer", "gnomes:C.1 timer/card-time",
                   "gnomes:C.1 timer/item-time")
def test_every_move_advances_the_timer_by_its_cost():
    """C.1 timer: each move adds the sand timers of its cards, or the item's time."""
    s, c = _game()
    arrange(s, 0, equipment=[*STARTING_ITEMS, "short_axe"], hand=["meadow", "free", "nugget"])
    steps = [({"type": "travel", "card": "meadow", "path": ["s02"]}, 1),
             ({"type": "travel", "card": "free", "path": ["s06"]}, 3),
             ({"type": "equipment", "item": "short_axe", "to": "s08"}, 4)]
    for move, timer in steps:
        before = s.players[0].timer
        ev = play(s, 0, move, c)
        assert s.players[0].timer == timer == before + _moved(ev)["weeks"]


@pytest.mark.rules("gnomes:C.1 timer/week-7-limit", "gnomes:C end/no-timed-action-past-7")
def test_no_action_takes_the_timer_past_week_seven():
    """C.1 timer: nothing may move the timer beyond week 7; a move that just fits is allowed."""
    s, c = _game()
    arrange(s, 0, timer=6, hand=["double_meadow", "free", "meadow"])
    assert "past week 7" in refused(s, 0, {"type": "travel", "card": "double_meadow", "path": ["s02"]}, c)
    assert "past week 7" in refused(s, 0, {"type": "travel", "card": "free", "path": ["s02"]}, c)
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s02"]}, c)
    assert s.players[0].timer == 7
    assert "past week 7" in refused(s, 0, {"type": "scout"}, c)
    assert not [m for m in legal(s, 0) if m["type"] in ("travel", "scout")]


@pytest.mark.rules("gnomes:C.1 timer/may-stop-early", "gnomes:C.1 timer/unused-weeks-sleep")
def test_a_gnome_may_stop_early_and_sleep_with_the_weeks_left():
    """C.1 timer and D: a player may end the turn with weeks unused; those weeks let the gnome
    sleep for travel cards."""
    s, c = _game()
    arrange(s, 0, hand=["double_meadow", "free"])
    play(s, 0, {"type": "travel", "card": "double_meadow", "path": ["s02"]}, c)
    play(s, 0, {"type": "travel", "card": "free", "path": ["s01"]}, c)
    play(s, 0, {"type": "end_turn"}, c)
    assert active(s) == 1
    arrange(s, 1, hand=["forest"])
    play(s, 1, {"type": "travel", "card": "forest", "path": ["s07"]}, c)  # s04-s07 forest
    ev = play(s, 1, {"type": "end_turn"}, c)  # Yellow stops on week 1 of 7
    ev += play(s, 2, {"type": "end_turn"}, c)
    began = first(ev, "SleepBegan").data
    assert began["exhausted"] == 4 and began["sleepers"] == [1, 2]
    assert s.stage == "sleep" and active(s) == 1
    assert sorted(m["piles"] for m in legal(s, 1)) == [[], [1], [1, 2], [2], [3]]
    play(s, 1, {"type": "sleep", "piles": [3]}, c)
    assert s.players[1].hand_size == 3  # the three cards of pile 3


@pytest.mark.rules("gnomes:C.1 timer/stack-on-top", "gnomes:C/top-timer-starts")
def test_a_timer_landing_on_another_goes_on_top():
    """C.1 timer: a timer reaching a space where another stands goes on top of it, which
    decides who starts the next round (C)."""
    s, c = _game()
    arrange(s, 0, hand=["meadow"])
    arrange(s, 1, hand=["meadow"])
    play(s, 0, {"type": "travel", "card": "meadow", "path": ["s02"]}, c)
    play(s, 0, {"type": "end_turn"}, c)
    play(s, 1, {"type": "travel", "card": "meadow", "path": ["s03"]}, c)  # s04-s03 meadow
    assert timing_track(s)[1] == [0, 1]  # bottom first: Yellow lies on Red
    finish_round(s, c)
    # Blue slept on top of the exhausted stack, then Yellow above Red
    assert s.order == [2, 1, 0]


# -- C.1 timer: Green's example ----------------------------------------------------------------

def _green_on_four():
    """Four players: Red spends 4 weeks, then Green (seat 3) plays cards for 4 weeks too."""
    s, c = _game(4)
    arrange(s, 0, hand=["free", "free"])
    play(s, 0, {"type": "travel", "card": "free", "path": ["s02"]}, c)
    play(s, 0, {"type": "travel", "card": "free", "path": ["s01"]}, c)
    _turn_of(s, c, 3)
    arrange(s, 3, hand=["double_forest", "double_meadow", "meadow"])
    play(s, 3, {"type": "travel", "card": "double_forest", "path": ["s17"]}, c)  # s18-s17 forest
    play(s, 3, {"type": "travel", "card": "double_meadow", "path": ["s16"]}, c)  # s17-s16 meadow
    return s, c


@pytest.mark.rules("gnomes:C.1 timer/green-example-four-weeks", "gnomes:C.1 timer/green-example-stacks",
                   "gnomes:C.1 timer/stack-on-top")
def test_green_moves_four_weeks_and_lands_on_top():
    """C.1 timer, Green's example: cards worth 4 weeks move his timer four spaces, onto a
    space holding another timer, where it goes on top."""
    s, c = _green_on_four()
    assert s.players[3].timer == 4 == s.players[0].timer
    assert timing_track(s)[4] == [0, 3]
    assert s.players[3].stamp > s.players[0].stamp
    play(s, 3, {"type": "end_turn"}, c)
    finish_round(s, c)
    # Yellow and Blue slept onto the stack; of the two on week 4, Green is above Red
    assert s.order.index(3) < s.order.index(0)


@pytest.mark.rules("gnomes:C.1 timer/green-example-continues", "gnomes:C/actions-any-order")
def test_green_may_keep_acting_with_weeks_left():
    """C.1 timer, Green's example: on week 4 his turn goes on, as weeks remain."""
    s, c = _green_on_four()
    assert active(s) == 3
    assert {"type": "travel", "card": "meadow", "path": ["s17"]} in legal(s, 3)
    play(s, 3, {"type": "travel", "card": "meadow", "path": ["s17"]}, c)
    assert (s.players[3].place, s.players[3].timer) == ("s17", 5) and active(s) == 3
    assert types(end_turns(s, c))[0] == "TurnEnded"
