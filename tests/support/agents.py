"""Example agents (``examples/``) as real processes on loopback, for tests.

Each agent is started with ``--port 0`` and is ready when it prints its
``listening on 127.0.0.1:<port>`` line; the wait for that line is bounded by a deadline
(never a sleep). Its requests' log goes to a file, never to a pipe nobody reads.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import sys
import tempfile
import threading
import time
from concurrent import futures
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Iterator

import grpc
import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET = "agent-test-secret-0123456789"
"""The secret every test agent is started with (16 characters or more, as the registry wants)."""
START_TIMEOUT = 20.0
STOP_TIMEOUT = 5.0
SLEEP_S = 30.0
"""How long the sleep and drip agents take: far past any timeout the tests give them."""


class AgentProcess:
    """One example agent (``protocol`` ``http`` or ``grpc``) with ``behaviour``; or, given ``argv``,
    another example that serves the agent protocol (``argv``: its script and arguments after the
    interpreter, with ``--port 0``; it must print the same ``listening on`` line)."""

    def __init__(self, protocol: str, behaviour: str, logdir: Path, sleep_s: float = SLEEP_S, seed: str = "7",
                 secret: str = SECRET, argv: list[str] | None = None):
        self.protocol = protocol
        self.behaviour = behaviour
        self.log_path = logdir / f"{protocol}-{behaviour}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        env = {**os.environ, "LONGHOUSE_AGENT_SECRET": secret}
        if argv is None:
            argv = [str(ROOT / "examples" / f"{protocol}_agent.py"), "--port", "0",
                    "--behaviour", behaviour, "--sleep-s", str(sleep_s), "--seed", seed]
        self.proc = subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=self._log, cwd=ROOT,
                                     env=env)
        try:
            self.port = self._wait_listening()
        except BaseException:
            self.stop()
            raise

    def _wait_listening(self) -> int:
        """The port from the ``listening on`` line, read within :data:`START_TIMEOUT`."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        buffer = b""
        deadline = time.monotonic() + START_TIMEOUT
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            for _ in range(10_000):
                if b"\n" in buffer:
                    line = buffer.split(b"\n", 1)[0].decode()
                    assert line.startswith("listening on 127.0.0.1:"), f"unexpected first line {line!r}"
                    return int(line.rsplit(":", 1)[1])
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                if selector.select(timeout=left):
                    chunk = os.read(fd, 4096)
                    if not chunk:  # the agent exited
                        break
                    buffer += chunk
        self._log.flush()
        pytest.fail(f"{self.protocol} agent ({self.behaviour}) did not print its listening line within "
                    f"{START_TIMEOUT}s (exit code {self.proc.poll()}); its log:\n{self.log_path.read_text()}")

    @property
    def address(self) -> str:
        """What the registry would hold: a URL for HTTP, host:port for gRPC."""
        if self.protocol == "http":
            return f"http://127.0.0.1:{self.port}/agent"
        return f"127.0.0.1:{self.port}"

    def record(self, secret: str = SECRET) -> dict[str, str]:
        """A registry record of this agent."""
        return {"agent_id": f"{self.protocol}{self.behaviour}", "name": f"{self.protocol}-{self.behaviour}",
                "protocol": self.protocol, "address": self.address, "secret": secret}

    def log_text(self) -> str:
        self._log.flush()
        return self.log_path.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(STOP_TIMEOUT)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._log.close()


@contextlib.contextmanager
def example_agent(protocol: str, behaviour: str = "good", sleep_s: float = SLEEP_S, seed: str = "1",
                  secret: str = SECRET) -> Iterator[str]:
    """Run one example agent for a ``with`` block and yield the address to register:
    ``http://127.0.0.1:<port>/agent`` for HTTP, ``127.0.0.1:<port>`` for gRPC."""
    with tempfile.TemporaryDirectory(prefix="agent-") as logdir:
        agent = AgentProcess(protocol, behaviour, Path(logdir), sleep_s=sleep_s, seed=seed, secret=secret)
        try:
            yield agent.address
        finally:
            agent.stop()


@contextlib.contextmanager
def http_handler_server(handler: type[BaseHTTPRequestHandler],
                        release: threading.Event | None = None, port: int = 0,
                        threaded: bool = False) -> Iterator[int]:
    """An in-process HTTP server on 127.0.0.1 (``port``, 0: a free one) answering with ``handler``,
    served by a daemon thread (with ``threaded``, a thread a request); yields the port. When the
    block ends it sets ``release`` (so a handler waiting on it lets go), then stops the server
    (bounded wait)."""
    server = (ThreadingHTTPServer if threaded else HTTPServer)(("127.0.0.1", port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        if release is not None:
            release.set()
        server.shutdown()
        server.server_close()
        thread.join(STOP_TIMEOUT)


@contextlib.contextmanager
def agent_method_server(method: str, handler: Callable[[bytes, grpc.ServicerContext], bytes],
                        port: int = 0, also: dict[str, Callable[[bytes, grpc.ServicerContext], bytes]] | None = None
                        ) -> Iterator[int]:
    """An in-process gRPC server on 127.0.0.1 serving one method of ``longhouse.agent.v1.Agent``
    (``method``: ``StartMatch``, ``ChooseMove`` or ``EndMatch``) with ``handler(request bytes,
    context) -> answer bytes`` (and the methods of ``also`` with theirs), on ``port`` (0: a free
    one); yields the port, and stops the server (bounded wait) when the block ends."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    handlers = {name: grpc.unary_unary_rpc_method_handler(h) for name, h in {method: handler, **(also or {})}.items()}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("longhouse.agent.v1.Agent", handlers),))
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    assert bound and (not port or bound == port), f"could not listen on 127.0.0.1:{port}"
    server.start()
    try:
        yield bound
    finally:
        server.stop(0).wait(STOP_TIMEOUT)
