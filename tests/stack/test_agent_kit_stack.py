"""``longhouse_agent.serve`` on the live stack: one function served over HTTP and over gRPC plays a
hosted tournament; and the two quickstart examples run as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from longhouse_agent import serve
from longhouse_client import Client
from tests.conftest import SDK_SOURCES

pytestmark = pytest.mark.stack
ROOT = Path(__file__).resolve().parents[2]
SECRET = "kit-stack-secret-0123456789"


def test_a_served_function_plays_a_hosted_tournament_over_http_and_grpc(stack):
    def choose(view, legal_moves, clock):
        assert clock.remaining_ms() > 0
        return (view.get("round", 0) + len(legal_moves)) % len(legal_moves)

    with serve(choose, protocol="http", secret=SECRET) as http_agent, \
            serve(choose, protocol="grpc", secret=SECRET) as grpc_agent, \
            Client(stack.gateway_url, operator_key=stack.operator_key) as lh:
        ids = {a.protocol: lh.register_agent(f"kit-{a.protocol}", a.protocol, a.address, SECRET).agent_id
               for a in (http_agent, grpc_agent)}
        made = lh.create_tournament({
            "games": ["resource_hog"], "format": "round_robin", "players": 2, "seed": "kit",
            "participants": [{"name": "kit-http", "kind": "agent", "agent": ids["http"]},
                             {"name": "kit-grpc", "kind": "agent", "agent": ids["grpc"]},
                             {"name": "random", "kind": "random"}],
            "time_control": {"move_ms": 3000, "bank_ms": 20000, "max_strikes": 3}})
        report = lh.wait_tournament(made.tournament_id, timeout_s=600)
        for agent_id in ids.values():
            lh.remove_agent(agent_id)
    assert report.status == "done" and report.played == made.planned == 6
    rows = {row.name: row for row in report.standings.rows}
    assert set(rows) == {"kit-http", "kit-grpc", "random"}
    assert all(row.model_extra.get("strikes", 0) == 0 for row in rows.values()), rows
    for agent in (http_agent, grpc_agent):
        assert sum(agent.accounts.decisions.values()) > 10
        assert len(agent.accounts.results) == 4  # an end payload for each of its matches
        assert not agent.accounts.errors and not agent.accounts.late


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *map(str, SDK_SOURCES)])}


def test_the_sdk_quickstart_plays_a_whole_game(stack):
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "sdk_quickstart.py"), "--url", stack.gateway_url,
                           "--operator-key-file", str(stack.stack.operator_key_path)],
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1].startswith("game over: "), proc.stdout[-2000:]


def test_the_agent_quickstart_plays_locally():
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "agent_quickstart.py"), "--games", "2"],
                          env=_env(), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert any(line.startswith("local match: gnomes, 2 games") for line in proc.stdout.splitlines()), proc.stdout
