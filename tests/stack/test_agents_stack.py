"""External agents on the hosted stack (issue: agents and tournaments): an HTTP and a gRPC agent
play whole games; an agent that sleeps past its limit, crashes, answers garbage or an illegal
move gets default moves and strikes until it forfeits, and the game ends. The event log says
so, and so does the worker's audit line ``seat.forfeit``. (That a late answer changes nothing,
and that the default move is the seeded random one, is shown on an embedded table in
tests/unit/test_match_strikes.py.)"""

from __future__ import annotations

import json

import pytest
import redis
import requests

from services.coordinator.redis_store import RedisStore
from tests.support.agents import SECRET, example_agent
from tests.support.wait import wait_for

pytestmark = pytest.mark.stack


def register(stack, name: str, protocol: str, address: str) -> str:
    """Register an agent with the stack's operator key; its id."""
    resp = requests.post(f"{stack.gateway_url}/agents", json={"name": name, "protocol": protocol, "address": address,
                                                              "secret": SECRET}, headers=stack.operator, timeout=10)
    assert resp.status_code == 201, resp.text
    assert "secret" not in resp.json()
    return resp.json()["agent_id"]


def play_to_end(url: str, game_id: str, timeout: float = 120.0) -> dict:
    summary = requests.get(f"{url}/games/{game_id}", timeout=10).json()
    for _ in range(400):
        if summary["status"] == "over":
            return summary
        summary = requests.get(f"{url}/games/{game_id}/wait", params={"after": summary["version"], "timeout": 5,
                                                                      "until": "over"}, timeout=30).json()
    raise AssertionError(f"game {game_id} did not end: {summary}")


def events_of(stack, game_id: str) -> list[dict]:
    """Every event of the game's log, read from the store."""
    store = RedisStore(redis.Redis.from_url(stack.redis_url))
    return [e.to_json() for entry in store.read(game_id) for e in entry.events]


@pytest.mark.parametrize("protocol", ["http", "grpc"])
def test_a_good_agent_plays_a_whole_game(stack, protocol):
    url = stack.gateway_url
    with example_agent(protocol) as address:
        agent = register(stack, f"good-{protocol}", protocol, address)
        created = requests.post(f"{url}/games", json={
            "game": "resource_hog", "players": 2, "seed": f"agent-{protocol}",
            "bots": {"0": {"kind": "agent", "agent": agent}, "1": {"kind": "random", "seed": "b"}}},
            headers=stack.operator, timeout=30)
        assert created.status_code == 201, created.text
        summary = play_to_end(url, created.json()["game_id"])
    assert summary["outcome"]["reason"] == "rounds"
    types = [e["type"] for e in events_of(stack, summary["game_id"])]
    assert "StrikeRecorded" not in types and summary["moves"] > 20 and "strikes" not in summary


@pytest.mark.parametrize("protocol,behaviour,reason", [
    ("http", "sleep", "timeout"), ("grpc", "crash", "crash"), ("http", "garbage", "malformed"),
    ("grpc", "illegal", "illegal"), ("grpc", "sleep", "timeout"), ("http", "crash", "crash"),
])
def test_a_bad_agent_gets_default_moves_and_strikes_then_forfeits(stack, protocol, behaviour, reason):
    url = stack.gateway_url
    # an agent that answers at once (a crash, garbage, an illegal move) has time enough for its answer to
    # count as what it is on a loaded machine (a crash once came in past 300 ms + the bank, a timeout)
    move_ms = 300 if behaviour == "sleep" else 2000
    with example_agent(protocol, behaviour, sleep_s=20) as address:
        agent = register(stack, f"{behaviour}-{protocol}", protocol, address)
        created = requests.post(f"{url}/games", json={
            "game": "noggin", "players": 2, "seed": f"bad-{behaviour}-{protocol}",
            "time_control": {"move_ms": move_ms, "bank_ms": 200, "max_strikes": 3},
            "bots": {"1": {"kind": "agent", "agent": agent, "seed": "default-seed"},
                     "0": {"kind": "random", "seed": "r"}}}, headers=stack.operator, timeout=30)
        assert created.status_code == 201, created.text
        summary = play_to_end(url, created.json()["game_id"])
    assert summary["outcome"] == {"reason": "forfeit", "forfeited": [1], "winners": [0], "scores": [0, 0]}
    assert summary["strikes"] == {"1": 3}
    events = events_of(stack, summary["game_id"])
    strikes = [e["data"] for e in events if e["type"] == "StrikeRecorded"]
    assert strikes == [{"seat": 1, "reason": reason, "strikes": n} for n in (1, 2, 3)]
    assert [e["data"] for e in events if e["type"] == "SeatForfeited"] == [{"seat": 1, "reason": "strikes", "strikes": 3}]
    # the audit trail names the forfeit: game, seat, agent and the failure that was the last strike
    game_id = summary["game_id"]

    def forfeits() -> list[dict]:
        lines = stack.movers_log().splitlines()  # the movers ask agents
        rows = [json.loads(line) for line in lines if line.startswith("{") and '"seat.forfeit"' in line]
        return [r for r in rows if r.get("game_id") == game_id]

    (audit,) = wait_for(forfeits, 30, "the seat.forfeit audit line")
    assert (audit["event"], audit["seat"], audit["agent"], audit["failure"]) == ("audit", 1, agent, reason)
