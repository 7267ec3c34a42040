"""The SSE stream and the API through a real gunicorn gevent process (the launcher's worker class) (acceptance B)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from gateway.operators import HEADER, digest
from tests.gateway.conftest import OPERATOR_KEY, make_app
from tests.gateway.sse import SseReader
from tests.support.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
GAMES = "tests.core_games.sealed_bid,tests.core_games.step_race,tests.core_games.lap_race"


@pytest.fixture(scope="module")
def gateway_url(redis_server, tmp_path_factory):
    """A gunicorn gevent gateway (embedded ports, inline phases) on a free loopback port."""
    port = free_port()
    env = dict(os.environ, LONGHOUSE_HOST="127.0.0.1", LONGHOUSE_REDIS_PORT=str(redis_server.port),
               LONGHOUSE_PORTS_MODE="embedded", LONGHOUSE_PHASE_MODE="inline",
               LONGHOUSE_EXTRA_GAMES=GAMES, LONGHOUSE_OPERATOR_KEYS=digest(OPERATOR_KEY), LONGHOUSE_OPERATOR_KEYS_FILE="")
    log = (tmp_path_factory.mktemp("gunicorn") / "gunicorn.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1",
         "--graceful-timeout", "3", "--no-control-socket", "-b", f"127.0.0.1:{port}", "gateway.app:create_app()"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=2).status_code == 200:
                break
        except (requests.ConnectionError, requests.Timeout):  # not listening, or the worker still loading
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError(f"gunicorn did not start; see {log.name}")
        time.sleep(0.05)
    yield url
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


class Http:
    def __init__(self, url: str):
        self.url = url
        self.invitations: dict[str, dict[str, str]] = {}

    def create(self, game: str, players: int) -> str:
        resp = requests.post(f"{self.url}/games", json={"game": game, "players": players, "seed": "3"}, timeout=10,
                             headers={HEADER: OPERATOR_KEY})
        assert resp.status_code == 201, resp.text
        self.invitations[resp.json()["game_id"]] = resp.json()["invitations"]
        return resp.json()["game_id"]

    def seat(self, gid: str, seat: int) -> str:
        resp = requests.post(f"{self.url}/games/{gid}/seats/{seat}", timeout=10,
                             json={"invitation": self.invitations[gid][str(seat)]})
        assert resp.status_code == 201, resp.text
        return resp.json()["token"]

    def version(self, gid: str) -> int:
        return requests.get(f"{self.url}/games/{gid}", timeout=10).json()["version"]

    def bid(self, gid: str, token: str, amount: int) -> int:
        resp = requests.post(f"{self.url}/games/{gid}/moves", timeout=10,
                             headers={"Authorization": f"Bearer {token}"},
                             json={"move_id": f"{time.monotonic_ns()}", "expected_version": self.version(gid),
                                   "move": {"type": "bid", "amount": amount}})
        assert resp.status_code == 200, resp.text
        return resp.json()["version"]


@pytest.fixture
def http(gateway_url, redis_client):
    return Http(gateway_url)


def test_gunicorn_serves_the_api_with_json_errors(http, gateway_url):
    gid = http.create("sealed_bid", 2)
    token = http.seat(gid, 0)
    resp = requests.post(f"{gateway_url}/games/{gid}/moves", data="{bad", timeout=10,
                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert resp.status_code == 400 and resp.json()["error"] == "bad_json"
    assert requests.get(f"{gateway_url}/games/nope", timeout=10).json()["error"] == "game_not_found"


def test_stream_headers_and_immediate_flush(http, gateway_url):
    gid = http.create("sealed_bid", 2)
    t0 = http.seat(gid, 0)
    reader = SseReader(f"{gateway_url}/games/{gid}/stream?idle_timeout=20", read_timeout=10)
    try:
        assert reader.resp.status_code == 200
        assert reader.resp.headers["Content-Type"].startswith("text/event-stream")
        assert reader.resp.headers["Cache-Control"] == "no-cache"
        assert reader.resp.headers["X-Accel-Buffering"] == "no"
        assert [reader.next_commit()["id"] for _ in range(2)] == [f"{gid}:1-0", f"{gid}:2-0"]
        v = http.bid(gid, t0, 1)
        started = time.monotonic()
        msg = reader.next_commit()  # arrives while the stream stays open: flushed at once
        assert msg["id"] == f"{gid}:{v}-0" and msg["data"]["version"] == v and msg["data"]["kind"] == "move"
        assert time.monotonic() - started < 5
    finally:
        reader.close()


def test_acceptance_b_reconnect_with_last_event_id_gets_every_later_event_once(http, gateway_url):
    gid = http.create("sealed_bid", 2)
    t0, t1 = http.seat(gid, 0), http.seat(gid, 1)
    first = SseReader(f"{gateway_url}/games/{gid}/stream?idle_timeout=20")
    seen = [first.next_commit()["data"]["version"] for _ in range(2)]
    v = http.bid(gid, t0, 1)
    last = first.next_commit()
    assert last["data"]["version"] == v
    seen.append(v)
    first.close()  # the client drops its connection

    later = [http.bid(gid, t1, 2), http.bid(gid, t0, 0), http.bid(gid, t1, 1)]
    second = SseReader(f"{gateway_url}/games/{gid}/stream?idle_timeout=1",
                       headers={"Last-Event-ID": last["id"]})
    got = [second.next_commit() for _ in later]
    later.append(http.bid(gid, t0, 1))  # committed while the client is connected
    got += second.rest()
    assert [m["data"]["version"] for m in got] == later
    assert [m["id"] for m in got] == [f"{gid}:{n}-0" for n in later]
    assert seen == [1, 2, v] and later == list(range(v + 1, v + 5))

    third = SseReader(f"{gateway_url}/games/{gid}/stream?idle_timeout=1&last_event_id={gid}:{later[1]}-0")
    assert [m["data"]["version"] for m in third.rest()] == later[2:]


def test_acceptance_b_secrets_stay_with_their_seat(http, gateway_url):
    gid = http.create("sealed_bid", 2)
    t0, t1 = http.seat(gid, 0), http.seat(gid, 1)
    for _round in range(3):
        http.bid(gid, t0, 1)
        http.bid(gid, t1, 1)
    final = http.version(gid)
    base = f"{gateway_url}/games/{gid}/stream?max_events={final}"
    spectator = SseReader(base)
    spectator_msgs = spectator.rest()
    seat0 = SseReader(base, headers={"Authorization": f"Bearer {t0}"})
    seat0_msgs = seat0.rest()
    seat1 = SseReader(f"{base}&token={t1}")
    seat1_msgs = seat1.rest()
    for msgs in (spectator_msgs, seat0_msgs, seat1_msgs):
        assert [m["data"]["version"] for m in msgs] == list(range(1, final + 1))

    assert "BidChosen" not in spectator.raw and "amount" not in spectator.raw
    for seat, msgs in ((0, seat0_msgs), (1, seat1_msgs)):
        chosen = [e for m in msgs for e in m["data"]["events"] if e["type"] == "BidChosen"]
        assert len(chosen) == 3 and all(e["to"] == seat and e["data"]["seat"] == seat for e in chosen)
    assert '"to":1' not in seat0.raw and '"to":0' not in seat1.raw


def test_stream_keepalive_and_bad_resume_id(redis_client, redis_server):
    import tests.core_games.sealed_bid  # noqa: F401

    app = make_app(redis_server.url, SSE_KEEPALIVE_SECONDS=0.1)
    client = app.test_client()
    gid = client.post("/games", json={"game": "sealed_bid", "players": 2}).json["game_id"]
    text = client.get(f"/games/{gid}/stream?idle_timeout=0.5&last_event_id={gid}:2-0").get_data(as_text=True)
    assert ": keep-alive" in text and "event: commit" not in text
    resp = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": "zz"})
    assert resp.status_code == 400 and resp.json["error"] == "bad_last_event_id"
    assert client.get(f"/games/{gid}/stream?max_events=0").status_code == 400
    text = client.get(f"/games/{gid}/stream?max_events=1").get_data(as_text=True)
    assert text.count("event: commit") == 1 and f"id: {gid}:1-0\n" in text


def test_a_resume_id_ahead_of_the_log_is_refused(client):
    """Issue: reliability, fault 2. A Last-Event-ID the log has not reached (a made-up one) was
    taken, and the versions up to it were never sent: now a 400."""
    import tests.core_games.sealed_bid  # noqa: F401

    gid = client.post("/games", json={"game": "sealed_bid", "players": 2}).json["game_id"]
    version = client.get(f"/games/{gid}").json["version"]
    for ahead in (f"{gid}:{version + 1}-0", f"{gid}:9999-0"):
        resp = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": ahead})
        assert resp.status_code == 400 and resp.json["error"] == "bad_last_event_id"
        assert f"version {version}" in resp.json["reason"]
    text = client.get(f"/games/{gid}/stream?max_events=1&last_event_id={gid}:{version - 1}-0").get_data(as_text=True)
    assert f"id: {gid}:{version}-0\n" in text  # an id the log has reached still resumes


def test_a_resume_id_of_another_game_is_refused(client):
    """Issue 27: stream ids carry the game. An id of another game's entry was taken by its version
    alone; now it is a 400 wrong_game_last_event_id, whatever its version, and an id without a game
    (the old ``<version>-0``) is a 400 bad_last_event_id."""
    import tests.core_games.sealed_bid  # noqa: F401

    gid = client.post("/games", json={"game": "sealed_bid", "players": 2}).json["game_id"]
    other = client.post("/games", json={"game": "sealed_bid", "players": 2}).json["game_id"]
    text = client.get(f"/games/{other}/stream?max_events=1").get_data(as_text=True)
    foreign = f"{other}:1-0"
    assert f"id: {foreign}\n" in text  # a real id, of the other game
    for sent in ({"headers": {"Last-Event-ID": foreign}}, {"query_string": {"last_event_id": foreign}}):
        resp = client.get(f"/games/{gid}/stream", **sent)
        assert resp.status_code == 400 and resp.json["error"] == "wrong_game_last_event_id"
        assert other in resp.json["reason"] and gid in resp.json["reason"]
    resp = client.get(f"/games/{gid}/stream", headers={"Last-Event-ID": "1-0"})
    assert resp.status_code == 400 and resp.json["error"] == "bad_last_event_id"
    text = client.get(f"/games/{gid}/stream?max_events=1", headers={"Last-Event-ID": f"{gid}:1-0"}).get_data(as_text=True)
    assert f"id: {gid}:2-0\n" in text  # its own id resumes
