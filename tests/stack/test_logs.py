"""The stack's logs are structured and never hold a seat token (README "Logs")."""

from __future__ import annotations

import json

import requests



def test_gateway_log_has_json_request_lines_and_no_tokens(stack):
    with stack.client() as client:
        gid = client.create_game("step_race", 2, seed="logs")["game_id"]
        token = client.take_seat(gid, 0)
        # EventSource clients must send the token in the query string
        resp = requests.get(f"{stack.gateway_url}/games/{gid}/stream",
                            params={"token": token, "max_events": 1}, timeout=10)
        assert resp.status_code == 200 and "id: 1-0" in resp.text
        client.legal_moves(gid, token)
    log = (stack.data_dir / "logs" / "gateway.log").read_text()
    assert token not in log and token.split(".")[-1] not in log
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    paths = [r["path"] for r in records if r.get("event") == "http"]
    assert f"/games/{gid}/stream" in paths and f"/games/{gid}/legal-moves" in paths
    assert all(r["service"] == "gateway" for r in records if r.get("event") == "http")
