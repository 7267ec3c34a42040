"""The API contract of docs/API.md where a newcomer's trial found it loose: bot seats are
plain seat numbers, ``?seat=`` on a view is checked like on legal moves, and a token that
no game issued is unknown (401), not another game's (403)."""

from __future__ import annotations

import pytest


@pytest.fixture
def game(api):
    gid = api.create("gnomes", 2, seed="contract")
    return gid, [api.seat(gid, s) for s in range(2)]


@pytest.mark.parametrize("key", ["00", "01", "+1", "-1", " 1", "x"])
def test_a_bot_seat_is_a_plain_seat_number(client, key):
    r = client.post("/games", json={"game": "gnomes", "players": 2, "bots": {key: "random"}})
    assert r.status_code == 400 and r.get_json()["error"] == "bad_request"
    assert "seat" in r.get_json()["reason"]


def test_a_view_checks_the_seat_it_names(client, game):
    gid, tokens = game
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.get(f"/games/{gid}/view?seat=0", headers=auth).get_json()["seat"] == 0
    r = client.get(f"/games/{gid}/view?seat=1", headers=auth)
    assert r.status_code == 403 and r.get_json()["error"] == "wrong_seat"
    r = client.get(f"/games/{gid}/view?seat=1")
    assert r.status_code == 401 and r.get_json()["error"] == "missing_token"
    assert client.get(f"/games/{gid}/view").get_json()["seat"] is None


def test_a_token_no_game_issued_is_unknown_and_another_games_is_wrong_game(client, api, game):
    gid, tokens = game
    other = api.create("gnomes", 2, seed="other")
    other_token = api.seat(other, 0)
    for token, status, error in ((f"abc.{tokens[0].split('.', 1)[1]}", 401, "unknown_token"),
                                 ("abc.def", 401, "unknown_token"), (other_token, 403, "wrong_game"),
                                 (tokens[1], 200, None)):
        r = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == status, (token, r.get_json())
        if error:
            assert r.get_json()["error"] == error


def test_a_body_that_names_a_key_twice_is_refused_and_plays_nothing(client, game):
    """A JSON object with a key twice is ambiguous (which move was meant?): 400 bad_json."""
    gid, tokens = game
    before = client.get(f"/games/{gid}").get_json()["version"]
    body = ('{"move_id": "m1", "expected_version": %d, "move": {"type": "end_turn", "type": "scout"}}' % before)
    r = client.post(f"/games/{gid}/moves", data=body, content_type="application/json",
                    headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 400 and r.get_json()["error"] == "bad_json" and "'type' twice" in r.get_json()["reason"]
    assert client.get(f"/games/{gid}").get_json()["version"] == before
