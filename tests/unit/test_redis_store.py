"""The Redis event store: explicit stream ids, atomic versioned commits, move results."""

from __future__ import annotations

import threading

import pytest

from services.coordinator.redis_store import RedisStore, key
from services.coordinator.store import (Commit, Counters, GameNotFound, MemoryStore, MoveRecorded, OverLimit,
                                         VersionConflict)
from services.rules.core import Event


def test_commits_append_entries_with_version_ids(redis_client):
    s = RedisStore(redis_client)
    s.create("g1", {"game": "step_race", "players": 2}, [Event("GameCreated", {"config": {}})])
    v = s.commit("g1", 1, [Event("X", {"n": 1}), Event("Y", {}, to=1)], Commit("move", 0, move_key=(0, "m"), result={"ok": 1}))
    assert v == 2
    ids = [i.decode() for i, _ in redis_client.xrange(key("g1", "log"))]
    assert ids == ["1-0", "2-0"]
    [entry] = s.read("g1", after=1)
    assert entry.version == 2 and entry.kind == "move" and [e.type for e in entry.events] == ["X", "Y"]
    assert entry.events[1].to == 1
    assert s.move_result("g1", 0, "m") == {"ok": 1}
    assert s.meta("g1")["version"] == 2


@pytest.mark.parametrize("kind", ["redis", "memory"])
def test_a_commit_naming_a_move_id_with_a_result_writes_nothing(redis_client, kind):
    """The commit checks the client move id itself (no read before it): a second commit of the same
    seat's id is refused with MoveRecorded at any version, and the log, version and first result stay."""
    s = RedisStore(redis_client) if kind == "redis" else MemoryStore()
    s.create("g3", {"game": "step_race", "players": 2}, [])
    assert s.commit("g3", 1, [Event("X", {})], Commit("move", 0, move_key=(0, "m"), result={"first": 1})) == 2
    with pytest.raises(MoveRecorded) as refused:
        s.commit("g3", 2, [Event("X", {})], Commit("move", 0, move_key=(0, "m"), result={"second": 1}))
    assert refused.value.move_key == (0, "m")
    assert s.version("g3") == 2 and len(s.read("g3")) == 2
    assert s.move_result("g3", 0, "m") == {"first": 1}
    # another seat's id of the same name is its own; a bot's move (no id) is never refused so
    assert s.commit("g3", 2, [Event("X", {})], Commit("move", 1, move_key=(1, "m"), result={"ok": 1})) == 3
    [out] = s.commit_many([("g3", 3, [Event("X", {})], Commit("move", 0, move_key=(0, "m"), result={}))])
    assert isinstance(out, MoveRecorded)
    assert s.commit_many([("g3", 3, [Event("X", {})], Commit("move", 0))]) == [4]


def test_only_one_of_two_racing_commits_wins(redis_client):
    s = RedisStore(redis_client)
    s.create("g2", {"game": "step_race", "players": 2}, [])
    outcomes = []
    barrier = threading.Barrier(8)

    def writer(i):
        barrier.wait(timeout=10)
        try:
            outcomes.append(s.commit("g2", 1, [Event("W", {"i": i})], Commit("move", 0)))
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(outcomes, key=str) == [2] + ["conflict"] * 7
    assert len(s.read("g2")) == 2


def test_unknown_games_raise(redis_client):
    s = RedisStore(redis_client)
    with pytest.raises(GameNotFound):
        s.meta("nope")
    with pytest.raises(GameNotFound):
        s.commit("nope", 1, [], Commit("move"))


def _game_keys(redis_client, gid: str) -> dict[str, int]:
    """Each key of game ``gid`` (by its last name part) and its TTL in seconds (-1: none)."""
    return {k.decode().rsplit(":", 1)[1]: redis_client.ttl(k) for k in redis_client.scan_iter(match=f"game:{{{gid}}}:*")}


@pytest.mark.parametrize("many", [False, True])
def test_the_ending_commit_retires_every_key_but_the_log_and_meta(redis_client, many):
    """README, Retention: a finished game's record (log, meta) stays; its other keys expire."""
    s = RedisStore(redis_client, finished_ttl=600)
    gid = f"ttl{int(many)}"
    s.create(gid, {"game": "step_race", "players": 2}, [])
    redis_client.set(key(gid, "seed"), "s")
    redis_client.hset(key(gid, "seats"), "0", "digest")
    s.commit(gid, 1, [Event("X", {})], Commit("move", 0, move_key=(0, "a"), result={"ok": 1}))
    assert set(_game_keys(redis_client, gid).values()) == {-1}  # nothing expires while in play
    last = (gid, 2, [Event("End", {})], Commit("move", 1, status="over", move_key=(1, "b"), result={"ok": 2}))
    if many:
        assert s.commit_many([last]) == [3]
    else:
        s.commit(*last)
    ttls = _game_keys(redis_client, gid)
    assert ttls.pop("log") == -1 and ttls.pop("meta") == -1
    assert set(ttls) == {"moves", "ended", "seed", "seats"}
    assert all(0 < t <= 600 for t in ttls.values()), ttls
    assert [e.version for e in s.read(gid)] == [1, 2, 3] and s.meta(gid)["status"] == "over"


def test_finished_ttl_must_be_positive(redis_client):
    with pytest.raises(ValueError, match="finished_ttl"):
        RedisStore(redis_client, finished_ttl=0)


@pytest.mark.parametrize("kind", ["redis", "memory"])
def test_a_commit_counts_its_counters_first_and_commits_nothing_over_a_limit(redis_client, kind):
    """Counters (the gateway's rate limit of a move) are counted in the commit's atomic step, before
    it: the first over its limit stops the counting and the commit (OverLimit: which one, and the
    seconds left in its window); a commit refused for its version has counted them all the same;
    counted ones are not counted again by a commit tried again."""
    s = RedisStore(redis_client) if kind == "redis" else MemoryStore()
    s.create("g5", {"game": "step_race", "players": 2}, [])

    def counters():
        return Counters(("LIMITS:a", "LIMITS:b"), (5, 2), (60, 30))

    first = counters()
    assert s.commit("g5", 1, [Event("X", {})], Commit("move", 0, counters=first)) == 2 and first.counted
    stale = counters()
    with pytest.raises(VersionConflict):
        s.commit("g5", 1, [Event("X", {})], Commit("move", 0, counters=stale))
    assert stale.counted  # counted: a refused move counts
    assert s.commit("g5", 2, [Event("X", {})], Commit("move", 0, counters=stale)) == 3  # not counted again
    over = counters()
    with pytest.raises(OverLimit) as refused:
        s.commit("g5", 3, [Event("X", {})], Commit("move", 0, move_key=(0, "m"), result={"r": 1}, counters=over))
    assert refused.value.index == 1 and 29 <= refused.value.ttl <= 30
    assert s.version("g5") == 3 and len(s.read("g5")) == 3 and s.move_result("g5", 0, "m") is None
    if kind == "redis":  # the limits library's keys: a count and a window that started at the first hit
        assert [int(redis_client.get(k)) for k in ("LIMITS:a", "LIMITS:b")] == [3, 3]
        assert 59 <= redis_client.ttl("LIMITS:a") <= 60 and 29 <= redis_client.ttl("LIMITS:b") <= 30
    # the first counter over its limit stops the counting: the second is not counted
    tight = Counters(("LIMITS:c", "LIMITS:d"), (0, 9), (60, 60))
    [out] = s.commit_many([("g5", 3, [Event("X", {})], Commit("move", 0, counters=tight))])
    assert isinstance(out, OverLimit) and out.index == 0 and tight.counted
    if kind == "redis":
        assert redis_client.get("LIMITS:c") == b"1" and not redis_client.exists("LIMITS:d")
    under = Counters(("LIMITS:a",), (5,), (60,))
    assert s.commit_many([("g5", 3, [Event("X", {})], Commit("move", 0, counters=under))]) == [4]
    assert s.version("g5") == 4

