"""``GET /games`` (the listing: filters, pages, no secret) and ``GET /games/<id>/view?version=``
(the public view at a version of the log, for replays)."""

from __future__ import annotations

import json

import pytest

from gateway import listing


def _all_pages(client, query: str = "", limit: int = 2) -> list[dict]:
    games, after = [], None
    for _ in range(50):
        url = f"/games?limit={limit}{query}" + (f"&after={after}" if after else "")
        resp = client.get(url)
        assert resp.status_code == 200, resp.json
        games += resp.json["games"]
        after = resp.json["next"]
        if after is None:
            return games
    raise AssertionError("the listing never ended")


def test_lists_games_newest_first_with_filters_and_pages(client, api):
    first = api.create("step_race", 2, seed="a")
    second = api.create("noggin", 2, seed="b", options={"sos": True}, bots={"1": {"kind": "random", "seed": "bs"}})
    third = api.create("step_race", 2, seed="c")
    api.seat(third, 0)
    everything = _all_pages(client)
    ids = [g["game_id"] for g in everything]
    assert set(ids) == {first, second, third} and len(ids) == 3
    created = [g["created"] for g in everything]
    assert created == sorted(created, reverse=True)
    nog = next(g for g in everything if g["game_id"] == second)
    assert nog["game"] == "noggin" and nog["players"] == 2 and nog["options"] == {"sos": True}
    assert nog["bots"] == {"1": "random"} and nog["seats_taken"] == [1]
    assert nog["status"] in ("active", "phase") and nog["version"] >= 2
    assert next(g for g in everything if g["game_id"] == third)["seats_taken"] == [0]
    assert [g["game_id"] for g in _all_pages(client, "&game=noggin")] == [second]
    assert {g["game_id"] for g in _all_pages(client, "&game=step_race", limit=1)} == {first, third}
    assert _all_pages(client, "&status=over") == []
    assert {g["game_id"] for g in _all_pages(client, "&status=in_play")} == {first, second, third}


def test_finished_games_are_listed_as_over(client, api):
    done = api.create("noggin", 2, seed="over", bots={"0": "random", "1": "random"})
    running = api.create("step_race", 2)
    over = client.get("/games?status=over").json["games"]
    assert [g["game_id"] for g in over] == [done] and over[0]["status"] == "over"
    assert running not in [g["game_id"] for g in over]


def test_no_secret_in_the_listing(client, api, redis_client):
    gid = api.create("noggin", 2, seed="very-secret-seed", bots={"1": {"kind": "greedy", "seed": "bot-secret"}})
    token = api.seat(gid, 0)
    text = json.dumps(client.get("/games").json)
    for secret in ("very-secret-seed", "bot-secret", token, token.split(".", 1)[1], "invitation", "lhinv_"):
        assert secret not in text
    meta = {k.decode(): v.decode() for k, v in redis_client.hgetall(f"game:{{{gid}}}:meta").items()}
    stored = json.loads(meta["meta"])
    game = client.get("/games").json["games"][0]
    assert set(game) == {"game_id", "game", "players", "status", "version", "moves", "created", "options",
                         "bots", "seats_taken", "open"}
    if "access" in stored and not stored["access"].get("open"):
        assert stored["access"]["salt"] not in text


def test_a_page_stops_at_the_scan_budget_and_says_where_to_go_on(client, api, monkeypatch):
    for i in range(5):
        api.create("step_race", 2, seed=str(i))
    order = [g["game_id"] for g in client.get("/games").json["games"]]
    monkeypatch.setattr(listing, "SCAN_BUDGET", 2)
    page = client.get("/games?game=noggin").json
    assert page["games"] == [] and page["next"] == order[1]  # examined the two newest, matched none
    assert _all_pages(client, "&game=noggin") == []


@pytest.mark.parametrize("query", ["status=done", "limit=0", "limit=101", "limit=x", "after=nope", "game="])
def test_bad_queries_are_400(client, api, query):
    api.create("step_race", 2)
    resp = client.get(f"/games?{query}")
    assert resp.status_code == 400 and resp.json["error"] == "bad_request"


def test_view_at_a_version_replays_the_public_view(client, api):
    gid = api.create("noggin", 2, seed="replay", bots={"0": "random", "1": "random"})
    summary = client.get(f"/games/{gid}").json
    assert summary["status"] == "over"
    final = client.get(f"/games/{gid}/view").json
    assert client.get(f"/games/{gid}/view?version={summary['version']}").json == final
    first = client.get(f"/games/{gid}/view?version=2").json
    assert first["version"] == 2 and first["seat"] is None and first["outcome"] is None
    assert first["view"] != final["view"]
    mid = summary["version"] // 2
    assert client.get(f"/games/{gid}/view?version={mid}").json["version"] == mid
    for bad in ("0", str(summary["version"] + 1), "x", "-1"):
        resp = client.get(f"/games/{gid}/view?version={bad}")
        assert resp.status_code == 400 and resp.json["error"] == "bad_request"


def test_a_seat_sees_its_own_past_view_and_no_other(client, api):
    gid = api.create("resource_hog", 2, seed="past")
    token = api.seat(gid, 0)
    v = client.get(f"/games/{gid}").json["version"]
    own = client.get(f"/games/{gid}/view?version={v}", headers={"Authorization": f"Bearer {token}"}).json
    public = client.get(f"/games/{gid}/view?version={v}").json
    assert own["seat"] == 0 and public["seat"] is None
    resp = client.get(f"/games/{gid}/view?version={v}&seat=1", headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 403
