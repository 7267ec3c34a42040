"""Paying with Gold and coins (rulebook 5.1 "Gold can be used instead", 6.6 coins): the player
chooses what pays wherever a cost is paid, and the legal moves list each distinct choice
(fault 2 of the Noggin issue)."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, activate_nogbad, give, legal, put_reserve, run, scenario


def _granary_moves(state):
    return sorted(m["pay"] for m in legal(state, 0)
                  if m["type"] == "builder" and m.get("building") == "granary" and m["space"] == "meadow")


@pytest.mark.rules("noggin:5.1/gold-instead", "noggin:house rules/pay-choice", "noggin:house rules/pay-choices-listed",
                   "noggin:5.5/building-price")
def test_the_fault_seat_with_wood_stone_and_gold_chooses_what_pays_for_a_granary():
    """Seat 0 holds 2 Wood, 1 Stone, 1 Gold and builds a Granary (2 Wood + 1 Stone): it may pay
    the Stone, or the Gold instead of the Stone, or the Gold instead of a Wood; the legal moves
    list exactly those three, and the one chosen is what leaves its stock."""
    s = scenario(3)
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    give(s, 0, wood=2, stone=1, gold=1)
    assert _granary_moves(s) == [["gold", "stone", "wood"], ["gold", "wood", "wood"], ["stone", "wood", "wood"]]
    events = run(s, 0, {"type": "builder", "building": "granary", "space": "meadow", "pay": ["gold", "wood", "wood"]})
    assert next(e for e in events if e.type == "BuildingBuilt").data["paid"] == ["gold", "wood", "wood"]
    p = s.players[0]
    assert (p.stock["wood"], p.stock["stone"], p.stock["gold"]) == (0, 1, 0)
    assert s.market["gold"] == 1 and s.market["wood"] == 2  # 3.7: spent cubes go to the Nog Market


@pytest.mark.rules("noggin:house rules/pay-default", "noggin:house rules/pay-choice")
def test_a_payment_that_does_not_fit_is_refused_and_none_named_takes_the_resources_first():
    """A payment must fill the cost (Gold for anything, never a Fish for Wood); without ``pay``
    the named resources go first, then Gold (house rule)."""
    s = scenario(3)
    s.rows["bottom"] = ["granary", "long_house", "new_land"]
    give(s, 0, wood=2, stone=1, gold=1, fish=1)
    with pytest.raises(IllegalMove, match="do not pay"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "meadow", "pay": ["fish", "stone", "wood"]})
    with pytest.raises(IllegalMove, match="takes 3 cube"):
        RULES.check(s, 0, {"type": "builder", "building": "granary", "space": "meadow", "pay": ["stone", "wood"]})
    events = run(s, 0, {"type": "builder", "building": "granary", "space": "meadow"})
    assert next(e for e in events if e.type == "BuildingBuilt").data["paid"] == ["stone", "wood", "wood"]
    assert s.players[0].stock["gold"] == 1


@pytest.mark.rules("noggin:6.6/coin-replaces-any", "noggin:house rules/pay-choices-listed")
def test_coins_and_gold_pay_a_saga_condition_and_the_choices_are_listed_once_each():
    """6.6: a coin replaces any resource anywhere; a Saga's Stone condition may be paid with
    Stone, Gold or a coin, each listed once (with a Nog or for the point)."""
    s = scenario(3)
    s.coins = True
    put_reserve(s, 0, ["stone", "food"], deck="C")
    give(s, 0, stone=2, gold=1, coin=1)
    pays = sorted({tuple(m["pay"]) for m in legal(s, 0)
                   if m["type"] == "market_day" and m.get("op") == "saga" and m["saga"] == 0 and m["condition"] == 0})
    assert pays == [("coin",), ("gold",), ("stone",)]
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True, "pay": ["coin"]})
    assert s.players[0].stock["coin"] == 0 and s.sagas[0].current.met[0]["paid"] == "coin"


@pytest.mark.rules("noggin:6.6/coin-buys-any", "noggin:8.0/bad-news-rate")
def test_a_coin_buys_any_resource_even_at_the_bad_news_rate():
    """6.6 and 8.0: while Nogbad brings Bad News trades take 3 cubes for 1, but 1 coin still
    buys 1 resource."""
    s = scenario(3)
    s.coins = True
    activate_nogbad(s, 3)
    s.market.update(fish=2)
    give(s, 0, coin=1, wood=2)
    with pytest.raises(IllegalMove, match="takes 3 resources for 1"):
        RULES.check(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "fish"})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["coin"], "take": "fish"})
    assert s.players[0].stock["fish"] == 1 and s.market["coin"] == 1
