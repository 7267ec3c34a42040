"""Nog placement (rulebook 5.0) and storage with no waste (3.7, 3.8, 5.0 note)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin.board import fits, room

from .helpers import RULES, normal_turn, run, seated


def _turn(players=3):
    return normal_turn(seated(players), 0, [10, 13, 14, 15])


def test_repeating_an_action_costs_one_more_nog_each_time():
    """5.0: the n-th use of an action in a season places n Nogs (1, then 2, then 3)."""
    s = _turn()
    p = s.players[0]
    for n, expect_space in ((1, 1), (2, 3)):
        run(s, 0, {"type": "woodcutter", "op": "orchard"})
        run(s, 0, {"type": "finish"})
        assert p.placed["woodcutter"] == expect_space
    assert p.mountains == 10 - 3
    p.mountains = 2
    with pytest.raises(IllegalMove, match="needs 3 Nogs"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})


def test_market_day_always_costs_one_nog():
    """5.0, 6.0: Market Day needs a single Nog however often it is used."""
    s = _turn()
    p = s.players[0]
    p.stock.update(wood=6)
    for k in range(3):
        run(s, 0, {"type": "market_day", "give": ["wood", "wood"], "take": "stone"})
        run(s, 0, {"type": "finish"})
    assert p.placed["market_day"] == 3 and p.mountains == 7


def test_farm_holds_six_and_buildings_add_two_of_their_kind():
    """3.7: the Farm stores 6 basic resources of any type; Gold takes no space; the Granary
    adds 2 Harvest (appendix)."""
    s = _turn()
    p = s.players[0]
    p.stock.update(stone=3, wood=3, gold=4)
    assert room(p, "fish") == 0 and not fits(p, {"fish": 1})
    p.buildings["granary"] = "meadow"
    assert room(p, "harvest") == 2 and room(p, "fish") == 0


def test_no_waste_refuses_a_harvest_without_room():
    """5.0 note, 5.4: a field is not reaped if its 2 Harvest cannot be stored."""
    s = normal_turn(seated(3), 0, [10, 13, 14, 15])  # season 2 = Summer
    s.players[0].stock.update(stone=5)
    with pytest.raises(IllegalMove, match="no room for 2 more Harvest"):
        RULES.check(s, 0, {"type": "farmer", "op": "harvest", "field": 0})
