"""Issue: reliability, fault 1. Long-held requests never take what other requests need.

The gateway ran under gunicorn's ``gthread`` worker with 32 threads: 32 open SSE streams
(or 32 ``/wait`` long-polls) held every thread, and ``/healthz``, ``POST /games`` and moves
waited until the streams went. It now runs under the ``gevent`` worker (a greenlet per
request). These tests hold more streams and polls open than the old thread count, then ask
for health, create a game and move; every answer must come while the streams are open.
The full figure (1,000 streams, 200 polls, latencies) is ``make load-test``'s, in
docs/reliability.md.
"""

from __future__ import annotations

import select
import socket
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest
import requests


pytestmark = pytest.mark.stack

STREAMS = 48
"""More open SSE streams than the 32 threads the old gateway had."""
POLLS = 40
"""More open ``/wait`` long-polls than the old gateway's threads."""
ANSWER_S = 20.0
"""How long any one answer may take here: far above a healthy answer on a busy 2-core
machine, far below 'until the streams go', which never came under the old worker."""


class RawRequest:
    """One HTTP/1.1 GET on its own socket, held open, read only when asked.

    Args:
        base_url: ``http://host:port`` of the gateway (loopback).
        path: the path and query string.
    """

    def __init__(self, base_url: str, path: str):
        parts = urlsplit(base_url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=ANSWER_S)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.received = b""

    def read_until(self, marker: bytes, deadline_s: float = ANSWER_S) -> bytes:
        """Read until ``marker`` has arrived (or fail at the deadline); returns all read so far."""
        deadline = time.monotonic() + deadline_s
        while marker not in self.received:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {marker!r} within {deadline_s} s; got {self.received[:200]!r}")
            ready, _, _ = select.select([self.sock], [], [], left)
            if ready:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise AssertionError(f"closed before {marker!r}; got {self.received[:200]!r}")
                self.received += chunk
        return self.received

    def answered(self) -> bool:
        """True if any byte of an answer has arrived (without waiting)."""
        if self.received:
            return True
        ready, _, _ = select.select([self.sock], [], [], 0)
        return bool(ready)

    def close(self) -> None:
        self.sock.close()


def test_open_streams_and_long_polls_leave_health_creation_and_moves_answering(stack):
    with stack.client() as client, ExitStack() as held:
        created = client.create_game("step_race", 2, seed="lockout")
        gid = created["game_id"]
        tokens = [client.take_seat(gid, s, created["invitations"][str(s)]) for s in range(2)]
        version = client.game(gid)["version"]
        streams = []
        for _ in range(STREAMS):
            raw = RawRequest(stack.gateway_url, f"/games/{gid}/stream?last_event_id={gid}:{version}-0")
            held.callback(raw.close)
            raw.read_until(b"retry: 2000")  # the stream is open and served
            streams.append(raw)
        polls = []
        for _ in range(POLLS):
            raw = RawRequest(stack.gateway_url, f"/games/{gid}/wait?after={version}&timeout=30")
            held.callback(raw.close)
            polls.append(raw)

        health = requests.get(f"{stack.gateway_url}/healthz", timeout=ANSWER_S)
        assert health.status_code == 200
        other = client.create_game("step_race", 2, seed="lockout-other")
        assert other["version"] >= 1
        assert not any(p.answered() for p in polls), "a /wait answered before anything happened"

        seat = client.game(gid)["to_move"][0]
        legal = client.legal_moves(gid, tokens[seat])["moves"]
        answer = client.move(gid, tokens[seat], legal[0], expected_version=version)
        assert answer["version"] == version + 1

        # every held request was still open and now hears of the move
        for raw in streams:
            assert f"id: {gid}:{version + 1}-0".encode() in raw.read_until(f"id: {gid}:{version + 1}-0".encode())
        for raw in polls:
            assert raw.read_until(b"\r\n\r\n").startswith(b"HTTP/1.1 200")
