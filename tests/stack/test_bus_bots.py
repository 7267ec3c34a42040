"""Built-in bots decide on the bus: the mover plays each bot seat's move after the commit
that leaves the game waiting for it (no HTTP), the same moves as an embedded game of the
same seeds, and a mover killed mid-game loses nothing and plays nothing twice."""

from __future__ import annotations

import time

import redis

from services.coordinator.redis_store import RedisStore
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig, events_to_json

BOTS = {"0": {"kind": "random", "seed": "bus-0"}, "1": {"kind": "greedy", "seed": "bus-1"},
        "2": {"kind": "random", "seed": "bus-2"}}
KILL_BOTS = {"0": {"kind": "random", "seed": "k0"}, "1": {"kind": "random", "seed": "k1"}}
DEADLINE_S = 240


def _log(entries):
    return [(e.version, e.kind, e.seat, events_to_json(e.events)) for e in entries]


def _wait_over(client, gid):
    deadline = time.monotonic() + DEADLINE_S
    game = client.game(gid)
    while game["status"] != "over" and time.monotonic() < deadline:
        game = client.wait(gid, after=game["version"], timeout=10)
    return game


def test_bots_play_a_whole_game_on_the_bus_like_embedded(stack):
    with stack.client() as client:
        gid = client._call("POST", "/games", json={"game": "noggin", "players": 3, "seed": "bus-seed",
                                                   "bots": BOTS}, operator=True)["game_id"]
        game = _wait_over(client, gid)
    assert game["status"] == "over"
    hosted = _log(RedisStore(redis.Redis.from_url(stack.redis_url)).read(gid))
    table = embedded_table()
    eid = table.create(GameConfig(game="noggin", players=3), seed="bus-seed",
                       bots={int(s): b for s, b in BOTS.items()})
    assert hosted == _log(table.store.read(eid))
    assert game["state_hash"] == table.summary(eid)["state_hash"]


def test_a_killed_mover_loses_no_bot_move_and_plays_none_twice(stack):
    with stack.client() as client:
        gid = client._call("POST", "/games", json={"game": "noggin", "players": 2, "seed": "bus-kill",
                                                   "bots": KILL_BOTS}, operator=True)["game_id"]
        game = client.game(gid)
        while game["version"] < 40 and game["status"] != "over":
            game = client.wait(gid, after=game["version"], timeout=10)
        stack.kill_mover()
        stopped_at = client.game(gid)["version"]
        stack.start_mover()
        game = _wait_over(client, gid)
    assert game["status"] == "over" and game["version"] > stopped_at
    hosted = _log(RedisStore(redis.Redis.from_url(stack.redis_url)).read(gid))
    table = embedded_table()
    eid = table.create(GameConfig(game="noggin", players=2), seed="bus-kill",
                       bots={int(s): b for s, b in KILL_BOTS.items()})
    assert hosted == _log(table.store.read(eid))  # every decision once, in order: none lost, none twice
