"""The launcher's movers (:meth:`services.launcher.stack.Stack.mover_specs`): each of the
``LONGHOUSE_MOVERS`` movers is a child of its own, so one that dies is started again alone
(:meth:`Stack.heal`) while the others serve on, and a stop stops them all together, each exiting 0.

Before, one shell ran them all and ended only when the last mover had ended: a mover that died
stayed dead until every other one had died too. (Before that, the interpreter's path was put into
the shell's text unquoted, and a path holding a space ran no mover: exit 127.)

The movers here are a stand-in interpreter (a shell script given as the stack's ``python``) that
records its pid by mover name and exits 0 on SIGTERM; no Redis or service is started, and each
mover's readiness is its pid file. Every wait is bounded.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from pathlib import Path

import pytest

from services.common.config import Settings
from services.launcher.stack import Stack

MOVERS = 3
FAKE_MOVER = """#!/bin/sh
# stands in for `python -m services.phases.mover --name NAME --metrics-port PORT`
name=$4
[ -e "$FAKE_DIR/$name.fail" ] && exit 3  # told to fail at start
trap 'echo "$name" >> "$FAKE_DIR/stopped"; exit 0' TERM
echo $$ > "$FAKE_DIR/$name.pid.part" && mv "$FAKE_DIR/$name.pid.part" "$FAKE_DIR/$name.pid"
while :; do sleep 0.1; done
"""


def pid_of(run: Path, node: str) -> int | None:
    """The pid the stand-in mover ``node`` wrote, if it has."""
    path = run / f"{node}.pid"
    return int(path.read_text()) if path.exists() else None


@pytest.fixture(params=["bin", "a folder with spaces"])
def movers(request, tmp_path, monkeypatch):
    """The stack's movers started with stand-ins, the interpreter in a folder named
    ``request.param``: ``(stack, {child name: heartbeat name}, run dir)``."""
    run = tmp_path / "run"
    run.mkdir()
    (tmp_path / request.param).mkdir()
    fake = tmp_path / request.param / "python"
    fake.write_text(FAKE_MOVER)
    fake.chmod(0o755)
    monkeypatch.setenv("FAKE_DIR", str(run))
    monkeypatch.setenv("LONGHOUSE_MOVERS", str(MOVERS))
    stack = Stack(Settings(mover_metrics_port=0), tmp_path / "data", python=str(fake))
    nodes = {}
    for spec in stack.mover_specs():
        node = spec.argv[spec.argv.index("--name") + 1]
        nodes[spec.name] = node
        stack.supervisor.spawn(dataclasses.replace(spec, probe=lambda node=node: pid_of(run, node) is not None,
                                                   ready_timeout=20))
    try:
        stack.supervisor.wait_ready(list(nodes))
        yield stack, nodes, run
    finally:
        for child in stack.supervisor.children.values():
            if child.alive():
                os.killpg(child.pgid, signal.SIGKILL)
                child.proc.wait(timeout=10)


def stopped(run: Path) -> list[str]:
    """The names of the stand-in movers that were sent SIGTERM."""
    path = run / "stopped"
    return sorted(path.read_text().split()) if path.exists() else []


def test_each_mover_is_a_child_of_its_own_of_kind_mover(movers):
    stack, nodes, run = movers
    assert sorted(nodes) == [f"mover-{k}" for k in range(MOVERS)] == stack.mover_names()
    assert {stack.supervisor.specs[name].role for name in nodes} == {"mover"}
    assert {stack.supervisor.children[name].pid for name in nodes} == {pid_of(run, node) for node in nodes.values()}


def test_a_mover_that_dies_is_started_again_alone(movers):
    stack, nodes, run = movers
    before = {name: stack.supervisor.children[name].pid for name in nodes}
    os.kill(before["mover-1"], signal.SIGKILL)
    (run / f"{nodes['mover-1']}.pid").unlink()  # readiness of the restarted one: a new pid file
    deadline = time.monotonic() + 20
    restarted: list[str] = []
    while not restarted:  # the first restart is due 1 s after the death is noticed
        assert time.monotonic() < deadline, "the dead mover was not restarted within 20 s"
        restarted = stack.heal()
        time.sleep(0.05)
    after = {name: stack.supervisor.children[name].pid for name in nodes}
    assert restarted == ["mover-1"]
    assert after["mover-0"] == before["mover-0"] and after["mover-2"] == before["mover-2"]
    assert after["mover-1"] != before["mover-1"] and pid_of(run, nodes["mover-1"]) == after["mover-1"]
    assert stopped(run) == []  # the others were never stopped


def test_a_stop_of_the_movers_stops_every_mover_together_and_each_exits_zero(movers):
    stack, nodes, run = movers
    assert stack.stop_mover() == 0
    assert stopped(run) == sorted(nodes.values())
    assert all(stack.supervisor.children[name].proc.returncode == 0 for name in nodes)


def test_a_mover_that_dies_again_before_it_is_ready_is_a_death_not_the_stacks_end(movers):
    """A restart whose new process exited before it was ready raised out of :meth:`Stack.heal`
    (a trial: the launcher stopped the whole stack, ``mover-0 exited with code -9 before it was
    ready``, though the other movers served). Now it counts as one more death, started again after
    the next back-off."""
    stack, nodes, run = movers
    before = {name: stack.supervisor.children[name].pid for name in nodes}
    (run / f"{nodes['mover-1']}.fail").touch()
    os.kill(before["mover-1"], signal.SIGKILL)
    (run / f"{nodes['mover-1']}.pid").unlink()
    said: list[str] = []
    deadline = time.monotonic() + 20
    while not any("did not start again" in line for line in said):
        assert time.monotonic() < deadline, f"no failed restart within 20 s: {said}"
        assert stack.heal(said.append) == []
        time.sleep(0.05)
    assert stack.supervisor.dead() == ["mover-1"]  # dead, not stopped: the next call starts it again
    (run / f"{nodes['mover-1']}.fail").unlink()
    restarted: list[str] = []
    while not restarted:  # the next back-off is 2 s
        assert time.monotonic() < deadline, f"not restarted within 20 s: {said}"
        restarted = stack.heal(said.append)
        time.sleep(0.05)
    after = {name: stack.supervisor.children[name].pid for name in nodes}
    assert restarted == ["mover-1"] and pid_of(run, nodes["mover-1"]) == after["mover-1"]
    assert after["mover-0"] == before["mover-0"] and after["mover-2"] == before["mover-2"]
    assert any("restart 2" in line for line in said), said  # counted: the second restart's back-off


def test_a_movers_readiness_is_a_heartbeat_of_a_live_process(redis_client):
    """:func:`services.launcher.stack.heartbeat_probe`: a mover killed outright leaves its heartbeat
    for 15 s, and the key alone called the mover started again in its place ready at once (a trial:
    ``mover-0 restarted`` 1.6 s before the new mover served)."""
    import subprocess

    from services.launcher.stack import heartbeat_probe

    url = "redis://{host}:{port}/{db}".format(**redis_client.connection_pool.connection_kwargs)
    probe = heartbeat_probe(url, "longhouse:mover:probe-test")
    assert not probe()  # no heartbeat
    gone = subprocess.Popen(["true"])
    gone.wait(timeout=10)
    redis_client.set("longhouse:mover:probe-test", f"{gone.pid}.0a1b2c")
    assert not probe()  # a heartbeat whose process is gone
    redis_client.set("longhouse:mover:probe-test", f"{os.getpid()}.3d4e5f")
    assert probe()
