"""GatewayClient retries a read or a move whose answer is cut off mid-body (found by the crash
harness: a gateway worker killed while it answered gave ``ChunkedEncodingError``, which
urllib3's retries never see, as they end once the status line has arrived). A local stand-in
gateway on loopback cuts the first answer of each path on purpose."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from services.bots.client import GatewayClient


class Cutting(BaseHTTPRequestHandler):
    """Promises a long body, sends a piece and hangs up, ``cuts`` times per path; then answers."""

    cuts = 1
    seen: list[tuple[str, str, bytes]] = []

    def _handle(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Cutting.seen.append((self.command, self.path, body))
        attempts = sum(1 for _, p, _ in Cutting.seen if p == self.path)
        payload = json.dumps({"version": 8, "events": [], "status": "active", "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload) + (100 if attempts <= Cutting.cuts else 0)))
        self.end_headers()
        if attempts <= Cutting.cuts:
            self.wfile.write(payload[:5])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(payload)

    do_GET = do_POST = _handle

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture()
def cutting():
    Cutting.seen = []
    Cutting.cuts = 1
    server = ThreadingHTTPServer(("127.0.0.1", 0), Cutting)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_read_whose_answer_is_cut_is_sent_again(cutting):
    with GatewayClient(cutting, timeout=5) as client:
        assert client.game("g1")["path"] == "/games/g1"
    assert [p for _, p, _ in Cutting.seen] == ["/games/g1", "/games/g1"]


def test_a_move_whose_answer_is_cut_is_sent_again_with_its_move_id(cutting):
    with GatewayClient(cutting, timeout=5) as client:
        result = client.move("g1", "tok", {"kind": "pass"}, expected_version=7, move_id="m-1")
    assert result["version"] == 8
    bodies = [json.loads(b) for _, p, b in Cutting.seen if p == "/games/g1/moves"]
    assert len(bodies) == 2 and bodies[0] == bodies[1] and bodies[0]["move_id"] == "m-1"


def test_creating_a_game_is_still_sent_once(cutting):
    with GatewayClient(cutting, timeout=5) as client, pytest.raises(requests.exceptions.ChunkedEncodingError):
        client.create_game("noggin", 2, seed="s")
    assert len(Cutting.seen) == 1


def test_an_answer_cut_every_time_is_given_up(cutting):
    Cutting.cuts = 100
    with GatewayClient(cutting, timeout=5) as client, pytest.raises(requests.exceptions.ChunkedEncodingError):
        client.game("g2")
    assert 2 <= len(Cutting.seen) <= 10  # bounded
