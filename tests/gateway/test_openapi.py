"""``GET /openapi.json``: every route of the app, generated from the views' own models, valid OpenAPI."""

from __future__ import annotations

import re

import pytest
import schemathesis
from openapi_spec_validator import validate

from gateway.bodies import CreateGameBody, MoveBody
from gateway.openapi import MissingContract, build_document, openapi_path
from gateway.responses import StreamMessage


@pytest.fixture
def doc(client):
    resp = client.get("/openapi.json")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    return resp.json


def served(app) -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every route the app serves (HEAD/OPTIONS are Flask's own)."""
    return {(m.lower(), openapi_path(rule.rule)) for rule in app.url_map.iter_rules() if rule.endpoint != "static"
            for m in rule.methods - {"HEAD", "OPTIONS"}}


def test_every_route_in_the_url_map_is_in_the_document_and_nothing_else(app, doc):
    documented = {(m, path) for path, ops in doc["paths"].items() for m in ops}
    routes = served(app)
    assert documented == routes
    # the blueprints named in the issue, healthz and the document itself
    for path in ("/games", "/games/{game_id}/seats/{seat}", "/games/{game_id}/moves", "/games/{game_id}/stream",
                 "/agents", "/tournaments", "/healthz", "/openapi.json"):
        assert path in doc["paths"], path


def test_the_document_validates_as_openapi_3_1(doc):
    assert doc["openapi"].startswith("3.1")
    validate(doc)  # openapi-spec-validator: raises on any violation of the OpenAPI 3.1 schema
    schema = schemathesis.openapi.from_dict(doc)
    assert len([r for r in schema.get_all_operations() if r.ok()]) == len(served_from(doc))


def served_from(doc) -> list[tuple[str, str]]:
    return [(m, p) for p, ops in doc["paths"].items() for m in ops]


def test_request_bodies_are_the_models_the_views_validate_with(doc):
    schemas = doc["components"]["schemas"]
    for path, model in (("/games", CreateGameBody), ("/games/{game_id}/moves", MoveBody)):
        ref = doc["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert ref == f"#/components/schemas/{model.__name__}"
        own = model.model_json_schema()
        assert schemas[model.__name__]["properties"] == own["properties"]
        assert set(schemas[model.__name__]["required"]) == set(own["required"])
        assert schemas[model.__name__]["additionalProperties"] is False  # extra="forbid" carries over


def test_errors_parameters_and_the_seat_token_are_documented(doc):
    moves = doc["paths"]["/games/{game_id}/moves"]["post"]
    for status in ("400", "401", "403", "404", "409", "413", "422", "503"):
        assert moves["responses"][status]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"}, status
    assert "stale_version" in moves["responses"]["409"]["description"]
    assert set(doc["components"]["schemas"]["Error"]["required"]) == {"error", "reason", "request_id"}
    assert moves["security"] == [{"seatToken": []}]
    scheme = doc["components"]["securitySchemes"]["seatToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    view = doc["paths"]["/games/{game_id}/view"]["get"]
    assert {} in view["security"] and {"seatToken": []} in view["security"]  # a spectator needs no token

    def params(path, method="get"):
        return {p["name"]: p for p in doc["paths"][path][method]["parameters"]}

    wait = params("/games/{game_id}/wait")
    assert wait["after"]["required"] and wait["after"]["in"] == "query"
    assert {"after", "timeout", "until", "view", "game_id"} == set(wait)
    assert wait["until"]["schema"]["enum"] == ["over", "turn"] and wait["view"]["schema"] == {"type": "boolean"}
    assert {"legal", "view", "game_id"} == set(params("/games/{game_id}/moves", "post"))
    next_ = doc["components"]["schemas"]["MoveResult"]["properties"]["next"]
    assert next_ == {"$ref": "#/components/schemas/NextDecision"}
    stream = params("/games/{game_id}/stream")
    assert {"Last-Event-ID", "last_event_id", "max_events", "idle_timeout", "game_id"} == set(stream)
    assert stream["Last-Event-ID"]["in"] == "header"
    assert re.match(stream["Last-Event-ID"]["schema"]["pattern"], "0123abcdef012345:7-0")  # the game, the entry
    assert not re.match(stream["last_event_id"]["schema"]["pattern"], "7-0")
    assert {"seatTokenQuery": []} in doc["paths"]["/games/{game_id}/stream"]["get"]["security"]
    assert doc["components"]["securitySchemes"]["seatTokenQuery"]["name"] == "token"
    assert params("/games/{game_id}/seats/{seat}", "post")["seat"]["schema"]["type"] == "integer"
    assert "Idempotency-Key" in params("/games", "post")


def test_a_route_without_a_contract_cannot_be_published(app):
    app.add_url_rule("/undocumented", "undocumented", lambda: "x")
    with pytest.raises(MissingContract, match="/undocumented"):
        build_document(app)


def test_stream_messages_are_what_the_document_says(client, api):
    """schemathesis checks each SSE message's fields; the model also parses its JSON data."""
    gid = api.create("step_race", 2)
    token = api.seat(gid, 0)
    assert api.move(gid, token, {"type": "advance", "steps": 2}).status_code == 200
    body = client.get(f"/games/{gid}/stream?max_events=3").get_data(as_text=True)
    messages = []
    for block in body.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith((":", "retry")))
        if fields:
            messages.append(StreamMessage.model_validate(fields))
    assert [m.data.version for m in messages] == [1, 2, 3]
    assert messages[-1].data.kind == "move" and messages[-1].data.seat == 0


def test_finished_games_and_their_tournament_answer_as_documented(client):
    """What the fuzzer's fresh games never show: outcomes, final hashes, a done tournament."""
    from gateway.responses import GameSummary, PlayerView, TournamentDocument

    resp = client.post("/tournaments", json={
        "games": ["noggin", "gnomes", "resource_hog"], "format": "series", "matches": 1, "players": 2,
        "seed": "openapi", "participants": [{"name": "r", "kind": "random"}, {"name": "g", "kind": "greedy"}]})
    assert resp.status_code == 201, resp.json
    report = TournamentDocument.model_validate(client.get(f"/tournaments/{resp.json['tournament_id']}").json)
    assert report.status == "done" and len(report.matches) == 3
    for match in report.matches:
        summary = GameSummary.model_validate(client.get(f"/games/{match.game_id}").json)
        assert summary.status == "over" and summary.state_hash == match.state_hash and summary.outcome is not None
        view = PlayerView.model_validate(client.get(f"/games/{match.game_id}/view").json)
        assert view.outcome == summary.outcome and view.seat is None
        body = client.get(f"/games/{match.game_id}/stream?idle_timeout=0.01").get_data(as_text=True)
        frames = [b for b in body.split("\n\n") if b.startswith("id: ")]
        last = StreamMessage.model_validate(dict(line.split(": ", 1) for line in frames[-1].splitlines()))
        assert last.data.version == summary.version
