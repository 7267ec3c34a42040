"""Resource Hog: no seat has more than 50 peasants and nobles on the map (resource-hog-components.md,
Components (variant version): 50 peasant/noble markers per player), on every path by which a seat
gains one: population growth (table: population increases), produce nobles, slaves and
mercenaries bought (house rule), and peasants won in a fight, as ransom or with an area taken
(house rule of docs/house-rules.md, Resource Hog: the 50 markers).

Each test builds a game near the limit and shows the path stopping at 50; the numbers are the
components page's, not the engine's content file.
"""

from __future__ import annotations

import pytest

from services.rules.core import Event, GameConfig, state_hash
from services.rules.core.forward import apply, apply_phase
from services.rules.resource_hog import events
from services.rules.resource_hog.rules import ResourceHogRules
from services.rules.resource_hog.state import pieces, room

from .helpers import RING, new_game, refused, run_step

RULES = ResourceHogRules()
MARKERS = 50
"""Peasant/noble markers per player (resource-hog-components.md, Components)."""
LIMIT = "resource_hog:components/pieces-per-player"
LEAVES = "resource_hog:house rules/no-room-leaves-map"


def _own(state, area: str, seat: int, peasants: int = 0, nobles: int = 0, **store: int):
    """Give ``seat`` ``area`` with these pieces and goods (ownership: house rule)."""
    land = state.lands[area]
    land.owner, land.peasants, land.nobles = seat, peasants, nobles
    land.store.update(store)
    return land


def _fill(state, seat: int, total: int, area: str) -> None:
    """Add peasants to ``area`` (``seat``'s) until ``seat`` has ``total`` pieces on the map."""
    state.lands[area].peasants += total - pieces(state, seat)
    assert pieces(state, seat) == total



class _Faces:
    """Scripted chance: every draw gives the next d6 face of ``faces`` (then 1s)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def below(self, n):
        return self.faces.pop(0) - 1 if self.faces else 0

    def __call__(self, label):
        return self



# -- population ------------------------------------------------------------------------------


def _growing(total: int):
    """Seat 0 holds L1 and L2, each with a peasant on population and food to spare, and ``total``
    pieces on the map; seat 1 (L5) grows too."""
    state, _ = new_game(2, "rh-limit")
    for area in ("L1", "L2"):
        _own(state, area, 0, peasants=1, preserved=60).work = {"population": 1}
    state.lands["L1"].nobles = 1
    _fill(state, 0, total, "L1")
    home1 = state.lands["L5"]
    home1.work, home1.store["preserved"] = {"population": 1}, 20
    return state


@pytest.mark.rules(LIMIT, "resource_hog:population/extra-food-peasant")
def test_population_grows_only_while_the_seat_has_room_counting_in_map_order():
    """At 49 pieces only the first area in map order (L1) grows; L2 has spare food and a peasant on
    population but no room left, so it grows nobody and keeps its food. Another seat's room is
    its own (seat 1 grows)."""
    state = _growing(MARKERS - 1)
    l2_food = state.lands["L2"].store["preserved"]
    data = run_step(state, events.feed)
    assert data["PopulationGrew"]["grew"] == {"L1": "preserved", "L5": "preserved"}
    assert pieces(state, 0) == MARKERS and room(state, 0) == 0
    assert state.lands["L2"].store["preserved"] == l2_food - state.lands["L2"].peasants  # eaten, none grown


@pytest.mark.rules(LIMIT, "resource_hog:population/extra-food-peasant")
def test_no_population_grows_for_a_seat_with_fifty_pieces():
    """At 50 pieces no area of the seat grows; with room for two, both grow (the check is the room,
    not the allocation)."""
    state = _growing(MARKERS)
    data = run_step(state, events.feed)
    assert data["PopulationGrew"]["grew"] == {"L5": "preserved"} and pieces(state, 0) == MARKERS
    state = _growing(MARKERS - 2)
    data = run_step(state, events.feed)
    assert data["PopulationGrew"]["grew"] == {"L1": "preserved", "L2": "preserved", "L5": "preserved"}
    assert pieces(state, 0) == MARKERS


# -- produce nobles --------------------------------------------------------------------------


def _knighting(total: int):
    """Seat 0 holds L1 (manor) and L2 (castle), each with a peasant knighting and 2 arms and
    armour, and ``total`` pieces on the map."""
    state, _ = new_game(2, "rh-limit")
    for area, fort in (("L1", "manor"), ("L2", "castle")):
        land = _own(state, area, 0, peasants=1, weapons=2)
        land.buildings.append(fort)
        land.work = {"knight": 1}
    _fill(state, 0, total, "L1")
    return state


@pytest.mark.rules(LIMIT, "resource_hog:produce nobles/one-noble", "resource_hog:produce nobles/needs-arms")
def test_a_noble_is_made_only_while_the_seat_has_room_and_no_arms_are_spent_without():
    """At 49 pieces L1 makes a noble for one arms and armour; L2, later in map order, has no room:
    no noble, its arms and armour stay."""
    state = _knighting(MARKERS - 1)
    data = run_step(state, events.produce_nobles)
    assert data["NoblesProduced"]["areas"] == ["L1"]
    assert (state.lands["L1"].nobles, state.lands["L1"].store["weapons"]) == (1, 1)
    assert (state.lands["L2"].nobles, state.lands["L2"].store["weapons"]) == (0, 2)
    assert pieces(state, 0) == MARKERS


@pytest.mark.rules(LIMIT, "resource_hog:produce nobles/one-noble")
def test_no_noble_for_a_seat_with_fifty_pieces():
    state = _knighting(MARKERS)
    assert run_step(state, events.produce_nobles) == {}
    assert state.lands["L1"].store["weapons"] == 2 and state.lands["L2"].store["weapons"] == 2
    assert pieces(state, 0) == MARKERS


def _round_events(total: int) -> tuple[bool, bool, int]:
    """A round in which the first seat to act, with ``total`` pieces, puts a peasant on knighting
    (its home has a manor and arms and armour) and one on population (food to spare); returns
    whether the events phase made a noble there, whether a peasant grew there, and the seat's
    pieces after it."""
    state, chance = new_game(2, "rh-limit")
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["peasants", "nobles", "trade"]}, chance)
    seat = state.queue[0][0]
    home = next(a for a in RING if state.lands[a].owner == seat)
    land = state.lands[home]
    land.buildings.append("manor")
    land.store["preserved"] = 80
    _fill(state, seat, total, home)
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "knight"}, chance)
    apply(RULES, state, seat, {"type": "allocate", "area": home, "work": "population"}, chance)
    while state.stage == "actions":
        apply(RULES, state, RULES.to_move(state)[0], {"type": "done"}, chance)
    out = apply_phase(RULES, state, chance)
    noble = any(home in e.data["areas"] for e in out if e.type == "NoblesProduced")
    grew = any(home in e.data["grew"] for e in out if e.type == "PopulationGrew")
    return noble, grew, pieces(state, seat)


@pytest.mark.rules(LIMIT, "resource_hog:produce nobles/one-noble", "resource_hog:population/extra-food-peasant")
def test_the_round_events_share_the_room_nobles_first():
    """Through the whole events phase: produce nobles comes before population (table order), so a
    noble made takes the room a new peasant would need: at 48 pieces both come (50); at 49 the
    noble comes and the peasant does not (50)."""
    assert _round_events(MARKERS - 2) == (True, True, MARKERS)
    assert _round_events(MARKERS - 1) == (True, False, MARKERS)


# -- slaves and mercenaries -------------------------------------------------------------------


def _trading(total: int):
    """Seat acting first in a trade phase, with a harbour at home, 100 money, 3 slaves and 3
    mercenaries on offer, and ``total`` pieces on the map."""
    state, chance = new_game(2, "rh-limit")
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["trade", "peasants", "nobles"]}, chance)
    seat = state.queue[0][0]
    home = next(a for a in RING if state.lands[a].owner == seat)
    state.lands[home].buildings.append("harbour")
    state.players[seat].money = 100
    state.slave_track, state.mercenary_track = 3, 3
    _fill(state, seat, total, home)
    return state, chance, seat, home


def _buys(state, seat):
    return [m for m in RULES.legal_moves(state, seat) if m["type"] == "buy" and m["good"] in ("slave", "mercenary")]


@pytest.mark.rules(LIMIT, "resource_hog:house rules/slaves-and-mercenaries")
@pytest.mark.parametrize("good", ["slave", "mercenary"])
def test_slaves_and_mercenaries_are_bought_only_up_to_the_room(good):
    """At 49 pieces: buying 2 is refused, saying why, and changes nothing; buying 1 is accepted
    (it becomes a peasant or a noble); at 50 the legal moves offer none and the check refuses 1."""
    state, chance, seat, home = _trading(MARKERS - 1)
    assert {m["good"] for m in _buys(state, seat)} == {"slave", "mercenary"}
    refused(state, seat, {"type": "buy", "good": good, "count": 2, "to": home}, chance,
             match=r"you have 49 of your 50 peasant/noble markers on the map, so room for 1 more, not 2")
    apply(RULES, state, seat, {"type": "buy", "good": good, "count": 1, "to": home}, chance)
    assert pieces(state, seat) == MARKERS and room(state, seat) == 0
    assert _buys(state, seat) == []
    for other in ("slave", "mercenary"):
        refused(state, seat, {"type": "buy", "good": other, "count": 1, "to": home}, chance,
                 match="room for 0 more, not 1")


# -- fights: ransom and an area taken (house rule) --------------------------------------------


def _won_battle(attackers: int, defender_nobles: int, defender_peasants: int, total: int, money: int = 0):
    """Seat ``a`` (acting first in a nobles' phase) invades its ring neighbour, seat ``d``'s, with
    ``attackers`` nobles and ``total`` pieces on the map, and wins (scripted dice); returns
    ``state, chance, a, d, home, target`` with the ransom awaiting ``d``'s choice."""
    state, chance = new_game(2, "rh-limit")
    for seat in range(2):
        apply(RULES, state, seat, {"type": "orders", "order": ["nobles", "peasants", "trade"]}, chance)
    a = state.queue[0][0]
    d = 1 - a
    home = next(x for x in RING if state.lands[x].owner == a)
    target = RING[(RING.index(home) + 1) % 8]
    state.lands[home].nobles = attackers
    _own(state, target, d, peasants=defender_peasants, nobles=defender_nobles)
    state.players[d].money = money
    _fill(state, a, total, home)
    apply(RULES, state, a, {"type": "move_nobles", "from": home, "to": target, "count": attackers}, chance)
    assert pieces(state, a) == total  # invaders are still the attacker's pieces on the map
    # the defenders all miss (6), then every attacker's die hits (1): the attacker wins with all
    apply(RULES, state, a, {"type": "done"}, _Faces([6] * defender_nobles))
    assert state.ransom is not None and state.ransom["winner"] == a
    return state, chance, a, d, home, target


@pytest.mark.rules(LIMIT, LEAVES, "resource_hog:house rules/ransom-destination")
def test_ransom_peasants_beyond_the_winners_room_leave_the_map():
    """The defender (one noble, beaten) pays 2 units of ransom in peasants to an attacker with 49
    pieces: it loses both, one reaches the attacker's home and one leaves the map; the event says
    so (``left_map``). The defender paid in full and keeps the area."""
    state, chance, a, d, home, target = _won_battle(2, 1, 4, MARKERS - 1)
    assert state.ransom["margin"] == 2
    at_home = state.lands[home].peasants
    out = apply(RULES, state, d, {"type": "ransom", "pay": {"peasants": 2}}, chance)
    paid = next(e for e in out if e.type == "RansomPaid").data
    assert paid["full"] is True and paid["left_map"] == 1
    assert state.lands[target].peasants == 2 and state.lands[target].owner == d
    assert state.lands[home].peasants == at_home + 1
    assert pieces(state, a) == MARKERS


@pytest.mark.rules(LIMIT, LEAVES, "resource_hog:house rules/area-changes-hands")
def test_an_area_taken_keeps_only_the_peasants_the_winner_has_room_for():
    """A defender with peasants only pays in money and loses the area (house rule); the attacker,
    at 47 pieces with its 3 invading nobles, keeps 3 of the area's 5 peasants, the rest leave the
    map (``left_map`` on ``BattleSettled``)."""
    state, chance, a, d, home, target = _won_battle(3, 0, 5, MARKERS - 3, money=30)
    out = apply(RULES, state, d, {"type": "ransom", "pay": {"money": 3}}, chance)
    settled = next(e for e in out if e.type == "BattleSettled").data
    assert settled["takes"] is True and settled["left_map"] == 2
    land = state.lands[target]
    assert (land.owner, land.nobles, land.peasants) == (a, 3, 3)
    assert pieces(state, a) == MARKERS


@pytest.mark.rules(LIMIT, LEAVES, "resource_hog:house rules/area-changes-hands",
                   "resource_hog:house rules/ransom-destination")
def test_the_ransom_takes_the_room_first_then_the_area_taken():
    """A defender with peasants only pays 2 units in peasants and loses the area with its other 3
    (house rule): the attacker at 49 pieces places 1 paid peasant at home, 1 leaves the map, and
    so do the 3 left in the area, which stays the attacker's with its nobles."""
    state, chance, a, d, home, target = _won_battle(2, 0, 5, MARKERS - 1)
    at_home = state.lands[home].peasants
    out = apply(RULES, state, d, {"type": "ransom", "pay": {"peasants": 2}}, chance)
    paid = next(e for e in out if e.type == "RansomPaid").data
    settled = next(e for e in out if e.type == "BattleSettled").data
    assert paid["left_map"] == 1 and settled["takes"] is True and settled["left_map"] == 3
    land = state.lands[target]
    assert (land.owner, land.nobles, land.peasants) == (a, 2, 0)
    assert state.lands[home].peasants == at_home + 1
    assert pieces(state, a) == MARKERS


@pytest.mark.rules(LIMIT, LEAVES)
def test_without_room_nothing_is_gained_and_with_room_the_events_are_as_before():
    """At 50 pieces an attacker taking an area with 4 peasants keeps none of them; with room to
    spare the events carry no ``left_map`` (the log of a game below the limit is unchanged)."""
    state, chance, a, d, home, target = _won_battle(2, 0, 4, MARKERS, money=20)
    out = apply(RULES, state, d, {"type": "ransom", "pay": {"money": 2}}, chance)
    assert next(e for e in out if e.type == "BattleSettled").data["left_map"] == 4
    land = state.lands[target]
    assert (land.owner, land.nobles, land.peasants, land.work) == (a, 2, 0, {})
    assert pieces(state, a) == MARKERS
    state, chance, a, d, home, target = _won_battle(2, 0, 4, 10, money=20)
    out = apply(RULES, state, d, {"type": "ransom", "pay": {"money": 2}}, chance)
    assert all("left_map" not in e.data for e in out)
    assert state.lands[target].peasants == 4 and pieces(state, a) == 14


@pytest.mark.rules(LEAVES)
def test_evolve_applies_the_recorded_count_and_does_not_recount():
    """Replaying a log rebuilds the state: ``left_map`` is applied as recorded, whatever the room
    of the state it is applied to (here a winner with 1 piece, room to spare): free peasants
    leave first, then workers."""
    state, _ = new_game(2, "rh-limit")
    for x in state.lands.values():
        if x.owner == 1:
            x.owner, x.peasants, x.nobles = None, 0, 0
    _own(state, "L4", 1, peasants=1)  # seat 1's land nearest L1 (house rule: ransom destination)
    area = state.lands["L1"]
    area.peasants, area.nobles, area.work = 6, 0, {"toil": 1, "hunt": 1}
    area.invaders = {"1": 1}
    state.ransom = {"area": "L1", "attacker": 1, "winner": 1, "loser": 0, "margin": 3}
    RULES.evolve(state, Event("RansomPaid", {"loser": 0, "winner": 1, "area": "L1", "pay": {"peasants": 3},
                                             "full": True, "left_map": 2}))
    assert area.peasants == 3 and state.lands["L4"].peasants == 2  # 3 paid, 1 placed
    RULES.evolve(state, Event("BattleSettled", {"area": "L1", "attacker": 1, "takes": True, "attackers_to": None,
                                                "defenders_to": None, "left_map": 2}))
    assert (area.owner, area.nobles, area.peasants, area.work) == (1, 1, 1, {"hunt": 1})


# -- whole games near the limit ----------------------------------------------------------------


def _near_limit_game(index: int):
    """Seeded game ``index`` (2-4 players) in which every seat starts with 44 pieces, a harbour and
    a manor at home, food, arms and armour and money, and slaves and mercenaries on offer, played
    by random legal moves that favour growing, buying pieces and fighting; the invariant of the
    fuzz tests (no seat over 50 pieces among them) is checked after every step. Returns the start
    state, the events and the final state."""
    import random

    from services.rules.core.forward import chance_from, start

    from tests.fuzz.test_resource_hog_fuzz import resource_hog_invariant

    rng, chance = random.Random(f"near-limit-{index}"), chance_from(f"near-limit-{index}")
    state, _ = start(RULES, GameConfig(game="resource_hog", players=2 + index % 3), chance)
    for land in state.lands.values():
        if land.owner is not None:
            land.nobles, land.peasants = 3, MARKERS - 6 - 3
            land.store.update(preserved=90, weapons=10)
            land.buildings += ["harbour", "manor"]
    state.slaves, state.slave_track, state.mercenary_track = 1, 3, 6  # the stack of 4 (house rule)
    for p in state.players:
        p.money = 80
    first = RULES.copy(state)
    log = []
    while RULES.outcome(state) is None:
        if RULES.pending_phase(state):
            log += apply_phase(RULES, state, chance)
        else:
            seat = RULES.to_move(state)[0]
            moves = RULES.legal_moves(state, seat)
            growing = [m for m in moves if m.get("work") in ("population", "knight") or m["type"] == "move_nobles"
                       or (m["type"] == "buy" and m.get("good") in ("slave", "mercenary"))]  # a sale shrinks
            log += apply(RULES, state, seat, rng.choice(growing if growing and rng.random() < 0.8 else moves), chance)
        resource_hog_invariant(state)
    return first, log, state


@pytest.mark.rules(LIMIT, LEAVES)
@pytest.mark.parametrize("index", range(6))
def test_games_started_near_the_limit_never_pass_it_and_replay_from_their_log(index):
    """Whole games near the limit reach it and keep every seat at 50 pieces or fewer on every
    path at once; the same seed and moves give the same log byte for byte, and the log evolved on
    the start state gives the same state (evolve applies what the events record)."""
    from services.rules.core.events import events_to_json

    first, log, state = _near_limit_game(index)
    _, again, _ = _near_limit_game(index)
    assert events_to_json(again) == events_to_json(log)
    most = 0
    for e in log:
        RULES.evolve(first, e)
        most = max(most, *(pieces(first, p.seat) for p in first.players))
    assert most == MARKERS
    assert state_hash(first) == state_hash(state)
