"""Fixtures of the gateway tests: an app on the private redis-server, embedded ports, inline phases.

The app accepts one operator key, :data:`OPERATOR_KEY`, and its test clients (``client``, and any
``app.test_client()``) send it with every request, as an operator's client would; a test of what a
stranger may do uses :func:`stranger`, a client that sends no key.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask.testing import FlaskClient

import tests.core_games.lap_race  # noqa: F401  (registers the test games)
import tests.core_games.sealed_bid  # noqa: F401
import tests.core_games.step_race  # noqa: F401
from gateway.app import create_app
from gateway.operators import HEADER, digest
from services.coordinator.ports import embedded_ports
from services.coordinator.redis_store import RedisSeeds, RedisStore
from services.coordinator.table import Table


OPERATOR_KEY = "lhop_" + "gateway-tests-operator-key-0123456789abcdef"[:43]
"""The operator key the tests' apps accept (a fixed, made-up one)."""
OPERATOR_CONFIG = {"OPERATOR_KEYS": [digest(OPERATOR_KEY)], "OPERATOR_KEYS_FILE": None}
"""App config accepting :data:`OPERATOR_KEY` only (whatever the environment says)."""


class OperatorClient(FlaskClient):
    """A test client that sends :data:`OPERATOR_KEY` with every request (a request's own
    ``X-Longhouse-Operator-Key`` header wins)."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.environ_base["HTTP_" + HEADER.upper().replace("-", "_")] = OPERATOR_KEY


def stranger(app) -> FlaskClient:
    """A test client of ``app`` that sends no operator key."""
    return FlaskClient(app, app.response_class, use_cookies=True)


def make_app(redis_url: str, **config: Any):
    """A gateway app (embedded ports, inline phases) on the Redis at ``redis_url``, accepting
    :data:`OPERATOR_KEY`, its test clients sending it (:class:`OperatorClient`); ``config``
    overrides any of that."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "PORTS_MODE": "embedded",
                      "PHASE_MODE": "inline", **OPERATOR_CONFIG, **config})
    app.test_client_class = OperatorClient
    return app


@pytest.fixture
def app(redis_client, redis_server):
    """A gateway app (embedded ports, inline phases) on a flushed private Redis (:func:`make_app`)."""
    return make_app(redis_server.url)


@pytest.fixture
def client(app):
    """The app's Flask test client."""
    return app.test_client()


@pytest.fixture
def table(redis_client):
    """An independent Table on the same Redis, to check what the gateway committed."""
    store = RedisStore(redis_client)
    return Table(store, embedded_ports(store, RedisSeeds(redis_client)))


_ids = itertools.count()


class Api:
    """Small helpers over the test client; the games it creates keep their invitations
    (:attr:`invitations`, game id -> seat -> invitation), which :meth:`seat` sends."""

    def __init__(self, client):
        self.c = client
        self.invitations: dict[str, dict[str, str]] = {}

    def create(self, game: str, players: int, seed: str = "7", **extra: Any) -> str:
        resp = self.c.post("/games", json={"game": game, "players": players, "seed": seed, **extra})
        assert resp.status_code == 201, resp.json
        self.invitations[resp.json["game_id"]] = resp.json["invitations"]
        return resp.json["game_id"]

    def invitation(self, game_id: str, seat: int) -> dict[str, str] | None:
        """The claim body of ``seat`` (its invitation), or None for an open game."""
        given = self.invitations.get(game_id, {}).get(str(seat))
        return {"invitation": given} if given else None

    def seat(self, game_id: str, seat: int) -> str:
        resp = self.c.post(f"/games/{game_id}/seats/{seat}", json=self.invitation(game_id, seat))
        assert resp.status_code == 201, resp.json
        return resp.json["token"]

    def version(self, game_id: str) -> int:
        return self.c.get(f"/games/{game_id}").json["version"]

    def move(self, game_id: str, token: str, move: dict, version: int | None = None,
             move_id: str | None = None):
        body = {"move_id": move_id or f"m{next(_ids)}",
                "expected_version": self.version(game_id) if version is None else version,
                "move": move}
        return self.c.post(f"/games/{game_id}/moves", json=body,
                           headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def api(client):
    """:class:`Api` helpers on the test client."""
    return Api(client)
