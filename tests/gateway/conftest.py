"""Fixtures of the gateway tests: an app on the private redis-server, embedded ports, inline phases."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import tests.core_games.lap_race  # noqa: F401  (registers the test games)
import tests.core_games.sealed_bid  # noqa: F401
import tests.core_games.step_race  # noqa: F401
from gateway.app import create_app
from services.coordinator.ports import embedded_ports
from services.coordinator.redis_store import RedisSeeds, RedisStore
from services.coordinator.table import Table


@pytest.fixture
def app(redis_client, redis_server):
    """A gateway app (embedded ports, inline phases) on a flushed private Redis."""
    return create_app({"TESTING": True, "REDIS_URL": redis_server.url, "PORTS_MODE": "embedded",
                       "PHASE_MODE": "inline"})


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
    """Small helpers over the test client."""

    def __init__(self, client):
        self.c = client

    def create(self, game: str, players: int, seed: str = "7", **extra: Any) -> str:
        resp = self.c.post("/games", json={"game": game, "players": players, "seed": seed, **extra})
        assert resp.status_code == 201, resp.json
        return resp.json["game_id"]

    def seat(self, game_id: str, seat: int) -> str:
        resp = self.c.post(f"/games/{game_id}/seats/{seat}")
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
