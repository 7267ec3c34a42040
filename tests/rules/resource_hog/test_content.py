"""Resource Hog's content as data (services/rules/resource_hog/content): the reconstructed map,
start, costs and trading board of docs/house-rules.md hold together, and a broken file is
refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.rules.core.content import read_files
from services.rules.resource_hog import content as rc


@pytest.fixture(scope="module")
def c():
    return rc.load()


@pytest.mark.rules("resource_hog:house rules/map")
def test_the_map_is_a_ring_round_the_mere_with_two_seas(c):
    """Eight lands in a ring round the Mere; L1-L4 on the Western Sea, L5-L8 on the Eastern (house rule)."""
    assert c.map.ring == [f"L{i}" for i in range(1, 9)]
    assert {x.id: x.coast for x in c.map.lands} == {**{f"L{i}": "west_sea" for i in range(1, 5)},
                                                     **{f"L{i}": "east_sea" for i in range(5, 9)}}
    waters = {w.id: (w.kind, w.max, w.start) for w in c.map.waters}
    # the Mere held at most 8 before issue 23, so its growth by 3 from nine never happened
    assert waters == {"west_sea": ("sea", 12, 8), "east_sea": ("sea", 12, 8), "mere": ("lake", 12, 5)}
    assert all(x.forests >= 1 for x in c.map.lands) and all(c.map.ore_lands[str(n)] for n in (2, 3, 4))


@pytest.mark.rules("resource_hog:house rules/starting-lands", "resource_hog:house rules/eight-rounds")
def test_starting_lands_are_spread_round_the_ring(c):
    """Starting lands by player count, none next to another, and the start each gets (house rule)."""
    ring = c.map.ring
    for n, lands in c.map.starting_lands.items():
        assert len(lands) == int(n)
        idx = sorted(ring.index(x) for x in lands)
        gaps = [(b - a) % 8 for a, b in zip(idx, idx[1:] + idx[:1])]
        assert min(gaps) >= 2, (n, lands)
    s = c.setup.start
    assert (s.peasants, s.nobles, s.preserved, s.weapons, s.money) == (4, 1, 2, 2, 20)
    assert c.setup.rounds == 8


@pytest.mark.rules("resource_hog:house rules/costs", "resource_hog:build/in-order")
def test_the_cost_table_and_the_order_of_fortifications(c):
    """Every building of the build event has a cost; motte on a manor, castle on a motte (ambiguity 14)."""
    costs = {b.id: (b.money, b.goods, b.needs) for b in c.buildings.buildings}
    assert set(costs) == {"road", "harbour", "mine", "stone_head", "manor", "motte", "castle"}
    assert costs["motte"][2] == "manor" and costs["castle"][2] == "motte"
    assert c.buildings.defence == {"manor": 1, "motte": 2, "castle": 3}
    raw = read_files(rc.Content, rc.CONTENT_DIR)
    raw["buildings"]["buildings"] = [dict(b, needs=None) if b["id"] == "castle" else b
                                     for b in raw["buildings"]["buildings"]]
    with pytest.raises(ValidationError):
        rc.Content.model_validate(raw)


@pytest.mark.rules("resource_hog:house rules/board-prices", "resource_hog:trading board/balance-half-full")
def test_the_trading_board_rows_and_balance(c):
    """Five rows of two slots, dearest at the bottom; balance 5 goods fills the two bottom rows
    and half the middle one (ambiguity 15)."""
    t = c.trading
    for prices in t.goods.values():
        assert len(prices) == 5 and prices == sorted(prices, reverse=True)
    middle = len(next(iter(t.goods.values()))) // 2
    assert t.balance == middle * t.slots_per_row + t.slots_per_row // 2
    assert sorted(t.d6) == ["1", "2", "3", "4", "5", "6"]
    assert {g for g, _ in t.d6.values()} == set(rc.GOODS)
