"""``python -m services.launcher`` refuses a run its games cannot play (an unknown game or bot,
seats or variants a game does not take) before it starts any part of the stack: one line, exit 2,
no run directory made."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.launcher.__main__ import main, parse_args


@pytest.mark.parametrize("argv,said", [
    (["--game", "chess"], "no game 'chess'"),
    (["--players", "7"], "takes 2 to 4 players, not 7"),
    (["--game", "resource_hog", "--players", "1"], "takes 2 to 4 players, not 1"),
    (["--bots", "random,clever"], "no bot 'clever'"),
    (["--game", "noggin", "--variants", "nope"], "unknown option(s) for noggin: nope"),
    (["--game", "noggin", "--players", "3", "--variants", "friend_or_foe"], "4 players only"),
    (["--parallel", "0"], "--parallel and --move-cap must be >= 1"),
    (["--move-cap", "-5"], "--parallel and --move-cap must be >= 1"),
    (["--seed="], "--seed must be 1 to 128 characters"),
    (["--bots=,,"], "--bots: name at least one bot"),
    (["--report", "."], "is a directory"),
    (["--report", "/proc/no-report.json"], "--report: cannot write in /proc"),
    (["--data-dir="], "--data-dir: name the run's directory"),
])
def test_a_run_the_games_cannot_play_is_refused_before_the_stack_starts(argv, said, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LONGHOUSE_DATA_DIR", str(tmp_path))
    with pytest.raises(SystemExit) as stop:
        main(["--once", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no run directory, nothing started


def test_runs_the_games_can_play_are_accepted():
    assert parse_args(["--game", "noggin", "--players", "4", "--variants", "friend_or_foe,sos"]).players == 4
    assert parse_args(["--games", "0", "--players", "9"]).games == 0  # no tournament: the seats are never used
    assert parse_args([]).game == "all"


@pytest.mark.parametrize("name,value,said", [
    ("LONGHOUSE_AGENT_ALLOW", "not a host::", "the port is a number"),
    ("LONGHOUSE_GATEWAY_PORT", "abc", "valid integer"),
])
def test_a_bad_setting_is_one_line_and_starts_nothing(name, value, said, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LONGHOUSE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv(name, value)
    assert main(["--once", "--games", "0"]) == 2
    out = capsys.readouterr().out
    assert f"bad setting {name}: " in out and said in out and "Traceback" not in out
    assert list(tmp_path.iterdir()) == []


def test_paths_are_shown_as_the_run_directory_was_named(tmp_path, monkeypatch):
    # a relative (or default) data directory is shown relative to the working directory; an
    # absolute one as it was given, even when it lies under the working directory
    from services.launcher.__main__ import shown

    monkeypatch.chdir(tmp_path)
    logs = tmp_path / "run" / "logs"
    assert shown(logs) == "run/logs"
    assert shown(logs, relative=False) == str(logs)
    assert shown(Path("/elsewhere/logs")) == "/elsewhere/logs"  # not under the working directory


def test_a_run_directory_that_cannot_be_made_is_one_line_and_starts_nothing(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["--once", "--data-dir", str(blocker / "run")]) == 2  # under a file: not a directory
    out = capsys.readouterr().out
    assert "cannot make or write the run's directory" in out and "Traceback" not in out


def test_a_taken_port_is_named_with_the_variable_that_moves_it(tmp_path):
    # a metrics port in use (e.g. by another process's service) names its own variable
    import socket

    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings
    from services.launcher.supervisor import PortInUse

    settings = free_port_settings(Settings())
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        stack = Stack(settings.model_copy(update={"decks_metrics_port": taken}), tmp_path / "run")
        assert stack.port_variables()[taken] == "LONGHOUSE_DECKS_METRICS_PORT"
        with pytest.raises(PortInUse, match=f"{taken} \\(decks: LONGHOUSE_DECKS_METRICS_PORT\\)"):
            stack.start()
    assert not (tmp_path / "run" / "children.json").exists()


def test_a_run_directory_that_cannot_be_written_is_one_line_and_starts_nothing(capsys):
    assert main(["--once", "--data-dir", "/proc"]) == 2  # there, but nothing can be written in it
    out = capsys.readouterr().out
    assert "cannot make or write the run's directory" in out and "Traceback" not in out


def test_a_free_port_is_picked_outside_the_range_outgoing_connections_take_theirs_from(monkeypatch, tmp_path):
    """A port from a bind to port 0 lies in the kernel's range for outgoing connections, where a
    connection made before the child binds it can take it (a test launcher found its gateway's port
    in use); picks come from below and above that range, wherever it lies, never a port something is
    bound to, never a default port of the stack, and a block of the movers' ports never reaches into
    the range."""
    import socket

    from services.launcher import stack, supervisor

    monkeypatch.setattr(supervisor, "PICKED", tmp_path / "picked.json")  # this test's picks only
    low, high = supervisor.ephemeral_ports()
    assert 0 < low <= high <= 65535
    for kernel in ((low, high), (32768, 60999), (10000, 29999), (40000, 45000), (61000, 65535)):
        monkeypatch.setattr(supervisor, "ephemeral_ports", lambda kernel=kernel: kernel)
        picks = {supervisor.free_port() for _ in range(100)}
        assert all(supervisor.FREE_PORTS_FROM <= p <= 65535 and not kernel[0] <= p <= kernel[1] for p in picks), \
            (kernel, sorted(picks))
        settings = stack.free_port_settings()
        movers = range(settings.mover_metrics_port, settings.mover_metrics_port + stack.mover_count())
        chosen = [getattr(settings, n) for n in type(settings).model_fields if n.endswith("_port")] + list(movers)
        assert not any(kernel[0] <= p <= kernel[1] for p in chosen), (kernel, chosen)
        assert not set(chosen) & stack.default_ports(), chosen
    # where the range leaves too few ports outside it, the kernel's choice it is
    monkeypatch.setattr(supervisor, "ephemeral_ports", lambda: (supervisor.FREE_PORTS_FROM + 1, 65535))
    assert supervisor.port_pool() == [] and supervisor.in_pool(12345)
    assert 0 < supervisor.free_port() <= 65535
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        other = spare.getsockname()[1]  # free again once closed
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        taken = held.getsockname()[1]
        monkeypatch.setattr(supervisor, "ephemeral_ports", lambda: (65535, 65535))
        monkeypatch.setattr(supervisor, "FREE_PORTS_FROM", 1024)
        offers = iter([taken, taken, 1024 + 7, other])  # 7 after the pool's start: in avoid
        monkeypatch.setattr(supervisor._port_picker, "randrange", lambda *_: next(offers) - 1024)
        assert supervisor.free_port(avoid={1024 + 7}) == other  # the taken port twice, the avoided one, passed over


PICKER = """
import sys
from pathlib import Path
from services.launcher import supervisor
supervisor.PICKED = Path(sys.argv[1])
supervisor.ephemeral_ports = lambda: (65535, 65535)
supervisor.FREE_PORTS_FROM, supervisor.MIN_POOL = 65435, 1  # a pool of 100 ports, 65435-65534
sys.stdin.readline()  # both start picking together
print(" ".join(str(supervisor.free_port()) for _ in range(40)))
"""


def test_ports_one_process_picked_are_passed_over_by_the_others(tmp_path):
    """Two stacks starting at once each check their ports free before their children bind them;
    the ledger of picks (``supervisor.picked_ports``) keeps the second from drawing a port the
    first drew. Two processes drawing 40 ports each at once from a pool of 100 draw 80 different
    ones (without the ledger they would share some almost surely)."""
    import subprocess
    import sys

    ledger = tmp_path / "picked.json"
    procs = [subprocess.Popen([sys.executable, "-c", PICKER, str(ledger)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
             for _ in range(2)]
    outs = [p.communicate("go\n", timeout=60)[0].split() for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    picks = [int(port) for out in outs for port in out]
    assert len(picks) == 80 and len(set(picks)) == 80, sorted(picks)
    assert all(65435 <= port <= 65534 for port in picks)


def test_the_ledger_keeps_recent_well_formed_picks_only(tmp_path, monkeypatch):
    """A pick is forgotten after ``PICKED_FOR_S`` (and one stamped ahead of the clock by more than
    a minute at once); whatever else the file holds (not JSON, JSON that is no map, entries that
    are no port and time) is dropped and the file written again, so one bad file never stops
    the picks."""
    import json
    import time

    from services.launcher import supervisor

    monkeypatch.setattr(supervisor, "PICKED", tmp_path / "picked.json")
    now = time.time()
    supervisor.PICKED.write_text(json.dumps({"20001": now - supervisor.PICKED_FOR_S - 1, "20002": now - 1,
                                             "20004": now + 3600, "abc": now, "20005": "soon", "20006": None,
                                             "70000": now}))
    with supervisor.picked_ports() as picked:
        assert picked == {20002: now - 1}
        picked[20003] = now
    assert set(json.loads(supervisor.PICKED.read_text())) == {"20002", "20003"}
    for bad in ("not json", "[1, 2]", "null", "5", '"x"', "\x00\x00"):
        supervisor.PICKED.write_text(bad)
        with supervisor.picked_ports() as picked:
            assert picked == {}, bad
            picked[20007] = now
        assert json.loads(supervisor.PICKED.read_text()) == {"20007": now}, bad
        assert 10000 <= supervisor.free_port() <= 65535


def test_the_ledger_never_follows_a_link_nor_waits_long_for_its_lock(tmp_path, monkeypatch):
    """Where the ledger's path is a symbolic link (planted in a shared temporary directory), or its
    lock is held past ``PICKED_LOCK_S``, the pick goes on without the ledger: nothing is written
    through the link, and the wait is bounded."""
    import fcntl
    import time

    from services.launcher import supervisor

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    monkeypatch.setattr(supervisor, "PICKED", tmp_path / "picked.json")
    supervisor.PICKED.symlink_to(victim)
    with supervisor.picked_ports() as picked:
        assert picked == {}
        picked[20001] = time.time()
    assert victim.read_text() == "precious"
    assert 10000 <= supervisor.free_port() <= 65535 and victim.read_text() == "precious"
    supervisor.PICKED.unlink()
    monkeypatch.setattr(supervisor, "PICKED_LOCK_S", 0.2)
    with open(supervisor.PICKED, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # another process holding it for ever
        began = time.monotonic()
        with supervisor.picked_ports() as picked:
            assert picked == {}
        assert 0.2 <= time.monotonic() - began < 5
