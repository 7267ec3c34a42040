"""Service fixtures: the four domain services as real processes on free ports.

Every wait is bounded by a deadline; readiness is the service's own health check
answering SERVING, never a sleep.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from services.common.config import Settings
from tests.support.ports import free_port
from tests.support.wait import wait_for

ROOT = Path(__file__).resolve().parents[2]
EXTRA_GAMES = ("tests.core_games.step_race,tests.core_games.sealed_bid,"
               "tests.services.guarded_step,tests.services.dice_race")
PACKAGES = {"deck": "decks", "market": "market", "board": "boards", "score": "scoring"}
PORT_FIELDS = {"deck": "decks_port", "market": "market_port", "board": "boards_port", "score": "scoring_port"}
START_TIMEOUT = 20.0
STOP_TIMEOUT = 15.0

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def health_status(address: str, service: str = "", timeout: float = 1.0) -> int | None:
    """The health status the server at ``address`` reports for ``service``; None if unreachable."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout)
        except grpc.RpcError:
            return None
    return reply.status


@dataclass
class ServiceProcess:
    """One ``python -m services.<package>`` child with its log in a file."""

    domain: str
    env: dict[str, str]
    log_path: Path
    address: str
    proc: subprocess.Popen | None = field(default=None, init=False)

    def start(self) -> "ServiceProcess":
        """Start the process (does not wait)."""
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", f"services.{PACKAGES[self.domain]}"],
                                     cwd=ROOT, env=self.env, stdout=self._log, stderr=subprocess.STDOUT)
        return self

    def wait_serving(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until the health check says SERVING; fail early if the process dies."""
        def ready() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"{self.domain} service exited with {self.proc.returncode}:\n{self.log()}")
            return health_status(self.address) == SERVING
        wait_for(ready, timeout, f"{self.domain} service SERVING at {self.address}")

    def stop(self, timeout: float = STOP_TIMEOUT) -> int:
        """SIGTERM, then wait (bounded) for the exit; returns the exit code (kills on timeout)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        self._log.close()
        return code

    def log(self) -> str:
        """Everything the process wrote so far."""
        return self.log_path.read_text(errors="replace")


def service_env(redis_port: int, ports: dict[str, int]) -> dict[str, str]:
    """The environment of a service child: our Redis, our ports, the test games."""
    env = dict(os.environ)
    env.update(LONGHOUSE_HOST="127.0.0.1", LONGHOUSE_REDIS_PORT=str(redis_port),
               LONGHOUSE_EXTRA_GAMES=EXTRA_GAMES, PYTHONUNBUFFERED="1")
    for domain, port in ports.items():
        env[f"LONGHOUSE_{PORT_FIELDS[domain].upper()}"] = str(port)
        # no metrics port: the defaults (29161-29164) would clash with a stack the user runs meanwhile
        env[f"LONGHOUSE_{PORT_FIELDS[domain].upper().replace('_PORT', '_METRICS_PORT')}"] = "0"
    return env


@dataclass
class Stack:
    """The four running services and the settings that reach them."""

    settings: Settings
    services: dict[str, ServiceProcess]


@pytest.fixture(scope="session")
def stack(redis_server, tmp_path_factory):
    """Redis plus the four domain services as subprocesses, all SERVING.

    At the end each is stopped with SIGTERM and must exit 0.
    """
    ports = {d: free_port() for d in PACKAGES}
    env = service_env(redis_server.port, ports)
    logdir = tmp_path_factory.mktemp("services")
    services = {d: ServiceProcess(d, env, logdir / f"{PACKAGES[d]}.log", f"127.0.0.1:{ports[d]}").start()
                for d in PACKAGES}
    try:
        for svc in services.values():
            svc.wait_serving()
        cfg = Settings(host="127.0.0.1", redis_port=redis_server.port,
                       **{PORT_FIELDS[d]: p for d, p in ports.items()})
        yield Stack(cfg, services)
    finally:
        codes = {d: svc.stop() for d, svc in services.items()}
    bad = {d: c for d, c in codes.items() if c != 0}
    assert not bad, f"services did not exit cleanly: {bad}\n" + "\n".join(
        services[d].log()[-2000:] for d in bad)
