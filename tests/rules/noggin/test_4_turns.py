"""Turns on the Step track: rulebook 4.1 (first turn, no-sharing), 4.2 (A/B/C, 9 Steps,
dummies), 4.3 (end of turn, Runestone) and 5.0 A (ending a turn without Nogs)."""

import pytest

from services.rules.core import IllegalMove, NotYourTurn

from .helpers import RULES, normal_turn, run, seated, types

FISH1 = {"type": "fisherman", "draws": 1}
MARKET = {"type": "market_day", "give": ["wood", "wood"], "take": "stone"}


def test_first_turn_single_action_then_next_in_order():
    """4.1: the first player takes a single action and, now ahead of everyone, ends the turn;
    the next marker in turn order acts next; the Runestone stays until all have moved."""
    s = seated(3)
    events = run(s, 0, {"type": "fisherman", "draws": 2})
    assert "TurnEnded" in types(events)
    assert s.markers[0].pos == 2 and s.markers[0].turns == 1
    assert RULES.to_move(s) == [1]
    assert s.runestone == 0
    run(s, 1, FISH1)  # to 1: no longer last (markers 2 and 3 are on 0), turn ends (4.1)
    assert s.markers[1].pos == 1 and RULES.to_move(s) == [2]


def test_first_round_ends_with_dummy_and_runestone_moves():
    """4.1 and 4.2: after every marker (the dummy too) has had its first turn the Runestone
    moves to the last marker, whose seat acts next."""
    s = seated(3)
    run(s, 0, {"type": "fisherman", "draws": 3})  # 3
    run(s, 1, {"type": "fisherman", "draws": 1})  # 1
    events = run(s, 2, {"type": "fisherman", "draws": 2})  # 2; the dummy (green, on 0) then moves
    dummy = [e for e in events if e.type == "DummyMoved"]
    # the dummy passes the first marker ahead (on 1) to the next unoccupied space: 2 and 3 are taken
    assert [d.data["to"] for d in dummy] == [4]
    assert s.runestone == 1
    assert RULES.to_move(s) == [1]


def test_strictly_last_must_act_again():
    """4.2 A: a marker still strictly last after an action must act again (end_turn refused)."""
    s = normal_turn(seated(3), 0, [10, 14, 16, 18])
    s.runestone = 10
    run(s, 0, FISH1)
    assert s.markers[0].pos == 11 and RULES.to_move(s) == [0]
    with pytest.raises(IllegalMove, match="4.2 A"):
        RULES.check(s, 0, {"type": "end_turn"})
    assert {"type": "end_turn"} not in RULES.legal_moves(s, 0)


def test_between_may_end_turn_with_no_sharing():
    """4.2 B: neither first nor last, the seat may end its turn; the no-sharing rule (4.1) then
    pushes its marker to the next free space, and the Runestone moves under the last marker (4.3)."""
    s = normal_turn(seated(3), 0, [10, 12, 13, 18])
    run(s, 0, {"type": "fisherman", "draws": 2})  # onto 12, level with seat 1
    assert s.markers[0].pos == 12 and RULES.to_move(s) == [0]
    assert {"type": "end_turn"} in RULES.legal_moves(s, 0)
    events = run(s, 0, {"type": "end_turn"})
    assert [e.data["to"] for e in events if e.type == "TurnEnded"] == [14]  # 12 and 13 taken
    assert s.runestone == 12 and RULES.to_move(s) == [1]


def test_strictly_first_ends_turn():
    """4.2 C: a marker strictly first after an action ends the turn at once."""
    s = normal_turn(seated(3), 0, [10, 11, 12, 13])
    events = run(s, 0, {"type": "fisherman", "draws": 4})  # to 14
    assert "TurnEnded" in types(events) and s.markers[0].pos == 14
    assert RULES.to_move(s) == [1]


def test_nine_step_limit():
    """4.2: a Step marker never equals or passes the Runestone, so at most 9 Steps a turn."""
    s = normal_turn(seated(3), 0, [10, 19, 12, 13])
    s.markers[0].pos = 17
    with pytest.raises(IllegalMove, match="9 Steps"):
        RULES.check(s, 0, {"type": "builder", "transport": "boat"})  # 17 + 2 = 19 -> pushed to 20
    with pytest.raises(IllegalMove, match="9 Steps"):
        RULES.check(s, 0, {"type": "fisherman", "draws": 3})
    s.players[0].stock["wood"] = 2
    s.markers[1].pos = 15
    RULES.check(s, 0, {"type": "builder", "transport": "boat"})  # 19 is free and below 20


def test_dummy_moves_when_last():
    """4.2 last paragraph: a dummy marker that becomes last moves to the next unoccupied space
    beyond the first marker ahead of it, inside the same move's events."""
    s = normal_turn(seated(2), 0, [10, 16, 11, 13])  # yellow (11) and green (13) are dummies
    events = run(s, 0, {"type": "fisherman", "draws": 4})  # red to 14: not first, may act/end
    run(s, 0, {"type": "end_turn"})
    # yellow (11) passes green (13) to 15; then green (13) passes red (14) to 17 (16 is blue)
    assert s.markers[2].pos == 15 and s.markers[3].pos == 17
    assert RULES.to_move(s) == [0]  # red on 14 is last again
    assert s.runestone == 14


def test_not_your_turn():
    """4.2: only the active seat moves."""
    s = seated(3)
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, FISH1)


def test_no_nogs_ends_turn_past_a_marker():
    """5.0 A: a seat that must act but has no Nog left ends its turn, its marker moving to the
    next empty space ahead of at least one other marker."""
    s = normal_turn(seated(3), 0, [10, 12, 13, 15])
    s.players[0].mountains = 0
    assert RULES.legal_moves(s, 0) == [{"type": "end_turn"}]
    events = run(s, 0, {"type": "end_turn"})
    assert [e.data["to"] for e in events if e.type == "TurnEnded"] == [14]
    assert RULES.to_move(s) == [1]


def test_end_turn_refused_mid_action():
    """3.2/5.1: an action is finished before the turn can end."""
    s = normal_turn(seated(3), 0, [10, 12, 13, 15])
    run(s, 0, {"type": "woodcutter", "op": "advance"})
    with pytest.raises(IllegalMove, match="finish your woodcutter action"):
        RULES.check(s, 0, {"type": "end_turn"})
