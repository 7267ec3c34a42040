"""The tests' own Docker engine (services/containers/engine.py) without starting one: the reasons
it gives for not running, its lock, and the stopping of a daemon an earlier session left."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from services.containers import engine


@pytest.mark.containers
def test_skip_reasons_name_what_is_missing(monkeypatch):
    monkeypatch.setattr(engine.os, "geteuid", lambda: 1000)
    assert "needs root" in engine.why_no_engine()
    monkeypatch.setattr(engine.os, "geteuid", lambda: 0)
    monkeypatch.setattr(engine, "_which", lambda name: None if name == "dockerd" else f"/usr/bin/{name}")
    assert engine.why_no_engine() == "no dockerd on this machine (make setup installs docker.io)"


@pytest.mark.containers
def test_one_session_at_a_time_holds_a_data_root(tmp_path):
    first, second = engine.EngineLock(tmp_path / "docker.lock"), engine.EngineLock(tmp_path / "docker.lock")
    assert first.acquire()
    assert not second.acquire()
    first.release()
    assert second.acquire()
    second.release()


@pytest.mark.containers
def test_a_daemon_left_by_a_killed_session_is_stopped(tmp_path):
    root = tmp_path / "docker"
    fake = tmp_path / "dockerd"  # a process whose command line looks like our dockerd's
    fake.symlink_to(sys.executable)
    proc = subprocess.Popen([str(fake), "-c", "import time; time.sleep(60)", "--data-root", str(root)])
    try:
        box = engine.DockerEngine(root)
        box.owner_path.write_text("999999999")  # no such process: nothing to stop
        assert not box.stop_leftover()
        box.owner_path.write_text(str(os.getpid()))  # not a dockerd: left alone
        assert not box.stop_leftover()
        box.owner_path.write_text(str(proc.pid))
        assert box.stop_leftover(grace=10)
        assert proc.wait(10) is not None
    finally:
        proc.kill()
