"""Overview and principles: rulebook 2.0 (two years of four seasons of ten Steps, Nogbad's
crown after season 8), 3.1 (the Step track), 3.2 (the active player), 3.3 (the seven actions),
3.5 (the Dragon and the Crow) and 3.9 (nothing given between players)."""

import random

import pytest

from services.rules.core import NotYourTurn
from services.rules.noggin import moves
from services.rules.noggin.state import ACTIONS, season_name

from .helpers import (saga_one_card_left, 
    RULES,
    fresh,
    give,
    normal_turn,
    run,
    run_phase,
    scenario,
    seated,
    types,
)


def _end_of(state, season: int):
    """Every marker just past the Nog Moon that ends ``season``: the Change of Season is due."""
    base = 10 * season
    normal_turn(state, 0, [base, base + 2, base + 3, base + 4])
    state.season = season
    state.active = None
    return state


@pytest.mark.rules("noggin:2.0/two-years", "noggin:2.0/nogbad-after-eight", "noggin:3.5/crow-each-season")
def test_two_years_of_four_seasons_then_nogbad_takes_the_crown():
    """2.0: at most 2 years of 4 seasons: seasons 1-8 are Spring..Winter twice. 3.5: the Crow
    moves one space toward the crown at every Change of Season, so with no Saga completed it
    reaches the crown at the end of season 8: the game ends there (no season 9) and the crown
    goes to Nogbad, every player losing (9.0; the Crow's 8 spaces are a house rule)."""
    assert [season_name(k) for k in range(1, 9)] == ["spring", "summer", "autumn", "winter"] * 2
    s = fresh(3)
    for season in range(1, 8):
        _end_of(s, season)
        events = run_phase(s)
        assert [e.data["to"] for e in events if e.type == "CrowAdvanced"] == [8 - season]
        assert s.season == season + 1 and s.ended is None
    assert s.season == 8 and s.crow == 1
    _end_of(s, 8)
    events = run_phase(s)
    assert types(events)[:2] == ["CrowAdvanced", "GameEnded"] and "SeasonAdvanced" not in types(events)
    assert s.season == 8 and s.ended["crown"] == "nogbad"
    out = RULES.outcome(s)
    assert out["crown"] == "nogbad" and out["winners"] == [] and out["leader_in_exile"]


@pytest.mark.rules("noggin:2.0/ten-steps")
def test_a_season_is_ten_steps_of_the_runestone():
    """2.0: a season is 10 Steps, one circuit of the Runestone: the Runestone on 9 is still
    season 1; once it reaches or passes 10 (the Nog Moon) the season changes."""
    s = normal_turn(seated(3), 0, [8, 9, 11, 12])
    assert s.season == 1
    run(s, 0, {"type": "fisherman", "draws": 3})  # 8 -> 11, level: may end
    run(s, 0, {"type": "end_turn"})  # pushed to 13; the Runestone moves up to 9
    assert s.runestone == 9 and RULES.pending_phase(s) is None and RULES.to_move(s) == [1]
    run(s, 1, {"type": "fisherman", "draws": 1})  # 9 -> 10, still strictly last: acts again
    assert RULES.pending_phase(s) is None
    run(s, 1, {"type": "fisherman", "draws": 1})  # 11, level with seat 2
    run(s, 1, {"type": "end_turn"})  # pushed to 14; the Runestone passes the Nog Moon (to 11)
    assert s.runestone == 11 and RULES.pending_phase(s) == "change_of_season"
    run_phase(s)
    assert s.season == 2


@pytest.mark.rules("noggin:3.1/step-marker-moves")
@pytest.mark.parametrize("move,steps", [
    ({"type": "fisherman", "draws": 3}, 3),
    ({"type": "restock", "kind": "fish", "amount": 4}, 2),
    ({"type": "woodcutter", "op": "advance"}, 1),
])
def test_spending_steps_moves_the_step_marker_clockwise(move, steps):
    """3.1: spending Steps moves the player's Step marker clockwise (forward) by that many spaces."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    s.market["fish"] = 4
    events = run(s, 0, move)
    spent = [e.data for e in events if e.type == "StepsSpent"]
    assert spent == [{"marker": 0, "seat": 0, "to": 10 + steps}]
    assert s.markers[0].pos == 10 + steps


@pytest.mark.rules("noggin:3.2/active-player")
def test_the_active_player_keeps_the_turn_until_it_ends():
    """3.2: the player taking a turn is the active player for the whole turn, through several
    actions; nobody else moves until the turn ends."""
    s = normal_turn(seated(3), 0, [10, 12, 14, 16])
    run(s, 0, {"type": "fisherman", "draws": 1})  # 11: still last
    assert s.active == 0 and RULES.to_move(s) == [0]
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "fisherman", "draws": 1})
    run(s, 0, {"type": "woodcutter", "op": "orchard"})  # 12 while the action lasts
    assert s.active == 0 and RULES.to_move(s) == [0]
    run(s, 0, {"type": "finish"})  # level with seat 1: may end or act again
    assert s.active == 0 and RULES.to_move(s) == [0]
    with pytest.raises(NotYourTurn):
        RULES.check(s, 1, {"type": "end_turn"})
    events = run(s, 0, {"type": "end_turn"})
    assert "TurnEnded" in types(events) and RULES.to_move(s) == [1]


@pytest.mark.rules("noggin:3.3/seven-actions")
def test_the_seven_actions():
    """3.3: the actions are Miner, Fisherman, Woodcutter, Farmer, Builder, Vendor (Restock) and
    Market Day; at the start of a turn (here in Summer, with cubes to pay) each can be chosen."""
    assert ACTIONS == ("miner", "fisherman", "woodcutter", "farmer", "builder", "restock", "market_day")
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])  # Summer: the sown fields can be reaped
    give(s, 0, wood=2, stone=1)
    s.market["fish"] = 4
    kinds = {m["type"] for m in RULES.legal_moves(s, 0)}
    assert set(ACTIONS) <= kinds
    for action in ACTIONS:
        move = next(m for m in RULES.legal_moves(s, 0) if m["type"] == action)
        events = run(RULES.copy(s), 0, move)
        assert next(e for e in events if e.type == "ActionStarted").data["action"] == action


@pytest.mark.rules("noggin:3.3/repeat-in-turn")
def test_the_same_action_twice_in_one_turn():
    """3.3: an action can be repeated within a single turn (the marker, still last, acts again)."""
    s = normal_turn(seated(3), 0, [10, 16, 17, 18])
    events = []
    for _ in range(2):
        events += run(s, 0, {"type": "woodcutter", "op": "orchard"})
        events += run(s, 0, {"type": "finish"})
    assert "TurnEnded" not in types(events) and RULES.to_move(s) == [0]
    assert [e.data["action"] for e in events if e.type == "ActionStarted"] == ["woodcutter", "woodcutter"]
    assert s.players[0].uses["woodcutter"] == 2 and s.players[0].stock["wood"] == 2




@pytest.mark.rules("noggin:3.5/dragon-from-sagas")
def test_the_dragon_moves_only_by_completing_sagas():
    """3.5: Noggin's popularity (the Dragon) moves only when a Saga is completed (6.4: Nogs on
    it / 6 rounded up, here 7 Nogs -> 2 spaces, the rulebook's Dragon Hunt example); actions and
    a Change of Season leave it where it is."""
    s = scenario(3)
    assert s.dragon == 3
    run(s, 0, {"type": "fisherman", "draws": 1})
    run(s, 0, {"type": "woodcutter", "op": "orchard"})
    run(s, 0, {"type": "finish"})
    assert s.dragon == 3
    s2 = _end_of(fresh(3), 1)
    run_phase(s2)
    assert s2.dragon == 3 and s2.crow == 7
    s3 = saga_one_card_left(scenario(3), 0, "the_dragon_hunt", [[0, 4, 1], [0, 1, 0]])
    give(s3, 0, stone=1)
    events = run(s3, 0, {"type": "market_day", "op": "saga", "saga": 0, "condition": 0, "nog": True,
                         "pay": ["stone"]})
    moved = next(e for e in events if e.type == "DragonMoved").data
    assert (moved["nogs"], moved["by"], moved["to"]) == (7, 2, 1) and s3.dragon == 1
    assert s3.crow == 8


def _holdings(p):
    return (dict(p.stock), dict(p.buildings), list(p.transports), list(p.counting_house), dict(p.locked))


@pytest.mark.rules("noggin:3.9/no-giving")
@pytest.mark.parametrize("players,seed", [(3, "give-1"), (4, "give-2"), (2, "give-3")])
def test_nothing_passes_between_players(players, seed):
    """3.9: players never hand anything to one another nor swap anything. No move shape names a
    player to give to, and in random play a move never changes another seat's cubes, Gold, coins,
    buildings, transports, Counting House cards or locked resources."""
    seat_fields = {(name, f) for name, model in vars(moves).items()
                   if isinstance(model, type) and issubclass(model, moves._Move) and model is not moves._Move
                   for f in model.model_fields if f in ("seat", "owner", "to", "player", "recipient")}
    # the only seat-valued fields: Noggin sends a Nog home to its owner (6.1), an accusation names
    # a seat (variants); "to" of the Flying Boat is a card, not a player
    assert seat_fields == {("MarketCharacter", "owner"), ("AccuseMove", "seat"), ("UseMove", "to")}
    state = fresh(players, seed)
    rnd = random.Random(seed)
    checked = 0
    for _ in range(400):
        if RULES.outcome(state) is not None:
            break
        if RULES.pending_phase(state):
            run_phase(state, seed)
            continue
        seat = RULES.to_move(state)[0]
        before = {p.seat: _holdings(p) for p in state.players if p.seat != seat}
        run(state, seat, rnd.choice(RULES.legal_moves(state, seat)), seed)
        for p in state.players:
            if p.seat != seat:
                assert _holdings(p) == before[p.seat]
        checked += 1
    assert checked > 150
