"""Issue: reliability, fault 6. The bots' GatewayClient gave up a game on one 503 or a dropped
connection. Reads and moves are now retried with back-off, a move with its same ``move_id``;
creating a game is never repeated blindly. A local stand-in gateway on loopback fails the
first requests on purpose."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from services.bots.client import GatewayClient, GatewayError


class Flaky(BaseHTTPRequestHandler):
    """Answers each path's first ``failures`` requests with a 503, a 429 (``Retry-After: 0``) or a
    dropped connection."""

    failures = 2
    mode = "503"
    seen: list[tuple[str, str, bytes]] = []

    def _handle(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        Flaky.seen.append((self.command, self.path, body))
        attempts = sum(1 for _, p, _ in Flaky.seen if p == self.path)
        if attempts <= Flaky.failures:
            if Flaky.mode == "drop":
                self.close_connection = True
                self.wfile.flush()
                self.connection.shutdown(2)  # no answer at all
                return
            limited = Flaky.mode == "429"
            self.send_response(429 if limited else 503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Retry-After", "0")
            payload = (b'{"error": "rate_limited", "reason": "slow down", "retry_after": 0}' if limited
                       else b'{"error": "unavailable", "reason": "try again"}')
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        payload = json.dumps({"version": 8, "events": [], "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _handle

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture()
def flaky():
    Flaky.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Flaky)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("mode", ["503", "drop"])
def test_a_move_is_retried_with_its_move_id_and_a_read_is_retried(flaky, mode):
    Flaky.mode, Flaky.failures = mode, 2
    with GatewayClient(flaky, timeout=5) as client:
        result = client.move("g1", "token", {"type": "pass"}, expected_version=7, move_id="m-1")
        assert result["version"] == 8
        assert client.game("g2")["path"] == "/games/g2"
    moves = [json.loads(b) for m, p, b in Flaky.seen if p == "/games/g1/moves"]
    assert len(moves) == 3 and all(m == {"move_id": "m-1", "expected_version": 7, "move": {"type": "pass"}}
                                   for m in moves)


def test_creating_a_game_is_sent_once(flaky):
    Flaky.mode, Flaky.failures = "503", 1
    with GatewayClient(flaky, timeout=5) as client, pytest.raises(GatewayError) as err:
        client.create_game("noggin", 2)
    assert err.value.status == 503
    assert sum(1 for _, p, _ in Flaky.seen if p == "/games") == 1


def test_an_outage_longer_than_the_retries_is_still_an_error(flaky):
    Flaky.mode, Flaky.failures = "503", 100
    with GatewayClient(flaky, timeout=5) as client, pytest.raises(GatewayError) as err:
        client.game("g3")
    assert err.value.status == 503 and sum(1 for _, p, _ in Flaky.seen if p == "/games/g3") == 7


def test_a_429_is_retried_after_its_retry_after_even_for_a_request_sent_once(flaky):
    """A 429 (rate limit or quota) means the gateway did nothing: creating a game and taking a
    seat are sent again after Retry-After, like reads and moves, a bounded number of times."""
    Flaky.mode, Flaky.failures = "429", 2
    with GatewayClient(flaky, timeout=5) as client:
        assert client.create_game("noggin", 2)["path"] == "/games"
        assert client.game("g4")["path"] == "/games/g4"
    assert sum(1 for _, p, _ in Flaky.seen if p == "/games") == 3
    assert sum(1 for _, p, _ in Flaky.seen if p == "/games/g4") == 3


def test_a_429_that_lasts_is_still_an_error(flaky):
    Flaky.mode, Flaky.failures = "429", 100
    with GatewayClient(flaky, timeout=5) as client, pytest.raises(GatewayError) as err:
        client.create_game("noggin", 2)
    assert (err.value.status, err.value.error) == (429, "rate_limited")
    assert sum(1 for _, p, _ in Flaky.seen if p == "/games") == 4  # sent once, then three more times
