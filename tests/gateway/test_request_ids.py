"""Request ids (issue 27): every answer of the gateway has one (``X-Request-ID``), every error
body carries it (``request_id``), and every log line written while serving the request has it."""

from __future__ import annotations

import re

import pytest

from gateway.request_ids import HEADER
from services.common import logs

FRESH = re.compile(r"[0-9a-f]{32}")
"""What an id the gateway makes looks like."""


def test_a_clients_sane_id_is_kept_in_the_header_and_the_error_body(client):
    resp = client.get("/games/nosuchgame", headers={HEADER: "req-7f3a.b:c_d+e/f=="})
    assert resp.status_code == 404 and resp.json["error"] == "game_not_found"
    assert resp.headers[HEADER] == "req-7f3a.b:c_d+e/f=="
    assert resp.json["request_id"] == "req-7f3a.b:c_d+e/f=="


@pytest.mark.parametrize("given", [None, "", "has space", "x" * 129, "quote\"d", "semi;colon"])
def test_an_absent_or_unsafe_id_is_replaced_by_a_fresh_one(client, given):
    headers = {} if given is None else {HEADER: given}
    first = client.get("/no/such/route", headers=headers)
    second = client.get("/no/such/route", headers=headers)
    assert first.status_code == 404 and first.json["error"] == "not_found"
    ids = [first.headers[HEADER], second.headers[HEADER]]
    assert all(FRESH.fullmatch(i) for i in ids) and ids[0] != ids[1], ids
    assert [first.json["request_id"], second.json["request_id"]] == ids


def test_success_answers_carry_the_id_too(client):
    resp = client.get("/catalog", headers={HEADER: "ok-1"})
    assert resp.status_code == 200 and resp.headers[HEADER] == "ok-1"


def test_errors_raised_before_the_view_have_it(client):
    too_big = client.post("/games", data=b"x" * (65 * 1024), content_type="application/json",
                          headers={HEADER: "big-1"})
    assert too_big.status_code == 413 and too_big.json["request_id"] == "big-1"
    wrong_method = client.delete("/catalog", headers={HEADER: "method-1"})
    assert wrong_method.status_code == 405 and wrong_method.json["request_id"] == "method-1"
    assert wrong_method.headers[HEADER] == "method-1"


def test_the_id_is_bound_while_the_request_is_served_and_then_unbound(app):
    seen = []
    app.add_url_rule("/probe-request-id", "probe_request_id", lambda: seen.append(logs.request_id.get()) or {})
    client = app.test_client()
    assert client.get("/probe-request-id", headers={HEADER: "bound-1"}).status_code == 200
    fresh = client.get("/probe-request-id").headers[HEADER]
    assert seen == ["bound-1", fresh] and FRESH.fullmatch(fresh)
    assert logs.request_id.get() is None  # nothing is left bound after the request


def test_a_log_line_carries_the_bound_request_id_and_the_current_span():
    token = logs.request_id.set("line-1")
    try:
        event = logs._add_request(None, "info", {"event": "x"})
    finally:
        logs.request_id.reset(token)
    assert event == {"event": "x", "request_id": "line-1"}  # no span is current here
    assert logs._add_request(None, "info", {"event": "y"}) == {"event": "y"}
