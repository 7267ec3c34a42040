"""Shared fixtures: a real, private ``redis-server`` on a free loopback port; a three-master Redis
Cluster on loopback; the agent allow-list of the tests' own agents."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from services.common.config import settings
from tests.support.ports import free_port
from tests.support.redis_cluster import LoopbackCluster

SDK_SOURCES = [Path(__file__).resolve().parents[1] / "sdk" / name / "src"
               for name in ("longhouse_client", "longhouse_agent")]
"""The two SDK distributions' sources: the tests import them from this checkout, installed or not."""
for _source in reversed(SDK_SOURCES):
    if str(_source) not in sys.path:
        sys.path.insert(0, str(_source))

pytest_plugins = ["tests.rules_plugin"]


class RedisServer:
    """A ``redis-server`` child process with its own port and data directory."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.workdir = workdir
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(workdir),
             "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.client = redis.Redis(port=self.port)
        deadline = time.monotonic() + 10
        while True:
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.stop()
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """A session-wide private redis-server (skips nothing: fails if redis-server is missing)."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed; run `make setup`")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server):
    """A client on the shared server with database 0 flushed before the test."""
    redis_server.client.flushall()
    return redis_server.client


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    """A session-wide Redis Cluster of three masters on loopback (:class:`LoopbackCluster`); fails,
    like :func:`redis_server`, if redis-server or redis-cli is missing."""
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.fail("redis-server and redis-cli are not installed; run `make setup`")
    cluster = LoopbackCluster(tmp_path_factory.mktemp("redis-cluster"))
    yield cluster
    cluster.stop()


TEST_AGENT_ALLOW = "127.0.0.1:*"
"""The allow-list of agent addresses in every test (``LONGHOUSE_AGENT_ALLOW``): the tests' agents
listen on loopback at free ports. A test of the allow-list sets its own (:func:`agent_allow`)."""


def set_agent_allow(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Make ``text`` this process's ``LONGHOUSE_AGENT_ALLOW`` for the rest of the test."""
    monkeypatch.setenv("LONGHOUSE_AGENT_ALLOW", text)
    settings.cache_clear()


@pytest.fixture(autouse=True)
def agent_allow(monkeypatch):
    """Every test may call agents on loopback (:data:`TEST_AGENT_ALLOW`); ``agent_allow(text)``
    sets another allow-list for the rest of the test. The settings are read afresh after it."""
    set_agent_allow(monkeypatch, TEST_AGENT_ALLOW)
    yield lambda text: set_agent_allow(monkeypatch, text)
    settings.cache_clear()  # read afresh once monkeypatch has put the environment back
