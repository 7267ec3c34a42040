"""A Game of Gnomes: the starting equipment (a-game-of-gnomes-rulebook.txt B "Equipment") and
the turn overview (C), played through ``play`` on games set up by the engine."""

from __future__ import annotations

import pytest

from services.rules.core import NotYourTurn
from services.rules.gnomes import geo
from services.rules.gnomes.state import STARTING_ITEMS, basket_room, hand, hand_limit

from .helpers import (
    RULES,
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

TREASURE = "acorn_cup"  # costs 3 (content/cards.json)


def _shop_game(stock: list[str], gems: dict[str, int] | None = None, shop: str = "hillview_hut"):
    """Seat 0 at ``shop`` offering ``stock``, holding ``gems``."""
    state, chance = new_game()
    state.shops[shop] = list(stock)
    arrange(state, 0, place=at(state, shop), gems=gems or {"white": 3})
    return state, chance


def _summer_game():
    """A game arranged at week 13, when the frog may be ridden (F)."""
    state, chance = new_game()
    state.calendar = 13
    return state, chance


# -- B equipment ------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:B equipment/four-to-start", "gnomes:B equipment/display-face-up")
def test_four_starting_items_face_up_for_everyone_to_see():
    """B equipment: every player starts with Tiny Basket, Tiny Rucksack, Tunnel Key and Pond Pipes,
    face up: another seat's view shows them, while it never shows that seat's hand."""
    state, _ = new_game()
    arrange(state, 0, hand=["meadow", "nugget"])
    for p in state.players:
        assert sorted(p.equipment) == sorted(STARTING_ITEMS) and len(p.equipment) == 4
    view = RULES.view(state, 1)
    assert sorted(view["players"][0]["equipment"]) == sorted(STARTING_ITEMS)
    assert view["hand"] == [] and view["players"][0]["hand_size"] == 2
    assert "meadow" not in str(view["players"]) and "secret" not in view


@pytest.mark.rules("gnomes:B equipment/treasure-in-hand")
def test_a_bought_treasure_goes_to_the_hand_not_the_display():
    """B equipment, C.4: a treasure bought is held in the hand (it counts as a card there), not laid
    face up with the equipment; other seats see only the hand size."""
    state, chance = _shop_game([TREASURE, "canteen"])
    play(state, 0, {"type": "buy", "card": TREASURE}, chance)
    p = state.players[0]
    assert hand(state, 0) == [TREASURE] and p.hand_size == 1
    assert TREASURE not in p.equipment and len(p.equipment) == 4
    assert TREASURE not in str(RULES.view(state, 1)["players"])
    assert RULES.view(state, 0)["hand"] == [TREASURE]


@pytest.mark.rules("gnomes:B equipment/more-from-shops")
def test_more_equipment_from_a_shop_is_usable_at_once():
    """B equipment, C.4: a player gains more equipment at the shops: a Canteen bought joins the four
    starting items and moves the gnome along a meadow path with no card."""
    state, chance = _shop_game(["canteen"], {"green": 1})
    play(state, 0, {"type": "buy", "card": "canteen"}, chance)
    assert len(state.players[0].equipment) == 5 and "canteen" in state.players[0].equipment
    meadow = geo.neighbours(state.players[0].place, frozenset({"meadow"}))[0]
    play(state, 0, {"type": "equipment", "item": "canteen", "to": meadow}, chance)
    assert state.players[0].place == meadow and state.players[0].timer == 1


@pytest.mark.rules("gnomes:B equipment/tiny-basket-one")
def test_the_tiny_basket_holds_one_mushroom():
    """B equipment, C.2: with the Tiny Basket a gnome picks one mushroom; a second is refused even
    where another grows."""
    state, chance = new_game()
    arrange(state, 0, place=at(state, "C"))
    state.mushrooms[at(state, "C")] = ["blue", "blue"]
    play(state, 0, {"type": "pick", "mushroom": "blue"}, chance)
    assert state.players[0].basket == ["blue"] and basket_room(state.players[0]) == 0
    assert "basket is full" in refused(state, 0, {"type": "pick", "mushroom": "blue"}, chance)


@pytest.mark.rules("gnomes:B equipment/tiny-basket-replaced")
def test_a_small_basket_replaces_the_tiny_one():
    """B equipment, C.4: buying a Small Basket discards the Tiny Basket (a starting item, out of the
    game); then two mushrooms fit."""
    state, chance = _shop_game(["small_basket"])
    play(state, 0, {"type": "buy", "card": "small_basket"}, chance)
    p = state.players[0]
    assert "tiny_basket" not in p.equipment and "small_basket" in p.equipment
    assert "tiny_basket" in state.removed and "tiny_basket" not in state.shop_discard
    assert basket_room(p) == 2


@pytest.mark.rules("gnomes:B equipment/tiny-rucksack-four")
def test_the_tiny_rucksack_keeps_four_cards_at_the_end_of_the_round():
    """B equipment, E: with the Tiny Rucksack a hand of 6 must come down to 4 when the round ends:
    discarding 1 is refused, discarding 2 is the move; a hand of 4 keeps everything."""
    state, chance = new_game()
    arrange(state, 0, hand=["meadow", "meadow", "forest", "forest", "nugget", "free"])
    arrange(state, 1, hand=["meadow", "forest", "nugget", "free"])
    end_turns(state, chance)
    assert state.stage == "hand" and active(state) == 0
    assert all(len(m["cards"]) == 2 for m in legal(state, 0))
    assert "discard exactly 2" in refused(state, 0, {"type": "discard", "cards": ["free"]}, chance)
    play(state, 0, {"type": "discard", "cards": ["free", "nugget"]}, chance)
    assert state.players[0].hand_size == 4 and state.players[1].hand_size == 4
    assert state.stage == "round_end"


@pytest.mark.rules("gnomes:B equipment/tiny-rucksack-replaced")
def test_a_small_rucksack_replaces_the_tiny_one():
    """B equipment, C.4, E: buying a Small Rucksack discards the Tiny Rucksack (out of the game);
    then a hand of 5 is kept at the end of the round."""
    state, chance = _shop_game(["small_rucksack"])
    play(state, 0, {"type": "buy", "card": "small_rucksack"}, chance)
    p = state.players[0]
    assert "tiny_rucksack" not in p.equipment and "tiny_rucksack" in state.removed
    assert hand_limit(p) == 5
    arrange(state, 0, hand=["meadow"] * 5)
    end_turns(state, chance)
    assert state.stage == "round_end" and state.players[0].hand_size == 5


@pytest.mark.rules("gnomes:B equipment/tunnel-key-no-time")
def test_the_tunnel_key_goes_between_grifola_and_hydnum_either_way_in_no_time():
    """B equipment: the Tunnel Key moves a gnome from Grifola to Hydnum, or back, taking no week,
    even with the timer at the end of the track; from anywhere else it does nothing."""
    state, chance = new_game()
    g, h = at(state, "G"), at(state, "H")
    assert "tunnel between Grifola and Hydnum" in refused(
        state, 0, {"type": "equipment", "item": "tunnel_key", "to": h}, chance)
    arrange(state, 0, place=g, timer=7)
    events = play(state, 0, {"type": "equipment", "item": "tunnel_key", "to": h}, chance)
    assert first(events, "GnomeMoved").data["weeks"] == 0
    assert state.players[0].place == h and state.players[0].timer == 7
    play(state, 0, {"type": "end_turn"}, chance)
    arrange(state, 1, place=h)
    play(state, 1, {"type": "equipment", "item": "tunnel_key", "to": g}, chance)
    assert state.players[1].place == g and state.players[1].timer == 0


@pytest.mark.rules("gnomes:B equipment/tunnel-key-once")
def test_the_tunnel_key_is_discarded_once_used():
    """B equipment: the Tunnel Key is discarded after use (a starting item leaves the game), so the
    way back through the tunnel is refused."""
    state, chance = new_game()
    g, h = at(state, "G"), at(state, "H")
    arrange(state, 0, place=g)
    play(state, 0, {"type": "equipment", "item": "tunnel_key", "to": h}, chance)
    assert "tunnel_key" not in state.players[0].equipment and "tunnel_key" in state.removed
    assert "do not have" in refused(state, 0, {"type": "equipment", "item": "tunnel_key", "to": g}, chance)


@pytest.mark.rules("gnomes:B equipment/pond-pipes-frog", "gnomes:B equipment/pond-pipes-once")
def test_pond_pipes_put_the_gnome_on_the_frog_and_are_discarded():
    """B equipment: using Pond Pipes swaps the player's gnome for the frog hopper (no time) and
    discards the pipes; they cannot be used again, even in a later round."""
    state, chance = _summer_game()
    events = play(state, 0, {"type": "pond_pipes"}, chance)
    assert types(events) == ["PondPipesUsed"] and state.frog == 0 and state.players[0].timer == 0
    assert "pond_pipes" not in state.players[0].equipment and "pond_pipes" in state.removed
    assert "no Pond Pipes" in refused(state, 0, {"type": "pond_pipes"}, chance)
    finish_round(state, chance)
    assert "no Pond Pipes" in refused(state, 0, {"type": "pond_pipes"}, chance)


@pytest.mark.rules("gnomes:B equipment/pond-pipes-any-icon")
def test_on_the_frog_any_single_icon_takes_any_route():
    """B equipment: riding the frog, a meadow card crosses a forest path and a nugget card a
    mountain path, each one icon for one route, for the card's sand timer; without the frog
    both are refused."""
    state, chance = _summer_game()
    arrange(state, 0, hand=["meadow", "nugget"])
    start = state.players[0].place  # red house, s01: forest to s05
    forest = geo.neighbours(start, frozenset({"forest"}))[0]
    refused(state, 0, {"type": "travel", "card": "meadow", "path": [forest]}, chance)
    play(state, 0, {"type": "pond_pipes"}, chance)
    play(state, 0, {"type": "travel", "card": "meadow", "path": [forest]}, chance)
    assert state.players[0].place == forest and state.players[0].timer == 1
    arrange(state, 0, place="s02")
    mountain = geo.neighbours("s02", frozenset({"mountain"}))[0]
    play(state, 0, {"type": "travel", "card": "nugget", "path": [mountain]}, chance)
    assert state.players[0].place == mountain and state.players[0].timer == 1


@pytest.mark.rules("gnomes:B equipment/pond-pipes-tower-and-lateral")
def test_on_the_frog_one_icon_reaches_the_tower_and_moves_along_a_mountain_level():
    """B equipment: on the frog a single card also takes the black route to the Sorcerer's tower
    and a lateral step on Gnome Mountain (a forest card between rock spaces, where a mountain
    icon is needed on foot)."""
    state, chance = _summer_game()
    arrange(state, 0, place=at(state, "C"), hand=["meadow", "forest"])
    refused(state, 0, {"type": "travel", "card": "meadow", "path": ["tower"]}, chance)
    play(state, 0, {"type": "pond_pipes"}, chance)
    play(state, 0, {"type": "travel", "card": "meadow", "path": ["tower"]}, chance)
    assert state.players[0].place == "tower"
    arrange(state, 0, place="r1")
    play(state, 0, {"type": "travel", "card": "forest", "path": ["r2"]}, chance)
    assert state.players[0].place == "r2" and state.players[0].timer == 2
    arrange(state, 1, place="r1", hand=["forest"])
    play(state, 0, {"type": "end_turn"}, chance)
    assert "no route" in refused(state, 1, {"type": "travel", "card": "forest", "path": ["r2"]}, chance)


@pytest.mark.rules("gnomes:B equipment/pond-pipes-one-per-round")
def test_only_one_player_a_round_uses_pond_pipes():
    """B equipment: once red has used Pond Pipes this round, yellow's are refused; in the next round
    yellow may use them."""
    state, chance = _summer_game()
    play(state, 0, {"type": "pond_pipes"}, chance)
    play(state, 0, {"type": "end_turn"}, chance)
    assert "one player a round" in refused(state, 1, {"type": "pond_pipes"}, chance)
    finish_round(state, chance)
    assert state.round == 2
    while active(state) != 1:
        play(state, active(state), {"type": "end_turn"}, chance)
    play(state, 1, {"type": "pond_pipes"}, chance)
    assert state.frog == 1


@pytest.mark.rules("gnomes:B equipment/pond-pipes-swap-back")
def test_the_rider_swaps_back_at_the_end_of_the_round():
    """B equipment: when the round ends the frog goes back and the gnome returns; a meadow card no
    longer crosses a forest path for it."""
    state, chance = _summer_game()
    play(state, 0, {"type": "pond_pipes"}, chance)
    events = finish_round(state, chance)
    assert first(events, "FrogReturned").data["seat"] == 0 and state.frog is None
    seat = active(state)
    while seat != 0:
        play(state, seat, {"type": "end_turn"}, chance)
        seat = active(state)
    arrange(state, 0, hand=["meadow"])
    forest = geo.neighbours(state.players[0].place, frozenset({"forest"}))[0]
    refused(state, 0, {"type": "travel", "card": "meadow", "path": [forest]}, chance)


# -- C turn overview --------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C/top-timer-starts", "gnomes:C/each-in-order")
def test_the_top_timer_starts_and_each_player_takes_one_turn_in_order():
    """C: the seat whose timer is on top takes the first turn and then every seat one turn, in
    stack order; a seat whose turn has ended cannot act again this round."""
    state, chance = new_game()
    track = RULES.view(state, None)["timing_track"][0]
    assert active(state) == track[-1]
    order = []
    while state.stage == "turns":
        seat = active(state)
        order.append(seat)
        play(state, seat, {"type": "end_turn"}, chance)
        if state.stage == "turns":
            with pytest.raises(NotYourTurn):
                play(state, seat, {"type": "scout"}, chance)
    assert order == list(reversed(track)) == [0, 1, 2]


@pytest.mark.rules("gnomes:C/top-timer-starts")
def test_in_a_later_round_the_top_of_the_new_stack_starts():
    """C, D: in round 2 the timer on top of the stack (the last to land on the furthest space)
    starts, not seat 0 again."""
    state, chance = new_game()
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "end_turn"}, chance)
    play(state, 1, {"type": "scout"}, chance)
    finish_round(state, chance)
    assert active(state) == 2 and state.order[0] == 2


@pytest.mark.rules("gnomes:C/actions-cost-time")
def test_moving_picking_and_restocking_push_the_timer_buying_does_not():
    """C: playing a card to move (1 week for a single), scouting (1), restocking (2) and picking
    (1) move the gnome timer along; buying costs no week."""
    state, chance = new_game()
    state.shops["hillview_hut"] = ["canteen"]
    arrange(state, 0, hand=["meadow", "forest"], gems={"green": 1})
    timeline = []
    for move in ({"type": "travel", "card": "meadow", "path": [at(state, "hillview_hut")]},
                 {"type": "scout"},
                 {"type": "buy", "card": "canteen"},
                 {"type": "restock"},
                 {"type": "travel", "card": "forest", "path": [at(state, "A")]}):
        play(state, 0, move, chance)
        timeline.append(state.players[0].timer)
    state.mushrooms[at(state, "A")] = ["red"]
    play(state, 0, {"type": "pick", "mushroom": "red"}, chance)
    timeline.append(state.players[0].timer)
    assert timeline == [1, 2, 2, 4, 5, 6]


@pytest.mark.rules("gnomes:C/round-ends")
def test_the_round_is_over_when_every_player_has_had_a_turn():
    """C: after the last seat's turn the turns stage ends (sleep begins); before it the round goes
    on."""
    state, chance = new_game()
    play(state, 0, {"type": "end_turn"}, chance)
    events = play(state, 1, {"type": "end_turn"}, chance)
    assert "SleepBegan" not in types(events) and state.stage == "turns"
    events = play(state, 2, {"type": "end_turn"}, chance)
    assert "SleepBegan" in types(events) and state.stage == "round_end"
    assert RULES.pending_phase(state) == "round_end" and RULES.to_move(state) == []


@pytest.mark.rules("gnomes:C/after-the-round", "gnomes:C/new-round")
def test_after_the_round_gnomes_sleep_the_calendar_moves_and_a_new_round_starts():
    """C, D, F: after the turns the gnomes behind sleep for travel cards, then the calendar moves
    by the weeks used and the season may change (week 12 + 3 reaches summer), then a new round
    starts with every timer back at 0."""
    state, chance = new_game()
    state.calendar = 12
    for _ in range(3):
        play(state, 0, {"type": "scout"}, chance)
    end_turns(state, chance)
    assert state.stage == "sleep" and state.sleepers == [1, 2]
    play(state, 1, {"type": "sleep", "piles": [3]}, chance)
    assert state.players[1].hand_size == 3
    play(state, 2, {"type": "sleep", "piles": [1, 2]}, chance)
    assert state.players[2].hand_size == 3
    assert state.stage == "round_end"
    events = finish_round(state, chance)
    assert types(events)[0] == "CalendarMoved" and state.calendar == 15
    assert RULES.view(state, 0)["season"] == "summer"
    assert first(events, "RoundStarted").data["round"] == 2
    assert state.round == 2 and state.stage == "turns"
    assert [p.timer for p in state.players] == [0, 0, 0]


@pytest.mark.rules("gnomes:C/actions-any-order")
def test_actions_in_any_order_and_repeated():
    """C: on a turn actions come in any order, each as often as wished: scout, move, scout, move
    back, scout again."""
    state, chance = new_game()
    home, shop = state.players[0].place, at(state, "hillview_hut")
    arrange(state, 0, hand=["meadow", "meadow"])
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "travel", "card": "meadow", "path": [shop]}, chance)
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "travel", "card": "meadow", "path": [home]}, chance)
    play(state, 0, {"type": "scout"}, chance)
    p = state.players[0]
    assert p.place == home and p.timer == 5 and p.hand_size == 3 and p.played == ["meadow", "meadow"]
    assert active(state) == 0


@pytest.mark.rules("gnomes:C/one-action-at-a-time")
def test_an_action_is_finished_before_the_next_starts():
    """C: an action is complete before another begins: a double card moved one path and then a
    scout; the double's second path cannot be taken afterwards (the card is spent)."""
    state, chance = new_game()
    arrange(state, 0, hand=["double_meadow"])
    shop = at(state, "hillview_hut")
    play(state, 0, {"type": "travel", "card": "double_meadow", "path": [shop]}, chance)
    assert state.players[0].timer == 2
    play(state, 0, {"type": "scout"}, chance)
    nxt = geo.neighbours(shop, frozenset({"meadow"}))
    assert nxt and "not in your hand" in refused(
        state, 0, {"type": "travel", "card": "double_meadow", "path": [nxt[-1]]}, chance)
