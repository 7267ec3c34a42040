"""Resource Hog as far as it is built: secret orders, the peasants' action and the events that
need no chance (resource-hog-actions-and-events.txt; docs/house-rules.md, Resource Hog)."""

from __future__ import annotations

import pytest

from services.rules.core import IllegalMove
from services.rules.core.forward import apply, apply_phase
from services.rules.resource_hog import events
from services.rules.resource_hog.rules import ResourceHogRules

from .helpers import new_game

RULES = ResourceHogRules()


def _game(players: int = 2, seed: str = "rh"):
    return new_game(players, seed)


def _to_peasants(state, chance):
    """Give orders with peasants first for every seat; returns the seat acting first."""
    for seat in range(len(state.players)):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    return state.queue[0][0]


@pytest.mark.rules("resource_hog:house rules/orders-secret", "resource_hog:house rules/tokens-mixed")
def test_orders_stay_secret_until_all_are_given_then_the_tokens_are_mixed():
    state, chance = _game(3)
    assert RULES.to_move(state) == [0, 1, 2]
    events_ = apply(RULES, state, 1, {"type": "orders", "order": ["trade", "nobles", "peasants"]}, chance)
    assert [(e.type, e.to) for e in events_] == [("OrdersGiven", None), ("OrdersChosen", 1)]
    assert RULES.view(state, 0)["my_orders"] is None and RULES.view(state, 1)["my_orders"][0] == "trade"
    assert "trade" not in str(RULES.view(state, 0)["players"])
    apply(RULES, state, 0, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    apply(RULES, state, 2, {"type": "orders", "order": ["nobles", "trade", "peasants"]}, chance)
    assert state.stage == "actions" and state.orders["1"] == ["trade", "nobles", "peasants"]
    assert sorted(state.queue) == [[0, "peasants"], [1, "trade"], [2, "nobles"]]


@pytest.mark.rules("resource_hog:move peasants/own-land-any-distance", "resource_hog:move peasants/moved-not-allocated",
                   "resource_hog:move peasants/carry-two")
def test_moved_peasants_carry_two_goods_each_and_cannot_work_that_phase():
    state, chance = _game(2)
    seat = _to_peasants(state, chance)
    home = next(a for a, x in state.lands.items() if x.owner == seat)
    ring = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
    nxt = ring[(ring.index(home) + 1) % 8]
    state.lands[home].store["salt"] = 3
    with pytest.raises(IllegalMove):
        apply(RULES, state, seat, {"type": "move_peasants", "from": home, "to": nxt, "count": 1,
                                   "goods": {"salt": 3}}, chance)
    state.lands[nxt].owner = seat  # own the neighbour: peasants walk over own land
    apply(RULES, state, seat, {"type": "move_peasants", "from": home, "to": nxt, "count": 1,
                               "goods": {"salt": 2}}, chance)
    assert state.lands[nxt].peasants == 1 and state.lands[nxt].store["salt"] == 2
    with pytest.raises(IllegalMove, match="moved this phase"):
        apply(RULES, state, seat, {"type": "allocate", "area": nxt, "work": "toil"}, chance)
    far = ring[(ring.index(home) + 3) % 8]
    with pytest.raises(IllegalMove, match="own land"):
        apply(RULES, state, seat, {"type": "move_peasants", "from": home, "to": far, "count": 1}, chance)


@pytest.mark.rules("resource_hog:toil/grain-per-two", "resource_hog:toil/one-per-field",
                   "resource_hog:fish/take-from-pool", "resource_hog:hunt/game-on-peasant")
def test_toil_fish_and_hunt():
    state, chance = _game(2)
    seat = _to_peasants(state, chance)
    home = next(a for a, x in state.lands.items() if x.owner == seat)
    land = state.lands[home]
    land.fields, land.peasants = 2, 6
    for _ in range(2):
        apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "toil"}, chance)
    assert land.fresh["grain"] == 1  # one grain per two toiling peasants
    with pytest.raises(IllegalMove):
        apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "toil"}, chance)  # one per field
    fish = state.fish["mere"]
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "fish:mere"}, chance)
    assert state.fish["mere"] == fish - 1 and land.fresh["fish"] == 1
    game = land.game
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "hunt"}, chance)
    assert land.game == game - 1 and land.fresh["meat"] == 1


@pytest.mark.rules("resource_hog:fish growth/plus-one", "resource_hog:fish growth/plus-two-at-five",
                   "resource_hog:fish growth/plus-three-at-nine", "resource_hog:fish growth/capped",
                   "resource_hog:fish growth/empty-stays-empty", "resource_hog:game growth/plus-one",
                   "resource_hog:game growth/plus-two-at-five", "resource_hog:game growth/plus-three-at-nine",
                   "resource_hog:game growth/capped", "resource_hog:game growth/empty-stays-empty")
@pytest.mark.parametrize("n, cap, after", [(0, 12, 0), (1, 12, 2), (4, 12, 5), (5, 12, 7), (8, 12, 10),
                                           (9, 12, 12), (11, 12, 12), (9, 20, 12)])
def test_growth_of_fish_and_game(n, cap, after):
    """+1 from one, +2 from five, +3 from nine, never above the maximum, none from zero (table)."""
    assert events.growth(n, cap) == after


@pytest.mark.rules("resource_hog:game growth/plus-two-at-five", "resource_hog:game growth/plus-three-at-nine",
                   "resource_hog:fish growth/plus-three-at-nine", "resource_hog:house rules/growth-maxima")
def test_game_and_the_mere_can_grow_by_two_and_by_three():
    """Increase fish/game populations rows (resource-hog-actions-and-events.txt): +2 from five, +3
    from nine, up to the area max. House rule (docs/house-rules.md, Resource Hog: The map): a forest
    square holds up to 4 game tokens and every water up to 12 fish (the components have 80 game and
    100 fish). Issue 23: the game maximum was one a forest square (at most 3) and the Mere's 8, so
    these growths never happened."""
    from services.rules.core import Event

    state, _ = new_game(2, "rh-growth")
    big = state.lands["L2"]  # three forest squares: up to 12 game
    assert (big.forests, big.game) == (3, 3)
    big.game, state.lands["L5"].game, state.lands["L3"].game = 9, 5, 4  # L5: 2 squares, L3: 1
    state.fish["mere"] = 9
    grown = {e.type: e.data for e in events.grow(state)}
    assert grown["GameGrew"]["game"]["L2"] == 12 and grown["GameGrew"]["game"]["L5"] == 7
    assert grown["GameGrew"]["game"]["L3"] == 4  # one square: at most 4
    assert grown["FishGrew"]["fish"]["mere"] == 12
    # clearing a forest square lowers the maximum; game beyond it goes
    big.game = 12
    RULES.evolve(state, Event("WoodlandCleared", {"cleared": {"L2": 1}}))
    assert (big.forests, big.game) == (2, 8)


@pytest.mark.rules("resource_hog:hunt/forest-square", "resource_hog:house rules/growth-maxima")
def test_one_hunter_a_forest_square_however_much_game_it_holds():
    """Allocate to hunt row: a peasant hunts on a forest square; with several game tokens a square
    there is still one hunter a square (house rule, The map), so hunting yields what it did."""
    state, chance = _game()
    seat = _to_peasants(state, chance)
    home = next(a for a, x in state.lands.items() if x.owner == seat)
    land = state.lands[home]
    land.game, land.peasants = 8, 6
    for _ in range(land.forests):
        apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "hunt"}, chance)
    assert land.game == 8 - land.forests
    with pytest.raises(IllegalMove):
        apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "hunt"}, chance)


@pytest.mark.rules("resource_hog:feed/nobles-first",
                   "resource_hog:starvation/unfed-removed", "resource_hog:spoil/all-fresh-gone")
def test_a_round_feeds_nobles_first_and_starves_the_rest():
    """With food for one, the noble eats and the idle peasants starve; fresh food spoils."""
    state, chance = _game(2)
    seat = _to_peasants(state, chance)
    home = next(a for a, x in state.lands.items() if x.owner == seat)
    land = state.lands[home]
    land.store["preserved"] = 1
    for _ in range(3):
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    while state.stage == "actions":
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    apply_phase(RULES, state, chance)
    assert land.nobles == 1 and land.peasants == 0 and land.store["preserved"] == 0
    assert all(v == 0 for a in state.lands.values() for v in a.fresh.values())
