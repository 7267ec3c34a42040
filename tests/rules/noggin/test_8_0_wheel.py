"""Nogbad's Wheel of Infamy (rulebook 8.0): what he blocks, the portraits, the seasons."""

import pytest

from services.rules.core import IllegalMove
from services.rules.noggin.board import nogbad_space
from services.rules.noggin.market import rate

from .helpers import (RULES, activate_nogbad, give, legal, normal_turn, own_card, put_reserve, run, run_phase,
                      scenario, types)

FISH = {"type": "fisherman", "draws": 1}
ADVANCE = {"type": "woodcutter", "op": "advance"}
ORCHARD = {"type": "woodcutter", "op": "orchard"}
TRADE2 = {"type": "market_day", "op": "trade", "give": ["wood", "wood"], "take": "stone"}
TRADE3 = {"type": "market_day", "op": "trade", "give": ["wood", "wood", "wood"], "take": "stone"}
SAGA = {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["wood"]}


def _turn():
    """Season 2, seat 0 to act on 10 with 3 Wood and 1 Fish; Saga 0's card asks for Wood and
    Food (C16, no portrait on its back)."""
    s = scenario(3, season=2, positions=[10, 13, 15, 17])
    give(s, 0, wood=3, fish=1)
    return put_reserve(s, 0, ["wood", "food"], deck="C", card="C16")


def _season_end(s, season=2):
    normal_turn(s, 0, [10 * season, 10 * season + 2, 10 * season + 3, 10 * season + 4])
    s.season, s.active = season, None
    return s


def _portrait(s):
    """Seat 0 completes Saga 0's Reserve card C17 (Wood, Food), whose back shows Nogbad."""
    put_reserve(s, 0, ["wood", "food"], deck="C", card="C17")
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["wood"]})
    return run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "pay": ["fish"]})


def _refused(s, move, match):
    with pytest.raises(IllegalMove, match=match):
        RULES.check(s, 0, move)


@pytest.mark.rules("noggin:8.0/fish-blocks-fisherman")
def test_sabotaged_nets_block_the_fisherman():
    """8.0 (1): while Nogbad is in the fjord nobody may start the Fisherman action."""
    s = activate_nogbad(_turn(), 0)
    _refused(s, FISH, "Nogbad blocks the fisherman action")
    assert not any(m["type"] == "fisherman" for m in legal(s, 0))
    activate_nogbad(s, 2)
    RULES.check(s, 0, FISH)


@pytest.mark.rules("noggin:8.0/home-blocks-sagas")
def test_trouble_at_home_blocks_saga_contributions():
    """8.0 (2): on Trouble at Home no contribution to a Saga is allowed; Market Day and its
    other options (trading) still are."""
    s = activate_nogbad(_turn(), 1)
    _refused(s, SAGA, "Trouble at Home")
    assert not any(m.get("op") == "saga" for m in legal(s, 0))
    RULES.check(s, 0, TRADE2)
    activate_nogbad(s, 0)
    RULES.check(s, 0, SAGA)


@pytest.mark.rules("noggin:8.0/bears-block-woodcutter")
def test_bears_block_wood_cutting_in_the_forest_and_the_orchard():
    """8.0 (3): with Nogbad on the Woodcutter action no wood is cut, forest or Orchard."""
    s = activate_nogbad(_turn(), 2)
    s.players[0].stock["wood"] = 0
    _refused(s, ADVANCE, "Nogbad blocks the woodcutter action")
    _refused(s, ORCHARD, "Nogbad blocks the woodcutter action")
    activate_nogbad(s, 0)
    RULES.check(s, 0, ADVANCE)
    RULES.check(s, 0, ORCHARD)


@pytest.mark.rules("noggin:8.0/bad-news-rate")
def test_bad_news_makes_the_rate_three_for_one():
    """8.0 (4): with Nogbad on the trading action the Nog Market takes 3 resources for 1."""
    s = activate_nogbad(_turn(), 3)
    assert rate(s) == 3
    _refused(s, TRADE2, "takes 3 resources for 1")
    events = run(s, 0, TRADE3)
    assert events[-1].data == {"seat": 0, "give": ["wood", "wood", "wood"], "take": "stone", "rate": 3}
    assert s.players[0].stock["wood"] == 0 and s.players[0].stock["stone"] == 1
    s = activate_nogbad(_turn(), 1)  # also on the Market Day space, but Trouble at Home
    assert rate(s) == 2


@pytest.mark.rules("noggin:8.0/crow-alone-harmless")
def test_the_infamous_crow_alone_blocks_nothing():
    """8.0: with Nogbad in his castle the Crow on any quarter has no effect: fishing, cutting,
    Sagas and trading at 2:1 are all allowed."""
    for quarter in range(4):
        s = _turn()
        s.wheel = quarter
        assert s.nogbad == "castle" and nogbad_space(s) is None and rate(s) == 2
        for move in (FISH, ADVANCE, ORCHARD, SAGA, TRADE2):
            RULES.check(s, 0, move)
        _refused(s, TRADE3, "takes 2 resources for 1")


@pytest.mark.rules("noggin:8.0/activated-by-portrait", "noggin:8.0/portrait-moves-crow")
def test_a_portrait_activates_nogbad_on_the_next_quarter():
    """8.0, 6.4 D: a completed Reserve card turned over showing Nogbad moves the Crow one
    quarter clockwise (Fish to Trouble at Home) and Nogbad leaves his castle for that space."""
    s = _turn()
    events = _portrait(s)
    i = types(events).index("ReserveCardTurned")
    assert events[i].data["nogbad"] is True
    assert types(events)[i + 1:i + 3] == ["CrowTurned", "NogbadMoved"]
    assert events[i + 1].data == {"quarter": 1, "by": "reserve card"}
    assert s.nogbad == "active" and s.wheel == 1 and nogbad_space(s) == "market_day"


@pytest.mark.rules("noggin:8.0/activated-by-portrait")
def test_a_card_without_the_portrait_leaves_the_wheel_alone():
    """8.0: only the portrait activates the Wheel; a card showing Nooka's knife does nothing."""
    s = _turn()
    put_reserve(s, 0, ["wood", "wood"], deck="C", card="C02")
    give(s, 0, wood=2)
    run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "pay": ["wood"]})
    events = run(s, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 1, "pay": ["wood"]})
    assert "ReserveCardTurned" in types(events) and "CrowTurned" not in types(events)
    assert s.nogbad == "castle" and s.wheel == 0


@pytest.mark.rules("noggin:8.0/second-portrait")
def test_another_portrait_moves_active_nogbad_one_more_quarter():
    """8.0: Nogbad active on Bad News; another portrait moves the Crow on to Fish and Nogbad
    with it, who blocks the Fisherman at once."""
    s = activate_nogbad(_turn(), 3)
    events = _portrait(s)
    assert [e.data for e in events if e.type == "NogbadMoved"] == [
        {"to": "active", "quarter": 0, "strike": True, "escaped": False}]
    assert s.wheel == 0 and nogbad_space(s) == "fisherman" and rate(s) == 2
    run(s, 0, {"type": "draw_reserve", "saga": 0, "deck": "B"})
    run(s, 0, {"type": "finish"})
    assert RULES.to_move(s) == [0]
    _refused(s, FISH, "Nogbad blocks the fisherman action")


@pytest.mark.rules("noggin:8.0/season-first-move")
def test_the_change_of_season_turns_the_wheel_and_nogbad_follows():
    """8.0, 7.1: at the Change of Season the Infamous Crow moves one quarter and an active
    Nogbad follows it, before the Season marker moves; the popularity-track Crow still moves
    first (house rule for ambiguity 1). Inactive, Nogbad stays home."""
    s = activate_nogbad(_season_end(_turn()), 0)
    events = run_phase(s)
    assert types(events)[:4] == ["CrowAdvanced", "CrowTurned", "NogbadMoved", "SeasonAdvanced"]
    assert events[1].data == {"quarter": 1, "by": "change of season"}
    assert s.wheel == 1 and s.nogbad == "active" and nogbad_space(s) == "market_day"
    s = _season_end(_turn())
    s.wheel = 3
    events = run_phase(s)
    assert types(events)[:3] == ["CrowAdvanced", "CrowTurned", "SeasonAdvanced"]
    assert s.wheel == 0 and s.nogbad == "castle"


@pytest.mark.rules("noggin:8.0/no-recovery-where-nogbad")
def test_no_nog_comes_back_from_where_nogbad_is_but_market_day():
    """8.0: while Nogbad stands on the fjord neither the War Banner nor Noggin brings a Nog back
    from the Fisherman space; from the Market Day space (Bad News) the War Banner still can."""
    s = activate_nogbad(_turn(), 0)
    own_card(s, 0, "war_banner")
    q = s.players[1]
    for p in (s.players[0], q):
        p.placed.update(fisherman=1, market_day=1)
    _refused(s, {"type": "use", "card": "war_banner", "action": "fisherman", "pay": ["fish"]},
             "no Nog comes back from the space where Nogbad is")
    _refused(s, {"type": "market_day", "op": "character", "character": "noggin", "owner": 1, "action": "fisherman"},
             "no Nog comes back from the space where Nogbad is")
    activate_nogbad(s, 3)
    run(s, 0, {"type": "use", "card": "war_banner", "action": "market_day", "pay": ["fish"]})
    assert s.players[0].placed["market_day"] == 0


@pytest.mark.rules("noggin:8.0/evict-via-market", "noggin:6.2/action-free-again")
def test_nogbad_is_removed_with_a_market_day():
    """8.0, 6.2: Evict Nogbad is a Market Day option (1 Nog, 1 Step); afterwards the Woodcutter
    he blocked is open again."""
    s = activate_nogbad(_turn(), 2)
    s.players[0].stock["wood"] = 0
    _refused(s, ADVANCE, "Nogbad blocks the woodcutter action")
    events = run(s, 0, {"type": "market_day", "op": "evict", "by": "thor", "pay": ["fish"]})
    assert types(events) == ["ActionStarted", "StepsSpent", "NogbadEvicted", "PointsScored", "NogbadMoved"]
    assert events[0].data["action"] == "market_day" and events[0].data["nogs"] == 1
    assert events[2].data["space"] == "woodcutter" and s.markers[0].pos == 11
    run(s, 0, {"type": "finish"})
    assert s.nogbad == "castle" and nogbad_space(s) is None
    RULES.check(s, 0, ADVANCE)
