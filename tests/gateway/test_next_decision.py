"""One request a move: a move's answer carries the client's next decision, and ``/wait?until=turn``
answers with the seat's legal moves once it decides (docs/API.md, "Moves")."""

from __future__ import annotations

import threading

import pytest


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _post(client, gid: str, token: str, move: dict, version: int, query: str = "", move_id: str | None = None):
    body = {"move_id": move_id or f"nd-{version}-{move.get('steps')}", "expected_version": version, "move": move}
    return client.post(f"/games/{gid}/moves{query}", json=body, headers=_auth(token))


def _race(api):
    """A 2-seat step race with both seats claimed: ``(game id, [token 0, token 1], version)``."""
    gid = api.create("step_race", 2)
    return gid, [api.seat(gid, 0), api.seat(gid, 1)], api.version(gid)


def test_a_move_answer_says_who_decides_next_and_at_which_version(client, api):
    gid, (t0, _t1), v = _race(api)
    answer = _post(client, gid, t0, {"type": "advance", "steps": 1}, v)
    assert answer.status_code == 200
    body = answer.json
    assert body["version"] == v + 1
    # seat 0 is ahead now: seat 1, furthest back, decides; no legal moves unless asked for
    assert body["next"] == {"version": v + 1, "status": "active", "to_move": [1]}
    summary = client.get(f"/games/{gid}").json
    assert (summary["version"], summary["to_move"]) == (body["next"]["version"], body["next"]["to_move"])


def test_with_legal_the_seat_that_keeps_the_decision_gets_its_legal_moves(client, api):
    gid, (t0, t1), v = _race(api)
    first = _post(client, gid, t0, {"type": "advance", "steps": 1}, v, "?legal=true").json
    # not seat 0's decision next: its list is empty, and seat 1's moves are not shown to seat 0
    assert first["next"]["to_move"] == [1] and first["next"]["seat"] == 0 and first["next"]["legal_moves"] == []
    _post(client, gid, t1, {"type": "advance", "steps": 3}, v + 1)
    kept = _post(client, gid, t0, {"type": "advance", "steps": 1}, v + 2, "?legal=1").json
    # seat 0 (space 2) is still behind seat 1 (space 3): it decides again, from this answer
    assert kept["next"]["to_move"] == [0] and kept["next"]["version"] == v + 3
    read = client.get(f"/games/{gid}/legal-moves", headers=_auth(t0)).json
    assert kept["next"]["legal_moves"] == read["moves"] and read["version"] == kept["next"]["version"]
    assert kept["next"]["legal_moves"]  # a list to choose from, played with expected_version = next.version
    again = _post(client, gid, t0, kept["next"]["legal_moves"][0], kept["next"]["version"], "?legal=true")
    assert again.status_code == 200 and again.json["version"] == v + 4


def test_a_repeated_move_id_answers_the_same_bytes_with_its_next(client, api):
    gid, (t0, _t1), v = _race(api)
    first = _post(client, gid, t0, {"type": "advance", "steps": 2}, v, "?legal=true", move_id="twice")
    again = _post(client, gid, t0, {"type": "advance", "steps": 2}, v, "?legal=true", move_id="twice")
    assert first.status_code == again.status_code == 200
    assert again.get_data() == first.get_data() and first.json["next"]["version"] == v + 1


@pytest.mark.parametrize("value", ["yes", "", "2", "TRUE "])
def test_legal_takes_true_or_false_only(client, api, value):
    gid, (t0, _t1), v = _race(api)
    bad = _post(client, gid, t0, {"type": "advance", "steps": 1}, v, f"?legal={value}")
    assert bad.status_code == 400 and bad.json["error"] == "bad_request"
    assert api.version(gid) == v  # refused before anything was played


def test_a_refused_move_with_legal_changes_nothing_and_says_why(client, api):
    gid, (_t0, t1), v = _race(api)
    refused = _post(client, gid, t1, {"type": "advance", "steps": 1}, v, "?legal=true")
    assert refused.status_code == 409 and refused.json["error"] == "not_your_turn"
    assert api.version(gid) == v


def test_wait_until_turn_needs_a_seat_token(client, api):
    gid, _tokens, v = _race(api)
    answer = client.get(f"/games/{gid}/wait?after={v}&until=turn&timeout=0")
    assert answer.status_code == 401 and answer.json["error"] == "missing_token"


def test_wait_until_turn_answers_at_once_when_the_seat_already_decides(client, api):
    gid, (t0, _t1), v = _race(api)
    answer = client.get(f"/games/{gid}/wait?after={v - 1}&until=turn&timeout=5", headers=_auth(t0)).json
    read = client.get(f"/games/{gid}/legal-moves", headers=_auth(t0)).json
    assert answer["version"] == v and answer["to_move"] == [0] and answer["seat"] == 0
    assert answer["legal_moves"] == read["moves"] and answer["legal_moves"]


def test_wait_until_turn_returns_the_seats_legal_moves_when_its_turn_comes(app, client, api):
    gid, (t0, t1), v = _race(api)
    _post(client, gid, t0, {"type": "advance", "steps": 1}, v)  # seat 1 decides at v + 1
    got: dict = {}

    def waiter():
        got["answer"] = app.test_client().get(f"/games/{gid}/wait?after={v + 1}&until=turn&timeout=20",
                                              headers=_auth(t0))

    thread = threading.Thread(target=waiter)
    thread.start()
    moved = _post(client, gid, t1, {"type": "advance", "steps": 3}, v + 1)  # now seat 0 decides
    thread.join(timeout=30)
    assert moved.status_code == 200 and not thread.is_alive()
    answer = got["answer"]
    assert answer.status_code == 200
    body = answer.json
    assert body["version"] == v + 2 and body["to_move"] == [0] and body["seat"] == 0
    assert body["legal_moves"] == client.get(f"/games/{gid}/legal-moves", headers=_auth(t0)).json["moves"]


def test_wait_until_turn_times_out_with_an_empty_list_while_another_seat_decides(client, api):
    gid, (t0, _t1), v = _race(api)
    _post(client, gid, t0, {"type": "advance", "steps": 1}, v)
    body = client.get(f"/games/{gid}/wait?after={v + 1}&until=turn&timeout=0.2", headers=_auth(t0)).json
    assert body["version"] == v + 1 and body["to_move"] == [1] and body["legal_moves"] == []


def test_wait_with_a_token_adds_the_seats_legal_moves_and_without_one_stays_public(client, api):
    gid, (t0, t1), v = _race(api)
    mine = client.get(f"/games/{gid}/wait?after={v - 1}&timeout=0", headers=_auth(t0)).json
    theirs = client.get(f"/games/{gid}/wait?after={v - 1}&timeout=0", headers=_auth(t1)).json
    public = client.get(f"/games/{gid}/wait?after={v - 1}&timeout=0").json
    assert mine["seat"] == 0 and mine["legal_moves"]
    assert theirs["seat"] == 1 and theirs["legal_moves"] == []  # seat 0's choices are not seat 1's to see
    assert "legal_moves" not in public and "seat" not in public


def test_view_adds_the_seats_own_player_view_to_the_answer_and_to_a_wait(client, api):
    gid, (t0, t1), v = _race(api)
    moved = _post(client, gid, t0, {"type": "advance", "steps": 1}, v, "?legal=true&view=true").json
    read = client.get(f"/games/{gid}/view", headers=_auth(t0)).json
    assert moved["next"]["seat"] == 0 and moved["next"]["view"] == read["view"]
    plain = _post(client, gid, t1, {"type": "advance", "steps": 3}, v + 1).json
    assert "view" not in plain["next"] and "seat" not in plain["next"]
    waited = client.get(f"/games/{gid}/wait?after={v + 1}&until=turn&timeout=5&view=true", headers=_auth(t0)).json
    assert waited["legal_moves"] and waited["view"] == client.get(f"/games/{gid}/view", headers=_auth(t0)).json["view"]
