"""Market Day trading (rulebook 6.0, 6.6)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin import board, content

from .helpers import (RULES, activate_nogbad, give, legal, normal_turn, put_reserve, put_saga, run, scenario,
                      seated)


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].stock.update(wood=4, fish=1, gold=1)
    return s


@pytest.mark.rules("noggin:6.6/two-for-one", "noggin:6.6/many-trades-one-step")
def test_two_for_one_many_trades_one_step():
    """6.6: 2 resources for 1 present at the market; as many trades as wished for 1 Step."""
    s = _turn()
    run(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "stone"})
    run(s, 0, {"type": "market_day", "give": ["wood", "fish"], "take": "harvest"})
    p = s.players[0]
    assert (p.stock["wood"], p.stock["fish"], p.stock["stone"], p.stock["harvest"]) == (1, 0, 1, 1)
    assert s.market["stone"] == 7 and s.market["wood"] == 3 and s.market["fish"] == 1
    assert s.markers[0].pos == 11
    run(s, 0, {"type": "finish"})
    assert s.markers[0].pos == 11 and p.placed["market_day"] == 1


@pytest.mark.rules("noggin:6.6/needs-resources", "noggin:6.6/must-be-present")
def test_gold_can_be_given_and_the_resource_must_be_at_the_market():
    """6.6: Gold included; the desired resource must be present at the market."""
    s = _turn()
    run(s, 0, {"type": "market_day", "give": ["gold", "wood"], "take": "stone"})
    assert s.players[0].stock["gold"] == 0 and s.gold_supply == 5 and s.market["gold"] == 1
    with pytest.raises(IllegalMove, match="no fish at the Nog Market"):
        RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "fish"})


@pytest.mark.rules("noggin:6.6/gold-not-sold")
def test_spent_gold_returns_to_the_market_but_is_not_sold_there():
    """3.7: used resources return to the Nog Market, Gold included; house rule: the market
    never gives Gold in trade (else 2 Wood buy a Gold worth 8 with the Goldsmith, 9.0)."""
    s = _turn()
    p = s.players[0]
    run(s, 0, {"type": "market_day", "give": ["gold", "wood"], "take": "stone"})
    assert s.market["gold"] == 1 and p.stock["gold"] == 0
    p.stock.update(wood=2)
    with pytest.raises(IllegalMove, match="does not sell Gold"):
        RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "gold"})
    assert not [m for m in trades(s, 0) if m["take"] == "gold"]
    assert [m for m in trades(s, 0) if m["take"] == "stone"]


def test_no_trade_without_room():
    """6.6 with 3.7 and the 5.0 note: a trade whose resource cannot be stored is refused."""
    s = _turn()
    s.players[0].stock.update(stone=1, wood=4, fish=1, gold=2)  # Farm full (6); Gold takes no space
    s.market["harvest"] = 2
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "market_day", "give": ["gold", "gold"], "take": "harvest"})
    RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "harvest"})


def trades(state, seat):
    return [m for m in legal(state, seat) if m["type"] == "market_day" and m.get("op") == "trade"]


@pytest.mark.rules("noggin:6.6/needs-resources")
def test_no_trade_without_resources_on_the_player_board():
    """6.6: trading needs resources on the player board; Gold and coins count as such."""
    s = _turn()
    s.players[0].stock.update(wood=0, fish=0, gold=0)
    assert trades(s, 0) == []
    with pytest.raises(IllegalMove, match="you do not have 2 wood to give"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    s.players[0].stock.update(gold=2)
    assert {"type": "market_day", "op": "trade", "give": ["gold", "gold"], "take": "stone"} in trades(s, 0)
    s.players[0].stock.update(gold=0, coin=1)
    assert {"type": "market_day", "op": "trade", "give": ["coin"], "take": "stone"} in trades(s, 0)


@pytest.mark.rules("noggin:6.6/two-for-one")
def test_the_market_takes_exactly_two_for_one():
    """6.6: one resource costs exactly 2 (not 1, not 3) while the rate is 2:1."""
    s = _turn()
    s.players[0].stock.update(wood=4)
    for give_ in (["wood"], ["wood", "wood", "wood"]):
        with pytest.raises(IllegalMove, match="takes 2 resources for 1"):
            RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": give_, "take": "stone"})
    assert all(len(m["give"]) == 2 for m in trades(s, 0))


def _money_saga_done():
    """Seat 0 completes the Money Saga's last card; then starts a second Market Day."""
    s = scenario(3)
    put_saga(s, 0, "money", done=[{"deck": "A", "card": "A01", "nogbad": False, "nogs": [0, 0, 0]},
                                  {"deck": "B", "card": "B09", "nogbad": False, "nogs": [0, 0, 0]}])
    put_reserve(s, 0, ["wood"], deck="C", card="C02")
    give(s, 0, wood=1, stone=4)
    with pytest.raises(IllegalMove, match="only once the Money Saga is completed"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["stone", "stone"], "take": "coin"})
    assert not s.coins and s.market["coin"] == 0
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True,
                        "pay": ["wood"]})
    assert [e.data for e in events if e.type == "SagaCleared"] == [{"saga": 0, "card": "money", "coins": 5}]
    run(s, 0, {"type": "finish"})
    assert RULES.to_move(s) == [0] and s.action is None
    return s


@pytest.mark.rules("noggin:6.6/coins-after-money", "noggin:6.6/coin-at-rate")
def test_coins_come_to_the_market_with_the_money_saga_and_cost_two():
    """6.6: once the Money Saga is completed the 5 coins are at the Nog Market; a coin is
    bought like any resource at the current rate, 2:1."""
    s = _money_saga_done()
    assert s.coins and s.market["coin"] == 5
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["stone", "stone"], "take": "coin"})
    assert s.players[0].stock["coin"] == 1 and s.players[0].stock["stone"] == 2 and s.market["coin"] == 4


@pytest.mark.rules("noggin:6.6/coin-at-rate", "noggin:6.6/coin-buys-any", "noggin:8.0/bad-news-rate")
def test_with_bad_news_a_coin_costs_three_but_still_buys_any_resource_alone():
    """6.6 with 8.0 (4): while Nogbad brings Bad News the rate is 3:1, coins included; a coin
    still buys any one resource whatever the rate."""
    s = scenario(3)
    s.coins, s.market["coin"] = True, 5
    activate_nogbad(s, 3)
    give(s, 0, stone=3, coin=1)
    with pytest.raises(IllegalMove, match="takes 3 resources for 1"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["stone", "stone"], "take": "coin"})
    events = run(s, 0, {"type": "market_day", "op": "trade", "give": ["coin"], "take": "harvest"})
    assert events[-1].data == {"seat": 0, "give": ["coin"], "take": "harvest", "rate": 3}
    assert s.players[0].stock["harvest"] == 1 and s.players[0].stock["coin"] == 0 and s.market["coin"] == 6
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["stone", "stone", "stone"], "take": "coin"})
    assert s.players[0].stock["coin"] == 1 and s.players[0].stock["stone"] == 0


@pytest.mark.rules("noggin:6.6/coin-replaces-any", "noggin:house rules/pay-choice")
def test_a_coin_replaces_any_resource_in_any_cost():
    """6.6: a coin may stand in for any resource: a Stone on a Saga card, Food for Olaf on an
    Invention, the Stone of a building; spent coins go to the Nog Market."""
    s = scenario(3)
    s.coins = True
    put_reserve(s, 0, ["stone", "wood"], deck="C", card="C07")
    give(s, 0, coin=3, wood=2)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["coin"]})
    assert s.sagas[0].current.met[0]["paid"] == "coin" and s.players[0].stock["coin"] == 2

    s = scenario(3)
    s.coins = True
    give(s, 0, coin=1)
    run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 0, "pay": ["coin"]})
    assert s.characters["olaf"] == "invention:0" and s.players[0].stock["coin"] == 0

    s = scenario(3)
    s.coins = True
    give(s, 0, coin=1, wood=2)
    idx = content.building_index()
    building = next(t for t in s.rows["bottom"] if t and idx[t].spaces == "any" and not idx[t].adds_space)
    run(s, 0, {"type": "builder", "building": building, "space": "meadow", "pay": ["coin", "wood", "wood"]})
    assert building in s.players[0].buildings and s.players[0].stock["coin"] == 0 and s.market["coin"] == 1


@pytest.mark.rules("noggin:6.6/coins-no-space")
def test_coins_take_no_storage_space():
    """6.6: coins are kept in the Farm but take no room: with the Farm full of 6 cubes a coin
    can still be bought (with Gold, which takes no room either), a Stone cannot."""
    s = scenario(3)
    s.coins, s.market["coin"] = True, 5
    give(s, 0, stone=3, wood=3, gold=4)
    p = s.players[0]
    assert board.room(p, "stone") == 0
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["gold", "gold"], "take": "stone"})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["gold", "gold"], "take": "coin"})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["gold", "gold"], "take": "coin"})
    assert p.stock["coin"] == 2 and board.fits(p, {})
    p.stock["stone"] = 2
    assert board.room(p, "stone") == 1  # the 2 coins change nothing
