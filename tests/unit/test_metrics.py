"""services.common.metrics and gateway.gunicorn_conf: agent decisions by status, a metrics server
that cannot bind is no failure, and multiprocess mode: the samples of several processes add up in
one exposition, and a process gunicorn reaps gives up its open streams."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import requests
from prometheus_client import REGISTRY
from prometheus_client.core import GaugeMetricFamily

from services.common import metrics
from services.launcher.supervisor import free_port
from tests.gateway.test_metrics import total

ROOT = Path(__file__).resolve().parents[2]


def decisions(status: str) -> float:
    return REGISTRY.get_sample_value("longhouse_agent_decisions_total", {"status": status}) or 0.0


def test_agent_failures_count_by_status():
    metrics.init_agent_decisions()
    before = {s: decisions(s) for s in metrics.AGENT_STATUSES}
    for failure in (None, None, "timeout", "crash", "illegal", "malformed"):
        metrics.agent_decision(failure)
    after = {s: decisions(s) - before[s] for s in metrics.AGENT_STATUSES}
    assert after == {"answered": 2, "late": 1, "crashed": 1, "illegal": 2}


class Fixed:
    """A collector with one gauge sample."""

    def collect(self):
        family = GaugeMetricFamily("longhouse_queue_depth", "test", labels=["queue"])
        family.add_metric(["q"], 7)
        yield family


def test_serve_answers_with_the_process_metrics_and_the_extra_collectors():
    port = free_port()
    metrics.move_accepted("served_game")
    assert metrics.serve(port, "127.0.0.1", extra=[Fixed()])
    text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    assert total(text, "longhouse_moves_total", game="served_game", outcome="accepted") >= 1
    assert total(text, "longhouse_queue_depth", queue="q") == 7


def test_a_port_in_use_or_zero_serves_nothing_and_raises_nothing():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert metrics.serve(taken.getsockname()[1], "127.0.0.1") is False
    assert metrics.serve(0, "127.0.0.1") is False


def run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``python -c code`` in the repository with ``env`` added; fails the test if it fails."""
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, **env}, timeout=60,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def test_multiprocess_mode_adds_up_every_process_and_drops_a_dead_ones_streams(tmp_path):
    env = {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    count = ("import os; from services.common import metrics; metrics.move_accepted('mp_game'); "
             "metrics.families().streams_open.inc(); print(os.getpid())")
    pids = [int(run(count, env).stdout) for _ in range(2)]
    show = "import sys; from services.common import metrics; sys.stdout.write(metrics.exposition()[0].decode())"
    text = run(show, env).stdout
    assert total(text, "longhouse_moves_total", game="mp_game", outcome="accepted") == 2
    assert total(text, "longhouse_event_streams_open") == 2  # livesum: both still count until reaped
    reap = f"import gateway.gunicorn_conf as conf; conf.child_exit(None, type('W', (), {{'pid': {pids[0]}}})())"
    run(reap, env)
    text = run(show, env).stdout
    assert total(text, "longhouse_event_streams_open") == 1
    assert total(text, "longhouse_moves_total", game="mp_game", outcome="accepted") == 2  # counters stay


def test_the_gunicorn_configuration_makes_and_clears_its_directory(tmp_path):
    stale = tmp_path / "counter_123.db"
    stale.write_bytes(b"old")
    code = ("import os, gateway.gunicorn_conf as conf; print(os.environ['PROMETHEUS_MULTIPROC_DIR']); "
            "conf.on_starting(None)")
    assert run(code, {"PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}).stdout.strip() == str(tmp_path)
    assert not stale.exists()  # an earlier run's samples are gone
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    own = subprocess.run([sys.executable, "-c", "import os, gateway.gunicorn_conf as conf; "
                          "d = os.environ['PROMETHEUS_MULTIPROC_DIR']; assert os.path.isdir(d); conf.on_exit(None); "
                          "print(d, os.path.exists(d))"], cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)},
                         capture_output=True, text=True, timeout=60)
    assert own.returncode == 0, own.stderr
    made, exists = own.stdout.split()
    assert "longhouse-gateway-metrics-" in made and exists == "False"  # its own directory, removed at exit
