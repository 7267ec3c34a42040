"""Resource Hog: the trade action and the trading board, feeding, population, starvation,
preserving and spoiling, and the house rules of the map, the length, the winner, the board's
prices, its d6 and the slaves and mercenaries (resource-hog-actions-and-events.txt rows Buy,
Sell, Adjust trading board, Feed nobles and peasants, Population increases, Resolve
starvings, Produce preserved foods, Spoil all fresh ...; the house rules, Resource Hog)."""

from __future__ import annotations

import pytest

from services.rules.core import Op
from services.rules.core.forward import apply, apply_phase
from services.rules.resource_hog import events, trade, turns
from services.rules.resource_hog.rules import ResourceHogRules, wealth

from .helpers import new_game, refused, run_step

RULES = ResourceHogRules()
PRICES = {"preserved": [6, 5, 4, 3, 2], "salt": [5, 4, 3, 2, 1], "weapons": [12, 10, 8, 6, 4]}
"""The house rules' board prices per row, bottom to top."""


def _game(players: int = 2, seed: str = "rh-trade"):
    return new_game(players, seed)


def _home(state, seat: int) -> str:
    return next(a for a, x in state.lands.items() if x.owner == seat)


def _to_trade(players: int = 2):
    """Every seat orders trade first; the first seat to act gets a harbour in its home land."""
    state, chance = _game(players)
    for seat in range(players):
        apply(RULES, state, seat, {"type": "orders", "order": ["trade", "peasants", "nobles"]}, chance)
    seat = state.queue[0][0]
    assert state.queue[0][1] == "trade" and RULES.to_move(state) == [seat]
    home = _home(state, seat)
    state.lands[home].buildings.append("harbour")
    return state, chance, seat, home




class _Dice:
    def __init__(self, *values: int):
        self.values = list(values)

    def below(self, n: int) -> int:
        assert n == 6
        return self.values.pop(0)


def _dice(*values: int):
    """A chance factory whose every draw gives the next scripted ``below(6)``."""
    d = _Dice(*values)
    return lambda label: d


def _adjust(state, below: int) -> dict:
    out = trade.adjust_board(state, _dice(below))
    for e in out:
        RULES.evolve(state, e)
    return out[0].data


def _feeding_land(state, **kw):
    """L1 (seat 0's home) arranged for the feed event; other lands as set up."""
    land = state.lands["L1"]
    land.nobles = kw.get("nobles", 1)
    land.peasants = kw.get("peasants", 0)
    land.work = dict(kw.get("work", {}))
    land.fresh = {"fish": 0, "meat": 0, "grain": 0, **kw.get("fresh", {})}
    land.store["preserved"] = kw.get("preserved", 0)
    land.store["salt"] = kw.get("salt", 0)
    return land


# -- buy --------------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:buy/any-number", "resource_hog:buy/slot-price")
def test_buying_several_goods_pays_each_slot_price_in_turn():
    """Buy row: any number of a good at once, each at the price of the slot it comes from
    (food at 5 on the board: 4 from the middle row, then 5 and 5 from the row below)."""
    state, chance, seat, home = _to_trade()
    state.board["preserved"] = 5
    money = state.players[seat].money
    stored = state.lands[home].store["preserved"]
    ev = apply(RULES, state, seat, {"type": "buy", "good": "preserved", "count": 3, "to": home}, chance)
    assert ev[0].type == "GoodsBought" and ev[0].data["money"] == 4 + 5 + 5
    assert state.players[seat].money == money - 14
    assert state.board["preserved"] == 2 and state.lands[home].store["preserved"] == stored + 3


@pytest.mark.rules("resource_hog:buy/slot-price")
def test_buying_more_than_the_purse_pays_isrefused():
    """Buy row: the slot prices are paid from the purse; 3 arms at 8+10+10 are too dear for 20."""
    state, chance, seat, home = _to_trade()
    state.board["weapons"] = 5
    refused(state, seat, {"type": "buy", "good": "weapons", "count": 3, "to": home}, chance, match="cost 28")
    apply(RULES, state, seat, {"type": "buy", "good": "weapons", "count": 2, "to": home}, chance)
    assert state.players[seat].money == 20 - 18


@pytest.mark.rules("resource_hog:buy/to-harbour")
def test_bought_goods_go_to_a_harbour_area_of_the_buyer():
    """Buy row: goods are placed in one of the buyer's harbour areas: not a land without a
    harbour, not another seat's harbour."""
    state, chance, seat, home = _to_trade()
    other = _home(state, 1 - seat)
    state.lands[home].buildings.remove("harbour")
    refused(state, seat, {"type": "buy", "good": "salt", "count": 1, "to": home}, chance, match="harbour")
    state.lands[other].buildings.append("harbour")
    refused(state, seat, {"type": "buy", "good": "salt", "count": 1, "to": other}, chance, match="harbour")
    state.lands[home].buildings.append("harbour")
    apply(RULES, state, seat, {"type": "buy", "good": "salt", "count": 1, "to": home}, chance)
    assert state.lands[home].store["salt"] == 1 and state.lands[other].store["salt"] == 0


@pytest.mark.rules("resource_hog:buy/bottom-row-always")
def test_an_empty_column_still_sells_at_the_bottom_row_price():
    """Buy row: the bottom row always has goods: salt from an empty column costs 5 each."""
    state, chance, seat, home = _to_trade()
    state.board["salt"] = 0
    apply(RULES, state, seat, {"type": "buy", "good": "salt", "count": 3, "to": home}, chance)
    assert state.players[seat].money == 20 - 15
    assert state.lands[home].store["salt"] == 3 and state.board["salt"] == 0


@pytest.mark.rules("resource_hog:buy/moved-as-sell")
def test_bought_goods_are_moved_on_like_sold_goods():
    """Buy row: bought goods move on as in Sell, paying 1 money a border (L1 to L3: two)."""
    state, chance, seat, home = _to_trade()
    apply(RULES, state, seat, {"type": "buy", "good": "weapons", "count": 1, "to": home}, chance)
    money = state.players[seat].money
    ring = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
    far = ring[(ring.index(home) + 2) % 8]
    weapons = state.lands[home].store["weapons"]
    apply(RULES, state, seat, {"type": "ship", "good": "weapons", "count": 1, "from": home, "to": far}, chance)
    assert state.players[seat].money == money - 2
    assert state.lands[far].store["weapons"] == 1 and state.lands[home].store["weapons"] == weapons - 1


@pytest.mark.rules("resource_hog:buy/not-both")
def test_a_seat_may_not_buy_and_sell_the_same_good_in_one_trade_phase():
    """Buy row note: per good a seat either buys or sells in one trade phase; another good is
    free, and the next seat's trade phase starts afresh."""
    state, chance, seat, home = _to_trade()
    state.lands[home].store["salt"] = 4
    apply(RULES, state, seat, {"type": "buy", "good": "salt", "count": 1, "to": home}, chance)
    refused(state, seat, {"type": "sell", "good": "salt", "count": 1, "from": home}, chance, match="may not")
    apply(RULES, state, seat, {"type": "sell", "good": "weapons", "count": 1, "from": home}, chance)
    refused(state, seat, {"type": "buy", "good": "weapons", "count": 1, "to": home}, chance, match="may not")
    apply(RULES, state, seat, {"type": "buy", "good": "salt", "count": 1, "to": home}, chance)  # buying again is fine
    apply(RULES, state, seat, {"type": "done"}, chance)
    other = 1 - seat
    port = _home(state, other)
    state.lands[port].buildings.append("harbour")
    state.lands[port].store["salt"] = 2
    apply(RULES, state, other, {"type": "buy", "good": "salt", "count": 1, "to": port}, chance)
    refused(state, other, {"type": "sell", "good": "salt", "count": 1, "from": port}, chance)


# -- sell -------------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:sell/move-goods", "resource_hog:sell/border-fee")
def test_goods_move_from_own_land_to_any_area_for_a_money_a_border():
    """Sell row: goods go from any of the seller's areas to any area (here an unowned one),
    1 money per border crossed, the short way round the ring; not from another's land."""
    state, chance, seat, home = _to_trade()
    ring = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
    i = ring.index(home)
    back2, next1 = ring[(i - 2) % 8], ring[(i + 1) % 8]
    assert state.lands[back2].owner is None
    apply(RULES, state, seat, {"type": "ship", "good": "preserved", "count": 2, "from": home, "to": back2}, chance)
    assert state.players[seat].money == 18 and state.lands[back2].store["preserved"] == 2
    assert state.lands[home].store["preserved"] == 0
    apply(RULES, state, seat, {"type": "ship", "good": "weapons", "count": 1, "from": home, "to": next1}, chance)
    assert state.players[seat].money == 17
    refused(state, seat, {"type": "ship", "good": "preserved", "count": 1, "from": back2, "to": home}, chance)
    state.players[seat].money = 1
    refused(state, seat, {"type": "ship", "good": "weapons", "count": 1, "from": home, "to": back2}, chance,
             match="costs 2")


@pytest.mark.rules("resource_hog:sell/roads-free")
def test_no_fee_between_two_areas_with_roads():
    """Sell row: no fee when both areas have a road; a road at one end only saves nothing."""
    state, chance, seat, home = _to_trade()
    ring = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
    far = ring[(ring.index(home) + 3) % 8]
    state.lands[home].buildings.append("road")
    apply(RULES, state, seat, {"type": "ship", "good": "weapons", "count": 1, "from": home, "to": far}, chance)
    assert state.players[seat].money == 20 - 3
    state.lands[far].buildings.append("road")
    apply(RULES, state, seat, {"type": "ship", "good": "weapons", "count": 1, "from": home, "to": far}, chance)
    assert state.players[seat].money == 17 and state.lands[far].store["weapons"] == 2


@pytest.mark.rules("resource_hog:sell/lowest-free-slot", "resource_hog:sell/slot-pays")
def test_selling_fills_the_lowest_free_slots_and_pays_their_prices():
    """Sell row: goods from a harbour area go on the lowest free slots (salt at 5: slot 6 in
    the middle row pays 3, then two in the row above pay 2 each); not from a land without one."""
    state, chance, seat, home = _to_trade()
    state.lands[home].store["salt"] = 3
    state.board["salt"] = 5
    ev = apply(RULES, state, seat, {"type": "sell", "good": "salt", "count": 3, "from": home}, chance)
    assert ev[0].type == "GoodsSold" and ev[0].data["money"] == 3 + 2 + 2
    assert state.players[seat].money == 27 and state.board["salt"] == 8 and state.lands[home].store["salt"] == 0
    state.lands[home].buildings.remove("harbour")
    refused(state, seat, {"type": "sell", "good": "preserved", "count": 1, "from": home}, chance, match="harbour")


@pytest.mark.rules("resource_hog:sell/top-row-unlimited")
def test_the_top_row_buys_without_limit_and_counts_as_two():
    """Sell row: the top row takes any number at its price and counts as two goods: five food
    into a column of 9 pay 2 each and the column holds 10 (buying again costs the top price)."""
    state, chance, seat, home = _to_trade()
    state.lands[home].store["preserved"] = 5
    state.board["preserved"] = 9
    apply(RULES, state, seat, {"type": "sell", "good": "preserved", "count": 5, "from": home}, chance)
    assert state.players[seat].money == 20 + 5 * 2 and state.board["preserved"] == 10
    assert trade.buy_price("preserved", state.board["preserved"]) == 2


# -- the trading board ------------------------------------------------------------------

@pytest.mark.rules("resource_hog:trading board/toward-balance")
def test_every_column_steps_one_good_toward_balance():
    """Adjust trading board row: food, salt and arms each move one good toward balance (5)
    before the d6 (here a 5: arms +2)."""
    state, _ = _game()
    state.board.update(preserved=8, salt=1, weapons=5)
    data = _adjust(state, 4)
    assert data["roll"] == 5
    assert state.board == {"preserved": 7, "salt": 2, "weapons": 7}


@pytest.mark.rules("resource_hog:trading board/balance-half-full")
def test_at_balance_the_middle_row_is_half_full():
    """Adjust trading board row: at balance the middle row holds one of its two goods: buying
    takes from it and selling fills it, both at the middle price; balance does not move."""
    state, _ = _game()
    for good, prices in PRICES.items():
        assert state.board[good] == 5
        assert trade.buy_price(good, 5) == trade.sell_price(good, 5) == prices[2]
        assert trade.buy_price(good, 4) == prices[1] and trade.sell_price(good, 6) == prices[3]
    _adjust(state, 0)  # a 1: food +2; salt and arms stay at balance
    assert state.board == {"preserved": 7, "salt": 5, "weapons": 5}


@pytest.mark.rules("resource_hog:trading board/d6-two-slots", "resource_hog:house rules/d6-table")
@pytest.mark.parametrize("roll, good, delta", [(1, "preserved", 2), (2, "preserved", -2), (3, "salt", 2),
                                               (4, "salt", -2), (5, "weapons", 2), (6, "weapons", -2)])
def test_the_d6_moves_one_column_two_slots(roll, good, delta):
    """Adjust trading board row and the house rule's d6: 1-2 food, 3-4 salt, 5-6 arms; odd
    adds two goods (the price falls a row), even takes two away (it rises a row)."""
    state, _ = _game()
    data = _adjust(state, roll - 1)
    assert data["roll"] == roll
    assert state.board == {g: 5 + (delta if g == good else 0) for g in PRICES}
    row = 3 if delta > 0 else 1
    assert trade.buy_price(good, state.board[good]) == PRICES[good][row]


@pytest.mark.rules("resource_hog:trading board/d6-two-slots")
def test_the_d6_move_stops_at_the_ends_of_a_column():
    """Adjust trading board row: a column at 0 taken from stays 0 (after its step to balance, 1)."""
    state, _ = _game()
    state.board["salt"] = 0
    _adjust(state, 3)  # a 4: salt -2
    assert state.board["salt"] == 0


@pytest.mark.rules("resource_hog:trading board/slave-placed", "resource_hog:trading board/mercenary-after",
                   "resource_hog:house rules/slave-stack")
def test_a_slave_goes_to_the_track_then_mercenaries_once_the_stack_is_gone():
    """Adjust trading board row: one slave from the stack to the slave track each round; with
    the stack empty a mercenary goes to the mercenary track instead. House rule (the slave
    stack): the stack holds 4 at the start, so the fifth adjustment places the first mercenary."""
    state, _ = _game()
    assert state.slaves == 4 and state.slave_track == 0
    _adjust(state, 2)
    assert (state.slaves, state.slave_track, state.mercenary_track) == (3, 1, 0)
    for _ in range(3):
        _adjust(state, 2)
    assert (state.slaves, state.slave_track, state.mercenary_track) == (0, 4, 0)
    _adjust(state, 2)
    assert (state.slaves, state.slave_track, state.mercenary_track) == (0, 4, 1)


@pytest.mark.rules("resource_hog:trading board/no-slaves-after")
def test_no_slave_is_bought_once_the_stack_is_gone():
    """Adjust trading board row note: once the slave stack runs out, slaves on the track can
    no longer be bought (mercenaries still can)."""
    state, chance, seat, home = _to_trade()
    state.slave_track, state.slaves, state.mercenary_track = 2, 0, 1
    refused(state, seat, {"type": "buy", "good": "slave", "count": 1, "to": home}, chance)
    apply(RULES, state, seat, {"type": "buy", "good": "mercenary", "count": 1, "to": home}, chance)
    assert state.mercenary_track == 0 and state.slave_track == 2


@pytest.mark.rules("resource_hog:house rules/slaves-and-mercenaries")
def test_a_slave_becomes_a_peasant_and_a_mercenary_a_noble_in_a_harbour_area():
    """House rule: a slave costs 8 and becomes a peasant, a mercenary 10 and becomes a noble,
    in a harbour area of the buyer; none can be bought beyond what the tracks offer."""
    state, chance, seat, home = _to_trade()
    land = state.lands[home]
    state.slave_track, state.mercenary_track = 1, 1
    peasants, nobles = land.peasants, land.nobles
    apply(RULES, state, seat, {"type": "buy", "good": "slave", "count": 1, "to": home}, chance)
    assert land.peasants == peasants + 1 and state.players[seat].money == 12 and state.slave_track == 0
    refused(state, seat, {"type": "buy", "good": "slave", "count": 1, "to": home}, chance)
    apply(RULES, state, seat, {"type": "buy", "good": "mercenary", "count": 1, "to": home}, chance)
    assert land.nobles == nobles + 1 and state.players[seat].money == 2 and state.mercenary_track == 0
    refused(state, seat, {"type": "buy", "good": "mercenary", "count": 1, "to": home}, chance)


@pytest.mark.rules("resource_hog:house rules/slaves-sold", "resource_hog:trading board/no-slaves-after")
def test_peasants_are_sold_as_slaves_while_the_stack_lasts():
    """Adjust trading board row (resource-hog-actions-and-events.txt): slaves are neither sold nor
    bought once the slave stack runs out, so they are sold before. House rule (docs/house-rules.md,
    Resource Hog: The trading board): a free peasant of a harbour area is sold as a slave for 2
    money, its worth in the wealth count; a slave marker goes from the stack to the track. Issue 23:
    before, no move sold a slave."""
    state, chance, seat, home = _to_trade()
    land = state.lands[home]
    land.peasants, land.work = 3, {"toil": 1}
    offered = [m for m in RULES.legal_moves(state, seat) if m["type"] == "sell" and m["good"] == "slave"]
    assert offered == [{"type": "sell", "good": "slave", "count": 1, "from": home}]
    before = wealth(state)[seat]["total"]
    [sold] = apply(RULES, state, seat, {"type": "sell", "good": "slave", "count": 2, "from": home}, chance)
    assert sold.type == "GoodsSold" and sold.data["money"] == 4 and state.players[seat].money == 24
    assert land.peasants == 1 and land.work == {"toil": 1}
    assert (state.slaves, state.slave_track) == (2, 2)  # the stack of 4 (house rule: the slave stack)
    assert wealth(state)[seat]["total"] == before  # 2 money for a peasant worth 2
    refused(state, seat, {"type": "sell", "good": "slave", "count": 1, "from": home}, chance)  # it works
    refused(state, seat, {"type": "buy", "good": "slave", "count": 1, "to": home}, chance)  # sold this phase
    # not from an area without a harbour, not once the stack is gone
    state2, chance2, seat2, home2 = _to_trade()
    state2.lands[home2].buildings.remove("harbour")
    refused(state2, seat2, {"type": "sell", "good": "slave", "count": 1, "from": home2}, chance2)
    state2.lands[home2].buildings.append("harbour")
    state2.slaves = 1
    refused(state2, seat2, {"type": "sell", "good": "slave", "count": 2, "from": home2}, chance2)
    state2.slaves = 0
    refused(state2, seat2, {"type": "sell", "good": "slave", "count": 1, "from": home2}, chance2)


@pytest.mark.rules("resource_hog:house rules/slaves-sold")
def test_an_area_sold_empty_of_peasants_and_nobles_belongs_to_no_one():
    """House rule (ownership, slaves sold): selling the last pieces of an area leaves it unowned."""
    state, chance, seat, home = _to_trade()
    land = state.lands[home]
    land.peasants, land.nobles = 1, 0
    apply(RULES, state, seat, {"type": "sell", "good": "slave", "count": 1, "from": home}, chance)
    assert land.owner is None and land.peasants == 0


@pytest.mark.rules("resource_hog:house rules/board-prices")
@pytest.mark.parametrize("good", sorted(PRICES))
@pytest.mark.parametrize("row", range(5))
def test_every_row_buys_and_sells_at_its_price(good, row):
    """House rule board prices, bottom to top: food 6-5-4-3-2, salt 5-4-3-2-1, arms 12-10-8-6-4:
    buying from a full row and selling into an empty row pay that row's price."""
    price = PRICES[good][row]
    state, chance, seat, home = _to_trade()
    state.board[good] = 2 * row + 2
    apply(RULES, state, seat, {"type": "buy", "good": good, "count": 1, "to": home}, chance)
    assert state.players[seat].money == 20 - price
    state, chance, seat, home = _to_trade()
    state.board[good] = 2 * row
    state.lands[home].store[good] = 1
    apply(RULES, state, seat, {"type": "sell", "good": good, "count": 1, "from": home}, chance)
    assert state.players[seat].money == 20 + price and state.board[good] == 2 * row + 1


# -- feed, population, starvation -------------------------------------------------------

@pytest.mark.rules("resource_hog:feed/two-types-bonus")
def test_two_kinds_of_food_earn_one_extra():
    """Feed row: an area that produced two kinds of food gets one extra fresh food (a grain),
    also when nobody there eats (it can then be preserved)."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=2, work={"fish:mere": 1, "hunt": 1}, fresh={"fish": 1, "meat": 1})
    data = run_step(state, events.feed)
    assert data["Fed"]["bonus"]["L1"] == {"grain": 1}
    assert land.fresh == {"fish": 0, "meat": 1, "grain": 1}  # the noble ate the fish
    state, _ = _game()
    land = _feeding_land(state, nobles=0, peasants=2, work={"fish:mere": 1, "hunt": 1}, fresh={"fish": 1, "meat": 1},
                         salt=5)
    run_step(state, events.feed)
    assert land.fresh == {"fish": 1, "meat": 1, "grain": 1}
    run_step(state, lambda s: events.preserve(s, 0, "L1", 3))
    assert land.store["preserved"] == 3


@pytest.mark.rules("resource_hog:feed/three-types-bonus")
def test_three_kinds_of_food_earn_two_extra_and_one_kind_none():
    """Feed row: three kinds of food produced give two extra fresh food; one kind gives none."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=4, work={"fish:mere": 1, "hunt": 1, "toil": 2},
                         fresh={"fish": 1, "meat": 1, "grain": 1})
    data = run_step(state, events.feed)
    assert data["Fed"]["bonus"]["L1"] == {"grain": 2}
    assert land.fresh == {"fish": 0, "meat": 1, "grain": 3}
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=1, work={"fish:mere": 1}, fresh={"fish": 3})
    data = run_step(state, events.feed)
    assert "L1" not in data["Fed"]["bonus"] and land.fresh == {"fish": 2, "meat": 0, "grain": 0}


@pytest.mark.rules("resource_hog:feed/who-eats")
def test_each_noble_and_each_peasant_not_producing_food_eats_one():
    """Feed row: nobles and peasants that did not fish, hunt or toil eat one food each; a hunter
    does not, a miner and a clearer do (1 noble + 4 of 5 peasants = 5 food)."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=5, work={"hunt": 1, "mine:salt": 1, "clear": 1},
                         fresh={"meat": 1}, preserved=10)
    data = run_step(state, events.feed)
    assert data["Fed"]["eaten"]["L1"] == {"meat": 1, "preserved": 4}
    assert land.store["preserved"] == 6 and "L1" not in data.get("Starved", {}).get("lost", {})


@pytest.mark.rules("resource_hog:feed/nobles-first")
def test_when_food_runs_short_nobles_eat_first():
    """Feed row: with food for two only, both nobles eat and the three idle peasants go hungry."""
    state, _ = _game()
    _feeding_land(state, nobles=2, peasants=3, preserved=2)
    data = run_step(state, events.feed)
    assert data["Fed"]["eaten"]["L1"] == {"preserved": 2}
    assert data["Starved"]["lost"]["L1"] == {"nobles": 0, "peasants": 3}


@pytest.mark.rules("resource_hog:feed/fresh-first")
def test_fresh_food_is_eaten_before_preserved_food():
    """Feed row: the producers' fresh food is eaten first; preserved food is left."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=3, work={"fish:mere": 1}, fresh={"fish": 3}, preserved=2)
    data = run_step(state, events.feed)
    assert data["Fed"]["eaten"]["L1"] == {"fish": 3}
    assert land.store["preserved"] == 2 and land.fresh["fish"] == 0


@pytest.mark.rules("resource_hog:population/extra-food-peasant")
def test_an_extra_food_becomes_a_peasant():
    """Population row: a spare fresh or preserved food becomes one new peasant; without a spare
    food no peasant is born."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=3, work={"population": 1}, preserved=5)
    data = run_step(state, events.feed)
    assert data["PopulationGrew"]["grew"] == {"L1": "preserved"}
    assert land.peasants == 4 and land.store["preserved"] == 0
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=3, work={"population": 1, "hunt": 1}, fresh={"meat": 4},
                         preserved=3)
    data = run_step(state, events.feed)
    assert data["PopulationGrew"]["grew"] == {"L1": "meat"} and land.peasants == 4
    assert land.fresh["meat"] == 0 and land.store["preserved"] == 3  # fresh eaten and grown first
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=3, work={"population": 1}, preserved=4)
    data = run_step(state, events.feed)
    assert "PopulationGrew" not in data and land.peasants == 3 and land.store["preserved"] == 0


@pytest.mark.rules("resource_hog:population/once-per-area")
def test_population_grows_at_most_once_an_area():
    """Population row: once per area per round: plenty of food still makes only one peasant,
    and a second peasant cannot be allocated to population there."""
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=3, work={"population": 1}, preserved=20)
    run_step(state, events.feed)
    assert land.peasants == 4 and land.store["preserved"] == 20 - 4 - 1
    state, chance = _game()
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    seat = state.queue[0][0]
    home = _home(state, seat)
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "population"}, chance)
    refused(state, seat, {"type": "allocate", "area": home, "work": "population"}, chance)


@pytest.mark.rules("resource_hog:starvation/unfed-removed")
def test_every_unfed_noble_and_peasant_is_removed():
    """Resolve starvings row: the unfed are removed (one food for two nobles and three idle
    peasants leaves one noble); an area with no food loses everyone and its owner."""
    state, _ = _game()
    land = _feeding_land(state, nobles=2, peasants=3, preserved=1)
    data = run_step(state, events.feed)
    assert data["Starved"]["lost"]["L1"] == {"nobles": 1, "peasants": 3}
    assert (land.nobles, land.peasants, land.owner) == (1, 0, 0)
    state, _ = _game()
    land = _feeding_land(state, nobles=1, peasants=2)
    run_step(state, events.feed)
    assert (land.nobles, land.peasants, land.owner) == (0, 0, None)


# -- preserve and spoil -----------------------------------------------------------------

@pytest.mark.rules("resource_hog:preserve/salt-per-token")
def test_each_salt_preserves_one_fresh_food():
    """Produce preserved foods row: each fresh fish, meat or grain with one salt becomes one
    preserved food: 3 salt for 4 fresh make 3 preserved (fish first); salt with no fresh food
    stays, and an area with salt but no fresh food is not asked (house rule, Preserving)."""
    state, _ = _game()
    land = _feeding_land(state, fresh={"fish": 2, "meat": 1, "grain": 1}, salt=3)
    other = state.lands["L5"]
    other.store["salt"] = 2
    assert events.salt_choices(state) == {"L1": 3}
    data = run_step(state, lambda s: events.preserve(s, 0, "L1", 3))
    assert data["FoodPreserved"]["made"] == {"fish": 2, "meat": 1} and data["FoodPreserved"]["salt"] == 3
    assert land.store["preserved"] == 3 and land.store["salt"] == 0
    assert other.store["salt"] == 2 and other.store["preserved"] == 2


def _to_preserving(seed: str = "rh-salt"):
    """A 2-seat game run to its first events phase with L1 (seat 0) holding 4 salt and, after
    feeding, 3 fresh fish left (3 fishers, no noble); L5 (seat 1) 2 salt and 1 fish left."""
    state, chance = _game(2, seed)
    _to_events_with(state, chance, {"L1": (3, 4), "L5": (1, 2)})
    return state, chance


def _to_events_with(state, chance, fish_salt):
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    for area, (fishers, salt) in fish_salt.items():
        land = state.lands[area]
        land.store["salt"], land.store["preserved"] = salt, 5
        land.peasants, land.nobles = fishers, 0  # the fishers eat nothing (table: feed)
        land.work = {"fish:mere": fishers}
        land.fresh = {"fish": fishers, "meat": 0, "grain": 0}
    while state.stage == "actions":
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    return apply_phase(RULES, state, chance)


@pytest.mark.rules("resource_hog:house rules/preserve-choice", "resource_hog:preserve/salt-per-token")
def test_the_owner_chooses_how_much_salt_to_spend_preserving():
    """Produce preserved foods row (resource-hog-actions-and-events.txt): each fresh token with one
    salt becomes preserved food. House rule (docs/house-rules.md, Resource Hog: Preserving): after
    feeding, each owner of an area with fresh food left and salt chooses how much salt to spend
    (0 keeps it all for sale). Issue 23: all the salt was spent, with no choice."""
    state, chance = _to_preserving()
    assert state.stage == "preserve" and state.preserving == {"L1": 3, "L5": 1}
    assert RULES.to_move(state) == [0, 1] and RULES.pending_phase(state) is None
    legal = RULES.legal_moves(state, 0)
    assert [m["salt"] for m in legal] == [3, 2, 1, 0] and {m["area"] for m in legal} == {"L1"}
    assert legal[0] == {"type": "preserve", "area": "L1", "salt": 3}  # all it can comes first
    refused(state, 0, {"type": "preserve", "area": "L1", "salt": 4}, chance)  # 3 fresh fish left
    refused(state, 0, {"type": "preserve", "area": "L5", "salt": 1}, chance)  # not its area
    refused(state, 0, {"type": "done"}, chance)
    [made] = apply(RULES, state, 0, {"type": "preserve", "area": "L1", "salt": 1}, chance)
    assert made.type == "FoodPreserved" and made.data == {"seat": 0, "area": "L1", "salt": 1, "made": {"fish": 1}}
    land = state.lands["L1"]
    assert land.store["salt"] == 3 and land.store["preserved"] == 6 and land.fresh["fish"] == 2
    assert RULES.to_move(state) == [1] and state.stage == "preserve"
    refused(state, 0, {"type": "preserve", "area": "L1", "salt": 1}, chance)  # chosen once
    out = apply(RULES, state, 1, {"type": "preserve", "area": "L5", "salt": 0}, chance)  # keeps its salt
    assert [e.type for e in out][:4] == ["FoodPreserved", "FreshFoodSpoiled", "FishGrew", "GameGrew"]
    assert "TradingBoardAdjusted" in [e.type for e in out] and state.stage == "orders" and state.round == 2
    assert state.lands["L5"].store["salt"] == 2 and land.store["salt"] == 3 and land.fresh["fish"] == 0


@pytest.mark.rules("resource_hog:house rules/preserve-choice")
def test_with_nothing_to_choose_the_events_run_on():
    """House rule (Preserving): an area is asked only with fresh food left and salt in store; with
    none the phase runs the round's events to the next round, and a seat's own areas are chosen
    for one by one, in any order."""
    state, chance = _game(2, "rh-salt-none")
    out = _to_events_with(state, chance, {"L1": (3, 0)})
    asked = next(e for e in out if e.type == "PreservingAsked")
    assert asked.data == {"areas": {}} and state.stage == "orders" and state.round == 2
    assert state.lands["L1"].store["salt"] == 0 and state.lands["L1"].fresh["fish"] == 0
    # the same seat with two areas to choose for: two moves, in any order
    state, chance = _game(2, "rh-salt-two")
    state.lands["L2"].owner = 0
    _to_events_with(state, chance, {"L1": (1, 1), "L2": (2, 5)})
    assert state.preserving == {"L1": 1, "L2": 2} and RULES.to_move(state) == [0]
    apply(RULES, state, 0, {"type": "preserve", "area": "L2", "salt": 2}, chance)
    assert RULES.to_move(state) == [0] and state.preserving == {"L1": 1}
    apply(RULES, state, 0, {"type": "preserve", "area": "L1", "salt": 1}, chance)
    assert state.stage == "orders" and state.lands["L2"].store == {"preserved": 7, "salt": 3, "weapons": 0}


@pytest.mark.rules("resource_hog:spoil/all-fresh-gone")
def test_all_fresh_food_left_spoils_everywhere():
    """Spoil row: all fresh fish, meat and grain left in every area is removed (owned or not);
    preserved food stays."""
    state, _ = _game()
    _feeding_land(state, fresh={"fish": 2, "meat": 1, "grain": 1}, salt=1, preserved=2)
    state.lands["L3"].fresh["meat"] = 2
    run_step(state, lambda s: events.preserve(s, 0, "L1", 1))
    run_step(state, events.spoil)
    assert all(v == 0 for a in state.lands.values() for v in a.fresh.values())
    assert state.lands["L1"].store["preserved"] == 3 and state.lands["L5"].store["preserved"] == 2


# -- house rules: map, length, winner ----------------------------------------------------

@pytest.mark.rules("resource_hog:house rules/map")
def test_the_map_in_play():
    """House rule map: eight lands in a ring round the Mere, each bordering its two ring
    neighbours, the Mere and its sea (L1-L4 west, L5-L8 east); seas start at 8 of 12 fish,
    the Mere at 5 of 12 (8 before issue 23); each forest square holds one game at the start."""
    state, _ = _game()
    assert sorted(state.lands) == [f"L{i}" for i in range(1, 9)]
    assert state.fish == {"west_sea": 8, "east_sea": 8, "mere": 5}
    assert all(a.game == a.forests >= 1 for a in state.lands.values())
    assert trade.borders("L1", "L2") == trade.borders("L1", "L8") == 1 and trade.borders("L1", "L5") == 4
    for area, sea, not_sea in (("L1", "west_sea", "east_sea"), ("L4", "west_sea", "east_sea"),
                               ("L5", "east_sea", "west_sea"), ("L8", "east_sea", "west_sea")):
        targets = turns.work_targets(state, area)
        assert "fish:mere" in targets and f"fish:{sea}" in targets and f"fish:{not_sea}" not in targets
    state.fish.update(west_sea=11, mere=11)
    assert run_step(state, events.grow)["FishGrew"]["fish"] == {"east_sea": 10, "mere": 12, "west_sea": 12}


def _to_events(state, chance):
    for seat in range(len(state.players)):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    while state.stage == "actions":
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    assert state.stage == "events"


@pytest.mark.rules("resource_hog:house rules/eight-rounds")
def test_the_game_ends_after_the_eighth_round():
    """House rule: a game is 8 rounds: the events of round 7 start round 8, those of round 8
    end the game and score it."""
    state, chance = _game()
    _to_events(state, chance)
    state.round = 7
    apply_phase(RULES, state, chance)
    assert state.round == 8 and state.stage == "orders" and RULES.outcome(state) is None
    _to_events(state, chance)
    evs = apply_phase(RULES, state, chance)
    assert [e.type for e in evs][-2:] == ["GameEnded", "FinalScored"]
    assert state.stage == "over" and RULES.outcome(state) is not None and RULES.to_move(state) == []


@pytest.mark.rules("resource_hog:house rules/wealth-wins", "resource_hog:house rules/building-counts")
def test_the_most_wealth_wins_then_the_most_money_then_a_shared_win():
    """House rule: wealth is money, 5 a noble, 2 a peasant and the buildings (road 7, harbour 12,
    mine 12, manor 18, motte 30, castle 45, stone head 8: each its cost and 2 more, a stone head 3
    and a castle 5 more, a motte and a castle the whole chain they replace); a tie goes to more
    money, then is shared."""
    state, _ = _game()
    a, b = state.lands["L1"], state.lands["L5"]
    a.buildings, a.stone_heads = ["road", "harbour", "mine", "castle"], 1
    b.buildings, b.nobles = ["manor"], 2
    state.players[1].money = 30
    rows = wealth(state)
    assert rows[0] == {"money": 20, "nobles": 5, "peasants": 8, "buildings": 7 + 12 + 12 + 45 + 8, "total": 117}
    assert rows[1]["total"] == 30 + 10 + 8 + 18

    def winners():
        return RULES.handle(state, Op("score", "final_scoring"), None)[0].data["winners"]

    assert winners() == [0]
    b.buildings = ["manor", "motte"]  # 30 more for the motte: 51 + 10 + 8 + 48 = 117
    state.players[1].money = 51  # 117 each, seat 1 has more money
    assert wealth(state)[1]["total"] == 117 and winners() == [1]
    a.buildings, a.stone_heads = ["manor", "motte"], 0
    a.nobles = 2
    state.players[0].money = 51
    assert wealth(state)[0] == wealth(state)[1] and winners() == [0, 1]


@pytest.mark.rules("resource_hog:sell/move-goods", "resource_hog:sell/lowest-free-slot")
def test_a_store_larger_than_a_move_can_name_is_offered_in_moves_that_parse():
    """Every legal move is one the move format accepts: with 250 salt in a harbour area the sell
    and ship moves offered name 200 (the format's bound, MAX_COUNT), and each parses and plays."""
    from services.rules.resource_hog.moves import MAX_COUNT

    state, chance, seat, home = _to_trade()
    state.lands[home].store["salt"] = 250
    legal = RULES.legal_moves(state, seat)
    big = [m for m in legal if m["type"] in ("sell", "ship") and m["good"] == "salt"]
    assert big and all(m["count"] == MAX_COUNT for m in big)
    for move in legal:
        assert RULES.parse_move(move) == move
    sell = next(m for m in big if m["type"] == "sell")
    apply(RULES, state, seat, sell, chance)
    assert state.lands[home].store["salt"] == 50
