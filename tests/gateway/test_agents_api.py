"""``/agents`` on an embedded gateway: registration checks the address and the secret, never
shows the secret, and only who knows an agent's current secret may replace it."""


def agent(**extra):
    body = {"name": "mine", "protocol": "http", "address": "http://127.0.0.1:8601/", "secret": "s" * 20}
    body.update(extra)
    return body


def test_registration_and_reading_never_show_the_secret(client):
    resp = client.post("/agents", json=agent())
    assert resp.status_code == 201 and set(resp.json) == {"agent_id", "name", "protocol", "address"}
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
