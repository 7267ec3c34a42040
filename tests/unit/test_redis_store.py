"""The Redis event store: explicit stream ids, atomic versioned commits, move results."""

from __future__ import annotations

import threading

import pytest

from services.coordinator.redis_store import RedisStore, key
from services.coordinator.store import Commit, GameNotFound, VersionConflict
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
