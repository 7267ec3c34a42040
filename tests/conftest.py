"""Shared fixtures: a real, private ``redis-server`` on a free loopback port."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests.support.ports import free_port

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
