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
if [ -e "$FAKE_DIR/$name.hang" ]; then  # told never to be ready
  trap 'exit 0' TERM
  while :; do sleep 0.1; done
fi
trap 'echo "$name" >> "$FAKE_DIR/stopped"; exit 0' TERM
echo $$ > "$FAKE_DIR/$name.pid.part" && mv "$FAKE_DIR/$name.pid.part" "$FAKE_DIR/$name.pid"
while :; do sleep 0.1; done
"""


def pid_of(run: Path, node: str) -> int | None:
    """The pid the stand-in mover ``node`` wrote, if it has."""
    path = run / f"{node}.pid"
    return int(path.read_text()) if path.exists() else None


@pytest.fixture
def movers(request, tmp_path, monkeypatch):
    """The stack's movers started with stand-ins, the interpreter in a folder named
    ``request.param`` (``bin`` if not given): ``(stack, {child name: heartbeat name}, run dir)``."""
    folder = getattr(request, "param", "bin")
    run = tmp_path / "run"
    run.mkdir()
    (tmp_path / folder).mkdir()
    fake = tmp_path / folder / "python"
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


@pytest.mark.parametrize("movers", ["bin", "a folder with spaces"], indirect=True)
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
    redis_client.set("longhouse:mover:probe-test", f"{os.getpid()}.3d4e5f.starting")
    assert not probe()  # alive, but still making its start-up push (Mover.announce)
    redis_client.set("longhouse:mover:probe-test", f"{os.getpid()}.3d4e5f")
    assert probe()


def test_a_restart_slow_to_start_holds_up_no_other_restart(movers):
    """:meth:`Stack.heal` waited for each restart to be ready (up to its 60 s deadline), so one mover
    slow to start kept another's death unnoticed that long (a trial: 55 s without a mover). Now a
    restart is looked at by later calls, and the other dead mover is started again meanwhile."""
    stack, nodes, run = movers
    (run / f"{nodes['mover-1']}.hang").touch()
    os.kill(stack.supervisor.children["mover-1"].pid, signal.SIGKILL)
    (run / f"{nodes['mover-1']}.pid").unlink()
    said: list[str] = []
    deadline = time.monotonic() + 15
    while not any(line.startswith("mover-1 exited") for line in said) or stack.supervisor.dead():
        assert time.monotonic() < deadline, f"mover-1 not started again within 15 s: {said}"
        stack.heal(said.append)
        time.sleep(0.05)
    os.kill(stack.supervisor.children["mover-0"].pid, signal.SIGKILL)  # mover-1 is still starting
    (run / f"{nodes['mover-0']}.pid").unlink()
    restarted: list[str] = []
    while "mover-0" not in restarted:
        assert time.monotonic() < deadline, f"mover-0 not restarted within 15 s: {said}"
        restarted += stack.heal(said.append)
        time.sleep(0.05)
    assert "mover-1" not in restarted and stack.supervisor.children["mover-1"].alive()  # still starting


def test_a_child_that_never_gets_ready_is_not_forgiven_its_restarts(movers, monkeypatch):
    """A restart that missed its deadline had run longer than ``RESTART_FORGIVEN`` when it was
    killed, so its count started over at each miss and it was tried for ever (a trial). Only a
    child that was ready is forgiven now."""
    from services.launcher import stack as stack_module

    stack, nodes, run = movers
    monkeypatch.setattr(stack_module, "RESTART_FORGIVEN", 0.5)  # shorter than a miss: 1 s
    spec = stack.supervisor.specs["mover-1"]
    stack.supervisor.specs["mover-1"] = dataclasses.replace(spec, ready_timeout=1.0)
    (run / f"{nodes['mover-1']}.hang").touch()
    stack.supervisor.children["mover-1"].ready_at -= 10  # it had served: its first death is forgiven
    os.kill(stack.supervisor.children["mover-1"].pid, signal.SIGKILL)
    (run / f"{nodes['mover-1']}.pid").unlink()
    said: list[str] = []
    deadline = time.monotonic() + 30
    while not any("(restart 3," in line for line in said):  # 1 s, a 1 s miss, 2 s, a miss: the third
        assert time.monotonic() < deadline, f"no third restart within 30 s: {said}"
        stack.heal(said.append)
        time.sleep(0.05)
    assert [line for line in said if "(restart 1," in line][1:] == [], said  # never started over
    assert sum("not ready within 1 s" in line for line in said) == 2, said
