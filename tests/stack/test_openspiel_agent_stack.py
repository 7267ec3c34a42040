"""examples/openspiel_agent.py served as an agent plays a hosted tournament (issue 24, acceptance 4):
OpenSpiel's Python ISMCTS, answering the signed HTTP agent protocol from each seat's view, takes
its seat in a small Resource Hog round robin through the gateway, on loopback."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
import requests

from tests.stack.test_tournament_stack import register, wait_done
from tests.support.agents import AgentProcess

pytestmark = pytest.mark.stack

SIMULATIONS = 2
"""ISMCTS simulations a decision: a tiny budget, so each answer comes well inside the move time."""
HORIZON = 6
"""Moves each simulation looks ahead before the game's evaluation ranks the seats."""
MOVE_LINE = re.compile(r"^move match=(\S+) version=(\d+) -> (\d+)$", re.MULTILINE)
"""The line the served example writes to its log for every move it answers."""


def test_the_openspiel_example_served_as_an_agent_plays_a_hosted_tournament(stack):
    url = stack.gateway_url
    with tempfile.TemporaryDirectory(prefix="agent-") as logdir:
        agent = AgentProcess("http", "openspiel", Path(logdir), argv=[
            "examples/openspiel_agent.py", "serve", "--port", "0", "--simulations", str(SIMULATIONS),
            "--horizon", str(HORIZON), "--seed", "3"])
        try:
            agent_id = register(stack, "openspiel-ismcts", "http", f"http://127.0.0.1:{agent.port}/")
            spec = {"games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": "openspiel-t",
                    "participants": [{"name": "openspiel", "kind": "agent", "agent": agent_id},
                                     {"name": "random", "kind": "random"}],
                    "time_control": {"move_ms": 10000, "bank_ms": 30000, "max_strikes": 3}}
            created = requests.post(f"{url}/tournaments", json=spec, headers=stack.operator, timeout=30)
            assert created.status_code == 201, created.text
            tid = created.json()["tournament_id"]
            doc = wait_done(url, tid, limit_s=600)
            log = agent.log_text()
        finally:
            agent.stop()
    assert doc["status"] == "done" and doc["played"] == doc["planned"] == 2  # one match a seat order
    rows = {r["name"]: r for r in doc["standings"]["rows"]}
    assert set(rows) == {"openspiel", "random"}
    mine = rows["openspiel"]
    assert mine["matches"] == 2 and mine["strikes"] == 0 and mine["default_moves"] == 0 and mine["forfeits"] == 0
    assert sorted(r["rank"] for r in rows.values()) in ([1, 2], [1, 1])
    answered = {}
    for game_id, _version, _index in MOVE_LINE.findall(log):
        answered[game_id] = answered.get(game_id, 0) + 1
    for match in doc["matches"]:
        assert match["ended_by"] == "rules", match
        assert answered.get(match["game_id"], 0) >= 5, (match["game_id"], answered, log[-2000:])
