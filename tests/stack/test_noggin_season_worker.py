"""Killing the Celery worker while a Noggin Change of Season is queued, then starting it
again, completes the Change of Season exactly once (rulebook 7.1; DESIGN "Phases on
Celery": acks_late, idempotent by version)."""

from __future__ import annotations

import json

import redis

from services.bots.random_bot import RandomBot
from services.coordinator.redis_store import RedisStore
from services.phases.schedulers import QUEUE, TASK_NAME

PLAYERS = 2
MOVE_CAP = 500  # the first season takes a few dozen moves


def test_a_queued_change_of_season_survives_a_killed_worker(stack):
    stack.kill_worker()
    broker = redis.Redis(host=stack.settings.host, port=stack.settings.redis_port, db=stack.settings.celery_db)
    bots = [RandomBot(f"season-{s}") for s in range(PLAYERS)]
    try:
        with stack.client() as client:
            created = client.create_game("noggin", PLAYERS, seed="season-kill")
            gid = created["game_id"]
            tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(PLAYERS)]
            for _ in range(MOVE_CAP):
                game = client.game(gid)
                if game["status"] != "active":
                    break
                [seat] = game["to_move"]
                bots[seat].play(client, gid, tokens[seat])
            assert game["status"] == "phase", "the first season should end within the move cap"
            queued_at = game["version"]
            # The task waits in the broker; with no worker nothing runs it.
            queued = [json.loads(m)["headers"] for m in broker.lrange(QUEUE, 0, -1)]
            assert [(h["task"], gid in h["argsrepr"]) for h in queued] == [
                (TASK_NAME, True)]
            assert client.game(gid)["version"] == queued_at
    finally:
        stack.start_worker()

    with stack.client() as client:
        for _ in range(60):  # bounded: 60 long-polls of at most 2 s
            game = client.wait(gid, after=queued_at, timeout=2)
            if game["version"] > queued_at:
                break
        assert game["version"] == queued_at + 1
        assert game["status"] == "active"

    entries = RedisStore(redis.Redis.from_url(stack.redis_url)).read(gid, after=queued_at - 1)
    season_changes = [e for entry in entries for e in entry.events if e.type == "SeasonAdvanced"]
    assert [entry.kind for entry in entries] == ["move", "phase"]
    assert [e.data["season"] for e in season_changes] == [2]
