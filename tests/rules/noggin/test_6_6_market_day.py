"""Market Day trading (rulebook 6.0, 6.6)."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, normal_turn, run, seated


def _turn():
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.players[0].stock.update(wood=4, fish=1, gold=1)
    return s


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


def test_gold_can_be_given_and_the_resource_must_be_at_the_market():
    """6.6: Gold included; the desired resource must be present at the market."""
    s = _turn()
    run(s, 0, {"type": "market_day", "give": ["gold", "wood"], "take": "stone"})
    assert s.players[0].stock["gold"] == 0 and s.gold_supply == 5 and s.market["gold"] == 1
    with pytest.raises(IllegalMove, match="no fish at the Nog Market"):
        RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "fish"})


def test_spent_gold_returns_to_the_market_and_can_be_bought_there():
    """3.7: used resources always return to the Nog Market, Gold included; 6.6: any resource
    present at the market may be taken at 2:1. Gold takes no Farm space (3.7)."""
    s = _turn()
    p = s.players[0]
    assert s.market["gold"] == 0
    with pytest.raises(IllegalMove, match="no gold at the Nog Market"):
        RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "gold"})
    s.market["gold"] = 1
    p.stock.update(stone=4, wood=2, fish=0, harvest=0, gold=0)  # Farm full (6)
    run(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "gold"})
    assert p.stock["gold"] == 1 and s.market["gold"] == 0 and s.market["wood"] >= 2


def test_no_trade_without_room():
    """6.6 with 3.7 and the 5.0 note: a trade whose resource cannot be stored is refused."""
    s = _turn()
    s.players[0].stock.update(stone=1, wood=4, fish=1, gold=2)  # Farm full (6); Gold takes no space
    s.market["harvest"] = 2
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(s, 0, {"type": "market_day", "give": ["gold", "gold"], "take": "harvest"})
    RULES.check(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "harvest"})
