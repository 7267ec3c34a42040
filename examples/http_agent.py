"""An example Longhouse agent reached over HTTP: a signed JSON webhook.

    python examples/http_agent.py --port 8601 --secret <secret> [--behaviour good] [--seed 1]

It listens on 127.0.0.1 only and prints ``listening on 127.0.0.1:<port>`` once ready
(``--port 0`` picks a free port). The engine POSTs one JSON object per request, with a
``"type"`` of ``start``, ``move`` or ``end`` and three signature headers; the agent
refuses a request whose Standard Webhooks signature (``webhook-id``, ``webhook-timestamp``,
``webhook-signature``) is missing, wrong or stale (401) or whose id it has seen (409), answers ``start`` and ``end`` with ``{}`` and ``move`` with
``{"index": <i>}``, the index of its choice among ``legal_moves_json``. It serves ``moves``
too (several move requests in one POST, answered ``{"choices": [{"index": <i>}, ...]}`` in
order, each as ``move`` would answer it alone).

``--behaviour`` changes how it answers ``move`` and ``moves`` requests only (to test the
engine; once a request, a batch included):

* ``good``: a random legal move, from a generator seeded by ``--seed``, the match id and
  the game version (the same request always gets the same answer);
* ``sleep``: waits ``--sleep-s`` seconds, then answers as ``good``;
* ``crash``: HTTP 500;
* ``garbage``: a body that is not JSON;
* ``illegal``: an index past the last legal move;
* ``redirect``: a 307 redirect to another path;
* ``drip``: answers as ``good`` but sends the body a byte every 0.2 s for ``--sleep-s``
  seconds first (leading spaces), as a slow or hostile server might.

The secret may also come from the environment variable LONGHOUSE_AGENT_SECRET (so it
does not show in the process list). One line per request (and one per decision of a ``moves``) goes to stderr; the secret is
never written.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# Run from a checkout without installing: the repository root holds the services package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from services.agents.protocol import (
    BadPayload,
    MoveRequest,
    MoveRequests,
    Replayed,
    ReplayGuard,
    SignatureError,
    parse_payload,
    verify,
)

BEHAVIOURS = ("good", "sleep", "crash", "garbage", "illegal", "redirect", "drip")
MAX_BODY = 16 * 1024 * 1024
"""The largest request accepted (a player view is a few KiB to a few hundred)."""


_log_lock = threading.Lock()


def log(line: str) -> None:
    """One line on standard error, whole (requests are served by several threads at once)."""
    with _log_lock:
        sys.stderr.write(f"{time.strftime('%H:%M:%S')} {line}\n")
        sys.stderr.flush()


def pick(seed: str, request: MoveRequest) -> int:
    """A random legal move's index, the same for the same seed, match and version."""
    n = len(request.legal_moves_json)
    return random.Random(f"{seed}:{request.match_id}:{request.version}").randrange(n) if n else 0


def make_handler(secret: str, behaviour: str, sleep_s: float, seed: str,
                 stopping: threading.Event) -> type[BaseHTTPRequestHandler]:
    guard = ReplayGuard()  # one per process: remembers delivery ids for 300 s

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: the engine reuses its connection
        server_version = "longhouse-example-agent"

        def setup(self) -> None:
            super().setup()
            # Headers and body go out in two writes: without this, the second waits for
            # the engine's delayed ACK (tens of milliseconds a move).
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the one line per request is written by do_POST

        def send(self, status: int, body: bytes, content_type: str = "application/json",
                 headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def error(self, status: int, reason: str) -> None:
            log(f"POST {self.path} -> {status} {reason}")
            self.send(status, json.dumps({"error": reason}).encode())

        def do_GET(self) -> None:
            self.close_connection = True
            self.error(405, "POST a signed JSON request")

        def do_POST(self) -> None:
            try:
                self.answer()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the engine gave up waiting: nothing to do

        def answer(self) -> None:
            length = self.headers.get("Content-Length")
            if length is None or not length.isdigit():
                self.close_connection = True
                return self.error(411, "a Content-Length is required")
            if int(length) > MAX_BODY:
                self.close_connection = True
                return self.error(413, "request too large")
            body = self.rfile.read(int(length))
            try:
                verify(secret, self.headers, body, time.time(), guard)
            except Replayed as exc:
                return self.error(409, str(exc))
            except SignatureError as exc:
                return self.error(401, str(exc))
            try:
                payload = parse_payload(body)
            except BadPayload as exc:
                return self.error(400, str(exc))
            if isinstance(payload, MoveRequests):
                # optional: the engine sends the decisions it holds for this agent at once
                # together (a model can score them in one batch); each answered as alone
                return self.move(payload.requests, f"moves count={len(payload.requests)}", batched=True)
            where = f"{payload.type} match={payload.match_id} seat={payload.seat}"
            if not isinstance(payload, MoveRequest):
                log(f"{where} -> 200 ack")
                return self.send(200, b"{}")
            n = len(payload.legal_moves_json)
            self.move([payload], f"{where} version={payload.version} moves={n}", batched=False)

        def move(self, requests: list[MoveRequest], where: str, batched: bool) -> None:
            # request.view and request.legal_moves are the view and the moves decoded from
            # their JSON text; a real agent would think about them here.
            where += f" behaviour={behaviour}"
            if behaviour == "crash":
                log(f"{where} -> 500")
                return self.send(500, b'{"error": "the example agent crashed on purpose"}')
            if behaviour == "garbage":
                log(f"{where} -> 200 garbage")
                return self.send(200, b"this is not JSON", "text/plain")
            if behaviour == "redirect":
                log(f"{where} -> 307")
                return self.send(307, b"", headers={"Location": "/elsewhere"})
            if behaviour == "sleep":
                stopping.wait(sleep_s)
            indexes = [len(r.legal_moves_json) if behaviour == "illegal" else pick(seed, r) for r in requests]
            if batched:
                for r, index in zip(requests, indexes):
                    log(f"move match={r.match_id} seat={r.seat} version={r.version} moves={len(r.legal_moves_json)} "
                        f"(in {where}) -> index={index}")
                answer = json.dumps({"choices": [{"index": index} for index in indexes]}).encode()
                said = "choices"
            else:
                answer = json.dumps({"index": indexes[0]}).encode()
                said = f"index={indexes[0]}"
            if behaviour == "drip":
                spaces = max(1, int(sleep_s / 0.2))
                log(f"{where} -> 200 {said} (dripped over {sleep_s:g} s)")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(spaces + len(answer)))
                self.end_headers()
                for _ in range(spaces):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    if stopping.wait(0.2):
                        return
                self.wfile.write(answer)
                return
            log(f"{where} -> 200 {said}")
            self.send(200, answer)

    return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="An example Longhouse agent over HTTP (signed JSON webhook).")
    parser.add_argument("--port", type=int, default=8601, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--secret", default=os.environ.get("LONGHOUSE_AGENT_SECRET"),
                        help="the shared secret (default: $LONGHOUSE_AGENT_SECRET)")
    parser.add_argument("--behaviour", choices=BEHAVIOURS, default="good")
    parser.add_argument("--sleep-s", type=float, default=5.0, help="seconds for sleep and drip")
    parser.add_argument("--seed", default="1", help="seeds the good move choice")
    args = parser.parse_args(argv)
    if not args.secret:
        parser.error("give --secret or set LONGHOUSE_AGENT_SECRET")

    stopping = threading.Event()
    server = ThreadingHTTPServer(("127.0.0.1", args.port),
                                 make_handler(args.secret, args.behaviour, args.sleep_s, args.seed, stopping))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"listening on {host}:{port}", flush=True)
    log(f"http agent, behaviour {args.behaviour}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stopping.set()
        server.server_close()
    return 0


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt  # SIGTERM stops the server as Ctrl-C does


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop)
    sys.exit(main())
