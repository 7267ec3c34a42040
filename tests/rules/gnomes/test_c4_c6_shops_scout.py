"""A Game of Gnomes, buying at shops, restocking, scouting and the end of a turn
(a-game-of-gnomes-rulebook.txt C.4, C.5, C.6, C end), with the house rules on the shop and
travel decks, costs, change and refills, played through the forward model."""

from __future__ import annotations

from collections import Counter

import pytest

from services.rules.gnomes import scoring
from services.rules.gnomes.state import (
    STARTING_ITEMS,
    equipment,
    gem_value,
    treasures,
    visibility,
)

from .helpers import (
    RULES,
    active,
    arrange,
    at,
    end_turns,
    first,
    legal,
    new_game,
    play,
    refused,
    types,
)

SHOPS = ("market_meadow", "forest_fete", "hillview_hut")


def stock(state, shop, cards):
    """Put ``cards`` on offer at ``shop``, its old stock shuffled back into the shop item deck
    (the deck's counts kept whole)."""
    deck = state.secret["shop_deck"]
    for c in state.shops[shop]:
        deck[c] = deck.get(c, 0) + 1
        state.shop_size += 1
    for c in cards:
        if deck.get(c):
            deck[c] -= 1
            if not deck[c]:
                del deck[c]
            state.shop_size -= 1
    state.shops[shop] = list(cards)


def at_shop(state, seat, shop, cards, **kw):
    stock(state, shop, cards)
    arrange(state, seat, place=at(state, shop), **kw)


def buy(card, nuggets=0, **kw):
    return {"type": "buy", "card": card, "nuggets": nuggets, **kw}


# -- C.4 buy -----------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.4/buy-at-shop")
def test_cards_are_bought_only_at_a_shop_and_only_what_it_offers():
    """C.4: away from a shop nothing can be bought; at a shop only a card on its offer."""
    state, chance = new_game()
    stock(state, "market_meadow", ["canteen", "compass", "spare_key", "small_basket"])
    arrange(state, 0, place=at(state, "D"), gems={"white": 3})
    assert "not at a shop" in refused(state, 0, buy("canteen"), chance)
    arrange(state, 0, place=at(state, "market_meadow"))
    assert "not for sale at this shop" in refused(state, 0, buy("large_rucksack"), chance)
    play(state, 0, buy("canteen"), chance)
    assert "canteen" in state.players[0].equipment


@pytest.mark.rules("gnomes:C.4/large-basket-costs-two", "gnomes:C.4/buy-example", "gnomes:C.4/upgrade-discards-old",
                   "gnomes:C.4/starter-upgrade-removed")
def test_the_large_basket_costs_two_and_replaces_the_tiny_basket():
    """C.4 example: the Large Basket costs 2 (1 is not enough) and buying it discards the basket
    held; the starting Tiny Basket leaves the game rather than going to the shop discards."""
    state, chance = new_game()
    at_shop(state, 0, "forest_fete", ["large_basket", "canteen", "compass", "spare_key"], gems={"brown": 1})
    assert "costs 2" in refused(state, 0, buy("large_basket"), chance)
    arrange(state, 0, gems={"brown": 2})
    events = play(state, 0, buy("large_basket"), chance)
    bought = first(events, "CardBought").data
    assert bought["cost"] == 2 and bought["replaced"] == ["tiny_basket"]
    p = state.players[0]
    assert "large_basket" in p.equipment and "tiny_basket" not in p.equipment
    assert gem_value(p.gems) == 0
    assert "tiny_basket" in state.removed and "tiny_basket" not in state.shop_discard
    assert "large_basket" not in state.shops["forest_fete"]


@pytest.mark.rules("gnomes:C.4/upgrade-discards-old", "gnomes:C.4/shop-upgrade-discarded",
                   "gnomes:C.4/starter-upgrade-removed")
def test_a_replaced_shop_rucksack_or_basket_goes_to_the_shop_item_discard_pile():
    """C.4: a new rucksack discards the one held; the Tiny Rucksack leaves the game, a Small
    Rucksack or Small Basket bought earlier goes to the shop item discard pile (I)."""
    state, chance = new_game()
    at_shop(state, 0, "hillview_hut", ["small_rucksack", "large_rucksack", "large_basket", "canteen"],
            gems={"white": 3})
    arrange(state, 0, equipment=["small_basket", "tiny_rucksack", "tunnel_key", "pond_pipes"])
    play(state, 0, buy("small_rucksack"), chance)
    assert "tiny_rucksack" in state.removed and state.shop_discard == []
    play(state, 0, buy("large_rucksack"), chance)
    play(state, 0, buy("large_basket"), chance)
    assert sorted(state.shop_discard) == ["small_basket", "small_rucksack"]
    assert sorted(state.players[0].equipment) == ["large_basket", "large_rucksack", "pond_pipes", "tunnel_key"]


@pytest.mark.rules("gnomes:C.4/change-given", "gnomes:C.4/change-white-first")
def test_change_comes_from_the_supply_counted_white_first():
    """C.4: paying a white gem for a 2-gem item gives 1 brown back from the supply; house rule:
    the buyer's gems afterwards are the value left, white first (5 brown less 1 is a white and
    a brown)."""
    state, chance = new_game()
    at_shop(state, 0, "market_meadow", ["canteen", "spare_key", "compass", "small_basket"], gems={"white": 1})
    play(state, 0, buy("canteen"), chance)
    assert state.players[0].gems == {"brown": 1, "green": 0, "white": 0}
    arrange(state, 0, gems={"brown": 5})
    play(state, 0, buy("spare_key"), chance)
    assert state.players[0].gems == {"brown": 1, "green": 0, "white": 1}


@pytest.mark.rules("gnomes:C.4/nuggets-pay", "gnomes:C.4/nugget-as-brown", "gnomes:C.6/nugget-card-values")
def test_nugget_cards_pay_all_or_part_of_a_price_one_brown_each():
    """C.4: two nugget cards pay the whole of a 2-gem price, one nugget and one brown gem pay it
    in part; a nugget stands for a brown gem (house rule, C.6). Paid nuggets leave the hand and
    are discarded at the end of the turn."""
    state, chance = new_game()
    at_shop(state, 0, "market_meadow", ["canteen", "hill_boots", "compass", "spare_key"],
            hand=["meadow", "nugget", "nugget", "nugget"], gems={"green": 1})
    assert "not 4" in refused(state, 0, buy("canteen", nuggets=4), chance)
    play(state, 0, buy("canteen", nuggets=2), chance)
    assert state.players[0].gems == {"brown": 0, "green": 1, "white": 0}
    assert state.secret["hands"][0] == ["meadow", "nugget"]
    arrange(state, 0, gems={"brown": 1})
    play(state, 0, buy("hill_boots", nuggets=1), chance)
    assert gem_value(state.players[0].gems) == 0 and state.secret["hands"][0] == ["meadow"]
    arrange(state, 0, hand=["nugget"], gems={})
    assert "costs 3" in refused(state, 0, buy("compass", nuggets=1), chance)
    events = play(state, 0, {"type": "end_turn"}, chance)
    assert first(events, "TurnEnded").data["discarded"].count("nugget") == 3
    assert state.travel_discard.count("nugget") == 3


@pytest.mark.rules("gnomes:C.4/items-face-up", "gnomes:C.4/items-usable-now", "gnomes:C.4/buy-no-time")
def test_a_bought_item_lies_face_up_and_can_be_used_at_once():
    """C.4: the Canteen bought goes face up in front of the buyer (another seat's view shows it),
    takes no time, and moves the gnome along a meadow path straight away (I)."""
    state, chance = new_game()
    at_shop(state, 0, "market_meadow", ["canteen", "compass", "spare_key", "small_basket"], gems={"brown": 2})
    play(state, 0, buy("canteen"), chance)
    assert state.players[0].timer == 0
    assert "canteen" in RULES.view(state, 1)["players"][0]["equipment"]
    events = play(state, 0, {"type": "equipment", "item": "canteen", "to": at(state, "D")}, chance)
    assert first(events, "GnomeMoved").data["item"] == "canteen"
    assert state.players[0].place == at(state, "D") and state.players[0].timer == 1


@pytest.mark.rules("gnomes:C.4/treasure-to-hand", "gnomes:C.4/treasure-hand-size", "gnomes:C.4/items-face-up")
def test_a_treasure_goes_into_the_hand_and_counts_towards_its_size():
    """C.4: a treasure bought is held in the hand, not displayed (others see only the hand size),
    and counts towards the hand limit: with four travel cards the buyer must discard one after
    sleep (E)."""
    state, chance = new_game()
    at_shop(state, 0, "hillview_hut", ["acorn_cup", "canteen", "compass", "spare_key"],
            hand=["meadow", "forest", "mountain", "free"], gems={"white": 1})
    play(state, 0, buy("acorn_cup"), chance)
    assert "acorn_cup" in state.secret["hands"][0] and state.players[0].hand_size == 5
    view = RULES.view(state, 1)
    assert "acorn_cup" not in view["players"][0]["equipment"] and view["players"][0]["hand_size"] == 5
    assert "acorn_cup" not in str(view["hand"])
    end_turns(state, chance)
    assert state.stage == "hand" and active(state) == 0
    discards = legal(state, 0)
    assert {"type": "discard", "cards": ["acorn_cup"]} in discards
    assert all(len(m["cards"]) == 1 for m in discards)


@pytest.mark.rules("gnomes:C.4/two-maps-max", "gnomes:C.4/third-map")
def test_a_third_map_bought_sends_one_held_map_to_that_shop():
    """C.4: a player carries two maps at most; buying a third needs one of the two named, and
    that map joins the shop's stock."""
    state, chance = new_game()
    at_shop(state, 0, "forest_fete", ["map_r1_n1", "canteen", "compass", "spare_key"], gems={"white": 1})
    arrange(state, 0, equipment=["tiny_basket", "tiny_rucksack", "map_g1_r1", "map_g2_r2"])
    assert "at most 2 maps" in refused(state, 0, buy("map_r1_n1"), chance)
    assert "return_map" in refused(state, 0, buy("map_r1_n1", return_map="map_g4_r4"), chance)
    play(state, 0, buy("map_r1_n1", return_map="map_g1_r1"), chance)
    maps = [e for e in state.players[0].equipment if e.startswith("map")]
    assert sorted(maps) == ["map_g2_r2", "map_r1_n1"]
    assert "map_g1_r1" in state.shops["forest_fete"] and "map_r1_n1" not in state.shops["forest_fete"]


@pytest.mark.rules("gnomes:C.4/basket-too-small")
def test_a_basket_smaller_than_the_mushrooms_carried_cannot_be_bought():
    """C.4 with C.2, house rule: carrying three mushrooms in a Large Basket, a Small Basket (two)
    cannot be bought; carrying two, it can."""
    state, chance = new_game()
    at_shop(state, 0, "market_meadow", ["small_basket", "canteen", "compass", "spare_key"], gems={"white": 1},
            equipment=["large_basket", "tiny_rucksack"], basket=["blue", "red", "red"])
    assert "cannot be thrown away" in refused(state, 0, buy("small_basket"), chance)
    arrange(state, 0, basket=["blue", "red"])
    play(state, 0, buy("small_basket"), chance)
    assert state.players[0].basket == ["blue", "red"] and "small_basket" in state.players[0].equipment


@pytest.mark.rules("gnomes:C.4/shops-refill-end-of-turn")
def test_shops_are_refilled_to_four_at_the_end_of_each_turn():
    """C.4: what a player bought is replaced only when the turn ends, from the shop item deck."""
    state, chance = new_game()
    at_shop(state, 0, "market_meadow", ["canteen", "compass", "spare_key", "small_basket"], gems={"white": 3})
    play(state, 0, buy("canteen"), chance)
    play(state, 0, buy("spare_key"), chance)
    assert len(state.shops["market_meadow"]) == 2
    size = state.shop_size
    events = play(state, 0, {"type": "end_turn"}, chance)
    draws = first(events, "ShopCardsDrawn").data["draws"]
    assert [shop for shop, _ in draws] == ["market_meadow", "market_meadow"]
    assert all(len(state.shops[s]) == 4 for s in SHOPS)
    assert state.shop_size == size - 2


@pytest.mark.rules("gnomes:C.4/refill-one-each", "gnomes:C.4/four-on-offer")
def test_shops_refill_one_card_each_in_turn_hillview_first_until_the_deck_runs_out():
    """C.4, house rule (as G): the refill deals one card to each short shop in turn from Hillview
    Hut down; with only three cards left the Forest Fete Shop stays short of 4."""
    state, chance = new_game()
    stock(state, "hillview_hut", ["canteen", "compass"])
    stock(state, "forest_fete", ["short_axe", "leaf_boat"])
    state.secret["shop_deck"] = {"spare_key": 1, "small_rucksack": 1, "acorn_cup": 1}
    state.shop_size = 3
    events = play(state, 0, {"type": "end_turn"}, chance)
    draws = first(events, "ShopCardsDrawn").data["draws"]
    assert [shop for shop, _ in draws] == ["hillview_hut", "forest_fete", "hillview_hut"]
    assert (len(state.shops["hillview_hut"]), len(state.shops["forest_fete"])) == (4, 3)
    assert state.shop_size == 0


@pytest.mark.rules("gnomes:C.4/shop-deck-contents", "gnomes:C.4/treasure-values", "gnomes:C.4/reconstructed-costs")
def test_the_shop_cards_in_play_and_their_costs():
    """C.4, house rule: the 23 shop cards (one each of the starters, B; 2 each of five items, one
    large rucksack and basket, 8 maps) and the 8 treasures (worth 4 to 9, costing 1 or 2 less)
    are all in the shops or the shop item deck at set-up; only the Large Basket's cost comes
    from the rulebook (C.4), every other price is reconstructed."""
    state, _ = new_game()
    cards = Counter(c for s in SHOPS for c in state.shops[s]) + Counter(state.secret["shop_deck"])
    maps = [c for c in cards if c.startswith("map")]
    assert len(maps) == 8 and all(cards[m] == 1 for m in maps)
    assert {c: n for c, n in cards.items() if c not in maps and c not in treasures()} == {
        "canteen": 1, "short_axe": 1, "hill_boots": 1, "compass": 2, "leaf_boat": 2, "spare_key": 2,
        "small_rucksack": 2, "small_basket": 2, "large_rucksack": 1, "large_basket": 1}
    assert sum(cards.values()) == 31 == state.shop_size + 12
    values = sorted(t.value for t in treasures().values())
    assert values[0] == 4 and values[-1] == 9 and len(values) == 8
    assert all(t.value - t.cost in (1, 2) for t in treasures().values())
    shop_cards = [e for e in equipment().values() if e.id not in STARTING_ITEMS]
    assert [e.id for e in shop_cards if "C.4" in e.provenance] == ["large_basket"]
    assert all(e.cost > 0 for e in shop_cards)
    assert all(t.provenance == "reconstructed" for t in treasures().values())


# -- C.5 restock -------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.5/restock-at-shop", "gnomes:C.5/restock-two-weeks", "gnomes:C.5/restock-timer",
                   "gnomes:C.5/four-new-cards")
def test_restocking_deals_four_new_cards_for_two_weeks_at_a_shop():
    """C.5: only at a shop; the gnome timer moves two spaces and the shop gets four new cards
    dealt from the shop item deck."""
    state, chance = new_game()
    arrange(state, 0, place=at(state, "D"))
    assert "not at a shop" in refused(state, 0, {"type": "restock"}, chance)
    arrange(state, 0, place=at(state, "hillview_hut"), timer=1)
    size = state.shop_size
    events = play(state, 0, {"type": "restock"}, chance)
    assert types(events) == ["ShopRestocked", "ShopCardsDrawn"]
    draws = first(events, "ShopCardsDrawn").data["draws"]
    assert [s for s, _ in draws] == ["hillview_hut"] * 4
    assert state.shops["hillview_hut"] == [c for _, c in draws]
    assert state.players[0].timer == 3 and first(events, "ShopRestocked").data["weeks"] == 2
    assert state.shop_size == size


@pytest.mark.rules("gnomes:C.5/old-stock-under-deck")
def test_the_old_stock_goes_under_the_shop_item_deck_in_order():
    """C.5: the shop's cards go face down to the bottom of the shop item deck, so with two cards
    left above them the new stock is those two, then the first two old cards, and the other
    two old cards stay at the bottom."""
    state, chance = new_game()
    old = ["canteen", "compass", "spare_key", "small_basket"]
    stock(state, "market_meadow", old)
    state.secret["shop_deck"] = {"acorn_cup": 1, "leaf_boat": 1}
    state.shop_size = 2
    arrange(state, 0, place=at(state, "market_meadow"))
    events = play(state, 0, {"type": "restock"}, chance)
    assert first(events, "ShopRestocked").data["returned"] == old
    assert sorted(state.shops["market_meadow"][:2]) == ["acorn_cup", "leaf_boat"]
    assert state.shops["market_meadow"][2:] == ["canteen", "compass"]
    assert state.shop_bottom == ["spare_key", "small_basket"] and state.shop_size == 2


# -- C.6 scout ---------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C.6/scout-draw", "gnomes:C.6/scout-one-week")
def test_scouting_draws_one_travel_card_for_one_week():
    """C.6: the scout takes one card from the travel deck into the hand (seen by that seat alone)
    and the gnome timer moves one week."""
    state, chance = new_game()
    size = state.travel_size
    events = play(state, 0, {"type": "scout"}, chance)
    drawn = first(events, "TravelCardDrawn")
    assert visibility("TravelCardDrawn") == "private" and drawn.data["seat"] == 0
    assert state.secret["hands"][0] == [drawn.data["card"]] and state.players[0].hand_size == 1
    assert state.travel_size == size - 1
    assert state.players[0].timer == 1


@pytest.mark.rules("gnomes:C.6/reshuffle-discards")
def test_an_empty_travel_deck_is_made_again_from_its_discards():
    """C.6: with the travel deck empty the discards are shuffled into a new deck to scout from;
    with both empty there is nothing to scout."""
    state, chance = new_game()
    state.secret["travel_deck"] = {}
    state.travel_size = 0
    state.travel_discard = ["forest", "forest"]
    events = play(state, 0, {"type": "scout"}, chance)
    assert types(events)[0] == "TravelDeckReshuffled"
    assert state.secret["hands"][0] == ["forest"]
    assert state.travel_discard == [] and state.travel_size == 1
    play(state, 0, {"type": "scout"}, chance)
    assert "empty" in refused(state, 0, {"type": "scout"}, chance)


@pytest.mark.rules("gnomes:C.6/over-limit-during-turn")
def test_a_hand_may_exceed_its_limit_until_the_turn_is_over():
    """C.6: holding 4 cards (the Tiny Rucksack's limit), the gnome scouts twice and carries 6
    for the rest of its turn; the excess is cut only after the round's sleep (E)."""
    state, chance = new_game()
    arrange(state, 0, hand=["meadow", "forest", "mountain", "free"])
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    assert state.players[0].hand_size == 6 and active(state) == 0 and state.stage == "turns"
    play(state, 0, {"type": "end_turn"}, chance)
    assert state.players[0].hand_size == 6
    end_turns(state, chance)
    while state.stage == "sleep":
        play(state, active(state), {"type": "sleep", "piles": []}, chance)
    assert state.stage == "hand" and active(state) == 0
    assert all(len(m["cards"]) == 2 for m in legal(state, 0))


@pytest.mark.rules("gnomes:C.6/travel-deck")
def test_the_travel_deck_has_34_cards():
    """C.6, house rule: 6 single cards of each terrain, 2 doubles of each, 4 free and 6 nugget
    cards, all in the draw deck or the dream piles at set-up."""
    state, _ = new_game()
    cards = Counter(state.secret["travel_deck"]) + Counter(c for pile in state.dream.values() for c in pile)
    assert dict(cards) == {"meadow": 6, "forest": 6, "mountain": 6, "double_meadow": 2, "double_forest": 2,
                           "double_mountain": 2, "free": 4, "nugget": 6}
    assert sum(cards.values()) == 34 == state.travel_size + 6


@pytest.mark.rules("gnomes:C.6/nugget-card-values")
def test_a_nugget_is_one_icon_for_no_time_and_scores_one_in_hand():
    """C.6, house rule: three nugget cards make a three-for-free move for 0 weeks (one icon
    each), and each nugget in hand scores 1 at the end (H)."""
    state, chance = new_game()
    arrange(state, 0, hand=["nugget"] * 4)
    assert scoring.breakdown(state)[0]["nuggets"] == 4
    play(state, 0, {"type": "three_for_free", "cards": ["nugget"] * 3, "to": at(state, "hillview_hut")}, chance)
    assert state.players[0].timer == 0 and state.players[0].place == at(state, "hillview_hut")
    assert scoring.breakdown(state)[0]["nuggets"] == 1


# -- C end -------------------------------------------------------------------------------------

@pytest.mark.rules("gnomes:C end/seven-spaces", "gnomes:C end/no-timed-action-past-7")
def test_no_action_takes_the_timer_past_seven():
    """C end: at week 6 a 2-week restock is refused but a 1-week scout is allowed; at 7 nothing
    that costs time is allowed."""
    state, chance = new_game()
    state.mushrooms[at(state, "hillview_hut")] = ["yellow"]
    arrange(state, 0, place=at(state, "hillview_hut"), timer=6, hand=["meadow"])
    assert "past week 7" in refused(state, 0, {"type": "restock"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    assert state.players[0].timer == 7
    for move in ({"type": "scout"}, {"type": "pick", "mushroom": "yellow"},
                 {"type": "travel", "card": "meadow", "path": [at(state, "house_red")]}):
        assert "past week 7" in refused(state, 0, move, chance)


@pytest.mark.rules("gnomes:C end/may-do-less")
def test_a_gnome_that_uses_fewer_weeks_sleeps_for_cards():
    """C end: ending a turn at week 2 while another gnome reaches 4 leaves 2 sleep weeks, enough
    for dream pile 2 (D)."""
    state, chance = new_game()
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "scout"}, chance)
    play(state, 0, {"type": "end_turn"}, chance)
    arrange(state, 1, timer=4)
    end_turns(state, chance)
    assert state.stage == "sleep" and state.sleepers[0] == 0
    piles = [m["piles"] for m in legal(state, 0)]
    assert [2] in piles and [3] not in piles
    before = state.players[0].hand_size
    play(state, 0, {"type": "sleep", "piles": [2]}, chance)
    assert state.players[0].hand_size == before + 2


@pytest.mark.rules("gnomes:C end/free-actions-at-7", "gnomes:C.4/buy-no-time")
def test_selling_and_buying_stay_allowed_at_seven():
    """C end: at the end of the track a gnome still sells a mushroom and buys at a shop (0 weeks,
    C.3, C.4); its timer stays on 7."""
    state, chance = new_game()
    arrange(state, 0, place=at(state, "A"), timer=7, basket=["blue"])
    play(state, 0, {"type": "sell", "mushroom": "blue", "gem": "white"}, chance)
    at_shop(state, 0, "market_meadow", ["canteen", "compass", "spare_key", "small_basket"])
    play(state, 0, buy("spare_key"), chance)
    assert state.players[0].timer == 7 and "spare_key" in state.players[0].equipment


@pytest.mark.rules("gnomes:C end/yellow-example")
def test_yellow_at_the_end_of_the_track_can_sell_and_buy_but_not_scout():
    """C end example: Yellow (seat 1) has reached week 7: scouting, restocking and travelling
    are refused, while selling and buying are still allowed."""
    state, chance = new_game()
    play(state, 0, {"type": "end_turn"}, chance)
    assert active(state) == 1
    at_shop(state, 1, "market_meadow", ["canteen", "compass", "spare_key", "small_basket"], timer=7,
            gems={"brown": 2}, hand=["meadow"])
    moves = {m["type"] for m in legal(state, 1)}
    assert "buy" in moves and not moves & {"scout", "restock", "travel", "pick"}
    assert "past week 7" in refused(state, 1, {"type": "scout"}, chance)
    assert "past week 7" in refused(state, 1, {"type": "restock"}, chance)
    play(state, 1, buy("canteen"), chance)
    arrange(state, 1, place=at(state, "D"), basket=["red"])
    play(state, 1, {"type": "sell", "mushroom": "red", "gem": "white"}, chance)
    assert state.players[1].timer == 7 and state.players[1].gems["white"] == 1
