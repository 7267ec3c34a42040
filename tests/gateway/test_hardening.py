"""Hostile input found by trying to break the gateway: each gets a 4xx JSON answer and
changes nothing; long waits survive past the Redis client's default read timeout."""

from __future__ import annotations

import io
import json
import time

import pytest

from tests.gateway.conftest import make_app


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def test_deeply_nested_json_is_a_400_not_a_crash(client, api):
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    body = '{"move_id": "n", "expected_version": 2, "move": ' + "[" * 50_000 + "]" * 50_000 + "}"
    for path in (f"/games/{gid}/moves", "/games"):
        resp = client.post(path, data=body, headers={**_auth(t0), "Content-Type": "application/json"})
        assert resp.status_code in (400, 413) and resp.json["error"] in ("bad_json", "body_too_large")
    nested = '{"move_id": "n", "expected_version": 2, "move": {"a": ' + "[" * 10_000 + "]" * 10_000 + "}}"
    resp = client.post(f"/games/{gid}/moves", data=nested, headers={**_auth(t0), "Content-Type": "application/json"})
    assert resp.status_code == 400 and resp.json["error"] == "bad_json"
    assert api.version(gid) == 2


def test_nan_and_infinity_are_not_json(client, api):
    resp = client.post("/games", data='{"game": "step_race", "players": NaN}',
                       headers={"Content-Type": "application/json"})
    assert resp.status_code == 400 and resp.json["error"] == "bad_json"


def test_a_body_that_is_not_utf8_json_is_bad_json_and_changes_nothing(client, api):
    """The body is UTF-8 JSON (RFC 8259, 8.1; docs/API.md): UTF-16 and UTF-32 text and a byte
    order mark are refused as ``bad_json`` (the standard library would have decoded them, and a
    trial's UTF-16 move went on to the move's checks)."""
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    body = json.dumps({"move_id": "u", "expected_version": 2, "move": {"type": "advance", "steps": 1}})
    for raw in (body.encode("utf-16"), body.encode("utf-16-le"), body.encode("utf-32"), b"\xef\xbb\xbf" + body.encode()):
        resp = client.post(f"/games/{gid}/moves", data=raw, headers={**_auth(t0), "Content-Type": "application/json"})
        assert resp.status_code == 400 and resp.json["error"] == "bad_json", raw[:8]
    assert api.version(gid) == 2
    resp = client.post(f"/games/{gid}/moves", data=body.encode(), headers={**_auth(t0), "Content-Type": "application/json"})
    assert resp.status_code == 200 and api.version(gid) > 2


@pytest.mark.parametrize("seat", ["%C2%B2", "%EF%BC%91", "01", "-1", "1e0", " 1"])
def test_seats_must_be_plain_digits(client, api, seat):
    gid = api.create("step_race", 2)
    resp = client.post(f"/games/{gid}/seats/{seat}")
    assert resp.status_code == 422 and resp.json["error"] == "bad_seat"
    t0 = api.seat(gid, 0)
    resp = client.get(f"/games/{gid}/legal-moves?seat={seat}", headers=_auth(t0))
    assert resp.status_code == 400 and resp.json["error"] == "bad_request"


@pytest.mark.parametrize("bad", ["{gid}:18446744073709551616-0", "{gid}:5", "{gid}:1-1", "{gid}:1-abc", "{gid}:+1-0",
                                 "{gid}:1-0-0", "{gid}:1_0-0", "{gid}:-1-0", "1-0", "{gid}1-0", ":1-0", "{gid}::1-0",
                                 "{gid}:1-0:{gid}", "x" * 65 + ":1-0", "a.b:1-0"])
def test_garbage_last_event_id_is_a_400(client, api, bad):
    gid = api.create("step_race", 2)
    resp = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": bad.format(gid=gid)})
    assert resp.status_code == 400 and resp.json["error"] == "bad_last_event_id"


@pytest.mark.parametrize("after", ["99999999999999999999", "1.5", "-3", "x"])
def test_wait_after_must_be_a_version(client, api, after):
    gid = api.create("step_race", 2)
    resp = client.get(f"/games/{gid}/wait?after={after}&timeout=0")
    assert resp.status_code == 400 and resp.json["error"] == "bad_request"


def test_a_chunked_body_over_the_limit_is_a_413(client, api):
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    body = json.dumps({"move_id": "c", "expected_version": 2, "move": {"type": "advance", "steps": 1}})
    padded = (body + " " * (200 * 1024)).encode()
    # a chunked upload: no Content-Length, the server reads until the input ends
    resp = client.post(f"/games/{gid}/moves", input_stream=io.BytesIO(padded),
                       headers={**_auth(t0), "Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                       environ_overrides={"wsgi.input_terminated": True})
    assert resp.status_code == 413 and resp.json["error"] == "body_too_large"
    assert api.version(gid) == 2


@pytest.mark.parametrize("players", [-1, 0, 1, 5, 9, 1000])
def test_player_counts_out_of_range_are_a_422_naming_the_range(client, players):
    resp = client.post("/games", json={"game": "step_race", "players": players})
    assert resp.status_code == 422 and resp.json["error"] == "bad_config"
    assert "2 to 4" in resp.json["reason"]


def test_a_wait_longer_than_five_seconds_answers_200(redis_client, redis_server, api):
    """The Redis client's read timeout must outlast the longest XREAD BLOCK (the 5 s
    default of the client library would cut a 30 s long-poll short)."""
    app = make_app(redis_server.url, TESTING=True)
    client = app.test_client()
    gid = client.post("/games", json={"game": "step_race", "players": 2}).json["game_id"]
    start = time.monotonic()
    resp = client.get(f"/games/{gid}/wait?after=2&timeout=6")
    assert resp.status_code == 200 and resp.json["version"] == 2
    assert time.monotonic() - start >= 6  # it really blocked for the whole wait


def test_a_token_in_the_query_is_refused_where_only_the_header_counts(client, api):
    """A ``?token=`` on the view or the legal moves would be ignored and answer as a spectator;
    it is refused with a 400 that says how to send the token (the stream alone takes it)."""
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    for path in (f"/games/{gid}/view", f"/games/{gid}/legal-moves"):
        resp = client.get(f"{path}?token={t0}")
        assert resp.status_code == 400 and "Authorization: Bearer" in resp.json["reason"]
    assert client.get(f"/games/{gid}/view", headers=_auth(t0)).json["seat"] == 0
