"""``/agents`` on an embedded gateway: registration checks the address and the secret, never
shows the secret, and only who knows an agent's current secret may replace it. An address the
allow-list (``LONGHOUSE_AGENT_ALLOW``) refuses is a JSON 403 (a host that does not resolve, 400)
and registers nothing; a rotated secret signs the engine's next request."""

import hmac
import time
import socket

import pytest

from services.agents import addresses
from services.agents.client import AgentFailure, make_client
from services.agents.protocol import MoveRequest
from services.agents.registry import KEY, AgentRegistry
from tests.support.agents import SECRET, example_agent


def agent(**extra):
    body = {"name": "mine", "protocol": "http", "address": "http://127.0.0.1:8601/", "secret": "s" * 20}
    body.update(extra)
    return body


def test_registration_and_reading_never_show_the_secret(client):
    resp = client.post("/agents", json=agent())
    assert resp.status_code == 201
    assert set(resp.json) == {"agent_id", "name", "protocol", "address", "previous_secret_until"}
    assert resp.json["previous_secret_until"] is None
    aid = resp.json["agent_id"]
    assert client.get(f"/agents/{aid}").json == resp.json
    assert resp.json in client.get("/agents").json["agents"]
    assert "s" * 20 not in str(client.get("/agents").json)
    assert client.get("/agents/nobody").status_code == 404


def test_bad_registrations_are_refused(client):
    before = client.get("/agents").json
    for bad in (agent(protocol="smtp"), agent(address="127.0.0.1:8601"), agent(protocol="grpc"),
                agent(protocol="grpc", address="127.0.0.1:99999"), agent(protocol="grpc", address="127.0.0.1:0"),
                agent(secret="short"), agent(secret=" " * 20), agent(address="http://user:pw@127.0.0.1:8601/"),
                agent(address="http://127.0.0.1:0/"), agent(colour="blue")):
        resp = client.post("/agents", json=bad)
        assert resp.status_code == 400 and resp.json["error"] == "bad_request", (bad, resp.json)
    assert client.get("/agents").json == before


def test_only_the_current_secret_may_replace_it(client):
    aid = client.post("/agents", json=agent()).json["agent_id"]
    resp = client.post(f"/agents/{aid}/secret", json={"current": "not-it", "secret": "n" * 20})
    assert resp.status_code == 403 and resp.json["error"] == "wrong_secret"
    resp = client.post(f"/agents/{aid}/secret", json={"secret": "n" * 20})
    assert resp.status_code == 400
    resp = client.post(f"/agents/{aid}/secret", json={"current": "s" * 20, "secret": "n" * 20})
    assert resp.status_code == 200 and "n" * 20 not in str(resp.json)
    again = client.post(f"/agents/{aid}/secret", json={"current": "s" * 20, "secret": "m" * 20})
    assert again.status_code == 403  # the old secret no longer works


# -- agent addresses (issue: access control) ----------------------------------------------------


@pytest.fixture
def dns(monkeypatch):
    """Names the resolver knows: ``rebound.example.org`` points at loopback,
    ``agents.example.org`` at a public address; any other name does not resolve."""
    table = {"rebound.example.org": ["127.0.0.1"], "agents.example.org": ["8.8.8.8"]}

    def fake(host, port):
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    monkeypatch.setattr(addresses, "resolve", fake)


@pytest.mark.parametrize("protocol,address,status,code,words", [
    ("http", "http://127.0.0.1:8601/", 403, "address_not_allowed", "127.0.0.1 is a loopback address"),
    ("grpc", "[::1]:8602", 403, "address_not_allowed", "::1 is a loopback address"),
    ("grpc", "[::ffff:127.0.0.1]:8602", 403, "address_not_allowed", "judged as 127.0.0.1"),
    ("http", "http://10.1.2.3:8601/", 403, "address_not_allowed", "10.1.2.3 is a private address"),
    ("grpc", "192.168.0.9:50051", 403, "address_not_allowed", "192.168.0.9 is a private address"),
    ("http", "http://169.254.169.254/latest/", 403, "address_not_allowed", "link-local"),
    ("http", "http://rebound.example.org:8601/", 403, "address_not_allowed",
     "127.0.0.1 (rebound.example.org resolves to it) is a loopback address"),
    ("http", "https://8.8.4.4/hook", 403, "address_not_allowed", "8.8.4.4 is not in the allow-list"),
    ("http", "https://agents.example.org:8443/hook", 403, "address_not_allowed", "not in the allow-list"),
    ("grpc", "nowhere.example.org:50051", 400, "bad_address", "does not resolve"),
])
def test_an_address_the_allow_list_refuses_registers_nothing(client, redis_client, agent_allow, dns,
                                                            protocol, address, status, code, words):
    agent_allow("agents.example.org:443, rebound.example.org:8601, *:50051, 127.0.0.1:9000")
    resp = client.post("/agents", json=agent(protocol=protocol, address=address))
    assert resp.status_code == status and resp.json["error"] == code, resp.json
    assert words in resp.json["reason"]
    assert code == "bad_address" or "LONGHOUSE_AGENT_ALLOW" in resp.json["reason"]
    assert "s" * 20 not in resp.get_data(as_text=True)
    assert redis_client.hlen(KEY) == 0  # nothing registered


def test_the_allow_list_permits_what_it_lists(client, agent_allow, dns):
    agent_allow("agents.example.org:443, 127.0.0.1:8601, 10.0.0.0/8:50051")
    for protocol, address in (("http", "https://agents.example.org/hook"), ("http", "http://127.0.0.1:8601/"),
                              ("grpc", "10.9.8.7:50051")):
        resp = client.post("/agents", json=agent(protocol=protocol, address=address))
        assert resp.status_code == 201, resp.json
    agent_allow("")
    resp = client.post("/agents", json=agent())
    assert resp.status_code == 403 and "is empty" in resp.json["reason"]


def test_a_rotated_secret_signs_the_engines_next_request(client, redis_client, monkeypatch):
    compared = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: compared.append(1) or real(a, b))
    request = MoveRequest(match_id="m", game="gnomes", seat=0, version=1, view_json="{}",
                          legal_moves_json=['{"a":1}'], time_left_ms=5000, bank_ms=0)
    with example_agent("http", secret="n" * 20) as address:  # the agent already holds the new secret
        aid = client.post("/agents", json=agent(address=address)).json["agent_id"]
        with make_client(AgentRegistry(redis_client).get(aid)) as engine:
            assert _fails(engine, request)  # signed with the old secret: refused
        resp = client.post(f"/agents/{aid}/secret", json={"current": "s" * 20, "secret": "n" * 20})
        assert resp.status_code == 200 and compared  # the current secret was compared in constant time
        record = AgentRegistry(redis_client).get(aid)
        assert "n" * 20 not in repr(record) and "n" * 20 not in str(record)
        with make_client(record) as engine:
            assert engine.choose(request, 10).index == 0  # signed with the new one: accepted


def test_a_rotation_with_an_overlap_signs_with_both_secrets_until_the_window_ends(client, redis_client):
    request = MoveRequest(match_id="m", game="gnomes", seat=0, version=1, view_json="{}",
                          legal_moves_json=['{"a":1}'], time_left_ms=5000, bank_ms=0)
    aid = client.post("/agents", json=agent()).json["agent_id"]
    began = int(time.time())
    resp = client.post(f"/agents/{aid}/secret", json={"current": "s" * 20, "secret": "n" * 20, "overlap_s": 900})
    assert resp.status_code == 200, resp.json
    assert began + 900 <= resp.json["previous_secret_until"] <= int(time.time()) + 900
    assert client.get(f"/agents/{aid}").json["previous_secret_until"] == resp.json["previous_secret_until"]
    record = AgentRegistry(redis_client).get(aid)
    assert record.signing_secrets() == ["n" * 20, "s" * 20]
    assert "s" * 20 not in str(client.get("/agents").json)  # the old secret is not shown either
    for holds in ("s" * 20, "n" * 20):  # an agent holding either secret accepts the engine's requests
        with example_agent("http", secret=holds) as address:
            with make_client({**record.model_dump(), "address": address}) as engine:
                assert engine.choose(request, 10).index == 0
    assert record.signing_secrets(now=record.previous_until) == ["n" * 20]
    too_long = client.post(f"/agents/{aid}/secret", json={"current": "n" * 20, "secret": "m" * 20,
                                                          "overlap_s": 8 * 24 * 3600})
    assert too_long.status_code == 400 and too_long.json["error"] == "bad_request"


def _fails(engine, request) -> bool:
    try:
        engine.choose(request, 10)
    except AgentFailure as exc:
        return exc.kind == "crash" and "HTTP 401" in exc.message
    return False


def _play_seat_0_until(client, api, table, gid: str, token: str, done, moves: int = 40) -> None:
    """Seat 0 (a person) plays its first legal move, the agent's seat answering between, until
    ``done(state)`` (at most ``moves`` moves)."""
    for _ in range(moves):
        state = table.state(gid)[1]
        if done(state):
            return
        legal = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {token}"}).json
        assert api.move(gid, token, legal["moves"][0], legal["version"]).status_code == 200
    raise AssertionError("not reached")


def test_an_agent_is_removed_and_its_seat_in_play_then_strikes(client, api, table):
    """DELETE /agents/<id> (operator key): 200 with the record it had, then 404 everywhere; a
    seat it held in a game still in play strikes (crash) when its turn comes, where it played
    before, and the game goes on with the default move (docs/API.md, agents)."""
    from services.rules.core.match import strikes

    def agent_moves(gid: str) -> int:
        return sum(1 for entry in table.store.read(gid) if entry.kind == "move" and entry.seat == 1)

    with example_agent("http") as address:
        made = client.post("/agents", json=agent(address=address, secret=SECRET)).json
        aid = made["agent_id"]
        gid = api.create("resource_hog", 2, seed="removed-agent", bots={"1": {"kind": "agent", "agent": aid}})
        token = api.seat(gid, 0)
        _play_seat_0_until(client, api, table, gid, token, lambda state: agent_moves(gid) >= 2)
        assert strikes(table.state(gid)[1], 1) == 0  # the agent answered
        resp = client.delete(f"/agents/{aid}")
        assert resp.status_code == 200 and resp.json == made
        assert client.get(f"/agents/{aid}").status_code == 404
        assert made not in client.get("/agents").json["agents"]
        again = client.delete(f"/agents/{aid}")
        assert again.status_code == 404 and again.json["error"] == "unknown_agent"
        before = agent_moves(gid)
        _play_seat_0_until(client, api, table, gid, token, lambda state: strikes(state, 1) >= 1)
        assert agent_moves(gid) > before  # the default move was played for it


def test_removing_needs_the_operator_key(client, monkeypatch):
    aid = client.post("/agents", json=agent()).json["agent_id"]
    resp = client.delete(f"/agents/{aid}", headers={"X-Longhouse-Operator-Key": "lhop_not-a-key"})
    assert resp.status_code in (401, 403)
    assert client.get(f"/agents/{aid}").status_code == 200
