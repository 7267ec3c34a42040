"""The launcher's supervisor (services/launcher/supervisor.py) starting children from threads
other than the main one."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from services.launcher.supervisor import ChildSpec, Supervisor


def test_a_child_started_from_a_thread_outlives_that_thread(tmp_path):
    """Linux sends the parent-death signal when the thread that forked the child exits: a child the
    launcher's healing thread started again during a tournament got SIGTERM when the tournament
    ended and the thread with it (a trial saw a restarted mover stop then). The supervisor forks
    off the main thread from one thread kept for the process's life."""
    sup = Supervisor(tmp_path / "logs")
    spec = ChildSpec("sleeper", ["sleep", "60"], probe=lambda: True)
    with sup:
        started = threading.Thread(target=sup.spawn, args=(spec,))
        started.start()
        started.join(10)
        tid = started.native_id
        deadline = time.monotonic() + 10
        while Path(f"/proc/self/task/{tid}").exists():  # the thread gone from the kernel too: its
            assert time.monotonic() < deadline       # exit has sent any parent-death signal
            time.sleep(0.01)
        child = sup.children["sleeper"]
        with pytest.raises(subprocess.TimeoutExpired):
            child.proc.wait(timeout=1)  # a SIGTERM sent at the thread's exit ends `sleep` at once
        assert child.alive()


def test_a_port_given_to_two_children_is_refused_before_anything_starts(tmp_path):
    """Two settings that land on one port (the gateway's on the second mover's metrics port,
    ``LONGHOUSE_MOVER_METRICS_PORT`` + 1) started the stack, and the second to bind only logged
    that it could not (a trial). Both are named."""
    from services.launcher.supervisor import PortInUse, free_port

    port = free_port()
    sup = Supervisor(tmp_path / "logs")
    specs = [ChildSpec("gateway", ["true"], probe=lambda: True, ports=[port]),
             ChildSpec("mover-1", ["true"], probe=lambda: True, ports=[port])]
    with pytest.raises(PortInUse, match=rf"port {port} is given to both gateway and mover-1; move one"):
        sup.check_ports(specs, {port: "LONGHOUSE_GATEWAY_PORT"})
    decks = ChildSpec("decks", ["true"], probe=lambda: True, ports=[port, port])  # its port and its metrics'
    with pytest.raises(PortInUse, match=rf"port {port} is given twice to decks; move one"):
        sup.check_ports([decks])
    assert sup.children == {}


def test_a_mover_count_that_is_not_a_number_is_a_launch_error(monkeypatch):
    from services.launcher.stack import mover_count
    from services.launcher.supervisor import LaunchError

    for given in ("abc", "0", "-2"):
        monkeypatch.setenv("LONGHOUSE_MOVERS", given)
        with pytest.raises(LaunchError, match=f"LONGHOUSE_MOVERS must be a whole number of movers, at least 1, not '{given}'"):
            mover_count()
    monkeypatch.setenv("LONGHOUSE_MOVERS", "3")
    assert mover_count() == 3


def test_a_child_given_up_during_a_tournament_stops_the_run():
    """``heal_while`` (the launcher's healing during its tournament) only reported a child that died
    too often and returned: the run went on with nothing restarted any more (a trial: no mover left,
    the games waiting for their time-out). Now it hands the error over and signals the main thread,
    which is interrupted even where it waits, as the launcher is while serving."""
    import signal

    from services.launcher import __main__ as launcher
    from services.launcher.supervisor import LaunchError

    class Dying:  # a stack whose heal gives up a child
        def heal(self, say):
            raise LaunchError("mover-1 died 11 times; giving up")

    done = threading.Event()
    gave_up: list = []
    healer = threading.Thread(target=launcher.heal_while, args=(Dying(), None, done, gave_up))
    old = signal.signal(signal.SIGTERM, launcher._on_signal)
    try:
        with pytest.raises(launcher.Terminated):
            healer.start()
            done.wait(10)  # the main thread waiting, as in the tournament's progress: interrupted
    finally:
        signal.signal(signal.SIGTERM, old)
        done.set()
        healer.join(10)
    assert [str(exc) for exc in gave_up] == ["mover-1 died 11 times; giving up"]
