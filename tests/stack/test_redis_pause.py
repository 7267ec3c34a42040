"""Issue 27, acceptance 2: a Redis that stops answering for 10 s (SIGSTOP) makes the stack
unready, not dead. Throughout the pause the gateway's ``GET /livez`` answers 200 and the
services' gRPC liveness says SERVING; ``GET /readyz`` says 503 within 3 s; no process of the
stack dies, so the launcher's healer (:meth:`services.launcher.stack.Stack.heal`, which ``make
run`` calls once a second) restarts none. Within 10 s of SIGCONT ``/readyz`` is 200 again and a
move is played."""

from __future__ import annotations

import os
import signal
import time

import pytest
import requests

from services.coordinator.grpc_server import LIVENESS_SERVICE
from services.launcher.stack import SERVICES
from tests.services.conftest import SERVING, health_status

pytestmark = pytest.mark.stack

PAUSE_S = 10.0
"""How long Redis stays stopped."""
UNREADY_WITHIN_S = 3.0
"""``/readyz`` must say 503 this soon after Redis stops."""
BACK_WITHIN_S = 10.0
"""Everything serves again this soon after Redis resumes."""
POLL_S = 0.2
"""Pause between two rounds of probes."""


def status(url: str, timeout: float) -> int | None:
    """The status of ``GET url``, or None if no answer came within ``timeout`` seconds."""
    try:
        return requests.get(url, timeout=timeout).status_code
    except requests.RequestException:
        return None


def wait_ready(url: str, within: float) -> float:
    """Poll ``GET url/readyz`` until 200; returns the seconds it took. Fails after ``within`` s."""
    started = time.monotonic()
    last = None
    for _ in range(int(within / POLL_S) + 1):
        answer = requests.get(f"{url}/readyz", timeout=3)
        if answer.status_code == 200:
            return time.monotonic() - started
        last = answer.json()
        if time.monotonic() - started > within:
            break
        time.sleep(POLL_S)
    pytest.fail(f"/readyz not 200 within {within} s: {last}")


def play_one_move(client, game_id: str, tokens: dict[int, str]) -> int:
    """Play the first legal move of the seat to move; returns the new version."""
    summary = client.game(game_id)
    seat = summary["to_move"][0]
    legal = client.legal_moves(game_id, tokens[seat])
    return client.move(game_id, tokens[seat], legal["moves"][0], legal["version"])["version"]


def test_a_paused_redis_makes_the_stack_unready_and_restarts_nothing(stack):
    url = stack.gateway_url
    wait_ready(url, 60)  # the session's stack serves (another test may have restarted a part)
    client = stack.client(timeout=5)
    created = client.create_game("step_race", 2, seed="redis-pause")
    gid = created["game_id"]
    tokens = {seat: client.take_seat(gid, seat, created["invitations"][str(seat)]) for seat in (0, 1)}
    version = play_one_move(client, gid, tokens)
    services = {name: f"{stack.settings.host}:{getattr(stack.settings, port)}" for name, port in SERVICES}
    before = stack.pids()
    supervisor = stack.stack.supervisor
    redis_pid = supervisor.children["redis"].proc.pid

    os.kill(redis_pid, signal.SIGSTOP)
    paused_at = time.monotonic()
    unready_after = None
    scraped = False
    rounds = 0
    try:
        while time.monotonic() - paused_at < PAUSE_S and rounds < 200:
            rounds += 1
            started = time.monotonic()
            assert status(f"{url}/livez", timeout=2) == 200, f"/livez failed {started - paused_at:.1f} s into the pause"
            assert time.monotonic() - started < 1.0, "/livez was slow while Redis was stopped"
            if unready_after is None:
                ready = status(f"{url}/readyz", timeout=2)
                assert ready in (200, 503), ready  # an answer, never a hang
                if ready == 503:
                    unready_after = time.monotonic() - paused_at
            if unready_after is not None and not scraped:  # the scrapes answer too (a family left out)
                for target in (f"{url}/metrics",
                               f"http://{stack.settings.host}:{stack.settings.worker_metrics_port}/metrics"):
                    began = time.monotonic()
                    assert status(target, timeout=5) == 200, f"{target} did not answer while Redis was stopped"
                    assert time.monotonic() - began < 3.0, f"{target} waited on the stopped Redis"
                scraped = True
            for name, address in services.items():
                assert health_status(address, LIVENESS_SERVICE) == SERVING, f"{name} not alive"
            assert supervisor.dead() == [], "a process died while Redis was stopped"
            assert stack.stack.heal() == []
            time.sleep(POLL_S)
        assert unready_after is not None and unready_after <= UNREADY_WITHIN_S, unready_after
        assert scraped
        assert status(f"{url}/readyz", timeout=2) == 503  # still unready at the end of the pause
    finally:
        os.kill(redis_pid, signal.SIGCONT)
    resumed_at = time.monotonic()

    ready_again = wait_ready(url, BACK_WITHIN_S)
    for _ in range(100):  # a move, each try bounded by the client's timeout
        try:
            assert play_one_move(client, gid, tokens) > version
            break
        except Exception:  # noqa: BLE001 - not serving yet: try again until the deadline
            if time.monotonic() - resumed_at > BACK_WITHIN_S:
                raise
            time.sleep(POLL_S)
    moved_again = time.monotonic() - resumed_at
    assert moved_again <= BACK_WITHIN_S
    print(f"\nRedis stopped {PAUSE_S:.0f} s ({rounds} rounds of probes): /readyz 503 after {unready_after:.2f} s; "
          f"after SIGCONT /readyz 200 in {ready_again:.2f} s, a move in {moved_again:.2f} s")
    assert stack.stack.heal() == [] and supervisor.dead() == []
    assert stack.pids() == before, "the launcher restarted a process"
    client.close()
