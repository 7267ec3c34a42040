"""Evicting Nogbad on Market Day (rulebook 6.2; the Royal Dungeon, appendix)."""

import pytest

from services.rules.core import IllegalMove

from .helpers import RULES, activate_nogbad, give, legal, own_building, points, run, scenario, types


def _turn(quarter=0):
    """Season 2, seat 0 to act on 10 with 2 Fish; Nogbad active on ``quarter`` (0: the fjord)."""
    s = scenario(3, season=2, positions=[10, 13, 15, 17])
    give(s, 0, fish=2)
    return activate_nogbad(s, quarter)


def _evict(by, **kw):
    return {"type": "market_day", "op": "evict", "by": by, **kw}


@pytest.mark.rules("noggin:6.2/only-if-blocking")
def test_nogbad_is_evicted_only_while_he_blocks_an_action():
    """6.2: with Nogbad in his castle (or in the dungeon) there is nobody to evict."""
    s = _turn()
    RULES.check(s, 0, _evict("thor"))
    for where in ("castle", "dungeon"):
        s.nogbad = where
        with pytest.raises(IllegalMove, match="not blocking any action"):
            RULES.check(s, 0, _evict("thor"))
        assert not any(m.get("op") == "evict" for m in legal(s, 0))


@pytest.mark.rules("noggin:6.2/thor", "noggin:6.2/thor-points", "noggin:6.2/to-castle")
def test_thor_and_one_food_evict_nogbad_for_one_point():
    """6.2: Thor Nogson in the Castle and 1 Food send Nogbad back to his castle; 1 point."""
    s = _turn()
    market = s.market["fish"]
    events = run(s, 0, _evict("thor"))
    assert types(events)[2:] == ["NogbadEvicted", "PointsScored", "NogbadMoved"]
    assert events[2].data["paid"] == ["fish"] and events[2].data["space"] == "fisherman"
    assert points(events, 0, "evicting nogbad") == 1 and s.players[0].score == 1
    assert s.nogbad == "castle" and s.players[0].stock["fish"] == 1 and s.market["fish"] == market + 1


@pytest.mark.rules("noggin:6.2/thor")
def test_thor_must_be_in_the_castle_and_the_food_paid():
    """6.2: Thor away from the Castle cannot evict; nor can a player without Food."""
    s = _turn()
    s.characters["thor"] = "saga:1"
    with pytest.raises(IllegalMove, match="thor must be in Noggin's Castle to evict"):
        RULES.check(s, 0, _evict("thor"))
    s = _turn()
    s.players[0].stock["fish"] = 0
    with pytest.raises(IllegalMove, match=r"cannot pay the eviction \(1 Food"):
        RULES.check(s, 0, _evict("thor"))


@pytest.mark.rules("noggin:6.2/graculus-romf", "noggin:6.2/graculus-romf-points")
def test_graculus_and_romf_with_two_food_evict_for_two_points():
    """6.2: Graculus and Romf together in the Castle, 2 Food: Nogbad goes home; 2 points."""
    s = _turn()
    give(s, 0, fish=1, harvest=1)  # replaces the 2 Fish
    events = run(s, 0, _evict("graculus_romf", pay=["fish", "harvest"]))
    assert events[2].type == "NogbadEvicted" and events[2].data["paid"] == ["fish", "harvest"]
    assert points(events, 0, "evicting nogbad") == 2
    assert s.nogbad == "castle" and (s.players[0].stock["fish"], s.players[0].stock["harvest"]) == (0, 0)


@pytest.mark.rules("noggin:6.2/graculus-romf")
def test_graculus_and_romf_need_both_in_the_castle_and_two_food():
    """6.2: one Food is not enough, and both must be in the Castle (Graculus too, here)."""
    s = _turn()
    s.players[0].stock["fish"] = 1
    with pytest.raises(IllegalMove, match=r"cannot pay the eviction \(2 Food"):
        RULES.check(s, 0, _evict("graculus_romf"))
    for away in ("graculus", "romf"):
        s = _turn()
        s.characters[away] = "saga:0"
        with pytest.raises(IllegalMove, match=f"{away} must be in Noggin's Castle to evict"):
            RULES.check(s, 0, _evict("graculus_romf"))


@pytest.mark.rules("noggin:6.2/action-free-again")
def test_the_blocked_action_is_free_again():
    """6.2: once Nogbad is evicted from the fjord, the Fisherman action may be taken."""
    s = _turn(0)
    with pytest.raises(IllegalMove, match="Nogbad blocks the fisherman action"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 1})
    run(s, 0, _evict("thor"))
    run(s, 0, {"type": "finish"})
    assert RULES.to_move(s) == [0] and s.markers[0].pos == 11
    events = run(s, 0, {"type": "fisherman", "draws": 1})
    assert events[0].type == "ActionStarted" and events[0].data["action"] == "fisherman"


@pytest.mark.rules("noggin:6.2/to-dungeon")
def test_evicted_nogbad_goes_to_the_royal_dungeon():
    """6.2 and appendix: with a Royal Dungeon built, the evicted Nogbad is imprisoned there; a
    Nog of its owner keeps watch and the owner scores 6. Without a Nog to spare he goes home."""
    s = _turn()
    own_building(s, 1, "royal_dungeon")
    events = run(s, 0, _evict("thor"))
    assert events[-2].data == {"to": "dungeon", "gaoler": 1}
    assert s.nogbad == "dungeon" and s.gaoler == 1
    assert s.players[1].mountains == 9 and s.players[1].tile_nogs["royal_dungeon"] == 1
    assert points(events, 1, "royal dungeon") == 6 and points(events, 0, "evicting nogbad") == 1

    s = _turn()
    own_building(s, 1, "royal_dungeon")
    s.players[1].mountains = 0
    run(s, 0, _evict("thor"))
    assert s.nogbad == "castle" and s.gaoler is None
