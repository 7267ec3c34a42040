"""Turns on the Step track: rulebook 4.1 (first turn, no-sharing), 4.2 (A/B/C, 9 Steps,
dummies), 4.3 (end of turn, Runestone) and 5.0 A (ending a turn without Nogs)."""

import pytest

from services.rules.core import IllegalMove, NotYourTurn

from .helpers import RULES, fresh, normal_turn, run, run_phase, seated, types

FISH1 = {"type": "fisherman", "draws": 1}
MARKET = {"type": "market_day", "give": ["wood", "wood"], "take": "stone"}


@pytest.mark.rules("noggin:4.1/single-action", "noggin:4.1/in-turn-order")
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


@pytest.mark.rules("noggin:4.1/runestone-after-first-turns", "noggin:4.2/dummies-move")
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


@pytest.mark.rules("noggin:4.2/a-last-must-act")
def test_strictly_last_must_act_again():
    """4.2 A: a marker still strictly last after an action must act again (end_turn refused)."""
    s = normal_turn(seated(3), 0, [10, 14, 16, 18])
    s.runestone = 10
    run(s, 0, FISH1)
    assert s.markers[0].pos == 11 and RULES.to_move(s) == [0]
    with pytest.raises(IllegalMove, match="4.2 A"):
        RULES.check(s, 0, {"type": "end_turn"})
    assert {"type": "end_turn"} not in RULES.legal_moves(s, 0)


@pytest.mark.rules("noggin:4.2/b-between-may-end", "noggin:4.1/no-sharing", "noggin:4.3/runestone-to-last", "noggin:4.3/last-plays-next")
def test_between_may_end_turn_with_no_sharing():
    """4.2 B: neither first nor last, the seat may end its turn; the no-sharing rule (4.1) then
    pushes its marker to the next free space, and the Runestone moves under the last marker (4.3)."""
    s = normal_turn(seated(3), 0, [10, 12, 13, 18])
    run(s, 0, {"type": "fisherman", "draws": 2})  # onto 12, level with seat 1
    assert s.markers[0].pos == 12 and RULES.to_move(s) == [0]
    assert {"type": "end_turn"} in RULES.legal_moves(s, 0)
    RULES.check(s, 0, FISH1)  # ... or act again
    events = run(s, 0, {"type": "end_turn"})
    assert [e.data["to"] for e in events if e.type == "TurnEnded"] == [14]  # 12 and 13 taken
    assert s.runestone == 12 and RULES.to_move(s) == [1]


@pytest.mark.rules("noggin:4.2/c-first-must-end")
def test_strictly_first_ends_turn():
    """4.2 C: a marker strictly first after an action ends the turn at once."""
    s = normal_turn(seated(3), 0, [10, 11, 12, 13])
    events = run(s, 0, {"type": "fisherman", "draws": 4})  # to 14
    assert "TurnEnded" in types(events) and s.markers[0].pos == 14
    assert RULES.to_move(s) == [1]


@pytest.mark.rules("noggin:4.2/nine-step-limit")
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


@pytest.mark.rules("noggin:4.2/dummies-move")
def test_dummy_moves_when_last():
    """4.2 last paragraph: a dummy marker that becomes last moves to the next unoccupied space
    beyond the first marker ahead of it, inside the same move's events."""
    s = normal_turn(seated(2), 0, [10, 16, 11, 13])  # yellow (11) and green (13) are dummies
    run(s, 0, {"type": "fisherman", "draws": 4})  # red to 14: not first, may act/end
    assert s.markers[0].pos == 14 and (s.markers[2].pos, s.markers[3].pos) == (11, 13)  # dummies wait
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


@pytest.mark.rules("noggin:5.0/no-nogs-end-turn")
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


@pytest.mark.rules("noggin:4.1/turn-ends-when-not-last")
def test_last_in_the_first_round_acts_until_no_longer_last():
    """4.1: the last marker of the first round keeps acting while it is still strictly last;
    once level with or ahead of a marker its turn ends (no-sharing push)."""
    s = seated(4)
    run(s, 0, {"type": "fisherman", "draws": 4})  # 4
    run(s, 1, {"type": "fisherman", "draws": 3})  # 3
    run(s, 2, {"type": "fisherman", "draws": 2})  # 2
    assert RULES.to_move(s) == [3] and s.runestone == 0
    run(s, 3, {"type": "woodcutter", "op": "orchard"})
    run(s, 3, {"type": "finish"})  # on 1: still strictly last
    assert RULES.to_move(s) == [3] and s.markers[3].turns == 0
    with pytest.raises(IllegalMove, match="4.1"):
        RULES.check(s, 3, {"type": "end_turn"})
    run(s, 3, {"type": "woodcutter", "op": "orchard"})
    events = run(s, 3, {"type": "finish"})  # on 2: level with seat 2, so no longer last
    assert [e.data["to"] for e in events if e.type == "TurnEnded"] == [5]  # 2, 3, 4 taken
    assert s.runestone == 2 and RULES.to_move(s) == [2]


def test_dummy_first_in_order_moves_off_the_start_space():
    """4.2 (dummies) and 4.1: a dummy first in turn order moves at once, to the next free space
    (no marker is ahead of it yet, house rule); the next seat in order then acts."""
    from services.rules.noggin.state import Marker
    from services.rules.noggin.turns import advance_turns

    s = seated(3)
    s.markers = [Marker("green", None), *s.markers[:3]]
    s.active = None
    events = advance_turns(s, [m.pos for m in s.markers])
    assert [(e.type, e.data.get("to")) for e in events][:1] == [("DummyMoved", 1)]
    assert events[-1].type == "TurnStarted" and events[-1].data["seat"] == 0


@pytest.mark.rules("noggin:4.2/nine-step-limit")
@pytest.mark.parametrize("move,cost", [
    ({"type": "restock", "kind": "fish", "amount": 4}, 2),
    ({"type": "fisherman", "draws": 4}, 4),
    ({"type": "woodcutter", "op": "advance"}, 1),
])
def test_nine_step_limit_counts_the_whole_action(move, cost):
    """4.2: the limit holds for the whole cost of an action (Restock 2, Fisherman N) and for
    each sub-move of a longer one."""
    s = normal_turn(seated(3), 0, [10, 11, 12, 13])
    s.market.update(fish=4)
    s.markers[0].pos = 19 - cost  # ends on 19: allowed
    RULES.check(s, 0, move)
    s.markers[0].pos = 20 - cost  # would reach the Runestone + 10
    with pytest.raises(IllegalMove, match="9 Steps"):
        RULES.check(s, 0, move)


def test_market_day_first_trade_costs_the_step_later_trades_are_free():
    """6.0/6.6 with 4.2: a Market Day costs 1 Step, checked against the limit; more trades in
    the same visit cost nothing more."""
    s = normal_turn(seated(3), 0, [10, 11, 12, 13])
    s.players[0].stock.update(wood=6)
    s.markers[0].pos = 19
    with pytest.raises(IllegalMove, match="9 Steps"):
        RULES.check(s, 0, MARKET)
    s.markers[0].pos = 18
    run(s, 0, MARKET)
    run(s, 0, MARKET)
    assert s.markers[0].pos == 19


@pytest.mark.rules("noggin:4.1/no-sharing", "noggin:4.3/runestone-to-last", "noggin:4.3/last-plays-next")
def test_no_sharing_applies_to_every_marker_after_turns():
    """4.1 no-sharing: after any turn ends no two markers share a space (checked over play)."""
    from .helpers import random_game

    t, g, _ = random_game(4, "ns", bot_seed=3, cap=6000)
    replay = RULES.new_state()
    checked = 0
    for entry in t.store.read(g):
        for e in entry.events:
            RULES.evolve(replay, e)
            if e.type == "TurnStarted" and all(m.turns for m in replay.markers):
                pos = [m.pos for m in replay.markers]
                assert len(set(pos)) == 4, pos
                assert replay.runestone == min(pos)
                assert replay.markers[e.data["marker"]].pos == min(pos)  # 4.3: the last acts
                checked += 1
    assert replay.ended is not None and checked > 20


@pytest.mark.rules("noggin:4.1/no-sharing-example", "noggin:4.1/no-sharing")
def test_red_ending_on_blues_space_moves_to_the_next_free_space():
    """4.1 example: at the end of his turn Red may not share Blue's space; Red moves on to the
    next free space clockwise."""
    s = normal_turn(seated(3), 0, [10, 12, 15, 16])
    assert (s.markers[0].colour, s.markers[1].colour) == ("red", "blue")
    run(s, 0, {"type": "fisherman", "draws": 2})  # Red onto 12, Blue's space (sharing mid-turn is fine)
    assert s.markers[0].pos == s.markers[1].pos == 12
    events = run(s, 0, {"type": "end_turn"})
    assert [e.data["to"] for e in events if e.type == "TurnEnded"] == [13]
    assert s.markers[0].pos == 13 and s.markers[1].pos == 12


@pytest.mark.rules("noggin:4.1/in-turn-order")
@pytest.mark.parametrize("seed", ["1", "2", "5", "9"])
def test_first_turns_follow_the_drawn_order(seed):
    """4.1: the first turns follow the order drawn at set-up (E): the seats start their first
    turns in the order of their markers; the Runestone waits on the Nog Moon meanwhile."""
    s = fresh(3, seed)
    expected = [m.seat for m in s.markers if m.seat is not None]
    started = [s.markers[s.active].seat]
    draws = 4
    while len(started) < 3 or s.markers[s.active].turns == 0:
        seat = RULES.to_move(s)[0]
        assert s.runestone == 0
        events = run(s, seat, {"type": "fisherman", "draws": max(draws, 1)})
        draws -= 1
        started += [e.data["seat"] for e in events if e.type == "TurnStarted"]
        if all(m.turns for m in s.markers):
            break
    assert started[:3] == expected


@pytest.mark.rules("noggin:4.3/season-changes")
def test_the_season_changes_at_once_when_the_runestone_reaches_the_nog_moon():
    """4.3: when the Runestone reaches or passes the Nog Moon the season changes at once: the
    turn that moved it is followed by no other turn; nobody moves until the Change of Season."""
    s = normal_turn(seated(3), 0, [8, 11, 12, 13])
    run(s, 0, {"type": "fisherman", "draws": 4})  # 8 -> 12: level, may end
    events = run(s, 0, {"type": "end_turn"})  # pushed to 14; the last marker is on 11
    assert [e.data["to"] for e in events if e.type == "RunestoneMoved"] == [11]
    assert "TurnStarted" not in types(events)
    assert RULES.pending_phase(s) == "change_of_season" and RULES.to_move(s) == []
    with pytest.raises(NotYourTurn, match="season is changing"):
        RULES.check(s, 1, FISH1)
    events = run_phase(s)
    assert s.season == 2 and events[-1].type == "TurnStarted" and RULES.to_move(s) == [1]
