"""Resource Hog: the peasants' action (move, allocate, fish, hunt, toil, mines, clearing,
building, knighting, population) and the events that finish that work (clear woodland, build,
produce from mines, produce nobles), with the house rules on costs, ownership, starting lands
and population (resource-hog-actions-and-events.txt; house rules, Resource Hog).

Numbers come from the table and the house rules, not from the engine's content files."""

from __future__ import annotations

import pytest

from services.rules.core import IllegalMove, state_hash
from services.rules.core.forward import apply, apply_phase
from services.rules.resource_hog.rules import ResourceHogRules

from .helpers import new_game

RULES = ResourceHogRules()
RING = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
ORE = {"L2", "L6"}
"""Lands with ore at 2 players (map.json ore_lands; house rule)."""
COAST = {a: ("west_sea" if RING.index(a) < 4 else "east_sea") for a in RING}


# -- helpers -------------------------------------------------------------------------------

def _game(players: int = 2, seed: str = "rh-peasants"):
    return new_game(players, seed)


def _peasants_turn(players: int = 2):
    """A game in which every seat ordered peasants first; returns state, chance, the acting seat
    and its home area."""
    state, chance = _game(players)
    for seat in range(players):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    seat = state.queue[0][0]
    assert RULES.to_move(state) == [seat]
    home = next(a for a in RING if state.lands[a].owner == seat)
    state.lands[home].store["preserved"] = 20  # plenty of food: nobody starves in the events
    return state, chance, seat, home


def _step(area: str, k: int) -> str:
    """The land area ``k`` steps round the ring from ``area``."""
    return RING[(RING.index(area) + k) % len(RING)]


def _own(state, area: str, seat: int, peasants: int = 1, nobles: int = 0) -> None:
    """Give ``seat`` pieces (and so ownership, house rule) in ``area`` with food to spare."""
    land = state.lands[area]
    land.owner, land.peasants, land.nobles = seat, peasants, nobles
    land.store["preserved"] = 20


def _play(state, chance, seat, move):
    return apply(RULES, state, seat, move, chance)


def _allocate(state, chance, seat, area, work, times: int = 1):
    for _ in range(times):
        _play(state, chance, seat, {"type": "allocate", "area": area, "work": work})


def _illegal(state, chance, seat, move, match: str | None = None) -> None:
    """The move is refused and the state is left exactly as it was."""
    before = state_hash(state)
    with pytest.raises(IllegalMove, match=match):
        _play(state, chance, seat, move)
    assert state_hash(state) == before


def _events_phase(state, chance):
    """Every seat says done to every remaining action, then the events phase runs; returns its
    events."""
    while state.stage == "actions":
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    assert state.stage == "events"
    return apply_phase(RULES, state, chance)


def _of(events_, kind):
    return [e for e in events_ if e.type == kind]


# -- starting lands and ownership (house rules) --------------------------------------------

@pytest.mark.rules("resource_hog:house rules/starting-lands", "resource_hog:house rules/ownership")
@pytest.mark.parametrize("players, lands", [(2, ["L1", "L5"]), (3, ["L1", "L4", "L7"]),
                                            (4, ["L1", "L3", "L5", "L7"])])
def test_starting_lands_and_pieces(players, lands):
    """House rule (starting lands): 2 players L1, L5; 3 players L1, L4, L7; 4 players L1, L3, L5,
    L7; each start with 4 peasants, 1 noble, 2 preserved food, 2 arms and armour, 20 money.
    House rule (ownership): the areas with pieces are owned, the empty ones by no one."""
    state, _ = _game(players)
    assert [a for a in RING if state.lands[a].owner is not None] == lands
    for seat, area in enumerate(lands):
        land = state.lands[area]
        assert land.owner == seat
        assert (land.peasants, land.nobles) == (4, 1)
        assert land.store["preserved"] == 2 and land.store["weapons"] == 2 and land.store["salt"] == 0
    assert [p.money for p in state.players] == [20] * players
    for area in RING:
        if area not in lands:
            land = state.lands[area]
            assert land.owner is None and land.peasants == 0 and land.nobles == 0


@pytest.mark.rules("resource_hog:house rules/ownership", "resource_hog:move peasants/own-land-any-distance")
def test_an_area_emptied_of_pieces_belongs_to_no_one():
    """House rule (ownership): an area belongs to the player with pieces in it; when the last
    peasant walks out of an area without nobles, the area is no one's, and peasants may not walk
    back into it (move peasants: own land only) nor be allocated there."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, 1)
    _own(state, nb, seat, peasants=2)
    _play(state, chance, seat, {"type": "move_peasants", "from": nb, "to": home, "count": 2})
    assert state.lands[nb].owner is None and state.lands[nb].peasants == 0
    assert state.lands[home].peasants == 6
    _illegal(state, chance, seat, {"type": "move_peasants", "from": home, "to": nb, "count": 1})
    _illegal(state, chance, seat, {"type": "allocate", "area": nb, "work": "toil"})


@pytest.mark.rules("resource_hog:house rules/ownership")
def test_an_area_keeps_its_owner_while_nobles_stay():
    """House rule (ownership): nobles alone keep an area owned after its peasants walk away."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, -1)
    _own(state, nb, seat, peasants=2, nobles=1)
    _play(state, chance, seat, {"type": "move_peasants", "from": nb, "to": home, "count": 2})
    assert state.lands[nb].owner == seat and state.lands[nb].peasants == 0


@pytest.mark.rules("resource_hog:house rules/ownership")
def test_peasants_cannot_be_moved_or_allocated_in_another_seats_land():
    """House rule (ownership): the other seat's starting land is its own; the acting seat can
    neither move nor allocate peasants there."""
    state, chance, seat, home = _peasants_turn()
    other = next(a for a in RING if state.lands[a].owner not in (None, seat))
    _illegal(state, chance, seat, {"type": "allocate", "area": other, "work": "toil"})
    _illegal(state, chance, seat, {"type": "move_peasants", "from": other, "to": _step(other, 1), "count": 1})


# -- move peasants -------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:move peasants/own-land-any-distance")
def test_peasants_walk_any_distance_over_connected_own_land():
    """Move peasants: any distance on own land, so two areas on along owned land (and round the
    ring's wrap), but not across a gap of land that is not one's own."""
    state, chance, seat, home = _peasants_turn()
    a1, a2, back = _step(home, 1), _step(home, 2), _step(home, -1)
    _own(state, a1, seat)
    _own(state, a2, seat)
    _own(state, back, seat)
    _play(state, chance, seat, {"type": "move_peasants", "from": home, "to": a2, "count": 2})
    assert state.lands[a2].peasants == 3 and state.lands[home].peasants == 2
    _play(state, chance, seat, {"type": "move_peasants", "from": back, "to": a1, "count": 1})  # back-home-a1
    assert state.lands[a1].peasants == 2
    # with the middle area lost, the far one cannot be reached
    state2, chance2, seat2, home2 = _peasants_turn()
    _own(state2, _step(home2, 2), seat2)
    _illegal(state2, chance2, seat2, {"type": "move_peasants", "from": home2, "to": _step(home2, 2), "count": 1})
    # nor a neighbour that is nobody's
    _illegal(state2, chance2, seat2, {"type": "move_peasants", "from": home2, "to": _step(home2, 1), "count": 1})


@pytest.mark.rules("resource_hog:move peasants/own-land-any-distance")
def test_no_more_peasants_move_than_the_area_has():
    """Move peasants: only the peasants that are there can be moved (4 at the start)."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, 1)
    _own(state, nb, seat)
    _illegal(state, chance, seat, {"type": "move_peasants", "from": home, "to": nb, "count": 5})
    _play(state, chance, seat, {"type": "move_peasants", "from": home, "to": nb, "count": 4})
    assert state.lands[nb].peasants == 5 and state.lands[home].peasants == 0


@pytest.mark.rules("resource_hog:move peasants/moved-not-allocated", "resource_hog:allocate peasants/place-on-item")
def test_only_the_peasants_that_did_not_move_can_be_allocated():
    """Move peasants: moved peasants may not be allocated in the same phase; the area's peasants
    that stayed still can be (allocate peasants)."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, 1)
    _own(state, nb, seat, peasants=1)
    state.lands[nb].fields = 3
    _play(state, chance, seat, {"type": "move_peasants", "from": home, "to": nb, "count": 2})
    assert state.lands[nb].peasants == 3
    _allocate(state, chance, seat, nb, "toil")  # the one that was there
    assert state.lands[nb].work == {"toil": 1}
    _illegal(state, chance, seat, {"type": "allocate", "area": nb, "work": "toil"}, match="moved")
    _illegal(state, chance, seat, {"type": "allocate", "area": nb, "work": "population"})
    # the two left at home did not move and may work
    _allocate(state, chance, seat, home, "toil", 2)
    assert state.lands[home].work == {"toil": 2}


@pytest.mark.rules("resource_hog:move peasants/carry-two")
@pytest.mark.parametrize("count, goods, ok", [
    (1, {"salt": 2}, True), (1, {"salt": 1, "weapons": 1}, True), (1, {"salt": 3}, False),
    (1, {"salt": 2, "preserved": 1}, False), (2, {"salt": 3, "weapons": 1}, True), (2, {"salt": 5}, False),
])
def test_each_moved_peasant_carries_at_most_two_goods(count, goods, ok):
    """Move peasants: up to 2 resources for each moved peasant, whatever the goods."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, 1)
    _own(state, nb, seat)
    state.lands[home].store.update(salt=6, weapons=2)
    before = dict(state.lands[home].store)
    move = {"type": "move_peasants", "from": home, "to": nb, "count": count, "goods": goods}
    if not ok:
        _illegal(state, chance, seat, move)
        return
    _play(state, chance, seat, move)
    for g, k in goods.items():
        assert state.lands[home].store[g] == before[g] - k
        assert state.lands[nb].store[g] == (20 if g == "preserved" else 0) + k


@pytest.mark.rules("resource_hog:move peasants/carry-two")
def test_peasants_cannot_carry_goods_the_area_does_not_have():
    """Move peasants: the carried goods come from the area the peasants leave."""
    state, chance, seat, home = _peasants_turn()
    nb = _step(home, 1)
    _own(state, nb, seat)
    assert state.lands[home].store["salt"] == 0
    _illegal(state, chance, seat, {"type": "move_peasants", "from": home, "to": nb, "count": 1,
                                   "goods": {"salt": 1}})


# -- allocate peasants ---------------------------------------------------------------------

@pytest.mark.rules("resource_hog:allocate peasants/place-on-item")
def test_each_peasant_is_placed_on_one_item_and_no_more_are_placed_than_there_are():
    """Allocate peasants: each allocation places one peasant on an item; four starting peasants
    fill four items and a fifth allocation is refused, as is an item that does not exist."""
    state, chance, seat, home = _peasants_turn()
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "dance"})
    _allocate(state, chance, seat, home, "toil")
    _allocate(state, chance, seat, home, "hunt")
    _allocate(state, chance, seat, home, "fish:mere")
    _allocate(state, chance, seat, home, "clear")
    assert state.lands[home].work == {"toil": 1, "hunt": 1, "fish:mere": 1, "clear": 1}
    assert state.lands[home].peasants == 4
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "toil"}, match="no peasant free")


# -- fish ----------------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:fish/sea-or-lake")
def test_fishing_is_on_the_lake_or_the_bordering_sea():
    """Fish: a peasant fishes on a sea or lake area; the house rule's map lets an area fish the
    Mere and its own sea, not the far sea, and never an empty pool."""
    state, chance, seat, home = _peasants_turn()
    far = "east_sea" if COAST[home] == "west_sea" else "west_sea"
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": f"fish:{far}"})
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": f"fish:{_step(home, 1)}"})
    _allocate(state, chance, seat, home, "fish:mere")
    _allocate(state, chance, seat, home, f"fish:{COAST[home]}")
    assert state.lands[home].work == {"fish:mere": 1, f"fish:{COAST[home]}": 1}
    state.fish["mere"] = 0
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "fish:mere"})


@pytest.mark.rules("resource_hog:fish/take-from-pool")
def test_each_fisher_takes_one_marker_from_the_pool():
    """Fish: one marker leaves the fish pool for each fishing peasant and lies on it as surplus;
    a pool of one takes one fisher only. The seas start with 8, the Mere with 5 (house rule)."""
    state, chance, seat, home = _peasants_turn()
    sea = COAST[home]
    assert state.fish[sea] == 8 and state.fish["mere"] == 5
    _allocate(state, chance, seat, home, f"fish:{sea}", 2)
    assert state.fish[sea] == 6 and state.lands[home].fresh["fish"] == 2
    state.fish["mere"] = 1
    _allocate(state, chance, seat, home, "fish:mere")
    assert state.fish["mere"] == 0 and state.lands[home].fresh["fish"] == 3
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "fish:mere"})


@pytest.mark.rules("resource_hog:fish/harbour-bonus", "resource_hog:fish/take-from-pool")
def test_a_harbour_adds_one_surplus_to_sea_fishing_only():
    """Fish: fishing on the sea from an area with a harbour places an additional surplus marker
    from the bank (the pool still loses one); fishing on the lake gets no such bonus."""
    state, chance, seat, home = _peasants_turn()
    sea = COAST[home]
    state.lands[home].buildings.append("harbour")
    _allocate(state, chance, seat, home, f"fish:{sea}")
    assert state.fish[sea] == 7 and state.lands[home].fresh["fish"] == 2
    _allocate(state, chance, seat, home, "fish:mere")
    assert state.fish["mere"] == 4 and state.lands[home].fresh["fish"] == 3


@pytest.mark.rules("resource_hog:fish/harbour-bonus")
def test_sea_fishing_without_a_harbour_gets_no_bonus():
    """Fish: without a harbour a sea fisher has only the marker from the pool."""
    state, chance, seat, home = _peasants_turn()
    _allocate(state, chance, seat, home, f"fish:{COAST[home]}")
    assert state.lands[home].fresh["fish"] == 1


# -- hunt ----------------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:hunt/forest-square", "resource_hog:hunt/game-on-peasant")
def test_every_forest_square_with_game_can_be_hunted():
    """Hunt: a peasant hunts on a forest square and takes its game marker. The starting areas
    have two forest squares, each with one game token (house rule: map), so two peasants hunt
    and a third finds no game left."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    assert (land.forests, land.game) == (2, 2)
    _allocate(state, chance, seat, home, "hunt")
    assert land.game == 1 and land.fresh["meat"] == 1
    _allocate(state, chance, seat, home, "hunt")
    assert land.game == 0 and land.fresh["meat"] == 2
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "hunt"})


@pytest.mark.rules("resource_hog:hunt/forest-square")
def test_no_hunting_without_game_on_a_forest_square():
    """Hunt: an area whose forest squares hold no game (or that has no forest) cannot hunt."""
    state, chance, seat, home = _peasants_turn()
    state.lands[home].game = 0
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "hunt"})
    state.lands[home].forests = 0
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "hunt"})


# -- toil ----------------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:toil/field-square", "resource_hog:toil/one-per-field")
def test_toil_needs_a_free_field_square():
    """Toil: a peasant toils a field square, one peasant a field; an area with two fields takes
    two toilers, one without fields none."""
    state, chance, seat, home = _peasants_turn()
    assert state.lands[home].fields == 2
    _allocate(state, chance, seat, home, "toil", 2)
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "toil"})
    nb = _step(home, 1)
    _own(state, nb, seat, peasants=2)
    state.lands[nb].fields = 0
    _illegal(state, chance, seat, {"type": "allocate", "area": nb, "work": "toil"})


@pytest.mark.rules("resource_hog:toil/grain-per-two")
@pytest.mark.parametrize("toilers, grain", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_one_grain_for_each_full_two_toilers(toilers, grain):
    """Toil: one surplus grain for each full two toiling peasants in an area."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.fields, land.peasants = 5, 5
    _allocate(state, chance, seat, home, "toil", toilers)
    assert land.fresh["grain"] == grain


@pytest.mark.rules("resource_hog:toil/mine-yield", "resource_hog:produce from mines/to-store")
def test_mine_workers_yield_two_gold_two_salt_or_one_arms():
    """Toil (mine row): a peasant on a mine takes 2 gold, 2 salt or 1 arms and armour; produce
    from mines puts them in the area's store, gold into the purse as money (house rule: gold 5
    each, so 10 money)."""
    state, chance, seat, home = _peasants_turn()
    mine = next(a for a in (_step(home, 1), _step(home, -1)) if a in ORE)
    _own(state, mine, seat, peasants=3)
    land = state.lands[mine]
    land.buildings.append("mine")
    money = state.players[seat].money
    for good in ("gold", "salt", "weapons"):
        _allocate(state, chance, seat, mine, f"mine:{good}")
    assert land.store["salt"] == 0 and land.store["weapons"] == 0  # not yet: the event moves them
    out = _events_phase(state, chance)
    [produced] = _of(out, "MinesProduced")
    assert produced.data["produced"] == {mine: {"gold": 2, "salt": 2, "weapons": 1}}
    assert land.store["salt"] == 2 and land.store["weapons"] == 1
    assert state.players[seat].money == money + 10
    assert land.peasants == 3  # well fed: nothing else took the yield


@pytest.mark.rules("resource_hog:toil/mine-yield")
def test_mine_work_needs_a_mine_and_one_of_its_three_yields():
    """Toil (mine row): only a mine can be worked, and only for gold, salt or arms and armour."""
    state, chance, seat, home = _peasants_turn()
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "mine:salt"})
    state.lands[home].buildings.append("mine")
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "mine:preserved"})
    _allocate(state, chance, seat, home, "mine:weapons")
    assert state.lands[home].work == {"mine:weapons": 1}


@pytest.mark.rules("resource_hog:produce from mines/to-store")
def test_two_salt_miners_bring_four_salt_to_the_store():
    """Produce from mines: the tokens of every mine-working peasant go to the area's store."""
    state, chance, seat, home = _peasants_turn()
    state.lands[home].buildings.append("mine")
    state.lands[home].store["salt"] = 1
    _allocate(state, chance, seat, home, "mine:salt", 2)
    _events_phase(state, chance)
    assert state.lands[home].store["salt"] == 5


# -- clear woodland ------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:clear woodland/one-per-worker")
@pytest.mark.parametrize("workers", [1, 2])
def test_each_clearing_peasant_turns_one_woodland_into_a_field(workers):
    """Clear woodland: one woodland becomes a field for each allocated worker."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    assert (land.fields, land.forests) == (2, 2)
    _allocate(state, chance, seat, home, "clear", workers)
    assert (land.fields, land.forests) == (2, 2)  # the event does the clearing
    _events_phase(state, chance)
    assert (land.fields, land.forests) == (2 + workers, 2 - workers)
    assert land.game <= 4 * land.forests  # up to 4 game a forest square (house rule map, issue 23)


@pytest.mark.rules("resource_hog:clear woodland/one-per-worker")
def test_no_more_clearers_than_woodland():
    """Clear woodland: a worker needs a woodland to clear; two forest squares take two."""
    state, chance, seat, home = _peasants_turn()
    _allocate(state, chance, seat, home, "clear", 2)
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "clear"})


# -- build and costs -----------------------------------------------------------------------

COSTS = [  # (building, buildings before, area, money, goods) from the house rules' cost table
    ("road", [], None, 5, {}),
    ("harbour", [], None, 10, {}),
    ("mine", [], "ore", 10, {}),
    ("stone_head", [], None, 5, {}),
    ("manor", [], None, 10, {"weapons": 1}),
    ("motte", ["manor"], None, 10, {}),
    ("castle", ["motte"], None, 10, {}),
]


def _build_site(state, seat, home, kind):
    if kind == "ore":
        area = next(a for a in (_step(home, 1), _step(home, -1)) if a in ORE)
        _own(state, area, seat, peasants=2)
        return area
    return home


@pytest.mark.rules("resource_hog:build/worked-built", "resource_hog:build/costs", "resource_hog:house rules/costs")
@pytest.mark.parametrize("building, before, where, money, goods", COSTS)
def test_a_worked_building_is_built_for_its_cost(building, before, where, money, goods):
    """Build: a worked building is built in the build event; house rule (costs): road 5, harbour
    10, mine 10, stone head 5, manor 10 and 1 arms and armour, motte 10, castle 10 money."""
    state, chance, seat, home = _peasants_turn()
    area = _build_site(state, seat, home, where)
    land = state.lands[area]
    land.buildings.extend(before)
    state.players[seat].money = 40
    weapons = land.store["weapons"]
    _allocate(state, chance, seat, area, f"build:{building}")
    assert building not in land.buildings  # not before the event
    out = _events_phase(state, chance)
    assert [e.data["building"] for e in _of(out, "Built")] == [building]
    assert state.players[seat].money == 40 - money
    assert land.store["weapons"] == weapons - goods.get("weapons", 0)
    if building == "stone_head":
        assert land.stone_heads == 1
    else:
        assert building in land.buildings


@pytest.mark.rules("resource_hog:build/costs", "resource_hog:house rules/costs")
@pytest.mark.parametrize("building, before, where, money, goods", COSTS)
def test_a_building_whose_money_is_short_is_not_built(building, before, where, money, goods):
    """House rule (costs): a building whose cost cannot be paid at the build event is not built;
    one money short leaves purse, store and buildings as they were. (Since issue 23 a peasant is
    allocated only to a building the seat can pay for then; here the purse shrinks afterwards,
    as spending in a later trade action would make it.)"""
    state, chance, seat, home = _peasants_turn()
    area = _build_site(state, seat, home, where)
    land = state.lands[area]
    land.buildings.extend(before)
    state.players[seat].money = money
    fields, weapons = land.fields, land.store["weapons"]
    _allocate(state, chance, seat, area, f"build:{building}")
    state.players[seat].money = money - 1
    out = _events_phase(state, chance)
    assert not _of(out, "Built") and [e.data["building"] for e in _of(out, "BuildAbandoned")] == [building]
    assert state.players[seat].money == money - 1
    assert land.buildings == before and land.stone_heads == 0 and land.fields == fields
    assert land.store["weapons"] == weapons


@pytest.mark.rules("resource_hog:build/costs", "resource_hog:house rules/costs")
def test_a_manor_needs_one_arms_and_armour_from_the_store():
    """House rule (costs): a manor costs 10 money and 1 arms and armour; with no arms and armour
    in the area it is not built and the money stays in the purse (the arms and armour left the
    area after the allocation: since issue 23 none is allocated without them)."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.store["weapons"] = 1
    _allocate(state, chance, seat, home, "build:manor")
    land.store["weapons"] = 0
    _events_phase(state, chance)
    assert "manor" not in land.buildings and state.players[seat].money == 20


@pytest.mark.rules("resource_hog:build/costs", "resource_hog:house rules/costs")
def test_the_purse_pays_for_every_building_of_the_round():
    """House rule (costs): costs come from the one purse; with 12 money a road (5) and a harbour
    (10) cannot both be paid, so exactly one is built and the purse never goes below zero (the
    purse held 15 when both were allocated)."""
    state, chance, seat, home = _peasants_turn()
    state.players[seat].money = 15
    _allocate(state, chance, seat, home, "build:road")
    _allocate(state, chance, seat, home, "build:harbour")
    state.players[seat].money = 12
    out = _events_phase(state, chance)
    built = [e.data["building"] for e in _of(out, "Built")]
    assert len(built) == 1 and len(_of(out, "BuildAbandoned")) == 1
    assert state.players[seat].money == 12 - {"road": 5, "harbour": 10}[built[0]]


@pytest.mark.rules("resource_hog:house rules/affordable-builds", "resource_hog:build/costs")
@pytest.mark.parametrize("building, before, where, money, goods", COSTS)
def test_a_peasant_is_allocated_only_to_a_building_the_seat_can_pay_for(building, before, where, money, goods):
    """House rule (docs/house-rules.md, Resource Hog: Costs): a peasant is allocated to build only
    if the purse and the area's store pay for it now, on top of the buildings already allocated
    this round. Issue 23: bots were offered builds they could not afford (about 5 abandoned in a
    4-seat game)."""
    state, chance, seat, home = _peasants_turn()
    area = _build_site(state, seat, home, where)
    land = state.lands[area]
    land.buildings.extend(before)
    state.players[seat].money = money - 1
    work = f"build:{building}"
    assert {"type": "allocate", "area": area, "work": work} not in RULES.legal_moves(state, seat)
    _illegal(state, chance, seat, {"type": "allocate", "area": area, "work": work}, match="cannot work")
    state.players[seat].money = money
    for g, k in goods.items():
        land.store[g] = k - 1
        _illegal(state, chance, seat, {"type": "allocate", "area": area, "work": work}, match="cannot work")
        land.store[g] = k
    assert {"type": "allocate", "area": area, "work": work} in RULES.legal_moves(state, seat)
    _allocate(state, chance, seat, area, work)
    out = _events_phase(state, chance)
    assert [e.data["building"] for e in _of(out, "Built")] == [building] and not _of(out, "BuildAbandoned")


@pytest.mark.rules("resource_hog:house rules/affordable-builds")
def test_buildings_allocated_this_round_count_against_the_purse():
    """House rule (Costs): with 12 money a road (5) leaves 7, so a harbour (10) is no longer
    offered, while a stone head (5) still is; with 2 more money the harbour is offered again,
    and everything allocated is built."""
    state, chance, seat, home = _peasants_turn()
    state.players[seat].money = 12
    _allocate(state, chance, seat, home, "build:road")
    offered = {m["work"] for m in RULES.legal_moves(state, seat) if m["type"] == "allocate"}
    assert "build:harbour" not in offered and "build:stone_head" in offered
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:harbour"})
    _allocate(state, chance, seat, home, "build:stone_head")  # 10 of 12 claimed
    offered = {m["work"] for m in RULES.legal_moves(state, seat) if m["type"] == "allocate"}
    assert not any(w.startswith("build:") for w in offered)
    state.players[seat].money = 25
    _allocate(state, chance, seat, home, "build:harbour")
    out = _events_phase(state, chance)
    assert not _of(out, "BuildAbandoned") and len(_of(out, "Built")) == 3 and state.players[seat].money == 5


@pytest.mark.rules("resource_hog:build/costs", "resource_hog:house rules/costs")
def test_a_mine_needs_ore():
    """House rule (costs): a mine is built in areas with ore only; L1 and L5 have none (map)."""
    state, chance, seat, home = _peasants_turn()
    assert home not in ORE
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:mine"})


@pytest.mark.rules("resource_hog:components/building-markers")
def test_no_more_harbours_than_the_six_harbour_markers():
    """resource-hog-components.md, Components: 6 harbour markers. Issue 23: all 8 coastal areas
    could build one. A harbour is offered and built only while a marker is off the map, and a
    peasant allocated to one claims its marker for the round (house rule, Costs)."""
    state, chance, seat, home = _peasants_turn()
    state.players[seat].money = 100
    next_door = _step(home, 1)
    _own(state, next_door, seat, peasants=2)
    others = [a for a in RING if state.lands[a].owner is None]
    for area in others[:5]:
        state.lands[area].buildings.append("harbour")
    assert "build:harbour" in [m["work"] for m in RULES.legal_moves(state, seat) if m["type"] == "allocate"]
    _allocate(state, chance, seat, home, "build:harbour")  # the sixth marker, claimed
    offered = [m for m in RULES.legal_moves(state, seat) if m.get("work") == "build:harbour"]
    assert offered == []
    _illegal(state, chance, seat, {"type": "allocate", "area": next_door, "work": "build:harbour"},
             match="cannot work")
    out = _events_phase(state, chance)
    assert [e.data["area"] for e in _of(out, "Built")] == [home]
    assert sum(a.buildings.count("harbour") for a in state.lands.values()) == 6


@pytest.mark.rules("resource_hog:components/building-markers")
def test_the_build_event_builds_no_building_beyond_its_markers():
    """Components: a worked building whose markers are all on the map is abandoned at the build
    event (markers set aside by hand here; a motte and its castle share their 10 markers)."""
    from services.rules.resource_hog import events

    state, _ = _game()
    land = state.lands["L1"]
    land.work = {"build:harbour": 1}
    for area in RING[2:8]:
        state.lands[area].buildings.append("harbour")
    [abandoned] = events.build(state)
    assert abandoned.type == "BuildAbandoned" and "6 harbour markers" in abandoned.data["reason"]
    for area in RING[2:7]:
        state.lands[area].buildings += ["motte", "castle"]
    assert events.markers_on_map(state, "motte") == 10 and events.markers_left(state, "motte") == 0
    assert events.markers_left(state, "castle") is None and events.markers_left(state, "stone_head") is None


@pytest.mark.rules("resource_hog:build/in-order")
def test_fortifications_are_built_in_order():
    """Build: a motte extends a manor and a castle a motte; neither can be started out of order,
    and a second fortification cannot be started beside one."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:motte"})
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:castle"})
    land.buildings.append("manor")
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:castle"})
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:manor"})
    _allocate(state, chance, seat, home, "build:motte")
    _events_phase(state, chance)
    assert "motte" in land.buildings and "manor" not in land.buildings  # the manor was extended


@pytest.mark.rules("resource_hog:build/in-order")
def test_a_castle_extends_a_motte():
    """Build: the castle replaces the motte it extends."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.buildings.append("motte")
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "build:manor"})
    _allocate(state, chance, seat, home, "build:castle")
    _events_phase(state, chance)
    assert "castle" in land.buildings and "motte" not in land.buildings and "manor" not in land.buildings


@pytest.mark.rules("resource_hog:build/stone-head-field")
def test_a_stone_head_sacrifices_a_field():
    """Build: each stone head sacrifices one of the area's fields; an area without fields cannot
    build one."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    assert land.fields == 2
    _allocate(state, chance, seat, home, "build:stone_head")
    _events_phase(state, chance)
    assert land.fields == 1 and land.stone_heads == 1
    state2, chance2, seat2, home2 = _peasants_turn()
    state2.lands[home2].fields = 0
    _illegal(state2, chance2, seat2, {"type": "allocate", "area": home2, "work": "build:stone_head"})


# -- produce nobles ------------------------------------------------------------------------

@pytest.mark.rules("resource_hog:produce nobles/one-noble", "resource_hog:produce nobles/needs-arms")
@pytest.mark.parametrize("fort", ["manor", "motte", "castle"])
def test_a_peasant_in_a_fortification_produces_a_noble_for_one_arms(fort):
    """Produce nobles: a peasant working in a manor, motte or castle produces one noble, using
    one arms and armour token."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.buildings.append(fort)
    assert (land.nobles, land.store["weapons"]) == (1, 2)
    _allocate(state, chance, seat, home, "knight")
    _events_phase(state, chance)
    assert land.nobles == 2 and land.store["weapons"] == 1


@pytest.mark.rules("resource_hog:produce nobles/one-noble")
def test_no_noble_without_a_fortification():
    """Produce nobles: only a peasant in a manor, motte or castle makes a noble."""
    state, chance, seat, home = _peasants_turn()
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "knight"})


@pytest.mark.rules("resource_hog:produce nobles/needs-arms")
def test_no_noble_without_arms_and_armour():
    """Produce nobles: a noble requires 1 arms and armour token; with none, none is made."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.buildings.append("manor")
    land.store["weapons"] = 0
    _allocate(state, chance, seat, home, "knight")
    out = _events_phase(state, chance)
    assert not _of(out, "NoblesProduced")
    assert land.nobles == 1 and land.store["weapons"] == 0


@pytest.mark.rules("resource_hog:produce nobles/one-per-area")
def test_one_noble_per_area_per_round():
    """Produce nobles: at most one peasant works for a noble in an area and only one noble is
    made there in a round; another fortified area makes its own."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.buildings.append("castle")
    _allocate(state, chance, seat, home, "knight")
    _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "knight"})
    nb = _step(home, 1)
    _own(state, nb, seat, peasants=1, nobles=0)
    state.lands[nb].buildings.append("manor")
    state.lands[nb].store["weapons"] = 1
    _allocate(state, chance, seat, nb, "knight")
    _events_phase(state, chance)
    assert land.nobles == 2 and land.store["weapons"] == 1
    assert state.lands[nb].nobles == 1 and state.lands[nb].store["weapons"] == 0


# -- population (house rule) ---------------------------------------------------------------

@pytest.mark.rules("resource_hog:house rules/population-allocation")
@pytest.mark.parametrize("allocated, peasants", [(False, 4), (True, 5)])
def test_population_grows_only_where_a_peasant_was_allocated_to_it(allocated, peasants):
    """House rule (population): spare food grows one new peasant only in an area where a peasant
    was allocated to population; the same spare food elsewhere grows nobody."""
    state, chance, seat, home = _peasants_turn()
    land = state.lands[home]
    land.store["preserved"] = 10  # 1 noble and 4 peasants eat 5; 5 are spare
    if allocated:
        _allocate(state, chance, seat, home, "population")
        _illegal(state, chance, seat, {"type": "allocate", "area": home, "work": "population"})
    out = _events_phase(state, chance)
    assert land.peasants == peasants
    assert bool(_of(out, "PopulationGrew")) == allocated
    assert land.store["preserved"] == 10 - 5 - (1 if allocated else 0)


@pytest.mark.rules("resource_hog:allocate peasants/after-moving")
def test_peasants_move_first_and_are_then_allocated():
    """Move peasants, then allocate the ones that did not move: once a peasant of the seat works,
    no peasant moves in that phase (table rows; the designer's round hints)."""
    from services.rules.core import state_hash

    state, chance = _game(2)
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    seat = state.queue[0][0]
    home = next(a for a in RING if state.lands[a].owner == seat)
    nxt = RING[(RING.index(home) + 1) % 8]
    state.lands[nxt].owner = seat
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "population"}, chance)
    before = state_hash(state)
    with pytest.raises(IllegalMove, match="move first"):
        apply(RULES, state, seat, {"type": "move_peasants", "from": home, "to": nxt, "count": 1}, chance)
    assert state_hash(state) == before
