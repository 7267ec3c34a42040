"""Request ids through the real stack (issue 27): the gateway's answers and error bodies carry
them, and every line of its log written while serving a request has its id."""

from __future__ import annotations

import json
import time
import uuid

import requests

from gateway.request_ids import HEADER


def _records(stack, name: str) -> list[dict]:
    log = (stack.data_dir / "logs" / f"{name}.log").read_text()
    return [json.loads(line) for line in log.splitlines() if line.startswith("{")]


def test_the_gateway_answers_and_logs_every_request_with_its_id(stack):
    with stack.client() as client:
        created = client.create_game("step_race", 2, seed="request-ids")
        gid = created["game_id"]
        token = client.take_seat(gid, 0, created["invitations"]["0"])
    tag = uuid.uuid4().hex[:8]
    move_rid, missing_rid = f"move-{tag}", f"missing-{tag}"
    auth = {"Authorization": f"Bearer {token}"}
    version = requests.get(f"{stack.gateway_url}/games/{gid}", timeout=10).json()["version"]
    moved = requests.post(f"{stack.gateway_url}/games/{gid}/moves", timeout=10,
                          headers={**auth, HEADER: move_rid},
                          json={"move_id": "m1", "expected_version": version, "move": {"type": "advance", "steps": 1}})
    assert moved.status_code == 200 and moved.headers[HEADER] == move_rid, moved.text
    missing = requests.get(f"{stack.gateway_url}/games/no-such-game", headers={HEADER: missing_rid}, timeout=10)
    assert missing.status_code == 404 and missing.json()["request_id"] == missing_rid
    assert missing.headers[HEADER] == missing_rid
    made = requests.get(f"{stack.gateway_url}/games/no-such-game", headers={HEADER: "bad id"}, timeout=10)
    assert made.json()["request_id"] == made.headers[HEADER] != "bad id"

    # the access lines are written after the answers: poll the log for them (bounded)
    deadline = time.monotonic() + 10
    while True:
        http = [r for r in _records(stack, "gateway") if r.get("event") == "http"]
        ids = {r.get("request_id") for r in http}
        if {move_rid, missing_rid, made.headers[HEADER]} <= ids or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert {move_rid, missing_rid, made.headers[HEADER]} <= ids
    assert all(r.get("request_id") for r in http), [r for r in http if not r.get("request_id")][:3]
    statuses = {r["request_id"]: r["status"] for r in http if r["request_id"] in (move_rid, missing_rid)}
    assert statuses == {move_rid: 200, missing_rid: 404}
