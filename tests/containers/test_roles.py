"""The image's entrypoint and health check (services/containers/roles.py, health.py), without
any container."""

from __future__ import annotations

import json

import pytest

from services.containers import health, roles


@pytest.mark.containers
def test_every_role_runs_the_launchers_command(monkeypatch):
    monkeypatch.setenv("LONGHOUSE_BIND_HOST", "0.0.0.0")
    monkeypatch.setenv("LONGHOUSE_GATEWAY_PORT", "18470")
    gateway = roles.argv_for("gateway")
    assert gateway[-1] == "gateway.app:create_app()" and "0.0.0.0:18470" in gateway and "gevent" in gateway
    worker = roles.argv_for("worker", "phases.x@h")
    assert worker[worker.index("-n") + 1] == "phases.x@h"
    assert "longhouse.phases,longhouse.agents,longhouse.tournaments" in worker
    assert roles.argv_for("mover", "m1")[-2:] == ["--name", "m1"]
    assert roles.argv_for("decks")[-2:] == ["-m", "services.decks"]
    assert roles.argv_for("redis")[:1] == ["redis-server"] and "--appendonly" in roles.argv_for("redis")
    with pytest.raises(ValueError, match="unknown role"):
        roles.argv_for("dragon")


@pytest.mark.containers
def test_health_check_fails_where_nothing_serves(monkeypatch, tmp_path, capsys):
    from tests.support.ports import free_port

    monkeypatch.setattr(health, "STATE_FILE", tmp_path / "role.json")
    monkeypatch.setenv("LONGHOUSE_DECKS_PORT", str(free_port()))
    assert health.main(["decks"]) == 1
    assert "decks: not serving" in capsys.readouterr().err
    (tmp_path / "role.json").write_text(json.dumps({"role": "mover", "node": ""}))
    assert health.main([]) == 1  # a mover without a name cannot be checked
    assert health.main(["dragon"]) == 1


@pytest.mark.containers
def test_health_check_passes_for_a_serving_redis(redis_server, monkeypatch):
    monkeypatch.setenv("LONGHOUSE_REDIS_PORT", str(redis_server.port))
    assert health.main(["redis"]) == 0


@pytest.mark.containers
def test_health_check_reads_the_settings_as_the_processes_do(monkeypatch):
    from services.common.config import Settings
    from services.phases.mover import HEARTBEAT

    defaults = Settings.model_fields
    for name, value in health.DEFAULTS.items():
        assert str(defaults[name].default) == value, name
    assert HEARTBEAT == "longhouse:mover:{name}"
    for env in ({}, {"LONGHOUSE_REDIS_HOST": "redis", "LONGHOUSE_REDIS_PORT": "7000", "LONGHOUSE_CELERY_DB": "3"},
                {"LONGHOUSE_HOST": "10.1.2.3", "LONGHOUSE_STORE_URL": "redis+cluster://a:7000,b:7000",
                 "LONGHOUSE_BROKER_URL": "redis://q:6379/0"}):
        for key in ("LONGHOUSE_HOST", "LONGHOUSE_REDIS_HOST", "LONGHOUSE_REDIS_PORT", "LONGHOUSE_CELERY_DB",
                    "LONGHOUSE_STORE_URL", "LONGHOUSE_BROKER_URL"):
            monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        settings = Settings()
        assert health.store_url() == settings.redis_url
        assert health.broker_url() == settings.celery_broker_url


@pytest.mark.containers
def test_mover_health_follows_its_heartbeat(redis_server, redis_client, monkeypatch, tmp_path):
    monkeypatch.setattr(health, "STATE_FILE", tmp_path / "role.json")
    monkeypatch.setenv("LONGHOUSE_REDIS_PORT", str(redis_server.port))
    (tmp_path / "role.json").write_text(json.dumps({"role": "mover", "node": "mover-7"}))
    assert health.main([]) == 1
    redis_client.set("longhouse:mover:mover-7", "4242.0a1b2c.starting")  # its start-up push not done
    assert health.main([]) == 1
    redis_client.set("longhouse:mover:mover-7", "4242.0a1b2c")
    assert health.main([]) == 0
    monkeypatch.setenv("LONGHOUSE_REDIS_DB", "5")  # another database: not there
    assert health.main([]) == 1


@pytest.mark.containers
def test_liveness_asks_the_gateway_livez_and_readiness_its_readyz(monkeypatch, tmp_path, capsys):
    """A gateway on 127.0.0.1 that is alive but not ready (Redis away): ``--live`` passes, the
    readiness check fails; the worker and the mover have no liveness check."""
    import http.server
    import threading

    from services.coordinator.grpc_server import LIVENESS_SERVICE

    assert health.LIVENESS_SERVICE == LIVENESS_SERVICE
    asked: list[str] = []

    class Gateway(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the library's name
            asked.append(self.path)
            self.send_response(200 if self.path == "/livez" else 503)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Gateway)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setattr(health, "STATE_FILE", tmp_path / "role.json")
        monkeypatch.setenv("LONGHOUSE_HOST", "127.0.0.1")
        monkeypatch.delenv("LONGHOUSE_BIND_HOST", raising=False)
        monkeypatch.setenv("LONGHOUSE_GATEWAY_PORT", str(server.server_address[1]))
        assert health.main(["--live", "gateway"]) == 0
        assert health.main(["gateway"]) == 1
        assert asked == ["/livez", "/readyz"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    capsys.readouterr()
    (tmp_path / "role.json").write_text(json.dumps({"role": "worker", "node": "phases.x@h"}))
    assert health.main(["--live"]) == 1
    assert "no liveness check" in capsys.readouterr().err
