"""An HTTP agent in the test's own process that records every move request it gets.

It serves the engine's signed JSON webhook on a free loopback port (:func:`recording_agent`)
and answers each move request after ``delay(request)`` seconds with a legal move (the last
one offered). Every request is kept in :attr:`RecordingAgent.requests` as a
:class:`Asked` (match, seat, version, the ``time_left_ms`` and ``bank_ms`` it carried, when it
arrived), so a test can count the requests of one decision and see the bank each carried. A
delay waits on an event that :meth:`RecordingAgent.close` sets, so stopping never waits for it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Iterator

from services.agents.protocol import (
    BadPayload,
    MoveRequest,
    ReplayGuard,
    SignatureError,
    parse_payload,
    verify,
)

MAX_BODY = 4 * 1024 * 1024
"""The largest request read (a player view is a few KiB to a few hundred)."""


@dataclass(frozen=True)
class Asked:
    """One move request: its match, seat, version, ``time_left_ms``, ``bank_ms`` and arrival
    (``time.monotonic()`` of this process)."""

    match_id: str
    seat: int
    version: int
    time_left_ms: int
    bank_ms: int
    at: float


class RecordingAgent:
    """The running agent: :attr:`address` to register, :attr:`requests` it got.

    Args:
        secret: the secret it is registered with.
        delay: seconds to wait before answering a request (default: none).
    """

    def __init__(self, secret: str, delay: Callable[[MoveRequest], float] | None = None):
        self.requests: list[Asked] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        agent = self
        guard = ReplayGuard()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                pass

            def send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = self.headers.get("Content-Length", "")
                if not length.isdigit() or int(length) > MAX_BODY:
                    self.close_connection = True
                    return self.send(411, {"error": "bad length"})
                body = self.rfile.read(int(length))
                try:
                    verify(secret, self.headers, body, time.time(), guard)
                    payload = parse_payload(body)
                except (SignatureError, BadPayload) as exc:
                    return self.send(400, {"error": str(exc)})
                if not isinstance(payload, MoveRequest):
                    return self.send(200, {})
                with agent._lock:
                    agent.requests.append(Asked(payload.match_id, payload.seat, payload.version,
                                                payload.time_left_ms, payload.bank_ms, time.monotonic()))
                wait = delay(payload) if delay else 0.0
                if wait > 0 and agent.stopping.wait(wait):
                    return
                try:
                    self.send(200, {"index": len(payload.legal_moves_json) - 1})
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the engine gave up waiting

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.address = f"http://127.0.0.1:{self.port}/agent"
        self._thread = threading.Thread(target=self._server.serve_forever, name="recording-agent", daemon=True)
        self._thread.start()

    def of(self, match_id: str) -> list[Asked]:
        """The requests of one match, in order of arrival."""
        with self._lock:
            return [r for r in self.requests if r.match_id == match_id]

    def close(self) -> None:
        """Stop serving; requests still waiting give up at once."""
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()


@contextlib.contextmanager
def recording_agent(secret: str, delay: Callable[[MoveRequest], float] | None = None) -> Iterator[RecordingAgent]:
    """A :class:`RecordingAgent` for a ``with`` block."""
    agent = RecordingAgent(secret, delay)
    try:
        yield agent
    finally:
        agent.close()
