"""A service's life: health (readiness) follows Redis while liveness does not, SIGTERM ends it
cleanly with exit 0."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import RedisServer
from tests.support.ports import free_port

from services.coordinator.grpc_server import LIVENESS_SERVICE

from .conftest import NOT_SERVING, SERVING, ServiceProcess, health_status, service_env, wait_for

BOARD = "longhouse.v1.BoardService"


def test_health_turns_not_serving_when_redis_stops_and_back_when_it_returns(tmp_path):
    redis = RedisServer(tmp_path)
    port = free_port()
    svc = ServiceProcess("board", service_env(redis.port, {"board": port}), tmp_path / "boards.log",
                         f"127.0.0.1:{port}").start()
    revived = None
    try:
        svc.wait_serving()
        assert health_status(svc.address, LIVENESS_SERVICE) == SERVING
        redis.stop()
        wait_for(lambda: health_status(svc.address) == NOT_SERVING, 10, "NOT_SERVING after Redis stopped")
        assert health_status(svc.address, BOARD) == NOT_SERVING
        assert health_status(svc.address, LIVENESS_SERVICE) == SERVING  # alive: never restarted for Redis
        revived = subprocess.Popen(
            ["redis-server", "--port", str(redis.port), "--bind", "127.0.0.1", "--dir", str(tmp_path),
             "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: health_status(svc.address) == SERVING, 10, "SERVING after Redis returned")
    finally:
        code = svc.stop()
        redis.stop()
        if revived is not None:
            revived.terminate()
            revived.wait(10)
    assert code == 0, svc.log()


def test_sigterm_ends_the_service_with_exit_0(redis_server, tmp_path):
    port = free_port()
    svc = ServiceProcess("deck", service_env(redis_server.port, {"deck": port}), tmp_path / "decks.log",
                         f"127.0.0.1:{port}").start()
    svc.wait_serving()
    assert health_status(svc.address, LIVENESS_SERVICE) == SERVING
    assert svc.stop() == 0
    assert health_status(svc.address, timeout=0.5) is None
    events = [json.loads(line)["event"] for line in svc.log().splitlines() if line.startswith("{")]
    assert events[-2:] == ["stopping", "stopped"], svc.log()
