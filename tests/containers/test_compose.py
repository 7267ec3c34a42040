"""docker-compose.yml: both variants are accepted by ``docker-compose config``, and the stack it
describes, on host networking (deploy/compose/host-network.yml) at free loopback ports, comes up
healthy in dependency order, plays a whole game and goes down leaving nothing."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import time
import uuid

import pytest
import requests
import yaml

from gateway.operators import digest, new_key
from services.common.sealing import generate_key
from longhouse_client import Client, play_seat
from services.launcher.stack import free_port_settings

from .conftest import ROOT

BASE = ["-f", str(ROOT / "docker-compose.yml")]
HOST_NETWORK = [*BASE, "-f", str(ROOT / "deploy" / "compose" / "host-network.yml")]


def compose_binary() -> str:
    """The docker-compose command; skips the test where it is not installed."""
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed (make setup installs it)")
    return binary


SECRET_KEYS = generate_key()
"""The tests' ``LONGHOUSE_SECRET_KEYS`` (docker-compose.yml requires it): one fresh key per session,
so every command of one compose project interpolates the same file."""
LONGHOUSE_SERVICES = ("decks", "market", "boards", "scoring", "worker", "mover", "gateway")
"""The compose services that run Longhouse processes (every one but Redis)."""


def compose(files: list[str], *args: str, env: dict[str, str] | None = None, timeout: float = 300,
            project: str = "longhouse") -> subprocess.CompletedProcess:
    """``docker-compose -p PROJECT FILES ARGS`` from the repository root; ``LONGHOUSE_SECRET_KEYS``
    is :data:`SECRET_KEYS` unless ``env`` (default: this process's environment) sets it."""
    env = {"LONGHOUSE_SECRET_KEYS": SECRET_KEYS, **(env or os.environ)}
    return subprocess.run([compose_binary(), "-p", project, *files, *args], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)


@pytest.mark.containers
def test_compose_config_accepts_every_variant():
    for files in (BASE, [*BASE, "-f", str(ROOT / "docker-compose.override.yml")], HOST_NETWORK):
        proc = compose(files, "config", "-q")
        assert proc.returncode == 0, proc.stdout
    merged = compose(HOST_NETWORK, "config").stdout
    assert merged.count("network_mode: host") == 8, merged  # redis, four services, worker, mover, gateway
    assert "ports:" not in merged  # nothing published: loopback only


@pytest.mark.containers
def test_every_longhouse_process_gets_the_same_secret_keys_and_none_starts_without(tmp_path):
    """Secrets at rest: every Longhouse container is given the one ``LONGHOUSE_SECRET_KEYS`` (a
    process with another key could not open what the others sealed), Redis none; without the
    variable the file is refused, naming it, rather than started on the development key."""
    for files in (BASE, HOST_NETWORK):
        proc = compose(files, "config", env={**os.environ, "LONGHOUSE_SECRET_KEYS": SECRET_KEYS})
        assert proc.returncode == 0, proc.stdout
        services = yaml.safe_load(proc.stdout)["services"]
        for name in LONGHOUSE_SERVICES:
            assert services[name]["environment"]["LONGHOUSE_SECRET_KEYS"] == SECRET_KEYS, name
        assert "LONGHOUSE_SECRET_KEYS" not in (services["redis"].get("environment") or {})
    unset = {k: v for k, v in os.environ.items() if k != "LONGHOUSE_SECRET_KEYS"}
    (tmp_path / "empty.env").write_text("")  # not the .env an operator may keep beside the file
    refused = subprocess.run([compose_binary(), "--env-file", str(tmp_path / "empty.env"), *BASE, "config", "-q"],
                             cwd=ROOT, env=unset, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=300)
    assert refused.returncode != 0 and "set LONGHOUSE_SECRET_KEYS" in refused.stdout, refused.stdout


@pytest.mark.containers
def test_compose_config_refuses_a_broken_file(tmp_path):
    broken = (ROOT / "docker-compose.yml").read_text().replace("condition: service_healthy", "condition: sometime", 1)
    (tmp_path / "docker-compose.yml").write_text(broken)
    proc = compose(["-f", str(tmp_path / "docker-compose.yml")], "config", "-q")
    assert proc.returncode != 0


@pytest.mark.containers
@pytest.mark.timeout(900)
def test_compose_stack_on_host_network_plays_a_game(docker_engine, test_image):
    s = free_port_settings()
    key = new_key()
    env = {**os.environ, "DOCKER_HOST": docker_engine.host, "LONGHOUSE_IMAGE": test_image,
           "LONGHOUSE_REDIS_IMAGE": test_image, "LONGHOUSE_OPERATOR_KEYS": digest(key),
           "LONGHOUSE_REDIS_PORT": str(s.redis_port), "LONGHOUSE_GATEWAY_PORT": str(s.gateway_port),
           "LONGHOUSE_DECKS_PORT": str(s.decks_port), "LONGHOUSE_MARKET_PORT": str(s.market_port),
           "LONGHOUSE_BOARDS_PORT": str(s.boards_port), "LONGHOUSE_SCORING_PORT": str(s.scoring_port)}
    project = f"longhouse{uuid.uuid4().hex[:8]}"
    url = f"http://127.0.0.1:{s.gateway_port}"
    try:
        up = compose(HOST_NETWORK, "up", "-d", env=env, project=project, timeout=600)
        assert up.returncode == 0, up.stdout[-4000:]
        deadline = time.monotonic() + 60
        while True:  # `up -d` returns once the gateway's container runs; wait until it serves
            try:
                if requests.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, compose(HOST_NETWORK, "logs", "--tail", "30", env=env,
                                                        project=project).stdout[-4000:]
            time.sleep(0.2)
        deadline = time.monotonic() + 120
        while True:  # every container healthy by its own check (the worker and mover start beside the gateway)
            states = compose(HOST_NETWORK, "ps", env=env, project=project).stdout
            waiting = [name for name in ("redis", "decks", "market", "boards", "scoring", "worker", "mover", "gateway")
                       if not re.search(rf"{project}_{name}_1 .*\(healthy\)", states)]
            if not waiting:
                break
            assert time.monotonic() < deadline, f"not healthy within 120 s: {waiting}\n{states}"
            time.sleep(0.5)
        with Client(url, operator_key=key) as client:
            assert client.ready().status == "ready"  # every part serves, by the gateway's own checks
            created = client.create_game("resource_hog", 2, seed="11", bots={"1": "greedy"})
            seat = client.take_seat(created.game_id, 0, created.invitations["0"])
            rng = random.Random("11")
            summary = play_seat(client, created.game_id, seat.token, lambda view, legal: rng.randrange(len(legal)),
                                timeout_s=180)
        assert summary.status == "over" and len(summary.outcome.scores) == 2
    finally:
        down = compose(HOST_NETWORK, "down", "-v", "-t", "10", "--remove-orphans", env=env, project=project)
    assert down.returncode == 0, down.stdout
    assert docker_engine.containers() == []
