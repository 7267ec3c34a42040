"""The client's ``containers`` extra without Docker: its plugin and stack import no server package,
the stack's settings are what the server reads, and its key digest is the gateway's."""

from __future__ import annotations

import subprocess
import sys

from gateway.operators import digest
from services.common.config import Settings
from tests.conftest import SDK_SOURCES


def test_the_plugin_and_the_stack_import_no_server_package():
    code = ("import sys, longhouse_client.testing, longhouse_client.testing.stack; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('services', 'gateway', 'tests')))")
    out = subprocess.run([sys.executable, "-c", code], env={"PYTHONPATH": str(SDK_SOURCES[0])}, cwd=SDK_SOURCES[0],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_stack_settings_are_the_servers(monkeypatch):
    from longhouse_client.testing.stack import ContainerStack, key_digest, new_operator_key

    stack = ContainerStack(image="longhouse:test")
    stack.operator_key = new_operator_key()
    env = stack.environment("gateway")
    assert key_digest(stack.operator_key) == digest(stack.operator_key) == env["LONGHOUSE_OPERATOR_KEYS"]
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.gateway_port == stack.ports["gateway_port"] and settings.bind_host == "127.0.0.1"
    assert settings.redis_url == stack.redis_url
    assert len(set(stack.ports.values())) == 6
    assert stack.environment("worker")["LONGHOUSE_WORKER_NAME"] == stack.worker_node
    # every process of the stack seals secrets with the stack's own key, one the server accepts
    from services.common import sealing

    keys = {stack.environment(role)["LONGHOUSE_SECRET_KEYS"] for role in ("gateway", "worker", "mover", "boards")}
    assert keys == {stack.secret_keys} and stack.secret_keys != ContainerStack(image="x").secret_keys
    assert settings.secret_keys == stack.secret_keys
    made, development = sealing.sealer_from(stack.secret_keys)
    assert not development and made.unseal(made.seal("seed")) == "seed"
