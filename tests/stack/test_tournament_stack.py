"""Tournaments as jobs through the hosted stack (issue: agents and tournaments).

* Three built-in bots and two external agents (one gRPC, one HTTP) play a gauntlet,
  through the gateway's API, with standings, ratings and the three result files.
* Killing the Celery worker mid-tournament and starting it again completes the tournament
  with every match played exactly once: one game per match, no game beyond the plan.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis
import requests

from services.coordinator.redis_store import GAMES_INDEX, RedisStore
from services.tournament import jobs
from tests.support.agents import SECRET, example_agent

pytestmark = pytest.mark.stack


def register(stack, name: str, protocol: str, address: str) -> str:
    """Register an agent with the stack's operator key; its id."""
    resp = requests.post(f"{stack.gateway_url}/agents", json={"name": name, "protocol": protocol, "address": address,
                                                              "secret": SECRET}, headers=stack.operator, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()["agent_id"]


def wait_done(url: str, tid: str, limit_s: float = 300.0) -> dict:
    """Follow the tournament until it is done: long-poll the game of its next unrecorded match
    (a match not yet started, or the last step's standings, are polled every 0.2 s), bounded
    in time and count."""
    deadline = time.monotonic() + limit_s
    doc = requests.get(f"{url}/tournaments/{tid}", timeout=10).json()
    for _ in range(10_000):
        if doc["status"] != "running" or time.monotonic() > deadline:
            break
        running = [m for m in range(doc["planned"]) if m not in {x["index"] for x in doc["matches"]}]
        waited = requests.get(f"{url}/games/{jobs.match_game_id(tid, running[0])}/wait",
                              params={"after": 0, "timeout": 2, "until": "over"}, timeout=30) if running else None
        if waited is None or waited.status_code != 200:
            threading.Event().wait(0.2)  # nothing to long-poll yet: the job's next step is a tick away
        doc = requests.get(f"{url}/tournaments/{tid}", timeout=10).json()
    assert doc["status"] == "done", (f"tournament {tid} did not finish: {doc['status']}, "
                                     f"{doc['played']}/{doc['planned']}, error: {doc.get('error')}")
    return doc


def games_of(stack, tid: str) -> list[str]:
    """Every game stored on the stack (its meta key, listed or not) labelled as a match of ``tid``."""
    client = redis.Redis.from_url(stack.redis_url)
    store = RedisStore(client)
    out = []
    for raw in client.scan_iter(match="game:{*}:meta", count=1000):
        game_id = raw.decode().split("{", 1)[1].split("}", 1)[0]
        if (store.meta(game_id).get("labels") or {}).get("tournament") == tid:
            out.append(game_id)
    return out


def test_bots_and_two_agents_play_a_tournament_with_standings_and_files(stack, tmp_path):
    url = stack.gateway_url
    with example_agent("http", seed="h") as http_address, example_agent("grpc", seed="g") as grpc_address:
        http_agent = register(stack, "sample-http", "http", http_address)
        grpc_agent = register(stack, "sample-grpc", "grpc", grpc_address)
        spec = {"games": ["resource_hog"], "format": "gauntlet", "players": 2, "seed": "stack-t",
                "challengers": ["http", "grpc"],
                "participants": [{"name": "http", "kind": "agent", "agent": http_agent},
                                 {"name": "grpc", "kind": "agent", "agent": grpc_agent},
                                 {"name": "random", "kind": "random"}, {"name": "greedy", "kind": "greedy"},
                                 {"name": "ismcts", "kind": "ismcts", "iterations": 8}],
                "time_control": {"move_ms": 5000, "bank_ms": 10000, "max_strikes": 3}}
        created = requests.post(f"{url}/tournaments", json=spec, headers=stack.operator, timeout=30)
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        assert created.json()["planned"] == 2 * 3 * 2  # challengers x field x seat rotations
        doc = wait_done(url, tid)
    assert doc["status"] == "done" and doc["played"] == doc["planned"] == 12
    rows = {r["name"]: r for r in doc["standings"]["rows"]}
    assert set(rows) == {"http", "grpc", "random", "greedy", "ismcts"}
    assert rows["http"]["matches"] == rows["grpc"]["matches"] == 6 and rows["ismcts"]["matches"] == 4
    assert all(r["strikes"] == 0 and r["forfeits"] == 0 for r in rows.values())
    assert all(0 < r["sigma"] < 25 / 3 for r in rows.values())  # every rating was updated
    assert sorted(m["game_id"] for m in doc["matches"]) == sorted(games_of(stack, tid))
    paths = jobs.write_outputs(doc, tmp_path)
    assert json.loads((tmp_path / "standings.json").read_text())["tournament"]["tournament_id"] == tid
    assert (tmp_path / "standings.csv").read_text().splitlines()[0].startswith("rank,name")
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and "png" in paths


def test_killing_the_worker_mid_tournament_plays_every_match_exactly_once(stack):
    url = stack.gateway_url
    spec = {"games": ["gnomes"], "format": "round_robin", "players": 2, "seed": "kill-t", "parallel": 2,
            "participants": [{"name": "a", "kind": "random"}, {"name": "b", "kind": "greedy"},
                             {"name": "c", "kind": "random"}]}
    tid = requests.post(f"{url}/tournaments", json=spec, headers=stack.operator, timeout=30).json()["tournament_id"]
    # wait until the first match is in play and the second not yet recorded, then kill
    first = jobs.match_game_id(tid, 0)
    for _ in range(100):
        if requests.get(f"{url}/games/{first}", timeout=10).status_code == 200:
            break
        requests.get(f"{url}/tournaments/{tid}", timeout=10)
    doc = requests.get(f"{url}/tournaments/{tid}", timeout=10).json()
    assert doc["status"] == "running" and doc["played"] < doc["planned"]
    stack.kill_worker()
    stack.start_worker()
    doc = wait_done(url, tid)
    assert doc["status"] == "done" and doc["played"] == doc["planned"] == 6
    assert sorted(m["index"] for m in doc["matches"]) == list(range(6))
    games = games_of(stack, tid)
    assert sorted(games) == sorted(jobs.match_game_id(tid, i) for i in range(6))  # one game each, no more
    listed = {g.decode() for g in redis.Redis.from_url(stack.redis_url).zrange(GAMES_INDEX, 0, -1)}
    assert set(games) <= listed  # a creation cut short between its two writes is listed too
    assert all(m["ended_by"] == "rules" for m in doc["matches"])


@pytest.mark.parametrize("behaviour", ["crash", "sleep"])
def test_a_tournament_with_a_failing_agent_completes_with_its_strikes_and_forfeits(stack, behaviour):
    url = stack.gateway_url
    with example_agent("http", behaviour, sleep_s=10) as address:
        agent = register(stack, f"bad-{behaviour}", "http", address)
        spec = {"games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": f"bad-{behaviour}",
                "participants": [{"name": "bad", "kind": "agent", "agent": agent},
                                 {"name": "random", "kind": "random"}],
                "time_control": {"move_ms": 150, "bank_ms": 0, "max_strikes": 2}}
        tid = requests.post(f"{url}/tournaments", json=spec, headers=stack.operator, timeout=30).json()["tournament_id"]
        doc = wait_done(url, tid)
    assert doc["played"] == doc["planned"] == 2
    rows = {r["name"]: r for r in doc["standings"]["rows"]}
    assert rows["bad"]["forfeits"] == 2 and rows["bad"]["strikes"] == 4 and rows["bad"]["default_moves"] == 2
    assert rows["random"]["wins"] == 2 and rows["bad"]["rank"] == 2
    for m in doc["matches"]:
        bad_seat = m["seats"].index("bad")
        assert m["ended_by"] == "forfeit" and m["forfeited"] == [bad_seat] and m["strikes"][bad_seat] == 2
