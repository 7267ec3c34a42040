"""The game catalog (``GET /catalog``): each game's seats, options, bot kinds, and move and view
schemas that every legal move and every view of seeded random games satisfy; a move the schema
takes but the rules refuse is a clear 422 through the gateway.

The schemas are checked to be valid JSON Schema 2020-12 by ``jsonschema``; the thousands of moves and
views are validated against them by ``jsonschema-rs`` (the same draft, about 100x faster)."""

from __future__ import annotations

import json
import random

import jsonschema_rs
import pytest
from jsonschema import Draft202012Validator

from services.bots.decide import BOT_KINDS
from services.rules.catalog import infer_schema, sample_views
from services.rules.core import forward
from services.rules.core.game import GameConfig, get_rules

GAMES = ("noggin", "gnomes", "resource_hog")
MAX_STEPS = 400
"""Steps (moves and phases) of each seeded game checked: the schemas meet every kind of decision
well before (a whole random Noggin game is about 200 steps)."""


@pytest.fixture
def entries(client) -> dict[str, dict]:
    resp = client.get("/catalog")
    assert resp.status_code == 200
    return {e["name"]: e for e in resp.json["games"]}


def test_the_catalog_lists_the_three_games_first_with_seats_options_and_bots(client, entries):
    names = [e["name"] for e in client.get("/catalog").json["games"]]
    assert names[:3] == sorted(GAMES)
    for name in GAMES:
        entry = entries[name]
        rules = get_rules(name)
        assert entry["title"] == rules.title
        assert entry["seats"] == {"min": 2, "max": 4}
        assert entry["bots"] == list(BOT_KINDS)
        assert [o["name"] for o in entry["options"]] == sorted(rules.option_names)
        assert all(o["type"] == "boolean" and o["default"] is False and o["help"] for o in entry["options"])
        assert entry["move_schema"]["oneOf"] and entry["view_schema"]["type"] == "object"
        Draft202012Validator.check_schema(entry["move_schema"])
        Draft202012Validator.check_schema(entry["view_schema"])
        assert client.get(f"/catalog/{name}").json == entry
    assert {o["name"] for o in entries["noggin"]["options"]} >= {"sos", "friend_or_foe"}
    assert entries["resource_hog"]["options"] == []


def test_an_unknown_game_is_a_404_with_its_code(client):
    resp = client.get("/catalog/chess")
    assert resp.status_code == 404 and resp.json["error"] == "unknown_game"
    assert "GET /catalog" in resp.json["reason"]


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_of_seeded_games_validates_against_the_move_schema(entries, name):
    rules = get_rules(name)
    schema = jsonschema_rs.Draft202012Validator(entries[name]["move_schema"])
    checked_types: set[str] = set()
    seen: set[str] = set()
    for players, seed in ((2, "a"), (rules.max_players, "b")):
        for legal in _legal_moves_of_a_random_game(rules, players, f"catalog-test:{name}:{seed}"):
            for move in legal:
                text = json.dumps(move, sort_keys=True)
                if text in seen:
                    continue  # the same move offered again: checked once
                seen.add(text)
                errors = [e.message for e in schema.iter_errors(move)]
                assert not errors, (move, errors[:2])
                checked_types.add(move["type"])
    assert len(checked_types) >= 4, checked_types  # many kinds of decision met, not one
    # and the schema is no rubber stamp: an extra field or a wrong type is refused
    move = next(iter(rules.legal_moves(*_first_decision(rules))))
    assert not schema.is_valid({**move, "unheard_of": 1})
    assert not schema.is_valid({"type": "no_such_move"})


def _legal_moves_of_a_random_game(rules, players: int, seed: str):
    """Each decision's legal moves in a game of ``players`` played by uniformly random moves
    (choices and chance from ``seed``), at most :data:`MAX_STEPS` steps."""
    rng = random.Random(seed)
    chance = forward.chance_from(seed)
    state, _ = forward.start(rules, GameConfig(game=rules.name, players=players), chance)
    for _ in range(MAX_STEPS):
        if rules.outcome(state) is not None:
            return
        if rules.pending_phase(state):
            forward.apply_phase(rules, state, chance)
            continue
        seat = rules.to_move(state)[0]
        legal = rules.legal_moves(state, seat)
        yield legal
        forward.apply(rules, state, seat, rng.choice(legal), chance, checked=True)


def _first_decision(rules):
    state, _ = forward.start(rules, GameConfig(game=rules.name, players=2), forward.chance_from("first"))
    return state, rules.to_move(state)[0]


@pytest.mark.parametrize("name", GAMES)
def test_every_view_of_seeded_games_validates_against_the_view_schema(entries, name):
    schema = jsonschema_rs.Draft202012Validator(entries[name]["view_schema"])
    views = 0
    for view in sample_views(name, games=2, seed="catalog-test-views", max_steps=MAX_STEPS):
        errors = [f"{list(e.instance_path)}: {e.message}" for e in schema.iter_errors(view)]
        assert not errors, errors[:3]
        views += 1
    assert views > 100


def test_an_inferred_schema_refuses_what_its_samples_never_were():
    schema = jsonschema_rs.Draft202012Validator(infer_schema([{"seat": 0, "hand": ["a"], "scores": {"0": 1}},
                                                {"seat": None, "hand": [], "scores": {"1": 2}}]))
    assert schema.is_valid({"seat": 3, "hand": ["b"], "scores": {"7": 0}})
    assert not schema.is_valid({"seat": "0", "hand": ["b"], "scores": {}})  # a string seat
    assert not schema.is_valid({"seat": 1, "hand": [1], "scores": {}})  # a number in the hand
    assert not schema.is_valid({"seat": 1, "hand": [], "scores": {"x": 1}})  # seats are numbers
    assert not schema.is_valid({"hand": []})  # seat and scores were always there


@pytest.mark.parametrize("name", GAMES)
def test_a_schema_valid_but_illegal_move_gets_a_clear_422(client, api, entries, name):
    rules = get_rules(name)
    schema = jsonschema_rs.Draft202012Validator(entries[name]["move_schema"])
    gid = api.create(name, 2, seed="catalog-illegal")
    tokens = {s: api.seat(gid, s) for s in range(2)}
    summary = client.get(f"/games/{gid}").json
    seat = summary["to_move"][0]
    legal = client.get(f"/games/{gid}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"}).json
    offered = {m["type"] for m in legal["moves"]}
    # moves of kinds this decision does not offer, taken from a seeded game of the same game
    elsewhere: dict[str, dict] = {}
    for moves in _legal_moves_of_a_random_game(rules, 2, "catalog-illegal"):
        for move in moves:
            if move["type"] not in offered:
                elsewhere.setdefault(move["type"], move)
        if len(elsewhere) >= 3:
            break
    assert elsewhere, "the seeded game offered no other kind of move"
    for move in elsewhere.values():
        assert schema.is_valid(move)
        resp = api.move(gid, tokens[seat], move, version=legal["version"])
        assert resp.status_code == 422, (move, resp.json)
        assert resp.json["error"] == "illegal_move" and len(resp.json["reason"]) > 10, resp.json
    assert api.version(gid) == legal["version"]  # nothing was played
    bad = dict(next(iter(elsewhere.values())), unheard_of=1)
    assert not schema.is_valid(bad)
    resp = api.move(gid, tokens[seat], bad, version=legal["version"])
    assert resp.status_code == 422 and resp.json["error"] == "malformed_move"
