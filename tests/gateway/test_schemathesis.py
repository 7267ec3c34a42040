"""schemathesis against the gateway's own OpenAPI document, in process (issue 10, acceptance 3).

Every operation of ``GET /openapi.json`` gets requests that fit its schema and requests
that break it (schemathesis's positive and negative modes), on unknown ids and on a real
game, agent and tournament, with no token, the seat's token, another game's token or a
made-up one. Every answer must be no server error, a documented status, the documented
content type and a body that fits the documented schema. The second test throws
generated bad moves and seat claims at a game of each real game and checks that every
rejection leaves the game's state hash (and version) as it was.

Bounded and deterministic: hypothesis is derandomised (no example database), each
operation gets ``LONGHOUSE_SCHEMA_FUZZ_EXAMPLES`` examples per mode (default 10), long-polls
and streams are configured to end within a tenth of a second. Print the per-operation
tally with ``-s``.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from gateway.openapi import openapi_path
from gateway.operators import HEADER
from tests.gateway.conftest import OPERATOR_KEY, make_app

EXAMPLES = int(os.environ.get("LONGHOUSE_SCHEMA_FUZZ_EXAMPLES", "10"))
"""Examples per operation and mode (``make test`` keeps it small; raise it for a long run)."""

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
FAST = {"WAIT_MAX_SECONDS": 0.05, "SSE_KEEPALIVE_SECONDS": 0.05}
NO_LIMITS = {"RATE_LIMITS": False, "QUOTA_GAMES_IN_PLAY": 0}
"""Rate limits and the quota off: with them, the generated creations, claims and registrations
from one client were answered 429 after the first few and never reached the code under test
(``make schema-fuzz`` once tallied 200 of 200 ``POST /games`` as 429). They have their own tests
(tests/gateway/test_limits.py, tests/stack/test_rate_limits.py)."""
"""Long-polls and keep-alive periods short enough that no generated request waits long."""


def fuzz_settings(examples: int) -> settings:
    """Derandomised, database-free hypothesis settings with ``examples`` examples."""
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


@pytest.fixture
def fuzz_app(redis_client, redis_server):
    """A gateway app (embedded ports, inline phases, short waits, no rate limits or quota) on a
    flushed private Redis, accepting the tests' operator key."""
    return make_app(redis_server.url, **FAST, **NO_LIMITS)


@pytest.fixture
def schema(fuzz_app):
    """The app's OpenAPI document loaded by schemathesis, calling the app in process (WSGI)."""
    return schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)


class World:
    """Real things for generated requests to land on: a game with seat 0 taken, a second game
    (for a token of the wrong game), an agent and a finished tournament."""

    def __init__(self, client):
        post = client.post
        created = post("/games", json={"game": "step_race", "players": 2, "seed": "fz"})
        self.game_id = created.json["game_id"]
        self.token = post(f"/games/{self.game_id}/seats/0",
                          json={"invitation": created.json["invitations"]["0"]}).json["token"]
        other = post("/games", json={"game": "step_race", "players": 2, "seed": "fz2", "open": True}).json["game_id"]
        self.other_token = post(f"/games/{other}/seats/0").json["token"]  # an open game: no invitation
        self.agent_id = post("/agents", json={"name": "a", "protocol": "http", "address": "http://127.0.0.1:9/",
                                               "secret": "s" * 16}).json["agent_id"]
        tournament = post("/tournaments", json={"games": ["step_race"], "players": 2, "seed": "fz",
                                                "participants": [{"name": "r", "kind": "random"},
                                                                 {"name": "g", "kind": "greedy"}]})
        assert tournament.status_code == 201, tournament.json
        self.tid = tournament.json["tournament_id"]

    def path_parameters(self, names: list[str]) -> dict[str, str] | None:
        """The real ids for an operation's path parameters, or None if it has none of them."""
        known = {"game_id": self.game_id, "agent_id": self.agent_id, "tid": self.tid}
        fixed = {n: known[n] for n in names if n in known}
        return fixed or None

    def credentials(self) -> st.SearchStrategy[dict[str, str]]:
        """Extra headers: no seat token, the seat's token, another game's, a made-up one, a
        malformed header; each with no operator key, the accepted one or a made-up one."""
        seat = st.sampled_from([
            {}, {"Authorization": f"Bearer {self.token}"}, {"Authorization": f"Bearer {self.other_token}"},
            {"Authorization": f"Bearer {self.game_id}.not-a-token"}, {"Authorization": "Basic eDp5"},
        ])
        operator = st.sampled_from([{}, {HEADER: OPERATOR_KEY}, {HEADER: OPERATOR_KEY}, {HEADER: "lhop_made-up"}])
        return st.tuples(seat, operator).map(lambda pair: {**pair[0], **pair[1]})


def bound(case) -> None:
    """Make a generated stream request end quickly: ``idle_timeout`` at most 0.05 s (added if
    absent; a value the gateway refuses is left as it is, to be refused)."""
    if not case.path.endswith("/stream"):
        return
    query = dict(case.query or {})
    raw = query.get("idle_timeout")
    try:
        value = float(str(raw)) if raw is not None else None
    except ValueError:
        return
    if value is None or value > 0.05:
        query["idle_timeout"] = 0.05
    case.query = query


RENDERED = {"/tournaments/{tid}/ratings.png", "/tournaments/{tid}/standings.csv"}
"""Operations whose only input is an id and whose every answer draws the ratings plot (about
half a second each): a few examples are all they need."""

GAMES = ["noggin", "gnomes", "resource_hog", "step_race"]


def name_a_real_game(case, data) -> None:
    """Half the generated ``POST /games`` bodies name a real game, so that player counts,
    options, bots and time controls are checked by the rules rather than refused by name; half
    of those take a seat count the game allows and no bot or agent seats, so that some
    creations succeed (random counts and seat lists almost never fit)."""
    if case.path == "/games" and case.method == "POST" and isinstance(case.body, dict) and "game" in case.body:
        if data.draw(st.booleans()):
            case.body = {**case.body, "game": data.draw(st.sampled_from(GAMES))}
            if data.draw(st.booleans()):  # and half of those a seat count it takes, no seat lists
                case.body = {k: v for k, v in case.body.items() if k not in ("bots", "agents")}
                case.body["players"] = data.draw(st.sampled_from([2, 3]))


def strategy_for(operation, world: World | None, mode: GenerationMode):
    """Cases of ``operation`` in ``mode``, half of them on ``world``'s real ids."""
    parts = [operation.as_strategy(generation_mode=mode)]
    if world is not None:
        fixed = world.path_parameters([p.name for p in operation.path_parameters])
        if fixed:
            parts.append(operation.as_strategy(generation_mode=mode, path_parameters=fixed))
    return st.one_of(parts)


READINESS = "GET /readyz"
"""The readiness probe: 503 ``not_ready`` is its documented answer while a part of the stack is
missing (this app runs no mover), so it is held to its schema but not to "no 5xx"."""


def modes_for(operation) -> list[GenerationMode]:
    """Both modes, or only the positive one for an operation with nothing to break: no body,
    query or header, and only plain string path parameters (an empty one makes no URL)."""
    typed_path = any(p.definition.get("schema", {}).get("type") != "string" for p in operation.path_parameters)
    has_input = typed_path or any(len(part) for part in (operation.query, operation.headers))
    return list(GenerationMode) if has_input or operation.body else [GenerationMode.POSITIVE]


def test_every_operation_gives_no_server_error_and_keeps_its_schema(fuzz_app, schema):
    world = World(fuzz_app.test_client())
    tally: dict[str, collections.Counter] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    operations.sort(key=lambda op: op.method.upper() == "DELETE")  # removals last: the real ids serve the rest first
    served = {f"{m} {openapi_path(r.rule)}" for r in fuzz_app.url_map.iter_rules() if r.endpoint != "static"
              for m in r.methods - {"HEAD", "OPTIONS"}}
    # every route the app serves is fuzzed (schemathesis leaves out the document's own route)
    assert {op.label for op in operations} == served - {"GET /openapi.json"}
    for operation in operations:
        counts = tally.setdefault(operation.label, collections.Counter())
        for mode in modes_for(operation):

            @fuzz_settings(min(EXAMPLES, 3) if operation.path in RENDERED else EXAMPLES)
            @given(case=strategy_for(operation, world, mode), headers=world.credentials(), data=st.data())
            def run(case, headers, data):
                bound(case)
                name_a_real_game(case, data)
                checks = CHECKS if operation.label != READINESS else [c for c in CHECKS if c is not not_a_server_error]
                response = case.call_and_validate(headers=headers, checks=checks)
                counts[response.status_code] += 1

            run()
    report = "\n".join(f"{label:48} {dict(sorted(c.items()))}" for label, c in tally.items())
    print(f"\nschema fuzzing: {len(tally)} operations, {sum(sum(c.values()) for c in tally.values())} "
          f"requests, 0 server errors\n{report}")
    assert all(status < 500 for label, c in tally.items() if label != READINESS for status in c)
    assert set(tally[READINESS]) <= {200, 400, 503}  # 503: not ready (no mover runs here); 400: an unknown scope
    # the real ids were reached: every read of a real thing answered 200 at least once
    for label in ("GET /games/{game_id}", "GET /games/{game_id}/view", "GET /games/{game_id}/stream",
                  "GET /agents/{agent_id}", "GET /tournaments/{tid}", "GET /tournaments/{tid}/standings.csv"):
        assert tally[label][200] > 0, (label, tally[label])


# -- a rejected request leaves the game's hash unchanged ----------------------------------------

WRONG_VALUES = st.one_of(st.booleans(), st.none(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                         st.text(max_size=8), st.lists(st.integers(-3, 3), max_size=3),
                         st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


HOW = ["legal"] * 3 + ["value"] * 3 + ["add", "drop", "drop", "other_shape"]
"""Ways to bend a move, weighted: a legal move in three of ten, so the game moves on."""
BENDS = st.fixed_dictionaries({
    "how": st.integers(0, len(HOW) - 1).map(HOW.__getitem__),
    "pick": st.integers(0, 2**16), "key": st.text(min_size=1, max_size=6), "wrong": WRONG_VALUES,
    "other": st.dictionaries(st.sampled_from(["type", "kind", "steps", "card", "seat", "x"]), WRONG_VALUES, max_size=3),
    "version_off": st.sampled_from([0, 0, 0, -1, 1]), "move_id": st.text(min_size=1, max_size=8),
})
"""How to bend a move, drawn independently of the game's state (which the test reads as it goes)."""


def bent_move(legal: list[dict[str, Any]], bend: dict[str, Any]) -> dict[str, Any]:
    """A legal move (``how="legal"``) or one bent by ``bend``: a value swapped for a wrong type or
    number, a key added or dropped, or a move of another shape altogether."""
    how, pick = bend["how"], bend["pick"]
    if not legal or how == "other_shape":
        return dict(bend["other"])
    move = dict(legal[pick % len(legal)])
    keys = sorted(move)
    if how == "value" and keys:
        move[keys[pick % len(keys)]] = bend["wrong"]
    elif how == "add":
        move[bend["key"]] = bend["wrong"]
    elif how == "drop" and keys:
        move.pop(keys[pick % len(keys)])
    return move


def _state(table, game_id: str) -> tuple[int, str]:
    summary = table.summary(game_id)
    return summary["version"], summary["state_hash"]


@pytest.mark.parametrize("game,players", [("noggin", 2), ("gnomes", 2), ("resource_hog", 2)])
def test_every_rejected_move_or_seat_claim_leaves_the_hash_unchanged(fuzz_app, schema, table, game, players):
    client = fuzz_app.test_client()
    created = client.post("/games", json={"game": game, "players": players, "seed": "hash-fuzz"}).json
    game_id = created["game_id"]
    tokens = [client.post(f"/games/{game_id}/seats/{s}", json={"invitation": created["invitations"][str(s)]}).json["token"]
              for s in range(players)]
    moves_op = schema["/games/{game_id}/moves"]["POST"]
    seats_op = schema["/games/{game_id}/seats/{seat}"]["POST"]
    generated = st.one_of([op.as_strategy(generation_mode=mode, path_parameters={"game_id": game_id})
                           for op in (moves_op, seats_op) for mode in GenerationMode])
    outcomes = collections.Counter()

    def legal_moves(seat: int) -> tuple[int, list[dict[str, Any]]]:
        resp = client.get(f"/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {tokens[seat]}"})
        return resp.json["version"], resp.json["moves"]

    def move_request(bend: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A move of a seat (mostly one whose turn it is) against the current version (or one
        off): a legal one now and then, so the game moves on, else a bent one."""
        to_move = client.get(f"/games/{game_id}").json["to_move"]
        seats = (to_move or [0]) if bend["how"] == "legal" else to_move * 3 + list(range(players))
        seat = seats[bend["pick"] % len(seats)]
        version, legal = legal_moves(seat)
        off = 0 if bend["how"] == "legal" else bend["version_off"]
        return seat, {"move_id": bend["move_id"], "expected_version": max(0, version + off),
                      "move": bent_move(legal, bend)}

    examples = itertools.count()

    @fuzz_settings(EXAMPLES * 6)
    @given(request=st.one_of(generated, BENDS), seat=st.integers(0, players - 1))
    def run(request, seat):
        if next(examples) % 6 == 5:
            # the game moves on every sixth example whatever hypothesis draws (which requests it
            # draws depends on what ran before in the process: an xdist worker's run drew none of
            # the legal ones), so rejections are tried on more than the first state
            summary = client.get(f"/games/{game_id}").json
            if summary["status"] == "active" and summary["to_move"]:
                seat_now = summary["to_move"][0]
                version, legal = legal_moves(seat_now)
                if legal:
                    moved = client.post(f"/games/{game_id}/moves", headers={"Authorization": f"Bearer {tokens[seat_now]}"},
                                        json={"move_id": f"on-{version}", "expected_version": version, "move": legal[0]})
                    assert moved.status_code == 200, moved.json
                    outcomes["legal, played to move on"] += 1
        before = _state(table, game_id)
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        if isinstance(request, dict):
            seat, body = move_request(request)
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            resp = client.post(f"/games/{game_id}/moves", data=json.dumps(body), headers=auth,
                               content_type="application/json")
            status = resp.status_code
        else:
            status = request.call(headers=auth).status_code
        after = _state(table, game_id)
        outcomes[status] += 1
        assert status < 500
        if 400 <= status < 500:
            assert after == before, (status, request)
        elif status == 200:
            assert after[0] > before[0]  # an accepted move commits

    run()
    print(f"\n{game}: {dict(sorted(outcomes.items(), key=str))}")
    assert sum(n for s, n in outcomes.items() if isinstance(s, int) and 400 <= s < 500) >= 20  # rejections were really tried
    assert outcomes["legal, played to move on"] > 0  # and on more than the first state
