"""Phases on Celery with real worker processes (acceptance C).

A phase task is acknowledged late: a worker SIGKILLed while it holds one loses
nothing, a new worker gets the task after the visibility timeout, and the phase is
committed exactly once. A duplicate task for the same version is a no-op.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

import tests.core_games.lap_race  # noqa: F401  (registers the test game)
from services.phases.hosting import build_table
from services.phases.schedulers import QUEUE, CeleryScheduler, make_celery
from services.rules.core import GameConfig
from tests.support.wait import wait_for

ROOT = Path(__file__).resolve().parents[2]
VISIBILITY_TIMEOUT = 2


class Worker:
    """A ``celery worker`` subprocess in its own process group, logging to a file."""

    def __init__(self, redis_port: int, workdir: Path, name: str, hold_dir: Path | None = None,
                 sweep_s: float = 15.0):
        self.log_path = workdir / f"{name}.log"
        env = dict(os.environ, LONGHOUSE_HOST="127.0.0.1", LONGHOUSE_REDIS_PORT=str(redis_port),
                   LONGHOUSE_PORTS_MODE="embedded", LONGHOUSE_PHASE_MODE="celery",
                   LONGHOUSE_CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY_TIMEOUT),
                   LONGHOUSE_EXTRA_GAMES="tests.core_games.lap_race", LONGHOUSE_PHASE_SWEEP_SECONDS=str(sweep_s))
        env.pop("LONGHOUSE_TEST_HOLD_DIR", None)
        if hold_dir is not None:
            env["LONGHOUSE_TEST_HOLD_DIR"] = str(hold_dir)
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tests.phases.holding_worker", "worker",
             "-l", "info", "-c", "1", "-n", f"{name}@%h", "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True)

    def text(self) -> str:
        return self.log_path.read_text()

    def wait_ready(self, timeout: float = 60) -> None:
        wait_for(lambda: " ready." in self.text() or self.proc.poll() is not None, timeout, "worker ready")
        assert self.proc.poll() is None, self.text()

    def phase_lines(self) -> list[dict]:
        out = []
        for line in self.text().splitlines():
            start = line.find('{"')
            if start >= 0 and '"phase_run"' in line:
                record = json.loads(line[start:])
                if record.get("event") == "phase_run":
                    out.append(record)
        return out

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if not self._log.closed:
            self._log.close()


@pytest.fixture
def workers(redis_server, tmp_path):
    started: list[Worker] = []

    def start(name: str, hold_dir: Path | None = None, sweep_s: float = 15.0) -> Worker:
        w = Worker(redis_server.port, tmp_path, name, hold_dir, sweep_s)
        started.append(w)
        return w

    yield start
    for w in started:
        w.stop()


@pytest.fixture
def celery_table(redis_client, redis_server):
    """A Table on the private Redis whose phases go to Celery on database 1."""
    app = make_celery(f"redis://127.0.0.1:{redis_server.port}/1")
    yield build_table(redis_client, ports_mode="embedded", phase_mode="celery", celery_app=app)
    app.close()


def finish_lap(table) -> tuple[str, int]:
    """A lap_race game whose first lap just ended; returns (game id, version waiting for the phase)."""
    gid = table.create(GameConfig(game="lap_race", players=2), seed="1")
    table.play(gid, 0, {"type": "run", "pace": 2}, table.store.version(gid), "a")
    result = table.play(gid, 1, {"type": "run", "pace": 3}, table.store.version(gid), "b")
    return gid, result["version"]


def phase_entries(table, gid: str) -> list[int]:
    return [e.version for e in table.store.read(gid) if e.kind == "phase"]


def test_celery_scheduler_queues_the_task(celery_table, redis_server):
    gid, version = finish_lap(celery_table)
    queued = redis.Redis(port=redis_server.port, db=1).lrange(QUEUE, 0, -1)
    assert len(queued) == 1
    headers = json.loads(queued[0])["headers"]
    assert headers["task"] == "longhouse.run_phase"
    assert headers["argsrepr"] == repr((gid, "lap_end", version))
    rules, state, _ = celery_table.state(gid)
    assert celery_table.summary(gid)["status"] == "phase" and rules.to_move(state) == []


def test_acceptance_c_killed_worker_phase_completes_exactly_once(celery_table, workers, tmp_path):
    hold = tmp_path / "hold"
    hold.mkdir()
    first = workers("first", hold_dir=hold)
    first.wait_ready()
    gid, version = finish_lap(celery_table)
    assert celery_table.summary(gid)["status"] == "phase"

    held = wait_for(lambda: list(hold.glob("held-*")), 30, "the first worker to take the task")
    assert json.loads(held[0].read_text()) == [gid, "lap_end", version]
    first.kill()  # SIGKILL while the task is taken but not acknowledged
    assert phase_entries(celery_table, gid) == []
    assert celery_table.store.version(gid) == version

    second = workers("second")
    second.wait_ready()
    wait_for(lambda: celery_table.store.version(gid) > version, 60, "the phase to be committed")
    assert phase_entries(celery_table, gid) == [version + 1]
    assert celery_table.summary(gid)["status"] == "active"
    wait_for(lambda: second.phase_lines(), 30, "the worker's log line")
    # the redelivered task and the starting worker's sweep may both run: one commits,
    # any other finds the version moved on
    runs = [(l["game_id"], l["version"], l["outcome"]) for l in second.phase_lines()]
    assert runs[0] == (gid, version, "committed")
    assert all(run == (gid, version, "skipped") for run in runs[1:])

    # a duplicate task for the same version is a no-op
    seen = len(second.phase_lines())
    CeleryScheduler(celery_table.scheduler.phases.app).schedule(gid, "lap_end", version)
    wait_for(lambda: len(second.phase_lines()) > seen, 30, "the duplicate task to run")
    assert second.phase_lines()[-1]["outcome"] == "skipped"
    assert phase_entries(celery_table, gid) == [version + 1]
    assert celery_table.store.version(gid) == version + 1


def test_phases_run_on_the_worker_through_a_whole_game(celery_table, workers):
    worker = workers("plain")
    worker.wait_ready()
    gid, version = finish_lap(celery_table)
    wait_for(lambda: celery_table.store.version(gid) > version, 30, "the first lap's phase")
    v = celery_table.store.version(gid)
    celery_table.play(gid, 0, {"type": "run", "pace": 1}, v, "c")
    celery_table.play(gid, 1, {"type": "run", "pace": 1}, v + 1, "d")
    wait_for(lambda: celery_table.store.version(gid) > v + 2, 30, "the second lap's phase")
    summary = celery_table.summary(gid)
    assert summary["status"] == "over" and summary["outcome"]["winners"] == [1]
    assert phase_entries(celery_table, gid) == [version + 1, v + 3]
    assert [line["outcome"] for line in worker.phase_lines()] == ["committed", "committed"]
    assert "Traceback" not in worker.text()


def test_an_unreachable_broker_does_not_fail_the_commit(redis_client):
    from tests.support.ports import free_port

    app = make_celery(f"redis://127.0.0.1:{free_port()}/1")
    app.conf.broker_connection_timeout = 1
    table = build_table(redis_client, ports_mode="embedded", phase_mode="celery", celery_app=app)
    try:
        gid, version = finish_lap(table)  # the commit stands; the phase waits to be queued again
    finally:
        app.close()
    assert table.store.version(gid) == version and table.summary(gid)["status"] == "phase"


class _LostTasks:
    """A scheduler whose tasks never reach the broker (the broker failed at the commit)."""

    def schedule(self, game_id, phase, version):
        return None


def test_a_starting_worker_queues_again_a_phase_whose_task_was_lost(redis_client, workers):
    from services.coordinator.ports import embedded_ports
    from services.coordinator.redis_store import RedisSeeds, RedisStore
    from services.coordinator.table import Table

    store = RedisStore(redis_client)
    lost = Table(store, embedded_ports(store, RedisSeeds(redis_client)), _LostTasks())
    gid, version = finish_lap(lost)
    assert lost.summary(gid)["status"] == "phase" and phase_entries(lost, gid) == []

    worker = workers("sweeper")
    worker.wait_ready()
    wait_for(lambda: phase_entries(lost, gid), 30, "the swept phase to commit")
    assert phase_entries(lost, gid) == [version + 1]
    assert lost.summary(gid)["status"] == "active"


def test_a_running_worker_queues_again_a_phase_whose_task_was_lost(redis_client, workers):
    """Issue: reliability, fault 5. A phase whose task was lost while the worker ran waited for a
    client's ``/wait`` (or a worker's restart); the worker's periodic sweep now queues it again."""
    from services.coordinator.ports import embedded_ports
    from services.coordinator.redis_store import RedisSeeds, RedisStore
    from services.coordinator.table import Table

    worker = workers("periodic", sweep_s=0.5)
    worker.wait_ready()
    store = RedisStore(redis_client)
    lost = Table(store, embedded_ports(store, RedisSeeds(redis_client)), _LostTasks())
    gid, version = finish_lap(lost)  # after the worker's start-up sweep: only the periodic one finds it
    assert lost.summary(gid)["status"] == "phase"
    wait_for(lambda: phase_entries(lost, gid), 30, "the stuck phase to be swept and committed")
    assert phase_entries(lost, gid) == [version + 1]
    assert "stuck_phases_requeued" in worker.text()
