"""Contributing to an Invention: Olaf, a Nog per condition, who takes the card, the others'
points, abilities once per season and on the owner's turn (rulebook 6.5, appendix)."""

import json

import pytest

from services.rules.core import IllegalMove, NotYourTurn
from services.rules.core.errors import MalformedMove
from services.rules.noggin import board, content

from .helpers import RULES, give, legal, own_invention, points, put_invention, run, run_phase, scenario, types


def inv_move(condition, pay, invention=0):
    return {"type": "market_day", "op": "invention", "invention": invention, "condition": condition, "pay": pay}


def premet(state, slot, condition, seat, paid):
    """Condition ``condition`` of Invention ``slot`` met earlier by ``seat`` with its Nog."""
    inv = state.inventions[slot]
    at = sum(1 for m in inv.met if m is not None)
    inv.met[condition] = {"seat": seat, "paid": paid, "at": at}
    if inv.first is None:
        inv.first = seat
    state.players[seat].mountains -= 1
    if inv.needs[condition] == "olaf":
        state.characters["olaf"] = f"invention:{slot}"


# -- the cards ---------------------------------------------------------------------------------------

@pytest.mark.rules("noggin:6.5/olaf-required", "noggin:6.5/three-or-four")
def test_every_invention_asks_for_olaf_and_three_or_four_conditions():
    """6.5: Olaf is needed for every Invention; an Invention has 3 conditions (no ability) or
    4 (an ability, appendix); the content loader refuses a card that breaks either."""
    cards = content.load().inventions.inventions
    assert len(cards) == 11 and all(c.needs[0] == "olaf" for c in cards)
    assert all(len(c.needs) == (4 if c.ability else 3) for c in cards)
    no_ability = {"firecake", "grottophoneum", "trouser_press", "weather_balloon"}  # appendix
    assert {c.id for c in cards if len(c.needs) == 3} == no_ability
    raw = json.loads((content.CONTENT_DIR / "inventions.json").read_text(encoding="utf-8"))
    card = raw["inventions"][0]
    with pytest.raises(ValueError, match="Olaf, then resources"):
        content.InventionCard.model_validate({**card, "needs": ["stone", "wood", "harvest", "fish"]})
    with pytest.raises(ValueError, match="4 conditions with an ability, 3 without"):
        content.InventionCard.model_validate({**card, "needs": ["olaf", "stone", "wood"], "ability": True})
    content.InventionCard.model_validate(card)


@pytest.mark.rules("noggin:6.5/olaf-required")
def test_olaf_away_from_the_castle_cannot_be_recruited_and_the_invention_waits_for_him():
    """6.5: without Olaf (here on a Saga) his condition cannot be met, and every resource on
    the card does not complete it."""
    s = scenario(3)
    put_invention(s, 0, "grottophoneum")  # Olaf, Stone, Stone
    give(s, 0, stone=2, fish=1)
    s.characters["olaf"] = "saga:1"
    with pytest.raises(IllegalMove, match="Olaf must be in Noggin's Castle"):
        RULES.check(s, 0, inv_move(0, ["fish"]))
    run(s, 0, inv_move(1, ["stone"]))
    events = run(s, 0, inv_move(2, ["stone"]))
    assert "InventionCompleted" not in types(events) and s.inventions[0] is not None
    assert s.inventions[0].met[0] is None and s.players[0].inventions == []


@pytest.mark.rules("noggin:6.5/character-food")
def test_olaf_costs_one_food():
    """6.5: a character condition (Olaf) is met with 1 Food, Fish or Harvest; Olaf goes on the card."""
    s = scenario(3)
    put_invention(s, 0, "potion")
    give(s, 0, stone=1, harvest=1)
    with pytest.raises(IllegalMove, match="do not pay that condition \\(food\\)"):
        RULES.check(s, 0, inv_move(0, ["stone"]))
    run(s, 0, inv_move(0, ["harvest"]))
    assert s.inventions[0].met[0] == {"seat": 0, "paid": "harvest", "at": 0}
    assert s.characters["olaf"] == "invention:0" and s.players[0].stock["harvest"] == 0


# -- a Nog for every condition ---------------------------------------------------------------------

@pytest.mark.rules("noggin:6.5/nog-per-resource")
def test_every_condition_met_places_a_nog_there_is_no_point_instead():
    """6.5: each resource placed on an Invention goes with a Nog from the Mountains space;
    unlike a Saga there is no point to take instead."""
    s = scenario(3)
    put_invention(s, 0, "potion")  # Olaf, Fish, Harvest, Stone
    give(s, 0, fish=2, harvest=1)
    m = s.players[0].mountains
    run(s, 0, inv_move(0, ["fish"]))
    run(s, 0, inv_move(1, ["fish"]))
    run(s, 0, inv_move(2, ["harvest"]))
    assert s.players[0].mountains == m - 1 - 3  # Market Day's Nog, then one per condition
    assert [m_["seat"] for m_ in s.inventions[0].met[:3]] == [0, 0, 0] and s.players[0].score == 0
    with pytest.raises(MalformedMove):
        RULES.parse_move({**inv_move(3, ["stone"]), "nog": False})


@pytest.mark.rules("noggin:6.5/no-nog-no-action")
def test_without_a_nog_on_the_board_no_invention_contribution():
    """6.5: with no Nog left on the Mountains space (after Market Day's own) the action cannot
    be done; one Nog is enough."""
    s = scenario(3)
    put_invention(s, 0, "potion")
    give(s, 0, fish=2, stone=1)
    s.players[0].mountains = 1
    with pytest.raises(IllegalMove, match="needs a Nog from your Mountains space"):
        RULES.check(s, 0, inv_move(0, ["fish"]))
    assert not any(m.get("op") == "invention" for m in legal(s, 0))
    s.players[0].mountains = 2
    run(s, 0, inv_move(0, ["fish"]))
    assert s.players[0].mountains == 0
    with pytest.raises(IllegalMove, match="needs a Nog from your Mountains space"):
        RULES.check(s, 0, inv_move(1, ["fish"]))


# -- who takes the card --------------------------------------------------------------------------

@pytest.mark.rules("noggin:6.5/fire-machine-example", "noggin:6.5/forge-token", "noggin:6.5/winner-keeps-nog",
                   "noggin:6.5/completion-resources-back", "noggin:house rules/amb6-forge-to-fire-machine")
def test_fire_machine_example():
    """6.5 example: the Fire Machine takes Olaf (1 Food), 2 Stone and 1 Wood, with 4 Nogs. Once
    done Olaf goes back to the Castle, the cubes to the Nog Market, and the player with most
    Nogs takes the card, leaves one Nog on it for the game and takes the Forge token: the
    wood cart carries 1 more Wood (house rule for ambiguity 6: the token goes with the card)."""
    s = scenario(3)
    put_invention(s, 0, "fire_machine")
    assert s.inventions[0].needs == ["olaf", "stone", "stone", "wood"]
    give(s, 0, fish=1, stone=2, wood=1)
    market = dict(s.market)
    m = s.players[0].mountains
    assert board.capacity(s.players[0], "wood_cart") == 2 and not s.players[0].forge
    for cond, pay in enumerate((["fish"], ["stone"], ["stone"])):
        run(s, 0, inv_move(cond, pay))
    assert s.players[0].mountains == m - 1 - 3 and s.characters["olaf"] == "invention:0"
    events = run(s, 0, inv_move(3, ["wood"]))
    assert types(events) == ["InventionConditionMet", "InventionCompleted"]
    assert events[1].data == {"invention": 0, "card": "fire_machine", "winner": 0, "nogs": [4, 0, 0],
                              "forge": True}
    p = s.players[0]
    assert p.inventions == ["fire_machine"] and s.inventions[0] is None
    assert p.mountains == m - 1 - 1  # Market Day's Nog, and the one left on the card
    assert s.characters["olaf"] == "castle"
    assert s.market == {**market, "fish": market["fish"] + 1, "stone": market["stone"] + 2,
                        "wood": market["wood"] + 1}
    assert p.forge and board.capacity(p, "wood_cart") == 3
    assert not any(q.forge for q in s.players[1:])


@pytest.mark.rules("noggin:6.5/majority-wins", "noggin:6.5/others-four-per-nog", "noggin:6.5/winner-keeps-nog")
def test_the_most_nogs_take_the_card_and_the_others_score_four_per_nog():
    """6.5: the seat with most Nogs on the card takes it even if another completes it; every
    other contributor scores 4 per Nog and takes those Nogs back; the winner gets all but one."""
    s = scenario(3)
    put_invention(s, 0, "potion")  # Olaf, Fish, Harvest, Stone
    premet(s, 0, 0, 1, "fish")
    premet(s, 0, 1, 1, "fish")
    premet(s, 0, 2, 2, "harvest")
    give(s, 0, stone=1)
    m = [p.mountains for p in s.players]
    events = run(s, 0, inv_move(3, ["stone"]))
    done = next(e for e in events if e.type == "InventionCompleted")
    assert done.data["winner"] == 1 and done.data["nogs"] == [1, 2, 1]
    assert [points(events, seat, "invention") for seat in range(3)] == [4, 0, 4]
    assert s.players[1].inventions == ["potion"] and s.players[0].inventions == s.players[2].inventions == []
    assert [p.mountains for p in s.players] == [m[0] - 1 - 1 + 1, m[1] + 2 - 1, m[2] + 1]
    assert [p.score for p in s.players] == [4, 0, 4]


@pytest.mark.rules("noggin:6.5/first-nog-standing", "noggin:6.5/others-four-per-nog",
                   "noggin:house rules/invention-tie-first-nog")
def test_a_tie_goes_to_the_seat_whose_nog_was_first_on_the_card():
    """6.5: the first Nog placed stands up; with equal Nogs the seat that was there first takes
    the Invention, and the other scores 4 per Nog (here 2 Nogs: 8)."""
    s = scenario(3)
    put_invention(s, 0, "potion")
    premet(s, 0, 2, 2, "harvest")  # seat 2's Nog stands: it came first
    premet(s, 0, 3, 2, "stone")
    give(s, 0, fish=2)
    run(s, 0, inv_move(0, ["fish"]))
    assert s.inventions[0].first == 2
    events = run(s, 0, inv_move(1, ["fish"]))
    done = next(e for e in events if e.type == "InventionCompleted")
    assert done.data["nogs"] == [2, 0, 2] and done.data["winner"] == 2
    assert points(events, 0, "invention") == 8 and points(events, 2) == 0
    assert s.players[2].inventions == ["potion"]

    s = scenario(3)
    put_invention(s, 0, "potion")
    give(s, 0, fish=2)
    run(s, 0, inv_move(0, ["fish"]))  # seat 0 first this time
    premet(s, 0, 2, 2, "harvest")
    premet(s, 0, 3, 2, "stone")
    assert s.inventions[0].first == 0
    events = run(s, 0, inv_move(1, ["fish"]))
    assert next(e for e in events if e.type == "InventionCompleted").data["winner"] == 0
    assert points(events, 2, "invention") == 8


# -- using an Invention --------------------------------------------------------------------------

def change_of_season(s):
    s.action = None
    for m in s.markers:
        m.pos = max(m.pos, 10)
    s.runestone, s.active = 10, None
    assert RULES.pending_phase(s) == "change_of_season"
    return run_phase(s)


@pytest.mark.rules("noggin:6.5/once-per-season")
def test_a_once_per_season_ability_lays_its_nog_down_until_the_change_of_season():
    """6.5: a once-per-season ability (the Potion) is used, its Nog laid down, and stood up
    again at the Change of Season, when the ability is available again."""
    s = scenario(3)
    own_invention(s, 0, "potion")
    give(s, 0, stone=1)
    run(s, 0, {"type": "use", "card": "potion", "resource": "stone"})
    assert s.players[0].stock["stone"] == 2 and s.players[0].used == ["potion"]
    with pytest.raises(IllegalMove, match="already used this season"):
        RULES.check(s, 0, {"type": "use", "card": "potion", "resource": "stone"})
    assert not any(m["type"] == "use" and m["card"] == "potion" for m in legal(s, 0))
    events = change_of_season(s)
    assert "SeasonAdvanced" in types(events) and s.season == 2
    assert s.players[0].used == [] and RULES.to_move(s) == [0]
    run(s, 0, {"type": "use", "card": "potion", "resource": "stone"})
    assert s.players[0].stock["stone"] == 3


@pytest.mark.rules("noggin:6.5/own-turn-only")
def test_an_invention_is_used_only_on_its_owners_turn():
    """6.5: an Invention's ability is used only on its owner's own turn."""
    s = scenario(3)
    own_invention(s, 1, "potion")
    give(s, 1, stone=1)
    assert RULES.to_move(s) == [0]
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "use", "card": "potion", "resource": "stone"})
    assert legal(s, 1) == []
    s = scenario(3, seat=1)
    own_invention(s, 1, "potion")
    give(s, 1, stone=1)
    run(s, 1, {"type": "use", "card": "potion", "resource": "stone"})
    assert s.players[1].stock["stone"] == 2
