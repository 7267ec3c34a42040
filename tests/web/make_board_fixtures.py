"""Make the board drawings' fixtures: real player views of seeded games, read over the HTTP API.

Run it again (``.venv/bin/python -m tests.web.make_board_fixtures``) when a game's view changes;
it rewrites ``tests/web/fixtures/boards/*.json``. Each game is played through the gateway's
Flask test client (embedded ports, inline phases, a private ``redis-server``) by seeded
built-in bots, one seat token per seat, and at chosen points every client reads
``GET /games/<id>/view``: each seat with its own token and a spectator without one. A fixture
is one such point::

    {"game": "noggin", "players": 3, "options": {...}, "label": "middle",
     "summary": <GET /games/<id>>, "views": {"spectator": <GET /view>, "0": ..., "1": ...}}

so every view holds exactly what the API tells that client (a seat's own hand and secrets,
nothing of another's); tokens and seeds are never stored.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from services.bots.client import Conflict, GatewayError
from services.bots.greedy_bot import GreedyBot
from services.bots.random_bot import RandomBot

OUT = Path(__file__).resolve().parent / "fixtures" / "boards"
"""Where the fixtures go."""

MOVE_CAP = 4000
"""Moves before a game is given up (each game here ends far sooner)."""


class TestClientApi:
    """The bots' client calls (legal moves, move, view) over a Flask test client."""

    def __init__(self, client: Any, headers: dict[str, str]):
        self.c = client
        self.headers = headers
        self.n = 0

    def _get(self, path: str, token: str | None = None) -> Any:
        headers = dict(self.headers, **({"Authorization": f"Bearer {token}"} if token else {}))
        resp = self.c.get(path, headers=headers)
        assert resp.status_code == 200, (path, resp.get_json())
        return resp.get_json()

    def legal_moves(self, game_id: str, token: str) -> dict[str, Any]:
        return self._get(f"/games/{game_id}/legal-moves", token)

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        return self._get(f"/games/{game_id}/view", token)

    def summary(self, game_id: str) -> dict[str, Any]:
        return self._get(f"/games/{game_id}")

    def move(self, game_id: str, token: str, move: dict[str, Any], expected_version: int,
             move_id: str | None = None) -> dict[str, Any]:
        self.n += 1
        body = {"move_id": move_id or f"fx{self.n}", "expected_version": expected_version, "move": move}
        resp = self.c.post(f"/games/{game_id}/moves", json=body,
                           headers=dict(self.headers, Authorization=f"Bearer {token}"))
        answer = resp.get_json()
        if resp.status_code >= 400:
            raise (Conflict if resp.status_code == 409 else GatewayError)(resp.status_code, answer["error"],
                                                                         answer["reason"])
        return answer


Point = Callable[[dict[str, Any], dict[str, Any], int], bool]
"""``(summary, spectator view body, move number) -> bool``: is this a point worth keeping?"""


def play(api: TestClientApi, game: str, players: int, seed: str, options: dict[str, Any],
         points: dict[str, Point], greedy: tuple[int, ...] = ()) -> dict[str, dict[str, Any]]:
    """Play one seeded game with bots (``greedy`` seats greedy, the others random) and keep, for
    each label of ``points``, the first point its test accepts, and the end (label ``end``)."""
    resp = api.c.post("/games", json={"game": game, "players": players, "seed": seed, "options": options},
                      headers=api.headers)
    assert resp.status_code == 201, resp.get_json()
    gid = resp.get_json()["game_id"]
    invitations = resp.get_json()["invitations"]
    tokens = []
    for s in range(players):
        r = api.c.post(f"/games/{gid}/seats/{s}", json={"invitation": invitations[str(s)]}, headers=api.headers)
        assert r.status_code == 201, r.get_json()
        tokens.append(r.get_json()["token"])
    bots = [GreedyBot(f"{seed}:bot:{s}") if s in greedy else RandomBot(f"{seed}:bot:{s}") for s in range(players)]

    def capture(label: str, summary: dict[str, Any]) -> dict[str, Any]:
        views = {"spectator": api.view(gid, None)}
        for s, t in enumerate(tokens):
            views[str(s)] = api.view(gid, t)
        return {"game": game, "players": players, "options": options, "label": label,
                "summary": summary, "views": views}

    kept: dict[str, dict[str, Any]] = {}
    for step in range(MOVE_CAP):
        summary = api.summary(gid)
        if summary["status"] == "over":
            kept["end"] = capture("end", summary)
            return kept
        spectator = api.view(gid, None)
        for label, test in points.items():
            if label not in kept and test(summary, spectator["view"], step):
                kept[label] = capture(label, summary)
        mover = summary["to_move"][0]
        assert bots[mover].play(api, gid, tokens[mover]) is not None, f"seat {mover} had no move"
    raise AssertionError(f"{game} {seed} did not end within {MOVE_CAP} moves")


def at_move(n: int) -> Point:
    """The point after ``n`` moves."""
    return lambda summary, view, step: step >= n


def noggin_saga_started(summary: dict[str, Any], view: dict[str, Any], step: int) -> bool:
    """Mid-game Noggin: season 3 or later, a Saga under way, during someone's turn."""
    return view.get("season", 0) >= 3 and view.get("pending") is None and any(
        s and s.get("nogs") for s in view.get("saga_cards") or [])


def gnomes_winter(summary: dict[str, Any], view: dict[str, Any], step: int) -> bool:
    """A Gnomes point in winter (the ice, the winter tower)."""
    return view.get("season") == "winter" and view.get("pending") == "turn"


def gnomes_sleep(summary: dict[str, Any], view: dict[str, Any], step: int) -> bool:
    """A Gnomes point while the gnomes sleep (the dream piles are the decision)."""
    return view.get("pending") == "sleep" and step > 20


def rh_orders(summary: dict[str, Any], view: dict[str, Any], step: int) -> bool:
    """Resource Hog while orders are being given, one seat done (its order its own secret)."""
    return view.get("stage") == "orders" and view.get("round", 0) >= 3 and 0 < len(summary["to_move"]) < len(
        view.get("players", []))


def rh_acting(summary: dict[str, Any], view: dict[str, Any], step: int) -> bool:
    """Resource Hog mid-round: an action being resolved."""
    return view.get("round", 0) >= 4 and view.get("acting") is not None


GAMES: list[tuple[str, str, int, dict[str, Any], dict[str, Point], tuple[int, ...]]] = [
    # (file prefix, game, players, options, points, greedy seats)
    ("noggin-3p", "noggin", 3, {}, {"start": at_move(0), "middle": noggin_saga_started}, (0, 1)),
    ("noggin-4p-friend-or-foe", "noggin", 4, {"friend_or_foe": True, "sos": True},
     {"middle": noggin_saga_started}, (0, 1, 2)),
    ("noggin-2p-variants", "noggin", 2, {"money_money_money": True, "another_train": True, "arrival": True},
     {"start": at_move(0), "middle": at_move(120)}, (0,)),
    ("gnomes-3p", "gnomes", 3, {}, {"start": at_move(0), "middle": at_move(60), "sleep": gnomes_sleep,
                                   "winter": gnomes_winter}, (0,)),
    ("gnomes-4p-random-layout-gems", "gnomes", 4, {"random_layout": True, "gem_variant": True},
     {"start": at_move(0), "middle": at_move(90)}, (0, 1)),
    ("gnomes-2p-random-layout", "gnomes", 2, {"random_layout": True}, {"winter": gnomes_winter}, (0,)),
    ("resource_hog-2p", "resource_hog", 2, {}, {"start": at_move(0), "middle": rh_acting}, (0,)),
    ("resource_hog-3p", "resource_hog", 3, {}, {"orders": rh_orders}, (0,)),
    ("resource_hog-4p", "resource_hog", 4, {}, {"middle": rh_acting}, (0, 1)),
]


def main(argv: list[str]) -> int:
    from gateway.app import create_app
    from gateway.operators import HEADER, digest, new_key
    from tests.conftest import RedisServer

    only = set(argv)
    key = new_key()
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(Path(tmp))
        try:
            app = create_app({"TESTING": True, "REDIS_URL": server.url, "PORTS_MODE": "embedded",
                              "PHASE_MODE": "inline", "OPERATOR_KEYS": [digest(key)], "OPERATOR_KEYS_FILE": None,
                              "RATE_LIMITS": False})
            api = TestClientApi(app.test_client(), {HEADER: key})
            OUT.mkdir(parents=True, exist_ok=True)
            for prefix, game, players, options, points, greedy in GAMES:
                if only and prefix not in only:
                    continue
                kept = play(api, game, players, f"boards:{prefix}", options, points, greedy)
                for label, fixture in kept.items():
                    path = OUT / f"{prefix}-{label}.json"
                    path.write_text(json.dumps(fixture, sort_keys=True, separators=(",", ":")) + "\n")
                    print(f"{path.name}: version {fixture['summary']['version']}", flush=True)
                missing = sorted(set(points) - set(kept))
                if missing:
                    print(f"{prefix}: no point for {missing}", flush=True)
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
