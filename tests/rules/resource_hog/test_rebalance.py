"""Resource Hog's rebalance (issue: a balanced Resource Hog): the house rules on ore by player
count, gold deposits, the building counts and the slave stack (``docs/house-rules.md``, Resource
Hog: The map, Length and winner, The trading board). The counts and the stack are tested with
the wealth count and the trading board in ``test_trade_and_feeding.py``."""

from __future__ import annotations

import pytest

from services.rules.core.forward import apply
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog import events, turns
from services.rules.resource_hog.content import content

from .helpers import RING, new_game, order_all, refused


def _neighbours(area: str) -> set[str]:
    i = RING.index(area)
    return {RING[i - 1], RING[(i + 1) % len(RING)]}


@pytest.mark.rules("resource_hog:house rules/ore-lands", "resource_hog:house rules/starting-lands")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_start_has_as_much_ore_next_to_it_as_every_other(players):
    """House rule (the map, ore): no starting land has ore; at 2 and 3 players each has exactly
    one land with ore next to it that no other start touches; at 4 each has two, each shared
    with the next start. The state's lands carry it (``ore``) with the gold of their deposit."""
    state, _ = new_game(players)
    starts = content().map.starting_lands[str(players)]
    ore = {a for a, land in state.lands.items() if land.ore}
    assert ore == set(content().map.ore_lands[str(players)])
    assert not ore & set(starts)
    for s in starts:
        near = _neighbours(s) & ore
        others = set().union(*(_neighbours(t) for t in starts if t != s))
        if players < 4:
            assert len(near) == 1 and not near & others, (s, near)
        else:
            assert len(near) == 2 and near <= others, (s, near)
    assert {a: land.gold for a, land in state.lands.items() if land.gold} == {a: 10 for a in ore}


def _miners(players: int = 2):
    """A game at the first peasants' action of the seat that acts first, that seat owning the
    land with ore next to its home with a mine and 3 peasants."""
    state, chance = new_game(players, "rh-deposit")
    seat = order_all(state, chance, ["peasants", "nobles", "trade"])
    home = next(a for a in RING if state.lands[a].owner == seat)
    area = next(iter(_neighbours(home) & {a for a, x in state.lands.items() if x.ore}))
    land = state.lands[area]
    land.owner, land.peasants, land.buildings = seat, 3, ["mine"]
    return state, chance, seat, area


def _allocate(state, chance, seat, area, work):
    return apply(RULES, state, seat, {"type": "allocate", "area": area, "work": work}, chance)


@pytest.mark.rules("resource_hog:house rules/gold-deposit", "resource_hog:toil/mine-yield")
def test_mining_gold_takes_it_from_the_deposit_until_it_runs_out():
    """House rule (gold deposits): each land with ore holds 10 gold; a gold miner takes 2 from it
    at the produce-from-mines event; a peasant mines gold only while the deposit holds 2 for him
    and for every gold miner already there; salt and arms and armour never run out. A refused
    allocation leaves the game as it was."""
    state, chance, seat, area = _miners()
    land = state.lands[area]
    land.gold = 4
    _allocate(state, chance, seat, area, "mine:gold")
    _allocate(state, chance, seat, area, "mine:gold")
    assert "mine:gold" not in turns.work_targets(state, area)  # 4 gold: two miners take it all
    refused(state, seat, {"type": "allocate", "area": area, "work": "mine:gold"}, chance, "holds 4 gold and 2 gold miner")
    assert "mine:salt" in turns.work_targets(state, area) and "mine:weapons" in turns.work_targets(state, area)
    money = state.players[seat].money
    for e in events.produce_from_mines(state):
        RULES.evolve(state, e)
    assert land.gold == 0 and state.players[seat].money == money + 4 * content().setup.components["gold_value"]
    land.work = {}
    assert "mine:gold" not in turns.work_targets(state, area) and "mine:salt" in turns.work_targets(state, area)


@pytest.mark.rules("resource_hog:house rules/mercenaries-march-in", "resource_hog:buy/to-harbour")
def test_a_mercenary_joins_in_any_area_of_the_buyer_goods_and_slaves_only_in_a_harbour_area():
    """House rule (mercenaries march in): a mercenary bought becomes a noble in any of the buyer's
    land areas, a harbour or not, and the legal moves offer one for each of them; never in another
    seat's area. Goods and slaves still go to a harbour area (table: buy). Refused moves leave
    the game as it was."""
    state, chance = new_game(3, "rh-mercenary")
    seat = order_all(state, chance, ["trade", "peasants", "nobles"])
    home = next(a for a in RING if state.lands[a].owner == seat)
    outpost = RING[(RING.index(home) + 1) % len(RING)]
    state.lands[outpost].owner, state.lands[outpost].peasants = seat, 1
    other = next(a for a in RING if state.lands[a].owner not in (None, seat))
    state.mercenary_track, state.slave_track, state.players[seat].money = 2, 1, 40
    assert not any("harbour" in state.lands[a].buildings for a in RING)
    buys = [m for m in RULES.legal_moves(state, seat) if m["type"] == "buy"]
    assert sorted(m["to"] for m in buys if m["good"] == "mercenary") == sorted([home, outpost])
    assert not [m for m in buys if m["good"] != "mercenary"]  # no harbour: no goods, no slave
    refused(state, seat, {"type": "buy", "good": "mercenary", "count": 1, "to": other}, chance,
            match="one of your own land areas")
    refused(state, seat, {"type": "buy", "good": "slave", "count": 1, "to": outpost}, chance, match="harbour")
    refused(state, seat, {"type": "buy", "good": "salt", "count": 1, "to": outpost}, chance, match="harbour")
    nobles = state.lands[outpost].nobles
    apply(RULES, state, seat, {"type": "buy", "good": "mercenary", "count": 1, "to": outpost}, chance)
    assert state.lands[outpost].nobles == nobles + 1
    assert state.mercenary_track == 1 and state.players[seat].money == 30
