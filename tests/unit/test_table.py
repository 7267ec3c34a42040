"""The coordinator and the turn model, proven on the two tiny test-only games.

sealed_bid: several seats decide at once with secret commitments revealed together.
step_race: the turn order is recomputed after every move.
"""

from __future__ import annotations

import pytest
import redis

from services.coordinator.store import MemoryStore, VersionConflict, Commit
from services.coordinator.table import StaleVersion, embedded_table
from services.rules.core import GameConfig, IllegalMove, MalformedMove, NotYourTurn, events_to_json
from tests.core_games import sealed_bid, step_race  # noqa: F401  (registers the games)


def _new(game, players=3, seed="s"):
    t = embedded_table()
    gid = t.create(GameConfig(game=game, players=players), seed=seed)
    return t, gid


def test_simultaneous_seats_all_decide_and_secrets_stay_private():
    t, gid = _new("sealed_bid", 3)
    rules, state, v = t.state(gid)
    assert rules.to_move(state) == [0, 1, 2]
    r = t.play(gid, 2, {"type": "bid", "amount": 4}, v, "m1")
    rules, state, v = t.state(gid)
    assert rules.to_move(state) == [0, 1]
    assert "my_bid" not in rules.view(state, 0) and "my_bid" not in rules.view(state, None)
    assert rules.view(state, 2)["my_bid"] == 4
    assert [e["type"] for e in r["events"]] == ["BidSealed", "BidChosen"]
    t.play(gid, 0, {"type": "bid", "amount": 1}, v, "m2")
    r = t.play(gid, 1, {"type": "bid", "amount": 5}, v + 1, "m3")
    assert r["events"][-1]["data"] == {"bids": [1, 5, 4], "winner": 1}
    rules, state, _ = t.state(gid)
    assert rules.to_move(state) == [0, 1, 2] and state.budget == [4, 0, 1]


def test_turn_order_is_recomputed_after_every_move():
    t, gid = _new("step_race", 3)
    order = []
    for steps in (3, 1, 2, 1, 3):
        rules, state, v = t.state(gid)
        seat = rules.to_move(state)[0]
        order.append(seat)
        t.play(gid, seat, {"type": "advance", "steps": steps}, v)
    # positions: seat 0 -> 3; seat 1 -> 1; seat 2 -> 2; seat 1 (last, at 1) -> 2 and 3 are
    # taken, so 4; now seat 2 (at 2) is last.
    assert order == [0, 1, 2, 1, 2]


def test_rejected_moves_change_nothing():
    t, gid = _new("step_race", 2)
    before = t.summary(gid)
    with pytest.raises(NotYourTurn):
        t.play(gid, 1, {"type": "advance", "steps": 1}, before["version"])
    with pytest.raises(IllegalMove, match="1, 2 or 3"):
        t.play(gid, 0, {"type": "advance", "steps": 7}, before["version"])
    with pytest.raises(MalformedMove):
        t.play(gid, 0, ["not", "a", "move"], before["version"])
    with pytest.raises(StaleVersion):
        t.play(gid, 0, {"type": "advance", "steps": 1}, before["version"] - 1)
    assert t.summary(gid) == before


def test_a_repeated_move_id_returns_the_first_result_and_applies_once():
    t, gid = _new("step_race", 2)
    v = t.summary(gid)["version"]
    first = t.play(gid, 0, {"type": "advance", "steps": 2}, v, "same")
    again = t.play(gid, 0, {"type": "advance", "steps": 2}, v, "same")
    assert again == first
    assert t.summary(gid)["version"] == v + 1


def lose_the_next_commits_reply(t) -> None:
    """The table's next commit lands in its store, then raises as a broken connection would after
    Redis ran the commit and before its reply arrived; later commits are as usual."""
    real_commit = t.store.commit

    def commit_then_lose_the_reply(*args, **kwargs):
        t.store.commit = real_commit
        real_commit(*args, **kwargs)
        raise redis.ConnectionError("the reply was lost (test)")

    t.store.commit = commit_then_lose_the_reply


@pytest.mark.parametrize("path", ["on the cached state", "reading first"])
def test_a_move_sent_again_after_its_commits_reply_was_lost_hands_the_game_on(path):
    """A client's move commits, but the store's reply is lost (a broken connection): the request
    fails before it hands the game on, and the game waits on the bot seat that moves next. The
    client sends the move again with the same id (the bots' client and the SDK do after a 503): it
    gets the first result, and the game is handed on at last, so the bot plays; on either path a
    repeat takes (the state cached at the move's version, or read first)."""
    t = embedded_table()
    gid = t.create(GameConfig(game="step_race", players=2), seed="lost-reply", bots={1: "random"})
    rules, state, v = t.state(gid)
    assert rules.to_move(state) == [0]
    lose_the_next_commits_reply(t)
    move = {"type": "advance", "steps": 1}
    with pytest.raises(redis.ConnectionError):
        t.play(gid, 0, move, v, "m1")
    assert [e.version for e in t.store.read(gid)][-1] == v + 1  # committed, and nothing handed on
    assert t.state(gid)[0].to_move(t.state(gid)[1]) == [1] and t.summary(gid)["version"] == v + 1
    again = t.play(gid, 0, move, v, "m1", read_first=path == "reading first")
    assert again["version"] == v + 1
    assert t.summary(gid)["version"] > v + 1  # the bot played its move
    assert [e.seat for e in t.store.read(gid) if e.kind == "move"][:2] == [0, 1]


def test_a_phase_run_again_after_its_commits_reply_was_lost_hands_the_game_on():
    """The phase task's commit lands but its reply is lost: the task fails before it hands the game
    on, and is retried (it is, on connection errors). The retry finds the phase committed and
    commits nothing, but hands the game over, so the bot seat that moves after the phase is asked
    (``lap_race``: every seat runs once, then the phase ``lap_end``)."""
    import tests.core_games.lap_race  # noqa: F401  (registers the test game)

    class Recorded:
        def __init__(self) -> None:
            self.calls: list[tuple] = []

        def schedule(self, game_id, phase, version):
            self.calls.append(("phase", phase, version))

        def schedule_bot(self, game_id, seat, version):
            self.calls.append(("bot", seat, version))

        def schedule_agent(self, game_id, seat, version):  # pragma: no cover - no agent here
            self.calls.append(("agent", seat, version))

        def schedule_end(self, game_id):  # pragma: no cover - the game does not end here
            self.calls.append(("end",))

    t = embedded_table()
    t.scheduler = scheduler = Recorded()
    gid = t.create(GameConfig(game="lap_race", players=2), seed="lost-phase", bots={0: "random"})
    v = t.summary(gid)["version"]
    assert t.play_bot(gid, 0, v)
    t.play(gid, 1, {"type": "run", "pace": 1}, v + 1)
    assert scheduler.calls[-1] == ("phase", "lap_end", v + 2)
    lose_the_next_commits_reply(t)
    with pytest.raises(redis.ConnectionError):
        t.run_phase(gid, "lap_end", v + 2)
    assert t.summary(gid)["version"] == v + 3 and scheduler.calls[-1] == ("phase", "lap_end", v + 2)
    assert t.run_phase(gid, "lap_end", v + 2) is False  # the task's retry commits nothing
    assert scheduler.calls[-1] == ("bot", 0, v + 3) and t.summary(gid)["version"] == v + 3
    assert t.run_phase(gid, "lap_end", v) is False and scheduler.calls[-1] == ("bot", 0, v + 3)  # an old task


def test_same_seed_and_moves_give_the_same_log_and_hash():
    logs = []
    for _ in range(2):
        t, gid = _new("step_race", 3, seed="fixed")
        while t.summary(gid)["status"] == "active":
            rules, state, v = t.state(gid)
            seat = rules.to_move(state)[0]
            t.play(gid, seat, rules.legal_moves(state, seat)[v % 3], v)
        logs.append((events_to_json([e for en in t.store.read(gid) for e in en.events]), t.summary(gid)["state_hash"]))
    assert logs[0] == logs[1]
    assert '"Advanced"' in logs[0][0]


def test_memory_store_refuses_a_stale_commit():
    s = MemoryStore()
    s.create("g", {"game": "step_race", "players": 2}, [])
    assert s.commit("g", 1, [], Commit("move", 0)) == 2
    with pytest.raises(VersionConflict):
        s.commit("g", 1, [], Commit("move", 0))
    assert s.version("g") == 2


def test_a_move_id_reused_for_another_request_is_refused():
    from services.coordinator.table import MoveIdReused

    t, gid = _new("step_race", 2)
    v = t.summary(gid)["version"]
    t.play(gid, 0, {"type": "advance", "steps": 2}, v, "id-1")
    with pytest.raises(MoveIdReused):
        t.play(gid, 0, {"type": "advance", "steps": 3}, v, "id-1")
    assert t.summary(gid)["version"] == v + 1


def test_a_repeat_that_arrives_after_its_own_commit_gets_the_first_result_not_stale():
    """A retry read the old version while the first copy committed: still the first result."""
    t, gid = _new("step_race", 2)
    v = t.summary(gid)["version"]
    real_state = t.state
    first = {}

    def state_then_commit(game_id):
        # the retry reads the game first; the original request commits right after
        out = real_state(game_id)
        if not first:
            first["pending"] = True
            t.state = real_state  # type: ignore[method-assign]
            first.update(t.play(gid, 0, {"type": "advance", "steps": 2}, v, "race"))
            del first["pending"]
        return out

    t.state = state_then_commit  # type: ignore[method-assign]
    again = t.play(gid, 0, {"type": "advance", "steps": 2}, v, "race", read_first=True)
    t.state = real_state  # type: ignore[method-assign]
    assert again == first and t.summary(gid)["version"] == v + 1


def test_a_repeat_resolved_on_the_cached_state_while_its_first_copy_commits_gets_the_first_result():
    """The optimistic path (the cache is at the expected version, nothing read before the commit):
    the first copy commits while the repeat resolves; the repeat's commit finds the version moved
    on and answers with the first result, and nothing is played twice."""
    t, gid = _new("step_race", 2)
    v = t.summary(gid)["version"]
    assert t.projections.version(gid) == v  # the repeat will not read the store first
    real_resolve = t._resolve
    first = {}

    def resolve_then_commit(*args, **kwargs):
        out = real_resolve(*args, **kwargs)
        if not first:
            first["pending"] = True
            t._resolve = real_resolve  # type: ignore[method-assign]
            first.update(t.play(gid, 0, {"type": "advance", "steps": 2}, v, "race", read_first=True))
            del first["pending"]
        return out

    t._resolve = resolve_then_commit  # type: ignore[method-assign]
    again = t.play(gid, 0, {"type": "advance", "steps": 2}, v, "race")
    t._resolve = real_resolve  # type: ignore[method-assign]
    assert again == first and t.summary(gid)["version"] == v + 1
    assert [e.kind for e in t.store.read(gid)].count("move") == 1


def test_a_move_id_reused_at_the_current_version_is_refused_by_the_commit():
    """The same id for another request once the game is at the version it names: the cached state
    is current, so nothing reads the id first; the commit itself refuses it (MoveRecorded)."""
    from services.coordinator.table import MoveIdReused

    t, gid = _new("step_race", 2)
    v = t.summary(gid)["version"]
    t.play(gid, 0, {"type": "advance", "steps": 1}, v, "id-1")
    t.play(gid, 1, {"type": "advance", "steps": 1}, v + 1, "id-2")
    assert t.projections.version(gid) == v + 2
    with pytest.raises(MoveIdReused):
        t.play(gid, 0, {"type": "advance", "steps": 1}, v + 2, "id-1")
    assert t.summary(gid)["version"] == v + 2


def test_a_moves_counters_are_counted_by_its_commit_and_over_a_limit_nothing_is_played():
    """``Table.play(counters=...)``: the move's commit counts them; a move the rules refuse leaves
    them uncounted, for the caller (had it counted them, the third move here would be over the
    limit of two); a move whose counters are over their limit raises OverLimit with nothing
    committed or cached."""
    from services.coordinator.store import Counters, OverLimit

    t, gid = _new("sealed_bid", 3)
    _, _, v = t.state(gid)

    def counters():
        return Counters(("moves:token",), (2,), (60,))

    played = counters()
    t.play(gid, 0, {"type": "bid", "amount": 1}, v, "a", counters=played)
    assert played.counted
    refused = counters()
    with pytest.raises(IllegalMove):
        t.play(gid, 1, {"type": "bid", "amount": 99}, v + 1, "b", counters=refused)
    assert not refused.counted and t.state(gid)[2] == v + 1
    again = counters()  # seat 1's move at v, played at v + 1 (seat 0's since is of the same decision)
    t.play(gid, 1, {"type": "bid", "amount": 1}, v, "c", counters=again)
    assert again.counted and t.state(gid)[2] == v + 2
    over = counters()
    with pytest.raises(OverLimit) as exc:
        t.play(gid, 2, {"type": "bid", "amount": 1}, v + 2, "d", counters=over)
    assert exc.value.index == 0 and 0 < exc.value.ttl <= 60
    rules, state, version = t.state(gid)
    assert version == v + 2 and rules.to_move(state) == [2] and t.projections.version(gid) == v + 2
    assert t.store.move_result(gid, 2, "d") is None
    assert t.play(gid, 2, {"type": "bid", "amount": 1}, v + 2, "d")["version"] == v + 3  # no counters: played
