"""Market Day (rulebook 6.0): one Nog, one Step, a character's ability and/or one option."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, activate_nogbad, give, legal, put_reserve, run, scenario, types

ORDER = "a character's ability and/or one option, in that order"


def _turn():
    """Season 2, seat 0 to act on 10; the others on 13, 15 and 17 (Runestone 10)."""
    return scenario(3, season=2, positions=[10, 13, 15, 17])


@pytest.mark.rules("noggin:6.0/one-nog")
def test_market_day_takes_one_nog_however_often_it_was_used():
    """6.0 (and 5.0): a single Nog is enough for Market Day, even the third time in a season,
    while another action repeated that often would need 3 Nogs."""
    s = _turn()
    p = s.players[0]
    p.placed.update(market_day=2, miner=2)
    p.uses.update(market_day=2, miner=2)
    p.mountains = 1
    give(s, 0, wood=2)
    with pytest.raises(IllegalMove, match="needs 3 Nogs and you have 1"):
        RULES.check(s, 0, {"type": "miner", "op": "walk", "square": [-1, 0]})
    events = run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    assert events[0].type == "ActionStarted" and events[0].data["nogs"] == 1
    assert p.placed["market_day"] == 3 and p.uses["market_day"] == 3 and p.mountains == 0


@pytest.mark.rules("noggin:6.0/one-step")
def test_market_day_costs_one_step_for_a_character_and_an_option():
    """6.0: the whole visit costs 1 Step: the character's ability pays it, the option after
    it and further trades are free."""
    s = _turn()
    give(s, 0, fish=1, wood=4)
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})
    assert [e.data["to"] for e in events if e.type == "StepsSpent"] == [11]
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "harvest"})
    events = run(s, 0, {"type": "finish"})
    assert "StepsSpent" not in types(events)
    assert s.markers[0].pos == 11


@pytest.mark.rules("noggin:6.0/character-then-option")
def test_character_first_then_one_option():
    """6.0: a character's ability first, then one option. The ability after an option, a
    second ability or a second option is refused; more trades continue the same option."""
    s = _turn()
    give(s, 0, fish=2, wood=6)
    s.counting_house = "war_banner"
    run(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})
    with pytest.raises(IllegalMove, match=ORDER):
        RULES.check(s, 0, {"type": "market_day", "op": "character", "character": "romf", "top": 0, "bottom": 0})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    with pytest.raises(IllegalMove, match=ORDER):
        RULES.check(s, 0, {"type": "market_day", "op": "auction"})
    assert s.action.picks == ["character", "trade"]

    s = _turn()
    give(s, 0, fish=2, wood=2)
    run(s, 0, {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"})
    with pytest.raises(IllegalMove, match=ORDER):
        RULES.check(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})


@pytest.mark.rules("noggin:6.0/character-costs-food")
def test_a_character_costs_one_food():
    """6.0, 6.1: a character's ability costs 1 Food (a Fish or a Harvest), which goes to the
    Nog Market; with no Food the ability is refused."""
    s = _turn()
    with pytest.raises(IllegalMove, match=r"cannot pay a character's ability \(1 Food"):
        RULES.check(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})
    give(s, 0, harvest=2)
    market = s.market["harvest"]
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})
    used = next(e for e in events if e.type == "CharacterUsed")
    assert used.data["paid"] == ["harvest"]
    assert s.players[0].stock["harvest"] == 1 and s.market["harvest"] == market + 1


@pytest.mark.rules("noggin:6.0/character-in-castle", "noggin:6.1/graculus-anywhere")
def test_the_character_must_be_in_the_castle_but_graculus_need_not_be():
    """6.0: a character away from Noggin's Castle cannot act; Graculus can, from anywhere,
    and ends in the Castle (6.1)."""
    s = _turn()
    give(s, 0, fish=2)
    s.characters["thor"] = "saga:0"
    s.characters["graculus"] = "saga:1"
    with pytest.raises(IllegalMove, match="thor must be in Noggin's Castle"):
        RULES.check(s, 0, {"type": "market_day", "op": "character", "character": "thor", "direction": 1})
    assert {"type": "market_day", "op": "character", "character": "thor", "direction": 1, "pay": ["fish"]} \
        not in legal(s, 0)
    events = run(s, 0, {"type": "market_day", "op": "character", "character": "graculus", "target": "thor"})
    moved = [(e.data["character"], e.data["to"]) for e in events if e.type == "CharacterMoved"]
    assert moved == [("thor", "castle"), ("graculus", "castle")]
    assert s.characters["thor"] == "castle" and s.characters["graculus"] == "castle"


@pytest.mark.rules("noggin:6.0/options")
def test_the_five_options():
    """6.0: the options of a Market Day are evicting Nogbad, auctioning the Counting House
    card, working on a Saga, working on an Invention and trading (besides the character)."""
    s = _turn()
    give(s, 0, fish=2, wood=2, stone=1)
    activate_nogbad(s, 0)
    s.counting_house = "war_banner"
    ops = {m["op"] for m in legal(s, 0) if m["type"] == "market_day"}
    assert ops == {"character", "evict", "auction", "saga", "invention", "trade"}
    for move in ({"type": "market_day", "op": "evict", "by": "thor"},
                 {"type": "market_day", "op": "auction"},
                 {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["fish"]},
                 {"type": "market_day", "op": "invention", "invention": 0, "condition": 0, "pay": ["fish"]},
                 {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"}):
        RULES.check(s, 0, move)
    s.nogbad, s.counting_house = "castle", None  # nothing to evict, nothing to auction
    ops = {m["op"] for m in legal(s, 0) if m["type"] == "market_day"}
    assert ops == {"character", "saga", "invention", "trade"}


@pytest.mark.rules("noggin:6.0/one-saga-only")
def test_only_one_saga_per_market_day():
    """6.0, 6.4: one Market Day works on one Saga only: more conditions of the same Saga are
    fine, a condition of the other Saga is refused."""
    s = _turn()
    give(s, 0, wood=3, stone=1)
    put_reserve(s, 0, ["wood", "wood", "stone"], deck="C")
    put_reserve(s, 1, ["wood", "stone"], deck="C")
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["wood"]})
    with pytest.raises(IllegalMove, match=ORDER):
        RULES.check(s, 0, {"type": "market_day", "op": "saga", "saga": 1, "condition": 0, "pay": ["wood"]})
    assert not any(m["type"] == "market_day" and m.get("saga") == 1 for m in legal(s, 0))
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "pay": ["wood"]})
    assert [m is not None for m in s.sagas[0].current.met] == [True, True, False]
    assert s.action.picks == ["saga"] and s.markers[0].pos == 11
