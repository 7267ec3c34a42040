"""The gateway's HTTP API through the Flask test client (embedded ports, inline phases)."""

from __future__ import annotations

import hashlib
import json
import threading

import pytest

from services.coordinator.redis_store import key


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_healthz(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200 and resp.json == {"status": "ok"}


def test_create_game_and_summary_never_show_the_seed_or_a_running_hash(client, api):
    resp = client.post("/games", json={"game": "step_race", "players": 2, "seed": "secret-seed-771"})
    assert resp.status_code == 201
    assert set(resp.json) == {"game_id", "version", "status", "open", "invitations"}
    assert resp.json["status"] == "active"
    gid = resp.json["game_id"]
    summary = client.get(f"/games/{gid}").json
    assert summary["game"] == "step_race" and summary["to_move"] == [0]
    assert summary["seats_taken"] == [] and summary["outcome"] is None
    assert "state_hash" not in summary
    texts = [client.get(f"/games/{gid}").data, client.get(f"/games/{gid}/view").data,
             client.get(f"/games/{gid}/stream?idle_timeout=0.2").data]
    assert all(b"secret-seed-771" not in t for t in texts)


def _play_step_race_to_the_end(client, api) -> tuple[str, dict]:
    """A 2-seat step race played to its end through the API; (game id, final summary)."""
    gid = api.create("step_race", 2)
    tokens = [api.seat(gid, 0), api.seat(gid, 1)]
    for _ in range(20):
        summary = client.get(f"/games/{gid}").json
        if summary["status"] == "over":
            break
        assert api.move(gid, tokens[summary["to_move"][0]], {"type": "advance", "steps": 3}).status_code == 200
    return gid, summary


def test_state_hash_appears_once_the_game_is_over(client, api, table):
    gid, summary = _play_step_race_to_the_end(client, api)
    assert summary["status"] == "over" and summary["outcome"]["winners"]
    assert summary["state_hash"] == table.summary(gid)["state_hash"]


def test_a_finished_game_keeps_its_record_and_retires_its_seats(client, api, redis_client):
    """README, Retention: once over, no seat can be taken and the seats expire; log and meta stay."""
    gid, summary = _play_step_race_to_the_end(client, api)
    assert summary["status"] == "over"
    resp = client.post(f"/games/{gid}/seats/0")
    assert (resp.status_code, resp.json["error"]) == (409, "game_over")
    assert redis_client.ttl(key(gid, "seats")) > 0
    assert redis_client.ttl(key(gid, "log")) == -1 and redis_client.ttl(key(gid, "meta")) == -1
    redis_client.delete(key(gid, "seats"))  # as when the time to live has passed
    assert client.post(f"/games/{gid}/seats/1").json["error"] == "game_over"
    assert not redis_client.exists(key(gid, "seats"))
    assert client.get(f"/games/{gid}").json["status"] == "over"
    assert client.get(f"/games/{gid}/view").status_code == 200


def test_create_game_rejects_bad_bodies(client):
    assert client.post("/games", data="{nope", content_type="application/json").json["error"] == "bad_json"
    resp = client.post("/games", json={"game": "step_race", "players": "2"})
    assert resp.status_code == 400 and resp.json["error"] == "bad_request" and "players" in resp.json["reason"]
    resp = client.post("/games", json={"game": "no_such_game", "players": 2})
    assert resp.status_code == 422 and resp.json["error"] == "unknown_game"
    resp = client.post("/games", json={"game": "step_race", "players": 7})
    assert resp.status_code == 422 and resp.json["error"] == "bad_config"


@pytest.mark.parametrize("method,path", [
    ("get", "/games/{g}"), ("get", "/games/{g}/view"), ("get", "/games/{g}/legal-moves"),
    ("post", "/games/{g}/moves"), ("post", "/games/{g}/seats/0"), ("get", "/games/{g}/stream"),
    ("get", "/games/{g}/wait?after=0&timeout=0"),
])
def test_unknown_game_is_404(client, method, path):
    resp = getattr(client, method)(path.format(g="0123456789abcdef"))
    assert resp.status_code == 404 and resp.json["error"] == "game_not_found"


def test_unknown_routes_and_methods_answer_json(client):
    assert client.get("/nowhere").json["error"] == "not_found"
    resp = client.put("/games")
    assert resp.status_code == 405 and resp.json["error"] == "method_not_allowed"


def test_seats_taken_once_and_bad_seats(client, api):
    gid = api.create("sealed_bid", 2)
    api.seat(gid, 1)
    resp = client.post(f"/games/{gid}/seats/1", json=api.invitation(gid, 1))  # its invitation, used once
    assert resp.status_code == 409 and resp.json["error"] == "seat_taken"
    for bad in ("2", "-1", "x"):
        resp = client.post(f"/games/{gid}/seats/{bad}")
        assert resp.status_code == 422 and resp.json["error"] == "bad_seat"
    assert client.get(f"/games/{gid}").json["seats_taken"] == [1]


def test_only_the_token_hash_is_stored(client, api, redis_client):
    gid = api.create("sealed_bid", 2)
    token = api.seat(gid, 0)
    stored = redis_client.hgetall(key(gid, "seats"))
    assert stored == {b"0": hashlib.sha256(token.encode()).hexdigest().encode()}
    secret_part = token.split(".", 1)[1].encode()
    for k in redis_client.scan_iter():
        kind = redis_client.type(k)
        dump = {b"string": lambda: [redis_client.get(k)],
                b"hash": lambda: list(redis_client.hgetall(k).values()),
                b"stream": lambda: [v for _i, f in redis_client.xrange(k) for v in f.values()],
                b"zset": lambda: [m for m, _s in redis_client.zrange(k, 0, -1, withscores=True)],
                }.get(kind, lambda: [])()
        assert all(secret_part not in (v or b"") for v in dump), k


def test_tokens_are_checked(client, api):
    gid = api.create("sealed_bid", 2)
    other = api.create("sealed_bid", 2)
    other_token = api.seat(other, 0)
    api.seat(gid, 0)
    body = {"move_id": "a", "expected_version": api.version(gid), "move": {"type": "bid", "amount": 1}}
    cases = [({}, 401, "missing_token"), (_auth(f"{gid}.forged"), 401, "unknown_token"),
             ({"Authorization": "Basic abc"}, 401, "bad_authorization"),
             (_auth(other_token), 403, "wrong_game")]
    for headers, status, code in cases:
        resp = client.post(f"/games/{gid}/moves", json=body, headers=headers)
        assert (resp.status_code, resp.json["error"]) == (status, code)
        resp = client.get(f"/games/{gid}/legal-moves", headers=headers)
        assert (resp.status_code, resp.json["error"]) == (status, code)


def test_view_and_legal_moves_per_seat(client, api):
    gid = api.create("sealed_bid", 2)
    t0 = api.seat(gid, 0)
    assert api.move(gid, t0, {"type": "bid", "amount": 4}).status_code == 200
    mine = client.get(f"/games/{gid}/view", headers=_auth(t0)).json
    spectator = client.get(f"/games/{gid}/view").json
    assert mine["seat"] == 0 and mine["view"]["my_bid"] == 4
    assert spectator["seat"] is None and "my_bid" not in spectator["view"]
    assert spectator["view"]["sealed"] == [True, False] and spectator["to_move"] == [1]
    t1 = api.seat(gid, 1)
    legal = client.get(f"/games/{gid}/legal-moves", headers=_auth(t1)).json
    assert legal["seat"] == 1 and {"type": "bid", "amount": 5} in legal["moves"]
    assert client.get(f"/games/{gid}/legal-moves", headers=_auth(t0)).json["moves"] == []
    resp = client.get(f"/games/{gid}/legal-moves?seat=0", headers=_auth(t1))
    assert resp.status_code == 403 and resp.json["error"] == "wrong_seat"


def test_move_events_show_only_what_the_seat_may_see(api):
    gid = api.create("sealed_bid", 2)
    t0, t1 = api.seat(gid, 0), api.seat(gid, 1)
    first = api.move(gid, t0, {"type": "bid", "amount": 2}).json
    assert [e["type"] for e in first["events"]] == ["BidSealed", "BidChosen"]
    last = api.move(gid, t1, {"type": "bid", "amount": 3}).json
    types = [e["type"] for e in last["events"]]
    assert types == ["BidSealed", "BidChosen", "BidsRevealed"]
    assert all(e["to"] in (None, 1) for e in last["events"])


def test_move_id_repeat_returns_the_first_result(client, api, table):
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    v = api.version(gid)
    first = api.move(gid, t0, {"type": "advance", "steps": 2}, version=v, move_id="same")
    assert first.status_code == 200 and first.json["version"] == v + 1
    again = api.move(gid, t0, {"type": "advance", "steps": 2}, version=v, move_id="same")
    assert again.status_code == 200 and again.get_data() == first.get_data()  # the same bytes
    reused = api.move(gid, t0, {"type": "advance", "steps": 3}, version=v, move_id="same")
    assert reused.status_code == 409 and reused.json["error"] == "move_id_reused"
    assert table.store.version(gid) == v + 1
    assert [e.kind for e in table.store.read(gid)].count("move") == 1
    fresh = api.move(gid, t0, {"type": "advance", "steps": 3}, version=v, move_id="other")
    assert fresh.status_code == 409 and fresh.json["error"] == "stale_version"


def test_move_id_length_is_bounded(client, api):
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    for move_id in ("", "x" * 129):
        resp = client.post(f"/games/{gid}/moves", headers=_auth(t0), json={
            "move_id": move_id, "expected_version": api.version(gid),
            "move": {"type": "advance", "steps": 1}})
        assert resp.status_code == 400 and "move_id" in resp.json["reason"]
    assert api.move(gid, t0, {"type": "advance", "steps": 1}, move_id="x" * 128).status_code == 200


def test_acceptance_a_rejected_moves_change_nothing(client, api, table):
    """Another seat's token, an illegal move, a stale version, malformed JSON: 4xx, nothing changes."""
    gid = api.create("step_race", 3)
    tokens = [api.seat(gid, s) for s in range(3)]
    assert api.move(gid, tokens[0], {"type": "advance", "steps": 1}).status_code == 200
    before = table.summary(gid)
    v = before["version"]
    mover = before["to_move"][0]
    other = (mover + 1) % 3
    good = {"type": "advance", "steps": 1}

    def post(token, body=None, data=None):
        kwargs = {"json": body} if data is None else {"data": data, "content_type": "application/json"}
        return client.post(f"/games/{gid}/moves", headers=_auth(token), **kwargs)

    attempts = [
        # another seat's token: not its turn, or naming the mover's seat
        (post(tokens[other], {"move_id": "x1", "expected_version": v, "move": good}), 409, "not_your_turn", "seat"),
        (post(tokens[other], {"move_id": "x2", "expected_version": v, "move": good, "seat": mover}),
         403, "wrong_seat", "seat"),
        (post(tokens[mover], {"move_id": "x3", "expected_version": v, "move": {"type": "advance", "steps": 9}}),
         422, "illegal_move", "advance 1, 2 or 3"),
        (post(tokens[mover], {"move_id": "x4", "expected_version": v, "move": {"steps": 1}}),
         422, "malformed_move", "type"),
        (post(tokens[mover], {"move_id": "x5", "expected_version": v - 1, "move": good}),
         409, "stale_version", f"version {v}"),
        (post(tokens[mover], data='{"move_id": "x6", "expected_version": '), 400, "bad_json", "JSON"),
        (post(tokens[mover], {"move_id": "x7", "expected_version": "v", "move": good}),
         400, "bad_request", "expected_version"),
        (post(tokens[mover], data=json.dumps({"move_id": "x8", "expected_version": v, "move": good,
                                              "pad": "x" * 70_000})), 413, "body_too_large", "larger"),
    ]
    for resp, status, code, words in attempts:
        assert resp.status_code == status, resp.json
        assert resp.is_json and resp.json["error"] == code
        assert words in resp.json["reason"]
        after = table.summary(gid)
        assert (after["version"], after["state_hash"]) == (v, before["state_hash"])
    # the move ids of rejected moves stay free
    assert post(tokens[mover], {"move_id": "x3", "expected_version": v, "move": good}).status_code == 200


def test_inline_phase_runs_through_the_gateway(client, api, table):
    gid = api.create("lap_race", 2)
    t = [api.seat(gid, 0), api.seat(gid, 1)]
    api.move(gid, t[0], {"type": "run", "pace": 3})
    result = api.move(gid, t[1], {"type": "run", "pace": 1}).json
    summary = client.get(f"/games/{gid}").json
    assert summary["version"] == result["version"] + 1 and summary["status"] == "active"
    assert [e.kind for e in table.store.read(gid)][-1] == "phase"


def test_wait_returns_at_once_when_behind_and_after_the_timeout_when_not(client, api):
    gid = api.create("step_race", 2)
    v = api.version(gid)
    assert client.get(f"/games/{gid}/wait?after={v - 1}&timeout=30").json["version"] == v
    resp = client.get(f"/games/{gid}/wait?after={v}&timeout=0.2")
    assert resp.status_code == 200 and resp.json["version"] == v
    assert client.get(f"/games/{gid}/wait").status_code == 400
    assert client.get(f"/games/{gid}/wait?after=x").status_code == 400


def test_two_workers_give_the_same_bytes_for_the_same_read(app, api, redis_server):
    """One worker plays the moves (its cached state folded from the events as the rules built
    them), another answers from the stored log (folded from canonical JSON): the same view, the
    same summary, byte for byte (a trial saw a view's ``config`` keys in two orders)."""
    from tests.gateway.conftest import make_app

    gid = api.create("noggin", 2)
    tokens = [api.seat(gid, 0), api.seat(gid, 1)]
    for _ in range(6):
        seat = api.c.get(f"/games/{gid}").json["to_move"][0]
        legal = api.c.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
        assert api.move(gid, tokens[seat], legal["moves"][0]).status_code == 200
    other = make_app(redis_server.url).test_client()
    for path in (f"/games/{gid}", f"/games/{gid}/view"):
        assert api.c.get(path).data == other.get(path).data, path


def test_wait_on_a_finished_game_answers_at_once(client, api, monkeypatch):
    """A finished game's version never grows: ``/wait`` past it answers at once (a trial's took
    the whole 30 s timeout) without blocking on the log; ``until=turn`` and ``until=over`` did so
    already."""
    import gateway.games as games

    gid, summary = _play_step_race_to_the_end(client, api)
    monkeypatch.setattr(games, "get_blocking_redis", lambda: pytest.fail("a wait on a finished game blocked"))
    body = client.get(f"/games/{gid}/wait?after={summary['version']}&timeout=30").json
    assert body["status"] == "over" and body["version"] == summary["version"]


def test_wait_wakes_on_a_commit(app, api):
    gid = api.create("step_race", 2)
    t0 = api.seat(gid, 0)
    v = api.version(gid)
    answer = {}

    def waiter():
        answer["body"] = app.test_client().get(f"/games/{gid}/wait?after={v}&timeout=20").json

    thread = threading.Thread(target=waiter)
    thread.start()
    assert api.move(gid, t0, {"type": "advance", "steps": 1}).status_code == 200
    thread.join(25)
    assert not thread.is_alive() and answer["body"]["version"] == v + 1


def test_wait_requeues_a_phase_whose_task_was_lost(client, api, redis_client):
    """A phase left pending (its task never reached a worker) is queued again by a timed-out /wait."""
    from services.coordinator.ports import embedded_ports
    from services.coordinator.redis_store import RedisSeeds, RedisStore
    from services.coordinator.table import Table
    from services.rules.core import GameConfig

    class Lost:
        def schedule(self, game_id, phase, version):
            pass

    store = RedisStore(redis_client)
    lossy = Table(store, embedded_ports(store, RedisSeeds(redis_client)), Lost())
    gid = lossy.create(GameConfig(game="lap_race", players=2))
    lossy.play(gid, 0, {"type": "run", "pace": 1}, store.version(gid))
    stuck = lossy.play(gid, 1, {"type": "run", "pace": 1}, store.version(gid))["version"]
    assert client.get(f"/games/{gid}").json["status"] == "phase"
    body = client.get(f"/games/{gid}/wait?after={stuck}&timeout=0.1").json
    assert body["version"] == stuck + 1 and body["status"] == "active"
    assert [e.kind for e in store.read(gid)][-1] == "phase"
