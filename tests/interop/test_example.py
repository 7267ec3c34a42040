"""examples/openspiel_agent.py: OpenSpiel's ISMCTS plays Resource Hog locally, and the same bot
answers the agent protocol (issue 24, acceptance 4)."""

from __future__ import annotations

import importlib.util
import random
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import orjson
import requests

from services.agents.protocol import MoveRequest, encode, signed_headers
from services.interop.episode import Episode
from services.rules.core.canonical import plain_json
from tests.interop.conftest import advance

ROOT = Path(__file__).resolve().parents[2]
SECRET = "example-secret-0123456789"


def _example():
    spec = importlib.util.spec_from_file_location("openspiel_agent", ROOT / "examples" / "openspiel_agent.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _request(seat_moves: int = 7) -> tuple[MoveRequest, list[dict]]:
    ep = advance(Episode("resource_hog", 3), random.Random(4), seat_moves)
    while len(ep.legal_moves()) < 2:
        advance(ep, random.Random(5), ep.moves + 1)
    seat = ep.current()
    legal = ep.legal_moves()
    req = MoveRequest(match_id="m1", game="resource_hog", seat=seat, version=ep.log.depth,
                      view_json=plain_json(ep.view(seat)), legal_moves_json=[plain_json(m) for m in legal],
                      time_left_ms=5000, bank_ms=0)
    return req, legal


def test_the_example_plays_resource_hog_locally_with_ismcts():
    state = _example().play_local(players=2, simulations=4, seed=1, max_moves=30)
    assert state.is_terminal()
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])


def test_the_served_bot_answers_a_move_request_with_a_legal_index():
    example = _example()
    req, legal = _request()
    index = example.choose(req, simulations=4, horizon=8, seed=1)
    assert 0 <= index < len(legal)
    server = ThreadingHTTPServer(("127.0.0.1", 0), example.make_handler(SECRET, 4, 8, 1))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        body = encode(req)
        answer = requests.post(url, data=body, headers=signed_headers(SECRET, body), timeout=60)
        assert answer.status_code == 200 and orjson.loads(answer.content) == {"index": index}
        refused = requests.post(url, data=body, headers=signed_headers("another-secret-0123456789", body), timeout=60)
        assert refused.status_code == 401
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
