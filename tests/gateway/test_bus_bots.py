"""``POST /games`` with ``bots``: seats played by built-in bots on the bus, never claimable by a
client; their kinds are public, their seeds are not."""


def test_bot_seats_are_played_by_bots_and_cannot_be_claimed(client, api):
    gid = api.create("noggin", 2, seed="gw-bots", bots={"1": {"kind": "random", "seed": "secret-bot-seed"}})
    summary = client.get(f"/games/{gid}").json
    assert summary["bots"] == {"1": "random"} and 1 in summary["seats_taken"]
    assert "secret-bot-seed" not in str(summary)
    resp = client.post(f"/games/{gid}/seats/1")
    assert resp.status_code == 409 and resp.json["error"] == "seat_taken" and "bot" in resp.json["reason"]
    token = api.seat(gid, 0)
    legal = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {token}"}).json
    before = legal["version"]
    resp = client.post(f"/games/{gid}/moves", headers={"Authorization": f"Bearer {token}"},
                       json={"move_id": "m1", "expected_version": before, "move": legal["moves"][0]})
    assert resp.status_code == 200
    after = client.get(f"/games/{gid}").json
    assert after["to_move"] in ([0], []) and after["version"] >= before + 1


def test_a_game_of_bots_only_ends_by_itself(client, api):
    gid = api.create("noggin", 3, seed="gw-all-bots", bots={"0": "random", "1": "random", "2": "random"})
    summary = client.get(f"/games/{gid}").json
    assert summary["status"] == "over" and summary["outcome"]["crown"] in ("noggin", "nogbad")
    resp = client.post(f"/games/{gid}/seats/0")  # over comes first, bot seat or not (README, Retention)
    assert (resp.status_code, resp.json["error"]) == (409, "game_over")


def test_bad_bots_are_a_clear_error(client):
    for bots in ({"7": "random"}, {"0": "oracle"}, {"0": {"kind": "random", "depth": 3}}):
        resp = client.post("/games", json={"game": "noggin", "players": 2, "bots": bots})
        assert resp.status_code in (400, 422) and resp.json["error"] in ("bad_config", "bad_request")
        assert "{'" not in resp.json["reason"]  # the reason quotes the body as JSON, never as Python
