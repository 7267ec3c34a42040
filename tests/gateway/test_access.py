"""Access control (issue 13, acceptance 1): every refusal of the operator key and of seats by
invitation, each a JSON error that changes nothing, and operator keys rotated through the key
file without a restart.

"Nothing changed" is checked on the store itself: every Redis key and its value (``DUMP``)
before and after the refused request, besides the game's version, seats and state hash. Only
the rate limits' counters are left out: they count refused requests too, by design (a bearer
header on a read is counted as a seat token's read, whatever it holds).
"""

from __future__ import annotations

import pytest

from gateway.invitations import PREFIX
from gateway.operators import HEADER, digest, new_key
from tests.gateway.conftest import OPERATOR_KEY, make_app, stranger

AGENT = {"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/", "secret": "s" * 16}
WRONG_KEY = "lhop_" + "x" * 43


def snapshot(redis_client) -> dict[bytes, bytes]:
    """Every key of the store and its serialised value (the rate limits' counters aside)."""
    return {k: redis_client.dump(k) for k in sorted(redis_client.keys("*")) if not k.startswith(b"LIMITS:")}


def assert_error(resp, status: int, code: str, *secrets: str) -> None:
    """The API's JSON error, naming none of ``secrets``."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True))
    assert resp.mimetype == "application/json" and set(resp.json) == {"error", "reason", "request_id"}, resp.json
    assert resp.json["error"] == code, resp.json
    text = resp.get_data(as_text=True)
    assert not any(s in text for s in secrets if s)


# -- operator keys ---------------------------------------------------------------------------

def operator_requests(agent_id: str) -> list[tuple[str, str, dict | None]]:
    """(method, path, body) of every request that needs an operator key, each valid otherwise."""
    return [
        ("post", "/games", {"game": "step_race", "players": 2, "seed": "7"}),
        ("post", "/tournaments", {"games": ["step_race"], "players": 2, "seed": "t",
                                  "participants": [{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}]}),
        ("post", "/agents", AGENT),
        ("get", "/agents", None),
        ("get", f"/agents/{agent_id}", None),
        ("post", f"/agents/{agent_id}/secret", {"current": AGENT["secret"], "secret": "t" * 16}),
    ]


@pytest.mark.parametrize("index", range(6))
def test_without_an_operator_key_creation_registration_and_agent_reads_are_refused(app, client, redis_client, index):
    agent_id = client.post("/agents", json=AGENT).json["agent_id"]
    method, path, body = operator_requests(agent_id)[index]
    anyone = stranger(app)
    before = snapshot(redis_client)
    for headers, status, code in (({}, 401, "missing_operator_key"), ({HEADER: ""}, 401, "missing_operator_key"),
                                  ({HEADER: WRONG_KEY}, 403, "wrong_operator_key"),
                                  ({HEADER: OPERATOR_KEY + "x"}, 403, "wrong_operator_key"),
                                  ({"Authorization": f"Bearer {OPERATOR_KEY}"}, 401, "missing_operator_key")):
        resp = getattr(anyone, method)(path, json=body, headers=headers)
        assert_error(resp, status, code, WRONG_KEY, OPERATOR_KEY)
        assert snapshot(redis_client) == before, (path, headers)
    # the same request with the key goes through (so the refusals were about the key alone)
    resp = getattr(anyone, method)(path, json=body, headers={HEADER: OPERATOR_KEY})
    assert resp.status_code in (200, 201), resp.json


def test_a_gateway_with_no_digest_configured_refuses_every_operator_request(redis_server, redis_client):
    app = make_app(redis_server.url, OPERATOR_KEYS=[], OPERATOR_KEYS_FILE=None)
    client = app.test_client()  # sends the tests' key, which this gateway does not know
    before = snapshot(redis_client)
    for method, path, body in operator_requests("0123456789ab"):
        assert_error(getattr(client, method)(path, json=body), 403, "wrong_operator_key", OPERATOR_KEY)
    assert snapshot(redis_client) == before


def test_operator_keys_are_rotated_through_the_key_file_without_a_restart(redis_server, redis_client, tmp_path):
    """README, "Operator keys": a new key, its digest added to the file, clients switched, the old
    digest removed; the gateway reads the file again at its next request."""
    old, new = new_key(), new_key()
    keys_file = tmp_path / "operator_keys"
    keys_file.write_text(f"# the operators' keys\n{digest(old)}\n")
    app = make_app(redis_server.url, OPERATOR_KEYS=[], OPERATOR_KEYS_FILE=str(keys_file))
    client = stranger(app)
    body = {"game": "step_race", "players": 2}

    def create(key: str):
        return client.post("/games", json=body, headers={HEADER: key})

    assert create(old).status_code == 201
    assert_error(create(new), 403, "wrong_operator_key", new)
    keys_file.write_text(f"# the operators' keys\n{digest(old)}\n{digest(new)}  # added\n")
    assert create(new).status_code == 201 and create(old).status_code == 201  # both, while clients switch
    keys_file.write_text(f"{digest(new)}\n")
    assert create(new).status_code == 201
    assert_error(create(old), 403, "wrong_operator_key", old)
    keys_file.write_text("this line is not a digest\n")  # a broken edit keeps the keys read before
    assert create(new).status_code == 201
    keys_file.unlink()  # no file: no key from it
    assert_error(create(new), 403, "wrong_operator_key", new)


# -- seats by invitation -----------------------------------------------------------------------

def game_state(client, table, gid: str) -> tuple:
    """What a refused claim must leave as it was: version, seats taken, state hash."""
    summary = client.get(f"/games/{gid}").json
    return summary["version"], summary["seats_taken"], table.summary(gid)["state_hash"]


def test_the_creation_answers_one_invitation_per_seat_no_bot_holds(client):
    resp = client.post("/games", json={"game": "step_race", "players": 4, "seed": "inv", "bots": {"2": "random"}})
    assert resp.status_code == 201, resp.json
    invitations = resp.json["invitations"]
    assert sorted(invitations) == ["0", "1", "3"] and resp.json["open"] is False
    assert all(i.startswith(PREFIX) and len(i) == len(PREFIX) + 43 for i in invitations.values())
    assert len(set(invitations.values())) == 3
    opened = client.post("/games", json={"game": "step_race", "players": 2, "open": True}).json
    assert opened["open"] is True and opened["invitations"] == {}


def stored_text(redis_client) -> str:
    """Every key and value of the store, read as it is (``DUMP`` may compress), as one text."""
    out = []
    for k in redis_client.keys("*"):
        kind = redis_client.type(k).decode()
        value = {"string": lambda: redis_client.get(k), "hash": lambda: redis_client.hgetall(k),
                 "stream": lambda: redis_client.xrange(k), "zset": lambda: redis_client.zrange(k, 0, -1),
                 "list": lambda: redis_client.lrange(k, 0, -1), "set": lambda: redis_client.smembers(k)}[kind]()
        out.append(f"{k!r} {value!r}")
    return "\n".join(out)


def test_only_digests_of_invitations_are_stored(client, redis_client):
    import hashlib

    created = client.post("/games", json={"game": "step_race", "players": 2, "seed": "stored"}).json
    client.post(f"/games/{created['game_id']}/seats/0", json={"invitation": created["invitations"]["0"]})
    everything = stored_text(redis_client)
    for invitation in created["invitations"].values():
        assert invitation not in everything and invitation[len(PREFIX):] not in everything
        assert hashlib.sha256(invitation.encode()).hexdigest() in everything


def test_a_seat_is_claimed_with_its_own_invitation_only(client, table, redis_client):
    created = client.post("/games", json={"game": "step_race", "players": 2, "seed": "claims"}).json
    gid, invitations = created["game_id"], created["invitations"]
    other = client.post("/games", json={"game": "step_race", "players": 2, "seed": "claims"}).json
    secrets = (*invitations.values(), *other["invitations"].values())
    before, stored = game_state(client, table, gid), snapshot(redis_client)
    refusals = [
        (None, 401, "missing_invitation"),  # no body at all
        ({}, 401, "missing_invitation"),
        ({"invitation": invitations["1"]}, 403, "wrong_invitation"),  # another seat's
        ({"invitation": other["invitations"]["0"]}, 403, "wrong_invitation"),  # another game's, same seat
        ({"invitation": PREFIX + "made-up"}, 403, "wrong_invitation"),
        ({"invitation": invitations["0"] + "x"}, 403, "wrong_invitation"),
        ({"invitation": 7}, 400, "bad_request"),
        ({"invitation": invitations["0"], "seat": 0}, 400, "bad_request"),
    ]
    for body, status, code in refusals:
        assert_error(client.post(f"/games/{gid}/seats/0", json=body), status, code, *secrets)
        assert game_state(client, table, gid) == before and snapshot(redis_client) == stored, body
    assert_error(client.post(f"/games/{gid}/seats/0", data="{nope", content_type="application/json"),
                 400, "bad_json", *secrets)
    # its own invitation takes it, once
    resp = client.post(f"/games/{gid}/seats/0", json={"invitation": invitations["0"]})
    assert resp.status_code == 201 and resp.json["seat"] == 0
    assert_error(client.post(f"/games/{gid}/seats/0", json={"invitation": invitations["0"]}), 409, "seat_taken")
    assert client.get(f"/games/{gid}").json["seats_taken"] == [0]


def test_an_open_game_needs_no_invitation(client):
    gid = client.post("/games", json={"game": "step_race", "players": 2, "open": True}).json["game_id"]
    assert client.post(f"/games/{gid}/seats/0").status_code == 201
    assert client.post(f"/games/{gid}/seats/1", json={}).status_code == 201
    assert_error(client.post(f"/games/{gid}/seats/1"), 409, "seat_taken")


def test_a_game_made_before_invitations_existed_has_no_seat_to_claim(client, table, redis_client):
    """A game with no access record (made by the Table alone, as before invitations) refuses every
    claim: there is no invitation that could take its seats."""
    from services.rules.core import GameConfig

    gid = table.create(GameConfig(game="step_race", players=2), seed="old")
    before = snapshot(redis_client)
    assert_error(client.post(f"/games/{gid}/seats/0"), 401, "missing_invitation")
    assert_error(client.post(f"/games/{gid}/seats/0", json={"invitation": PREFIX + "guess"}), 403, "wrong_invitation")
    assert snapshot(redis_client) == before


def test_an_http_client_never_takes_a_bots_or_an_agents_seat(client, table, redis_client):
    agent_id = client.post("/agents", json=AGENT).json["agent_id"]
    for opened in (False, True):
        created = client.post("/games", json={
            "game": "step_race", "players": 3, "seed": "held", "open": opened,
            "bots": {"1": {"kind": "random", "seed": "b"}, "2": {"kind": "agent", "agent": agent_id}}}).json
        gid = created["game_id"]
        assert created["invitations"] == ({} if opened else {"0": created["invitations"]["0"]})
        before, stored = game_state(client, table, gid), snapshot(redis_client)
        guesses = [None, {}, {"invitation": created["invitations"].get("0", PREFIX + "x")}]
        for seat, who in ((1, "bot"), (2, "agent")):
            for body in guesses:
                resp = client.post(f"/games/{gid}/seats/{seat}", json=body)
                assert_error(resp, 409, "seat_taken")
                assert who in resp.json["reason"]
                assert game_state(client, table, gid) == before and snapshot(redis_client) == stored


def test_an_idempotent_retry_shows_the_same_invitations_and_they_work(app, client):
    body = {"game": "step_race", "players": 2, "seed": "idem"}
    first = client.post("/games", json=body, headers={"Idempotency-Key": "inv-1"}).json
    again = client.post("/games", json=body, headers={"Idempotency-Key": "inv-1"}).json
    assert again["game_id"] == first["game_id"] and again["invitations"] == first["invitations"]
    gid = first["game_id"]
    assert client.post(f"/games/{gid}/seats/0", json={"invitation": first["invitations"]["0"]}).status_code == 201
    assert client.post(f"/games/{gid}/seats/1", json={"invitation": again["invitations"]["1"]}).status_code == 201
    # a retry after the seats are taken still answers the game and its (used) invitations
    assert client.post("/games", json=body, headers={"Idempotency-Key": "inv-1"}).json == first


def test_an_idempotency_key_belongs_to_the_operator_key_that_sent_it(redis_server, redis_client):
    other_key = new_key()
    app = make_app(redis_server.url, OPERATOR_KEYS=[digest(OPERATOR_KEY), digest(other_key)])
    client = app.test_client()
    body = {"game": "step_race", "players": 2, "seed": "idem"}
    mine = client.post("/games", json=body, headers={"Idempotency-Key": "shared"}).json
    theirs = client.post("/games", json=body, headers={"Idempotency-Key": "shared", HEADER: other_key}).json
    assert theirs["game_id"] != mine["game_id"]  # not the other operator's game, nor its invitations
    assert set(theirs["invitations"].values()).isdisjoint(mine["invitations"].values())


def test_the_openapi_document_shows_the_operator_key_and_the_invitations(client):
    doc = client.get("/openapi.json").json
    scheme = doc["components"]["securitySchemes"]["operatorKey"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == ("apiKey", "header", HEADER)
    paths = doc["paths"]
    for path, method in (("/games", "post"), ("/tournaments", "post"), ("/agents", "post"), ("/agents", "get"),
                         ("/agents/{agent_id}", "get"), ("/agents/{agent_id}/secret", "post")):
        op = paths[path][method]
        assert op["security"] == [{"operatorKey": []}], path
        assert "missing_operator_key" in op["responses"]["401"]["description"], path
        assert "wrong_operator_key" in op["responses"]["403"]["description"], path
    for path, method in (("/games/{game_id}", "get"), ("/games/{game_id}/seats/{seat}", "post")):
        assert {"operatorKey": []} not in paths[path][method]["security"]
    claim = paths["/games/{game_id}/seats/{seat}"]["post"]
    assert claim["requestBody"]["required"] is False
    assert claim["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ClaimBody"}
    assert "missing_invitation" in claim["responses"]["401"]["description"]
    assert "wrong_invitation" in claim["responses"]["403"]["description"]
    created = doc["components"]["schemas"]["CreatedGame"]
    assert {"open", "invitations"} <= set(created["required"])
    assert "open" in doc["components"]["schemas"]["CreateGameBody"]["properties"]
