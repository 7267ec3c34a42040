"""Resource Hog: the nobles' action (moving nobles, fights and ransom) and the house rules on
orders, the mixing of the action tokens and battles against peasants only
(resource-hog-actions-and-events.txt, rows Move nobles and Fight; docs/house-rules.md,
Resource Hog: the round and Fights)."""

from __future__ import annotations

import pytest

from services.rules.core import IllegalMove, state_hash
from services.rules.core.forward import apply
from services.rules.resource_hog import nobles
from services.rules.resource_hog.rules import ResourceHogRules

from .helpers import new_game

RULES = ResourceHogRules()
START = ["L1", "L5"]
"""The starting lands of seats 0 and 1 in a two-player game (house rule map)."""
RING = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]


class _Dice:
    """A scripted source of chance: ``below(n)`` returns the scripted values in turn (then 0)."""

    def __init__(self, values):
        self.values = list(values)
        self.asked: list[int] = []

    def below(self, n):
        self.asked.append(n)
        v = self.values.pop(0) if self.values else 0
        assert 0 <= v < n
        return v

    def shuffled(self, items):
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def _dice(*faces):
    """A chance factory whose every draw comes from one script of d6 faces (1-6)."""
    script = _Dice([f - 1 for f in faces])
    factory = lambda label: script  # noqa: E731
    factory.script = script
    return factory


def _game(players: int = 2, seed: str = "rh-nobles"):
    return new_game(players, seed)


def _to_nobles(state, chance):
    """Every seat orders nobles first; returns the seat whose nobles act first."""
    for seat in range(len(state.players)):
        apply(RULES, state, seat, {"type": "orders", "order": ["nobles", "peasants", "trade"]}, chance)
    seat, action = state.queue[0]
    assert action == "nobles"
    return seat


def _home(state, seat):
    return next(a for a in RING if state.lands[a].owner == seat)


def _at(area, k):
    return RING[(RING.index(area) + k) % 8]


def _own(state, area, seat, nobles_=0, peasants=0):
    land = state.lands[area]
    land.owner, land.nobles, land.peasants = seat, nobles_, peasants
    return land


def _held_now(state, seat):
    """Take the land set up by hand as what ``seat`` held when its nobles' action began (the
    action had begun before the test changed the board; house rule, Fights)."""
    state.held = [a for a in RING if state.lands[a].owner == seat]


def _refused(state, seat, move, chance, match=None):
    before = state_hash(state)
    with pytest.raises(IllegalMove, match=match):
        apply(RULES, state, seat, move, chance)
    assert state_hash(state) == before


def _battle(attackers, defenders, faces, building=None, defender_peasants=2):
    """A state with ``attackers`` nobles of seat 0 invading L2 (seat 1's, ``defenders`` nobles),
    fought with the scripted ``faces``; returns (state, BattleFought data, dice script)."""
    state, chance = _game()
    _own(state, "L1", 0, 0, 2)
    land = _own(state, "L2", 1, defenders, defender_peasants)
    if building:
        land.buildings.append(building)
    land.invaders["0"] = attackers
    factory = _dice(*faces)
    [event] = nobles.fight(state, factory, 0, "L2")
    assert event.type == "BattleFought"
    return state, event.data, factory.script


# -- move nobles ---------------------------------------------------------------------------


@pytest.mark.rules("resource_hog:move nobles/own-land-any-distance")
def test_nobles_cross_any_number_of_own_areas():
    """Move nobles row: over the owner's own land nobles go any distance, here three borders."""
    state, chance = _game()
    for seat in range(2):  # the land is held before the action starts (house rule, Fights)
        for k in (1, 2, 3):
            if state.lands[_at(_home(state, seat), k)].owner is None:
                _own(state, _at(_home(state, seat), k), seat, 0, 1)
    seat = _to_nobles(state, chance)
    home = _home(state, seat)
    state.lands[home].nobles = 2
    events_ = apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": _at(home, 3), "count": 2},
                    chance)
    assert [e.type for e in events_] == ["NoblesMoved"] and events_[0].data["invades"] is False
    assert state.lands[_at(home, 3)].nobles == 2 and state.lands[home].nobles == 0
    assert state.players[seat].money == 20  # no goods, no fee
    # the gap: without own land in between the same target is out of reach
    state2, chance2 = _game()
    for s2 in range(2):
        _own(state2, _at(_home(state2, s2), 3), s2, 0, 1)
    seat2 = _to_nobles(state2, chance2)
    home2 = _home(state2, seat2)
    _refused(state2, seat2, {"type": "move_nobles", "from": home2, "to": _at(home2, 3), "count": 1}, chance2)


@pytest.mark.rules("resource_hog:move nobles/one-border-out")
def test_nobles_cross_one_border_beyond_own_land_and_no_more():
    """Move nobles row: one border into unowned or enemy land, never two."""
    state, chance = _game()
    seat = _to_nobles(state, chance)
    other = 1 - seat
    home = _home(state, seat)
    state.lands[home].nobles = 3
    _own(state, _at(home, -1), other, 1, 1)
    for far in (_at(home, 2), _at(home, -2)):  # two borders out, unowned or behind enemy land
        _refused(state, seat, {"type": "move_nobles", "from": home, "to": far, "count": 1}, chance,
                 match="one border")
    apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": _at(home, 1), "count": 1}, chance)
    assert state.lands[_at(home, 1)].owner == seat and state.lands[_at(home, 1)].nobles == 1
    [moved] = apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": _at(home, -1), "count": 1},
                    chance)
    assert moved.data["invades"] is True and state.lands[_at(home, -1)].invaders == {str(seat): 1}
    assert state.lands[_at(home, -1)].owner == other and state.lands[_at(home, -1)].nobles == 1
    # _at(home, 1) is own land now, but it was taken in this action: one border beyond is
    # counted from the land held when the action started (house rule, Fights), so the border
    # after it stays out of reach (before issue 23's fix this move was allowed)
    _refused(state, seat, {"type": "move_nobles", "from": home, "to": _at(home, 2), "count": 1}, chance,
             match="one border")


@pytest.mark.rules("resource_hog:move nobles/carried-goods-fee")
@pytest.mark.parametrize("good", ["preserved", "salt", "weapons"])
def test_goods_carried_with_nobles_cost_one_money_per_border(good):
    """Move nobles row: food, salt or weapons carried along cost 1 money for each border."""
    state, chance = _game()
    seat = _to_nobles(state, chance)
    home = _home(state, seat)
    state.lands[home].nobles = 2
    state.lands[home].store[good] = 3
    _own(state, _at(home, 1), seat, 0, 1)
    _held_now(state, seat)
    dst = _at(home, 2)
    [moved] = apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": dst, "count": 1,
                                         "goods": {good: 3}}, chance)
    assert moved.data["fee"] == 2 and state.players[seat].money == 18
    assert state.lands[dst].store[good] == 3 and state.lands[home].store[good] == 0
    apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": _at(home, 1), "count": 1}, chance)
    assert state.players[seat].money == 18  # nobles alone pay nothing
    state.lands[dst].store[good] = 1
    state.lands[dst].nobles += 1  # a noble there that has not moved in this action (each moves once)
    state.players[seat].money = 2
    _refused(state, seat, {"type": "move_nobles", "from": dst, "to": _at(home, -1), "count": 1,
                           "goods": {good: 1}}, chance)  # L(home-1) is 3 borders away over own land
    state.players[seat].money = 3
    apply(RULES, state, seat, {"type": "move_nobles", "from": dst, "to": _at(home, -1), "count": 1,
                               "goods": {good: 1}}, chance)
    assert state.players[seat].money == 0 and state.lands[_at(home, -1)].store[good] == 1


# -- fight: where, dice and hits ------------------------------------------------------------


@pytest.mark.rules("resource_hog:fight/where")
def test_battles_are_fought_where_nobles_entered_enemy_land_only():
    """Fight row: done fights each area the seat's nobles entered that holds enemy pieces (in ring
    order); nobles placed on own or unowned land start no battle."""
    state, chance = _game(3)
    seat = _to_nobles(state, chance)
    home = _home(state, seat)
    state.lands[home].nobles = 4
    enemy = next(s for s in range(3) if s != seat)
    _own(state, _at(home, 1), enemy, 0, 1)      # peasants only
    _own(state, _at(home, -1), enemy, 1, 0)     # nobles only
    state.players[enemy].money = 0
    for area in (_at(home, 1), _at(home, -1)):
        apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": area, "count": 1}, chance)
    events_ = apply(RULES, state, seat, {"type": "done"}, _dice(4, 1))
    began = next(e for e in events_ if e.type == "FightsBegan")
    assert began.data["areas"] == [a for a in RING if a in (_at(home, 1), _at(home, -1))]
    fought = [e.data["area"] for e in events_ if e.type == "BattleFought"]
    while state.ransom is not None:
        pay = next(nobles.ransom_choices(state))
        events_ = apply(RULES, state, state.ransom["loser"], {"type": "ransom", "pay": pay}, _dice(4, 1))
        fought += [e.data["area"] for e in events_ if e.type == "BattleFought"]
    assert fought == began.data["areas"]
    # a seat that only moves into unowned land fights no battle
    state, chance = _game()
    seat = _to_nobles(state, chance)
    home = _home(state, seat)
    apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": _at(home, 1), "count": 1}, chance)
    events_ = apply(RULES, state, seat, {"type": "done"}, chance)
    assert [e.type for e in events_][0] == "ActionDone"
    assert not any(e.type in ("FightsBegan", "BattleFought") for e in events_)


@pytest.mark.rules("resource_hog:fight/d6-per-noble", "resource_hog:fight/defender-first")
def test_each_side_throws_a_d6_per_noble_defender_first_then_alternating():
    """Fight row: one d6 per noble; the defender throws first, then the sides take turns."""
    # defender 2 nobles miss (5, 6); attacker 3 nobles: one hit (2) and two misses;
    # defender's 1 noble left misses (4); attacker's 3 hit it (1).
    state, data, script = _battle(3, 2, [5, 6, 2, 5, 6, 4, 1, 5, 5])
    assert data["rolls"] == [[5, 6], [2, 5, 6], [4], [1, 5, 5]]
    assert script.asked == [6] * 9
    assert data["winner"] == 0 and data["loser"] == 1 and data["defender"] == 1


@pytest.mark.rules("resource_hog:fight/hit-captures")
@pytest.mark.parametrize("face, hit", [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)])
def test_one_to_three_is_a_hit_that_captures_one_noble(face, hit):
    """Fight row: each 1-3 rolled is a hit capturing one enemy noble; 4-6 misses."""
    # defender (1 noble) rolls ``face`` against 1 attacker; then the attacker rolls a 1
    state, data, _ = _battle(1, 1, [face, 1])
    if hit:
        assert data["rolls"] == [[face]] and data["winner"] == 1 and data["margin"] == 1
    else:
        assert data["rolls"] == [[face], [1]] and data["winner"] == 0 and data["margin"] == 1


@pytest.mark.rules("resource_hog:fight/until-one-side", "resource_hog:fight/margin")
def test_the_battle_goes_on_until_one_side_has_no_nobles_and_the_rest_is_the_margin():
    """Fight row: throws continue until only one side has nobles; the winner's nobles left are
    the margin."""
    # 3 attackers vs 2 defenders: four throws of misses, then the defenders capture one attacker,
    # the attackers one defender, the last defender misses and the attackers capture it
    faces = [6, 6, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 1, 6, 6, 2, 6]
    state, data, script = _battle(3, 2, faces)
    assert data["rolls"] == [[6, 6], [6, 6, 6], [5, 5], [5, 4, 4], [4, 3], [1, 6], [6], [2, 6]]
    assert script.values == []  # every scripted die was needed: no stop while both sides had nobles
    assert data["winner"] == 0 and data["margin"] == 2


@pytest.mark.rules("resource_hog:fight/margin")
@pytest.mark.parametrize("attackers, defenders, faces, winner, margin", [
    (4, 1, [5, 1], 0, 4),           # the defender misses, one attacker hit takes its noble
    (1, 3, [1], 1, 3),              # the defender's first throw captures the lone attacker
    (3, 3, [1, 2, 4, 1, 1, 6], 1, 2),  # defenders capture 2, the survivor 1, defenders the last
])
def test_margin_is_the_winners_nobles_left(attackers, defenders, faces, winner, margin):
    """Fight row: the number of the winner's nobles left standing is the winning margin."""
    state, data, _ = _battle(attackers, defenders, faces + [1] * 20)
    assert data["winner"] == winner and data["margin"] == margin


@pytest.mark.rules("resource_hog:fight/fortification")
@pytest.mark.parametrize("building, cut", [(None, 0), ("manor", 1), ("motte", 2), ("castle", 3)])
def test_a_losing_defender_takes_one_two_or_three_off_the_margin(building, cut):
    """Fight row: a losing defender subtracts 1, 2 or 3 from the margin for a manor, motte or
    castle in the area."""
    state, data, _ = _battle(5, 1, [6, 1], building)
    assert data["winner"] == 0 and data["margin"] == 5 - cut


@pytest.mark.rules("resource_hog:fight/fortification")
def test_fortification_never_cuts_a_winning_defenders_margin():
    """Fight row: the subtraction applies only when the defender loses."""
    state, data, _ = _battle(1, 3, [1], "castle")
    assert data["winner"] == 1 and data["margin"] == 3


# -- fight: ransom, played through apply --------------------------------------------------------


def _invasion(attackers=1, defenders=1, defender_peasants=2, money=(20, 20)):
    """Seat ``a`` (acting first) invades the next area, seat ``d``'s; returns state, a, d, target."""
    state, chance = _game()
    a = _to_nobles(state, chance)
    d = 1 - a
    home = _home(state, a)
    state.lands[home].nobles = attackers
    target = _at(home, 1)
    _own(state, target, d, defenders, defender_peasants)
    state.players[a].money, state.players[d].money = money
    apply(RULES, state, a, {"type": "move_nobles", "from": home, "to": target, "count": attackers}, chance)
    return state, chance, a, d, home, target


@pytest.mark.rules("resource_hog:fight/ransom-owed", "resource_hog:fight/ransom-units")
@pytest.mark.parametrize("kind, amount", [("money", 10), ("salt", 2), ("weapons", 1), ("preserved", 1),
                                          ("peasants", 1)])
def test_the_loser_owes_ransom_each_unit_ten_money_two_salt_or_one_weapon_food_or_peasant(kind, amount):
    """Fight row: the loser gives the winner ransom: 10 money, 2 salt, 1 weapon, 1 preserved food or
    1 peasant per unit of margin, as the loser chooses."""
    state, chance, a, d, home, target = _invasion(2, 1, 3, money=(0, 30))
    land = state.lands[target]
    land.store.update({"salt": 4, "weapons": 2, "preserved": 2})
    # defender misses, attackers capture its noble with one hit; margin 2 (no fortification)
    events_ = apply(RULES, state, a, {"type": "done"}, _dice(6, 1, 6))
    fought = next(e for e in events_ if e.type == "BattleFought").data
    assert (fought["winner"], fought["loser"], fought["margin"]) == (a, d, 2)
    assert RULES.to_move(state) == [d]
    _refused(state, d, {"type": "done"}, chance)  # the ransom comes first
    _refused(state, d, {"type": "ransom", "pay": {kind: 1}}, chance)  # 1 unit short of 2
    _refused(state, d, {"type": "ransom", "pay": {kind: 3}}, chance)  # more than the margin
    at_home = state.lands[home].store[kind] if kind in land.store else None
    before = {"money": state.players[d].money, "peasants": land.peasants, **{g: land.store[g] for g in
                                                                          ("salt", "weapons", "preserved")}}
    won = state.players[a].money
    events_ = apply(RULES, state, d, {"type": "ransom", "pay": {kind: 2}}, chance)
    assert next(e for e in events_ if e.type == "RansomPaid").data["full"] is True
    after = state.players[d].money if kind == "money" else (
        land.peasants if kind == "peasants" else land.store[kind])
    assert before[kind] - after == 2 * amount
    if kind == "money":
        assert state.players[a].money == won + 20
    elif kind == "peasants":
        assert state.lands[home].peasants == 4 + 2  # the ransomed peasants serve the winner at home
    else:
        assert state.lands[home].store[kind] == at_home + 2 * amount  # to the winner's land next door
    assert state.ransom is None and land.owner == d  # paid in full: the defender keeps the area


@pytest.mark.rules("resource_hog:fight/ransom-units")
def test_ransom_may_mix_kinds_chosen_by_the_loser():
    """Fight row: the loser chooses the kinds, unit by unit (here 1 unit of money, 1 of salt)."""
    state, chance, a, d, home, target = _invasion(2, 1, 0, money=(0, 15))
    state.lands[target].store["salt"] = 3
    apply(RULES, state, a, {"type": "done"}, _dice(6, 1, 6))
    choices = list(nobles.ransom_choices(state))
    assert {"money": 1, "salt": 1} in choices and {"money": 2} not in choices and {"salt": 2} not in choices
    apply(RULES, state, d, {"type": "ransom", "pay": {"money": 1, "salt": 1}}, chance)
    assert state.players[d].money == 5 and state.players[a].money == 10
    assert state.lands[target].store["salt"] == 1


@pytest.mark.rules("resource_hog:fight/goods-from-area")
def test_ransom_goods_come_from_the_area_of_conflict():
    """Fight row: goods and peasants paid as ransom must be in the area fought over, not elsewhere;
    money comes from the purse."""
    state, chance, a, d, home, target = _invasion(1, 1, 0, money=(20, 0))
    elsewhere = START[d]
    state.lands[elsewhere].store.update({"salt": 6, "weapons": 3, "preserved": 3})
    state.lands[target].store["preserved"] = 1
    apply(RULES, state, a, {"type": "done"}, _dice(6, 1))
    assert state.ransom["margin"] == 1 and state.ransom["loser"] == d
    for kind in ("salt", "weapons", "peasants"):
        _refused(state, d, {"type": "ransom", "pay": {kind: 1}}, chance)
    apply(RULES, state, d, {"type": "ransom", "pay": {"preserved": 1}}, chance)
    assert state.lands[target].store["preserved"] == 0 and state.lands[elsewhere].store["salt"] == 6


@pytest.mark.rules("resource_hog:fight/goods-from-area", "resource_hog:fight/cannot-pay")
def test_a_losing_attacker_pays_money_only_and_goes_home():
    """Fight row: the attacker has no goods in the area fought over, so it pays in money; a loser who
    cannot pay it all pays what it can."""
    state, chance, a, d, home, target = _invasion(1, 2, 1, money=(25, 0))
    state.lands[home].store.update({"salt": 6, "preserved": 3})
    apply(RULES, state, a, {"type": "done"}, _dice(1))  # the defender's first die captures the attacker
    assert state.ransom == {"area": target, "attacker": a, "winner": d, "loser": a, "margin": 2}
    assert list(nobles.ransom_choices(state)) == [{"money": 2}]
    _refused(state, a, {"type": "ransom", "pay": {"money": 1, "salt": 1}}, chance)
    apply(RULES, state, a, {"type": "ransom", "pay": {"money": 2}}, chance)
    assert state.players[a].money == 5 and state.players[d].money == 20
    assert state.lands[home].nobles == 1 and state.lands[target].invaders == {}


@pytest.mark.rules("resource_hog:fight/cannot-pay")
def test_a_loser_who_cannot_pay_pays_all_and_its_nobles_leave():
    """Fight row: a loser short of the ransom pays everything it can and moves its nobles out of
    the area of conflict (here the defender; the attacker takes the area)."""
    state, chance, a, d, home, target = _invasion(4, 1, 1, money=(0, 12))
    state.lands[target].store["salt"] = 3
    beyond = _at(target, 1)
    _own(state, beyond, d, 0, 1)
    apply(RULES, state, a, {"type": "done"}, _dice(6, 1, 6, 6, 6))
    assert state.ransom["margin"] == 4 and state.ransom["loser"] == d
    assert list(nobles.ransom_choices(state)) == [{"money": 1, "salt": 1, "peasants": 1}]
    _refused(state, d, {"type": "ransom", "pay": {"money": 1, "salt": 1}}, chance)  # all it can
    events_ = apply(RULES, state, d, {"type": "ransom", "pay": {"money": 1, "salt": 1, "peasants": 1}}, chance)
    settled = next(e for e in events_ if e.type == "BattleSettled").data
    assert settled["takes"] is True and settled["defenders_to"] == beyond
    assert state.players[d].money == 2 and state.players[a].money == 10
    assert state.lands[beyond].nobles == 1  # the defender's noble moved out
    land = state.lands[target]
    assert land.owner == a and land.nobles == 4 and land.store["salt"] == 1


@pytest.mark.rules("resource_hog:fight/captured-returned")
def test_captured_nobles_go_back_to_their_owners_after_the_battle():
    """Fight row: captured nobles are returned after the battle: the winning defender keeps all its
    nobles, and every attacking noble goes home, captured or not."""
    state, chance, a, d, home, target = _invasion(3, 3, 1, money=(30, 0))
    # defenders capture 1 (3); attackers capture 2 (1, 2); the last defender captures 1 (1), the
    # last attacker misses (6), the defender captures it (1): the defender wins with 1 of 3 left
    events_ = apply(RULES, state, a, {"type": "done"}, _dice(3, 6, 6, 1, 2, 1, 6, 1))
    fought = next(e for e in events_ if e.type == "BattleFought").data
    assert fought["rolls"] == [[3, 6, 6], [1, 2], [1], [6], [1]] and fought["winner"] == d
    assert fought["margin"] == 1
    apply(RULES, state, a, {"type": "ransom", "pay": {"money": 1}}, chance)
    assert state.lands[target].nobles == 3 and state.lands[target].owner == d
    assert state.lands[home].nobles == 3 and state.lands[target].invaders == {}


@pytest.mark.rules("resource_hog:fight/attackers-not-defending", "resource_hog:house rules/round-is-the-turn")
def test_nobles_that_attacked_do_not_defend_their_home_that_round():
    """Fight row: nobles that attacked do not take part as defenders in the turn they attacked:
    moved out of their land, they are not counted among its defenders, and after their battle
    they do not defend when an enemy attacks later in the round."""
    state, chance = _game()
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["nobles", "peasants", "trade"]}, chance)
    a, b = state.queue[0][0], state.queue[1][0]
    home = _home(state, a)
    state.lands[home].nobles = 2
    target = _at(home, 1)
    _own(state, target, b, 1, 1)
    # a pays its ransom in full, so its noble goes home (one that could not pay would have to
    # move away from home: fight row, the loser who cannot pay)
    state.players[a].money, state.players[b].money = 10, 0
    apply(RULES, state, a, {"type": "move_nobles", "from": home, "to": target, "count": 1}, chance)
    assert state.lands[home].nobles == 1  # the attacker is not at home to defend
    apply(RULES, state, a, {"type": "done"}, _dice(6, 4, 6, 4, 6, 4, 6, 4, 1))  # b's noble wins
    assert state.ransom["loser"] == a and state.ransom["margin"] == 1
    apply(RULES, state, a, {"type": "ransom", "pay": {"money": 1}}, chance)
    assert RULES.to_move(state) == [b] and state.lands[home].nobles == 2
    # b now attacks a's home with 1 noble: only the noble that stayed defends
    state.lands[target].nobles = 1
    apply(RULES, state, b, {"type": "move_nobles", "from": target, "to": home, "count": 1}, chance)
    events_ = apply(RULES, state, b, {"type": "done"}, _dice(*[6] * 20))
    fought = next(e for e in events_ if e.type == "BattleFought").data
    assert len(fought["rolls"][0]) == 1  # one defending die, not two


# -- house rules: fights -------------------------------------------------------------------------


@pytest.mark.rules("resource_hog:house rules/peasants-only-lose")
def test_a_side_with_only_peasants_loses_at_once():
    """House rule (Fights): a defender with no nobles loses without a throw; the margin is the
    attacker's nobles."""
    state, data, script = _battle(3, 0, [1, 1, 1], defender_peasants=4)
    assert data["rolls"] == [] and script.asked == []
    assert data["winner"] == 0 and data["loser"] == 1 and data["margin"] == 3


@pytest.mark.rules("resource_hog:house rules/area-changes-hands", "resource_hog:house rules/peasants-only-lose")
def test_a_defender_left_without_nobles_loses_the_area_and_its_peasants():
    """House rule (Fights): a defender who lost with no nobles keeps its peasants, who now serve the
    winner: the area and its peasants change hands, even when the ransom is paid in full."""
    state, chance, a, d, home, target = _invasion(2, 0, 3, money=(0, 50))
    events_ = apply(RULES, state, a, {"type": "done"}, _dice())
    fought = next(e for e in events_ if e.type == "BattleFought").data
    assert fought["rolls"] == [] and fought["winner"] == a and fought["margin"] == 2
    apply(RULES, state, d, {"type": "ransom", "pay": {"money": 2}}, chance)
    land = state.lands[target]
    assert state.players[d].money == 30 and state.players[a].money == 20
    assert land.owner == a and land.nobles == 2 and land.peasants == 3
    assert land.invaders == {}


@pytest.mark.rules("resource_hog:house rules/area-changes-hands")
def test_a_defender_who_cannot_pay_and_has_no_nobles_loses_the_area():
    """House rule (Fights): the peasants left in the area pass to the winner with it."""
    state, chance, a, d, home, target = _invasion(3, 0, 2, money=(0, 0))
    apply(RULES, state, a, {"type": "done"}, _dice())
    assert list(nobles.ransom_choices(state)) == [{"peasants": 2}]
    apply(RULES, state, d, {"type": "ransom", "pay": {"peasants": 2}}, chance)
    land = state.lands[target]
    assert land.owner == a and land.nobles == 3 and land.peasants == 0


# -- house rules: orders and the mixing of tokens -----------------------------------------------


@pytest.mark.rules("resource_hog:house rules/orders-secret")
def test_orders_are_secret_until_all_are_given_and_then_revealed_together():
    """House rule (the round): each seat orders its three tokens in secret; all are revealed
    together once the last seat has ordered."""
    state, chance = _game(3)
    _refused(state, 0, {"type": "done"}, chance)
    _refused(state, 0, {"type": "orders", "order": ["nobles", "nobles", "trade"]}, chance)
    events_ = apply(RULES, state, 2, {"type": "orders", "order": ["trade", "peasants", "nobles"]}, chance)
    chosen = next(e for e in events_ if e.type == "OrdersChosen")
    assert chosen.to == 2 and all("order" not in e.data for e in events_ if e.to is None)
    assert state.orders == {} and state.stage == "orders"
    assert RULES.view(state, 1)["my_orders"] is None and RULES.view(state, None)["my_orders"] is None
    assert RULES.view(state, 2)["my_orders"] == ["trade", "peasants", "nobles"]
    assert "secret" not in RULES.view(state, 1)
    _refused(state, 2, {"type": "orders", "order": ["nobles", "peasants", "trade"]}, chance)  # once only
    guessed = RULES.determinise(state, 0, "x").secret["orders"]
    assert list(guessed) == ["2"]  # a bot of seat 0 sees only that seat 2 has ordered
    apply(RULES, state, 0, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    assert state.orders == {}
    events_ = apply(RULES, state, 1, {"type": "orders", "order": ["nobles", "trade", "peasants"]}, chance)
    revealed = next(e for e in events_ if e.type == "OrdersRevealed")
    assert revealed.to is None and revealed.data["orders"] == {
        "0": ["peasants", "nobles", "trade"], "1": ["nobles", "trade", "peasants"],
        "2": ["trade", "peasants", "nobles"]}
    assert state.secret["orders"] == {} and state.stage == "actions"


@pytest.mark.rules("resource_hog:house rules/tokens-mixed")
def test_each_steps_tokens_are_mixed_by_chance_and_resolved_in_that_order():
    """House rule (the round): the first tokens of all seats are mixed by chance and resolved in
    the mixed order; then the second tokens, then the third."""
    state, chance = _game(3)
    orders = {0: ["peasants", "nobles", "trade"], 1: ["nobles", "trade", "peasants"],
              2: ["trade", "peasants", "nobles"]}
    for seat in (0, 1):
        apply(RULES, state, seat, {"type": "orders", "order": orders[seat]}, chance)
    # a chance that always draws 0 turns [a, b, c] into [b, c, a] (Fisher-Yates)
    events_ = apply(RULES, state, 2, {"type": "orders", "order": orders[2]}, _dice(1, 1, 1, 1))
    mixed = next(e for e in events_ if e.type == "TokensMixed").data
    assert mixed == {"step": 0, "queue": [[1, "nobles"], [2, "trade"], [0, "peasants"]]}
    assert RULES.to_move(state) == [1]
    _refused(state, 0, {"type": "done"}, chance)  # seat 0 waits for its turn in the mixed order
    apply(RULES, state, 1, {"type": "done"}, chance)
    assert RULES.to_move(state) == [2]
    apply(RULES, state, 2, {"type": "done"}, chance)
    events_ = apply(RULES, state, 0, {"type": "done"}, _dice(2, 1))  # draws 1 then 0: [a, b, c] -> [c, a, b]
    mixed = next(e for e in events_ if e.type == "TokensMixed").data
    assert mixed == {"step": 1, "queue": [[2, "peasants"], [0, "nobles"], [1, "trade"]]}  # the second tokens
    assert state.queue == mixed["queue"] and RULES.to_move(state) == [2]
    # different seeds mix differently: the order really comes from chance
    queues = set()
    for seed in ("a", "b", "c", "d", "e", "f", "g", "h"):
        s, c = _game(3, seed)
        for seat in range(3):
            apply(RULES, s, seat, {"type": "orders", "order": orders[seat]}, c)
        queues.add(tuple(seat for seat, _ in s.queue))
    assert len(queues) > 1


@pytest.mark.rules("resource_hog:house rules/invaders-carry-nothing")
def test_invading_nobles_carry_no_goods():
    """House rule: goods go with nobles over own land and into unowned land, never into an enemy's."""
    from services.rules.resource_hog.nobles import check_move

    state, _ = _game(2)
    home = next(a for a, x in state.lands.items() if x.owner == 0)
    ring = ["L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8"]
    nxt = ring[(ring.index(home) + 1) % 8]
    state.lands[home].store["salt"] = 2
    state.lands[nxt].owner, state.lands[nxt].peasants = 1, 1
    with pytest.raises(IllegalMove, match="carry no goods"):
        check_move(state, 0, {"type": "move_nobles", "from": home, "to": nxt, "count": 1, "goods": {"salt": 1}})
    check_move(state, 0, {"type": "move_nobles", "from": home, "to": nxt, "count": 1, "goods": {}})
    state.lands[nxt].owner, state.lands[nxt].peasants = None, 0
    check_move(state, 0, {"type": "move_nobles", "from": home, "to": nxt, "count": 1, "goods": {"salt": 1}})


@pytest.mark.rules("resource_hog:house rules/noble-moves-once", "resource_hog:move nobles/one-border-out")
def test_a_noble_moves_once_an_action_so_it_cannot_march_border_by_border():
    """House rule: a noble that moved cannot move again in the same action; so a noble cannot
    take empty land after empty land and then invade (table: one border beyond own land)."""
    state, chance = _game(2)
    seat = _to_nobles(state, chance)
    home = _home(state, seat)
    nxt = _at(home, 1)
    apply(RULES, state, seat, {"type": "move_nobles", "from": home, "to": nxt, "count": 1, "goods": {}}, chance)
    assert state.lands[nxt].owner == seat
    before = state_hash(state)
    with pytest.raises(IllegalMove, match="once an action"):
        apply(RULES, state, seat, {"type": "move_nobles", "from": nxt, "to": _at(home, 2), "count": 1, "goods": {}},
              chance)
    assert state_hash(state) == before


@pytest.mark.rules("resource_hog:house rules/ransom-destination")
def test_ransom_peasants_leave_free_ones_first_and_reach_the_winners_nearest_land():
    """House rule: peasants paid as ransom are free ones first, then workers (their work undone),
    and go to the winner's own land nearest the area of conflict."""
    from services.rules.core import Event

    state, _ = _game(2)
    area = _home(state, 0)
    far = _at(area, 3)
    for a in state.lands.values():
        if a.owner == 1:
            a.owner, a.peasants, a.nobles = None, 0, 0
    state.lands[far].owner, state.lands[far].peasants = 1, 1
    land = state.lands[area]
    land.peasants, land.work = 3, {"toil": 1, "hunt": 1}
    state.ransom = {"area": area, "attacker": 1, "winner": 1, "loser": 0, "margin": 2}
    RULES.evolve(state, Event("RansomPaid", {"loser": 0, "winner": 1, "area": area, "pay": {"peasants": 2},
                                             "full": True}))
    assert land.peasants == 1 and sum(land.work.values()) == 1  # one free peasant, then one worker
    assert state.lands[far].peasants == 3


def test_goods_are_not_shipped_to_the_area_they_are_in():
    """Table, sell: goods move to another area."""
    from services.rules.resource_hog import trade

    state, _ = _game(2)
    area = _home(state, 0)
    with pytest.raises(IllegalMove):
        trade.check(state, 0, {"type": "ship", "good": "weapons", "count": 1, "from": area, "to": area})


# -- a losing attacker that cannot pay (issue 23) -----------------------------------------------


def _unpaid_attack(seed="p2d"):
    """The issue's reproduction: seat 0 holds L1 with 2 nobles and no money, seat 1 holds L2 with
    3 nobles; both order nobles first; seat 0 moves both nobles into L2 and the defender's dice
    1, 1, 4 capture both (margin 3). Returns (state, chance) with seat 0 owing the ransom."""
    state, chance = _game(2, seed)
    _to_nobles(state, chance)
    _own(state, "L1", 0, 2, 4)
    _own(state, "L2", 1, 3, 1)
    state.players[0].money = 0
    while RULES.to_move(state) != [0]:  # seat 1 acts first: it does nothing
        apply(RULES, state, 1, {"type": "done"}, chance)
    apply(RULES, state, 0, {"type": "move_nobles", "from": "L1", "to": "L2", "count": 2}, chance)
    assert state.lands["L2"].invaded_from == {"0": ["L1"]}
    events_ = apply(RULES, state, 0, {"type": "done"}, _dice(1, 1, 4))
    fought = next(e for e in events_ if e.type == "BattleFought").data
    assert (fought["winner"], fought["loser"], fought["margin"]) == (1, 0, 3)
    return state, chance


@pytest.mark.rules("resource_hog:fight/cannot-pay", "resource_hog:house rules/unpaid-attacker-moves-away")
def test_a_losing_attacker_who_cannot_pay_moves_its_nobles_out_of_the_area_it_attacked_from():
    """Fight row (resource-hog-actions-and-events.txt): a loser short of the ransom moves its
    nobles away, and the attacker may thus have to leave the area it attacked from. House rule
    (docs/house-rules.md, Resource Hog: Fights): they go to the attacker's nearest other land;
    with none they are lost. Before the fix they went back to L1 and the attack cost nothing."""
    state, chance = _unpaid_attack()
    assert list(nobles.ransom_choices(state)) == [{}]
    events_ = apply(RULES, state, 0, {"type": "ransom", "pay": {}}, chance)
    paid = next(e for e in events_ if e.type == "RansomPaid").data
    settled = next(e for e in events_ if e.type == "BattleSettled").data
    assert paid["full"] is False and settled["attackers_to"] is None  # seat 0 has no other land
    assert state.lands["L1"].nobles == 0 and state.lands["L1"].owner == 0  # its peasants stay
    assert state.lands["L2"].invaders == {} and state.lands["L2"].invaded_from == {}
    assert state.lands["L2"].owner == 1 and state.lands["L2"].nobles == 3
    # with other land the nobles go there, the nearest first, never back to L1
    state, chance = _unpaid_attack()
    _own(state, "L7", 0, 0, 1)
    apply(RULES, state, 0, {"type": "ransom", "pay": {}}, chance)
    assert state.lands["L7"].nobles == 2 and state.lands["L1"].nobles == 0


@pytest.mark.rules("resource_hog:fight/cannot-pay", "resource_hog:house rules/unpaid-attacker-moves-away")
def test_a_losing_attacker_who_pays_in_full_goes_back_where_it_came_from():
    """Fight row: only a loser who cannot pay moves away; an attacker that pays the whole ransom
    goes home to its nearest land, the area it attacked from (house rule, Fights)."""
    state, chance = _unpaid_attack()
    state.players[0].money = 30
    state.ransom["margin"] = 3
    apply(RULES, state, 0, {"type": "ransom", "pay": {"money": 3}}, chance)
    assert state.lands["L1"].nobles == 2 and state.players[0].money == 0


@pytest.mark.rules("resource_hog:move nobles/one-border-out", "resource_hog:house rules/one-border-from-start")
def test_land_taken_earlier_in_an_action_is_no_way_through_for_later_nobles():
    """Move nobles row (resource-hog-actions-and-events.txt): one border beyond own land. House
    rule (docs/house-rules.md, Resource Hog: Fights): counted from the land held when the action
    starts. Issue 23: 3 nobles of L1 reached L2, L3 and L4 in one action, each walking over the
    land the one before had just taken."""
    state, chance = _game(2, "p2d")
    _own(state, "L5", None, 0, 0)  # seat 1 holds L6 instead: L2-L4 lie open
    _own(state, "L6", 1, 1, 4)
    _own(state, "L1", 0, 3, 4)
    _to_nobles(state, chance)
    while RULES.to_move(state) != [0]:
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    assert state.held == ["L1"]
    apply(RULES, state, 0, {"type": "move_nobles", "from": "L1", "to": "L2", "count": 1}, chance)
    assert state.lands["L2"].owner == 0 and state.held == ["L1"]
    for far in ("L3", "L4"):
        _refused(state, 0, {"type": "move_nobles", "from": "L1", "to": far, "count": 1}, chance, match="one border")
    legal = {m["to"] for m in RULES.legal_moves(state, 0) if m["type"] == "move_nobles"}
    assert legal == {"L2", "L8"}
    apply(RULES, state, 0, {"type": "move_nobles", "from": "L1", "to": "L2", "count": 1}, chance)
    assert state.lands["L2"].nobles == 2 and state.lands["L3"].owner is None
    # land held from the start is still a way through: from L1 over L8-L7 (held) one beyond
    state2, chance2 = _game(2, "p2d")
    _own(state2, "L1", 0, 1, 4)
    _own(state2, "L8", 0, 1, 1)
    _to_nobles(state2, chance2)
    while RULES.to_move(state2) != [0]:
        apply(RULES, state2, RULES.to_move(state2)[0], {"type": "done"}, chance2)
    assert state2.held == ["L1", "L8"]
    apply(RULES, state2, 0, {"type": "move_nobles", "from": "L1", "to": "L7", "count": 1}, chance2)
    assert state2.lands["L7"].owner == 0
