"""The stack's logs are structured and never hold a seat token, an invitation or an operator key
(README "Logs"); the gateway's audit lines say who created and joined what (issue 13)."""

from __future__ import annotations

import json

import requests

from gateway.operators import digest, key_id


def test_gateway_log_has_json_request_lines_and_no_tokens(stack):
    with stack.client() as client:
        created = client.create_game("step_race", 2, seed="logs")
        gid = created["game_id"]
        token = client.take_seat(gid, 0, created["invitations"]["0"])
        refused = requests.post(f"{stack.gateway_url}/games/{gid}/seats/1", json={"invitation": created["invitations"]["0"]},
                                timeout=10)
        assert refused.status_code == 403 and refused.json()["error"] == "wrong_invitation"
        # EventSource clients must send the token in the query string
        resp = requests.get(f"{stack.gateway_url}/games/{gid}/stream",
                            params={"token": token, "max_events": 1}, timeout=10)
        assert resp.status_code == 200 and f"id: {gid}:1-0\n" in resp.text
        client.legal_moves(gid, token)
    log = (stack.data_dir / "logs" / "gateway.log").read_text()
    assert token not in log and token.split(".")[-1] not in log
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    paths = [r["path"] for r in records if r.get("event") == "http"]
    assert f"/games/{gid}/stream" in paths and f"/games/{gid}/legal-moves" in paths
    assert all(r["service"] == "gateway" for r in records if r.get("event") == "http")
    # the audit trail: the creation by this operator key (named by its id), the claim, the refusal
    audit = [r for r in records if r.get("event") == "audit" and r.get("game_id") == gid]
    operator = key_id(digest(stack.operator_key))
    assert [(r["action"], r.get("seat"), r.get("operator")) for r in audit] == [
        ("game.create", None, operator), ("seat.claim", 0, None), ("seat.refused", 1, None)]
    assert audit[0]["invited_seats"] == [0, 1] and audit[2]["why"] == "wrong_invitation"
    assert all(r["client"] == "127.0.0.1" for r in audit)
    for secret in (*created["invitations"].values(), stack.operator_key):
        assert secret not in log
