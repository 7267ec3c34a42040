"""The Resource Hog bots' war sense (:mod:`services.bots.resource_hog.military`) and what the
expert does with it: the odds of a battle against the engine's own dice, taking an area no noble
defends, guarding a valuable area another seat can reach, and the fortification chain
(``resource-hog-actions-and-events.txt``, rows Move nobles and Fight; ``docs/house-rules.md``,
Resource Hog: Fights and Length and winner)."""

from __future__ import annotations

import math

import pytest

from services.bots.resource_hog import expert, military
from services.rules.core import GameConfig
from services.rules.core.forward import apply, chance_from, start
from services.rules.resource_hog import GAME as RULES
from services.rules.resource_hog import nobles

from .test_policies import play


def test_one_noble_against_one_wins_a_third_of_the_time():
    """Table, fight: the defender throws first; each throw hits on 1-3 (one in two). With one
    noble each the attacker wins only if the defender misses and the attacker then hits before
    the defender does: x = 1/2 * y, y = 1/2 + 1/2 * x, so x = 1/3."""
    assert math.isclose(military.win_chance(1, 1), 1 / 3)
    assert military.win_chance(0, 1) == 0.0 and military.win_chance(1, 0) == 1.0
    assert military.win_chance(3, 1) > military.win_chance(2, 1) > military.win_chance(1, 1) > military.win_chance(1, 2)


@pytest.mark.parametrize("attackers, defenders", [(2, 1), (1, 2), (2, 2), (3, 2)])
def test_the_odds_match_the_engines_own_battles(attackers, defenders):
    """The chance :func:`military.win_chance` gives is the share of battles the engine's fight
    (``nobles.fight``, its own seeded dice) lets the attacker win, within 4 standard errors over
    2,000 seeded battles."""
    chance = chance_from("odds")
    state, _ = start(RULES, GameConfig(game="resource_hog", players=2), chance)
    area = "L3"
    land = state.lands[area]
    land.owner, land.peasants, land.nobles = 1, 1, defenders
    land.invaders = {"0": attackers}
    n, wins = 2000, 0
    for i in range(n):
        [battle] = nobles.fight(state, chance_from(f"odds:{attackers}:{defenders}:{i}"), 0, area)
        wins += battle.data["winner"] == 0
    p = military.win_chance(attackers, defenders)
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n), (wins / n, p)


def _nobles_turn(seed: str = "rh-war"):
    """A 2-seat game at seat 0's first nobles' action (every seat ordered nobles first)."""
    chance = chance_from(seed)
    state, _ = start(RULES, GameConfig(game="resource_hog", players=2), chance)
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["nobles", "peasants", "trade"]}, chance)
    if RULES.to_move(state)[0] != 0:
        apply(RULES, state, 1, {"type": "done"}, chance)
    return state, chance


def _enemy_next_door(state, peasants: int, defending: int) -> str:
    """Seat 1 holds L2 (next to seat 0's L1) with ``peasants`` and ``defending`` nobles."""
    land = state.lands["L2"]
    land.owner, land.peasants, land.nobles = 1, peasants, defending
    return "L2"


def test_the_expert_takes_an_area_no_noble_defends():
    """House rules (a side with no nobles loses at once; the area changes hands): an area of
    another seat next to the expert's land, worth taking and with no noble, is taken with one
    noble (a sure win) while another noble stays home."""
    state, _ = _nobles_turn()
    area = _enemy_next_door(state, peasants=6, defending=0)
    state.lands["L1"].nobles = 2  # one stays home
    legal = RULES.legal_moves(state, 0)
    move = expert.nobles_move(state, 0, legal)
    assert move is not None and move["type"] == "move_nobles" and move["to"] == area and move["count"] == 1


def test_the_expert_does_not_attack_a_defended_area():
    """A defended area is no sure win (a third at one noble against one): the expert leaves it."""
    state, _ = _nobles_turn()
    area = _enemy_next_door(state, peasants=6, defending=1)
    move = expert.nobles_move(state, 0, RULES.legal_moves(state, 0))
    assert move is None or move.get("to") != area


def test_the_expert_guards_a_valuable_area_another_seat_can_reach():
    """Its mine next to another seat's land and without a noble is exposed (worth taking and
    within one border of that seat's nobles): the expert moves a noble into it."""
    state, _ = _nobles_turn()
    mine = state.lands["L8"]
    mine.owner, mine.peasants, mine.buildings, mine.gold, mine.ore = 0, 3, ["mine"], 10, True
    enemy = state.lands["L7"]
    enemy.owner, enemy.peasants, enemy.nobles = 1, 2, 1
    assert military.exposed(state, 0, "L8")
    move = expert.nobles_move(state, 0, RULES.legal_moves(state, 0))
    assert move is not None and move["to"] == "L8" and move["from"] == "L1"


def test_experts_fight_fortify_and_trade_in_three_seat_games():
    """Over a few seeded 3-seat games of experts: battles are fought, the fortification chain is
    built to a castle, a harbour is built, and a building is built in the last round where its
    count pays for its cost (house rule, Length and winner)."""
    seen = {"fight": 0, "castle": 0, "harbour": 0}
    for i in range(4):
        _, events = play(["expert"] * 3, f"rh-expert-3-{i}")
        seen["fight"] += sum(e.type == "BattleFought" for e in events)
        built = [e.data["building"] for e in events if e.type == "Built"]
        seen["castle"] += built.count("castle")
        seen["harbour"] += built.count("harbour")
    assert all(seen.values()), seen
