"""The launcher's mover group (:meth:`services.launcher.stack.Stack.mover_spec`): one shell runs
``LONGHOUSE_MOVERS`` movers; a stop asked of the group stops every mover and exits 0, and the
interpreter's path may hold a space (it was not quoted: the movers never started, exit 127).

The movers here are a stand-in interpreter (a shell script given as the stack's ``python``) that
records its pid by mover name and exits 0 on SIGTERM; no Redis or service is started. Every wait is
bounded.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from services.common.config import Settings
from services.launcher.stack import Stack

MOVERS = 3
FAKE_MOVER = """#!/bin/sh
# stands in for `python -m services.phases.mover --name NAME --metrics-port PORT`
name=$4
trap 'echo "$name" >> "$FAKE_DIR/stopped"; exit 0' TERM
echo $$ > "$FAKE_DIR/$name.pid"
while :; do sleep 0.1; done
"""


@pytest.fixture(params=["bin", "a folder with spaces"])
def group(request, tmp_path, monkeypatch):
    """Start the mover group with stand-in movers, the interpreter in a folder named
    ``request.param``: ``(shell process, {name: pid}, run dir)``."""
    run = tmp_path / "run"
    run.mkdir()
    (tmp_path / request.param).mkdir()
    fake = tmp_path / request.param / "python"
    fake.write_text(FAKE_MOVER)
    fake.chmod(0o755)
    monkeypatch.setenv("FAKE_DIR", str(run))
    monkeypatch.setenv("LONGHOUSE_MOVERS", str(MOVERS))
    spec = Stack(Settings(), tmp_path / "data", python=str(fake)).mover_spec()
    shell = subprocess.Popen(spec.argv, env={**os.environ}, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while len(list(run.glob("*.pid"))) < MOVERS:
            assert shell.poll() is None, f"the group exited at start ({shell.returncode})"
            assert time.monotonic() < deadline, "the stand-in movers did not start within 20 s"
            time.sleep(0.05)  # polling for the stand-ins' pid files, under the deadline above
        pids = {}
        for path in run.glob("*.pid"):
            deadline = time.monotonic() + 5
            while not path.read_text().strip():  # written by the stand-in just now
                assert time.monotonic() < deadline
                time.sleep(0.01)
            pids[path.name.removesuffix(".pid")] = int(path.read_text())
        yield shell, pids, run
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)
            shell.wait(timeout=10)


def stopped(run: Path) -> list[str]:
    """The names of the stand-in movers that were sent SIGTERM."""
    path = run / "stopped"
    return sorted(path.read_text().split()) if path.exists() else []


def test_a_stop_asked_of_the_group_stops_every_mover_and_exits_zero(group):
    shell, pids, run = group
    os.kill(shell.pid, signal.SIGTERM)  # as the supervisor's stop sends it
    assert shell.wait(timeout=15) == 0
    assert stopped(run) == sorted(pids)
