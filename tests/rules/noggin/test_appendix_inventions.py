"""Appendix, Inventions: the abilities of the eleven Invention cards (and the four without one)."""

import pytest

from services.rules.core import IllegalMove
from services.rules.core.errors import MalformedMove
from services.rules.noggin import content
from services.rules.noggin.board import capacity
from services.rules.noggin.scoring import final_breakdown

from .helpers import (RULES, give, legal, normal_turn, own_invention, points, put_invention, put_reserve, run,
                      run_phase, scenario, types)


def _turn(season=2, seat=0, positions=None):
    return scenario(3, season=season, seat=seat, positions=positions)


def _to_phase(s, season):
    """Markers just past the Nog Moon of ``season``: the Change of Season is pending."""
    base = 10 * season
    normal_turn(s, 0, [base, base + 2, base + 3, base + 4])
    s.season = season
    s.active = None
    return s


# -- Cupola Clock --------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/cupola-clock")
def test_cupola_clock_ends_the_turn_one_space_back():
    """Appendix (house rule cupola-clock-not-last): once per season the owner ends the turn and
    then moves the Step marker back one space, provided it is free and the marker is not then
    last; the next turn starts as usual. The Nog is laid down for the season."""
    s = _turn(positions=[10, 11, 15, 16])
    own_invention(s, 0, "cupola_clock")
    run(s, 0, {"type": "fisherman", "draws": 3})  # marker on 13: between 11 and 15
    assert s.markers[0].pos == 13 and s.active == 0
    events = run(s, 0, {"type": "end_turn", "cupola_clock": True})
    ended = next(e for e in events if e.type == "TurnEnded").data
    assert ended["to"] == 12 and ended["clock"] is True and s.markers[0].pos == 12
    assert "cupola_clock" in s.players[0].used and RULES.to_move(s) == [1]
    # once per season
    normal_turn(s, 0, [13, 11, 15, 16])
    with pytest.raises(IllegalMove, match="once per season"):
        RULES.check(s, 0, {"type": "end_turn", "cupola_clock": True})
    RULES.check(s, 0, {"type": "end_turn"})


@pytest.mark.rules("noggin:appendix inventions/cupola-clock")
@pytest.mark.parametrize("positions, draws", [([10, 12, 15, 16], 3), ([10, 11, 15, 16], 2)])
def test_cupola_clock_refused_onto_a_taken_space(positions, draws):
    """Appendix: the step back needs a free space, and the marker may not fall back level with
    (or behind) the last one: ending on 13 with a marker on 12, or on 12 with the last on 11."""
    s = _turn(positions=positions)
    own_invention(s, 0, "cupola_clock")
    run(s, 0, {"type": "fisherman", "draws": draws})
    with pytest.raises(IllegalMove, match="taken, or you would be last"):
        RULES.check(s, 0, {"type": "end_turn", "cupola_clock": True})


@pytest.mark.rules("noggin:appendix inventions/cupola-clock")
def test_cupola_clock_refused_while_the_marker_is_last():
    """Appendix: a marker in last place must act (4.2 A) and may not use the Clock."""
    s = _turn()
    own_invention(s, 0, "cupola_clock")
    with pytest.raises(IllegalMove, match="strictly last"):
        RULES.check(s, 0, {"type": "end_turn", "cupola_clock": True})
    assert {"type": "end_turn", "cupola_clock": True} not in legal(s, 0)


# -- EcoNogology ---------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/econogology")
@pytest.mark.parametrize("ending, scored", [(3, 3), (7, 3), (1, 0), (4, 0)])
def test_econogology_scores_three_when_winter_begins(ending, scored):
    """Appendix: the owner of EcoNogology scores 3 in Winter, automatically: at the Change of
    Season into Winter of either year, and at no other."""
    s = _to_phase(scenario(3), ending)
    s.crow = 8
    own_invention(s, 1, "econogology")
    events = run_phase(s)
    assert points(events, 1, "econogology") == scored and points(events, 0, "econogology") == 0


# -- Fire Machine --------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/fire-machine")
def test_fire_machine_winner_takes_the_forge_token_for_one_more_wood():
    """Appendix and 6.5 (house rule amb6-forge-to-fire-machine): completing the Fire Machine
    gives its winner the Forge token; the wood cart then carries 3 Wood (5 upgraded) with the
    Woodcutter: clearings 0 and 1 (1 and 2 trees) both cut in full, then the cart is full."""
    s = _turn()
    put_invention(s, 0, "fire_machine")  # olaf, stone, stone, wood
    give(s, 0, fish=1, stone=2, wood=1)
    for cond, pay in ((0, "fish"), (1, "stone"), (2, "stone")):
        run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": cond, "pay": [pay]})
    events = run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 3, "pay": ["wood"]})
    done = next(e for e in events if e.type == "InventionCompleted").data
    p = s.players[0]
    assert done["winner"] == 0 and done["forge"] is True and p.forge is True
    assert capacity(p, "wood_cart") == 3
    p.transports.append("wood_cart")
    assert capacity(p, "wood_cart") == 5
    p.transports.remove("wood_cart")
    run(s, 0, {"type": "finish"})
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    assert s.action.cart == {"wood": 3}
    with pytest.raises(IllegalMove, match="wood cart is full"):
        RULES.check(s, 0, {"type": "woodcutter", "op": "advance"})
    run(s, 0, {"type": "finish"})
    assert p.stock["wood"] == 3
    # without the token the same walk brings 2
    t = _turn()
    run(t, 0, {"type": "woodcutter", "op": "advance"})
    run(t, 0, {"type": "woodcutter", "op": "advance"})
    assert t.action.cart == {"wood": 2}


# -- Flying Boat ---------------------------------------------------------------------------

def _olaf_on_invention():
    """Olaf recruited onto Invention 0 on a Market Day by seat 0; Saga 0 asks for Olaf."""
    s = _turn()
    put_invention(s, 0, "potion")
    put_reserve(s, 0, ["olaf", "wood", "wood"], deck="B", card="B08")
    give(s, 0, fish=2)
    run(s, 0, {"type": "market_day", "op": "invention", "invention": 0, "condition": 0, "pay": ["fish"]})
    run(s, 0, {"type": "finish"})
    own_invention(s, 0, "flying_boat")
    assert s.characters["olaf"] == "invention:0"
    return s


BOAT = {"type": "use", "card": "flying_boat", "character": "olaf", "to": "saga", "slot": 0, "condition": 0,
        "nog": True, "pay": ["fish"]}


@pytest.mark.rules("noggin:appendix inventions/flying-boat", "noggin:appendix inventions/flying-boat-leaves-card-met")
def test_flying_boat_moves_a_character_to_another_card_for_one_food():
    """Appendix (house rule flying-boat-fulfils): for 1 Food, as a free action (no Step, no
    action Nog), Olaf flies from an Invention to the Saga card that asks for him and meets
    that condition (the Food on its icon, a Nog placed); the Invention he leaves keeps its
    condition met."""
    s = _olaf_on_invention()
    p = s.players[0]
    pos, placed, mountains = s.markers[0].pos, dict(p.placed), p.mountains
    events = run(s, 0, BOAT)
    assert types(events) == ["CharacterMoved", "SagaConditionMet"]
    met = events[1].data
    assert (met["need"], met["paid"], met["nog"], met["market_day"]) == ("olaf", "fish", 1, False)
    assert s.characters["olaf"] == "saga:0" and s.sagas[0].current.met[0]["seat"] == 0
    assert p.stock["fish"] == 0 and s.markers[0].pos == pos and p.placed == placed
    assert p.mountains == mountains - 1  # the Nog on the Saga card
    # the card he left still has his condition met
    assert s.inventions[0].met[0] is not None and s.inventions[0].met[0]["seat"] == 0


@pytest.mark.rules("noggin:appendix inventions/flying-boat")
def test_flying_boat_needs_food_another_card_and_no_action_under_way():
    """Appendix: the Flying Boat costs 1 Food, takes the character to another card, and is a
    free action: not while an action is being carried out."""
    s = _olaf_on_invention()
    p = s.players[0]
    p.stock["fish"] = 0
    with pytest.raises(IllegalMove, match="do not have 1 fish"):
        RULES.check(s, 0, BOAT)
    give(s, 0, fish=1)
    with pytest.raises(IllegalMove, match="to another card"):
        RULES.check(s, 0, {**BOAT, "to": "invention", "slot": 0, "condition": 0})
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    with pytest.raises(IllegalMove, match="finish your woodcutter action first"):
        RULES.check(s, 0, BOAT)
    run(s, 0, {"type": "finish"})
    RULES.check(s, 0, BOAT)


# -- abilities none --------------------------------------------------------------------------

@pytest.mark.parametrize("card", [
    pytest.param("firecake", marks=pytest.mark.rules("noggin:appendix inventions/firecake")),
    pytest.param("grottophoneum", marks=pytest.mark.rules("noggin:appendix inventions/grottophoneum")),
    pytest.param("trouser_press", marks=pytest.mark.rules("noggin:appendix inventions/trouser-press")),
    pytest.param("weather_balloon", marks=pytest.mark.rules("noggin:appendix inventions/weather-balloon")),
])
def test_inventions_without_an_ability(card):
    """Appendix (and 6.5: 3 conditions, no ability): owning this Invention adds no move at all
    and a ``use`` of it is refused; it still counts for the Invention ranking (9.0)."""
    info = content.invention_index()[card]
    assert info.ability is False and len(info.needs) == 3
    s = _turn()
    before = legal(s, 0)
    own_invention(s, 0, card)
    assert legal(s, 0) == before
    with pytest.raises(MalformedMove, match="use.card"):
        RULES.parse_move({"type": "use", "card": card})
    assert final_breakdown(s)[0]["inventions"] == 40


# -- Heated Storkery -----------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/heated-storkery")
def test_heated_storkery_gives_two_harvest_once_per_turn_in_spring():
    """Appendix (house rule storkery-free-action): in Spring the owner takes 2 Harvest from the
    Nog Market as a free action, once per turn: again only in a later turn."""
    s = _turn(season=1, positions=[0, 1, 5, 6])
    own_invention(s, 0, "heated_storkery")
    p = s.players[0]
    market = s.market["harvest"]
    events = run(s, 0, {"type": "use", "card": "heated_storkery"})
    assert events[0].data["once"] == "turn"
    assert p.stock["harvest"] == 2 and s.market["harvest"] == market - 2 and s.markers[0].pos == 0
    with pytest.raises(IllegalMove, match="already used this turn"):
        RULES.check(s, 0, {"type": "use", "card": "heated_storkery"})
    run(s, 0, {"type": "fisherman", "draws": 2})
    run(s, 0, {"type": "end_turn"})
    assert p.turn_used == []
    normal_turn(s, 0, [2, 3, 5, 6])
    run(s, 0, {"type": "use", "card": "heated_storkery"})
    assert p.stock["harvest"] == 4


@pytest.mark.rules("noggin:appendix inventions/heated-storkery")
@pytest.mark.parametrize("season", [2, 3, 4, 6])
def test_heated_storkery_gives_nothing_outside_spring(season):
    """Appendix: the Heated Storkery gives Harvest in Spring only."""
    s = _turn(season=season)
    own_invention(s, 0, "heated_storkery")
    with pytest.raises(IllegalMove, match="in Spring"):
        RULES.check(s, 0, {"type": "use", "card": "heated_storkery"})


# -- Hnefetfl ------------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/hnefetfl")
@pytest.mark.parametrize("steps", [1, 2])
def test_hnefetfl_spends_steps_for_as_many_points_once_per_turn(steps):
    """Appendix: once per turn the owner spends 1 or 2 Steps on the Step track for 1 or 2 points."""
    s = _turn()
    own_invention(s, 0, "hnefetfl")
    events = run(s, 0, {"type": "use", "card": "hnefetfl", "steps": steps})
    assert points(events, 0, "hnefetfl") == steps and s.players[0].score == steps
    assert s.markers[0].pos == 10 + steps
    with pytest.raises(IllegalMove, match="already used this turn"):
        RULES.check(s, 0, {"type": "use", "card": "hnefetfl", "steps": 1})


@pytest.mark.rules("noggin:appendix inventions/hnefetfl")
def test_hnefetfl_steps_obey_the_nine_step_limit():
    """Appendix with 4.2: Hnefetfl's Steps count like any other: none may reach the Runestone."""
    s = _turn(positions=[18, 10, 16, 17])
    s.runestone = 10
    own_invention(s, 0, "hnefetfl")
    with pytest.raises(IllegalMove, match="may not reach the Runestone"):
        RULES.check(s, 0, {"type": "use", "card": "hnefetfl", "steps": 2})
    RULES.check(s, 0, {"type": "use", "card": "hnefetfl", "steps": 1})


# -- Potion --------------------------------------------------------------------------------

@pytest.mark.rules("noggin:appendix inventions/potion")
def test_potion_copies_a_farm_resource_once_a_season():
    """Appendix: once per season the owner takes from the Nog Market, free, a resource like one
    in the Farm; not one the Farm lacks, and only with room to store it."""
    s = _turn()
    own_invention(s, 0, "potion")
    p = s.players[0]
    give(s, 0, stone=1)
    with pytest.raises(IllegalMove, match="copies a resource you have"):
        RULES.check(s, 0, {"type": "use", "card": "potion", "resource": "harvest"})
    market = s.market["stone"]
    run(s, 0, {"type": "use", "card": "potion", "resource": "stone"})
    assert p.stock["stone"] == 2 and s.market["stone"] == market - 1 and s.markers[0].pos == 10
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "potion", "resource": "stone"})
    t = _turn()
    own_invention(t, 0, "potion")
    give(t, 0, stone=6)
    with pytest.raises(IllegalMove, match="no room"):
        RULES.check(t, 0, {"type": "use", "card": "potion", "resource": "stone"})
