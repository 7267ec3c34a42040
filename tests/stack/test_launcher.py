"""The launcher and the stack it supervises: the main job end to end, stopping, refusing.

Whole-stack tests run real processes on free loopback ports; every wait polls a
condition under a deadline.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from services.bots.client import OPERATOR_KEY_HEADER, GatewayClient
from services.common.config import Settings
from services.launcher.stack import free_port_settings
from services.launcher.supervisor import ChildSpec, LaunchError, PortInUse, Supervisor, group_exists
from services.tournament import TournamentConfig, run_tournament

from .conftest import ROOT, stack_env

pytestmark = pytest.mark.stack


def pid_alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def live_group_members(pgid: int) -> list[int]:
    """Pids of the processes (zombies excepted) in process group ``pgid``, from /proc."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(stat.parent.name))
    return out


def assert_all_gone(data_dir: Path) -> list[dict]:
    """Every child recorded in ``children.json`` and its process group has exited."""
    rows = json.loads((data_dir / "children.json").read_text())
    names = {r["name"] for r in rows}
    assert {"redis", "decks", "market", "boards", "scoring", "worker", "mover-0", "mover-1", "gateway"} <= names
    for row in rows:
        assert not pid_alive(row["pid"]), f"{row['name']} (pid {row['pid']}) is still running"
        assert not live_group_members(row["pid"]), f"a process of {row['name']}'s group is still running"
    return rows


def wait_until(condition, timeout: float, what: str, interval: float = 0.1):
    """Poll ``condition`` until it is truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except Exception:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def run_launcher(args: list[str], data_dir: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -m services.launcher <args>`` on free ports with its own data dir."""
    env = stack_env(free_port_settings(Settings()), data_dir)
    return subprocess.run([sys.executable, "-m", "services.launcher", *args, "--data-dir", str(data_dir)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


# -- the main job ----------------------------------------------------------------------

def test_launcher_once_plays_every_game_and_leaves_nothing_running(tmp_path, stack):
    """The default main job plays a tournament of every built-in game (A Game of Gnomes, Noggin,
    Resource Hog) through the stack, each game ended by its rules; and runs are reproducible: each
    tournament (:func:`services.launcher.__main__.tournament_config`) gives, game for game, the
    report it gives on another stack, the session's, game ids apart (``.ci/run`` runs ``make run``
    twice the same way)."""
    from services.launcher.__main__ import parse_args, tournament_config
    from services.tournament.runner import run_tournament_job

    report_path = tmp_path / "report.json"
    data_dir = tmp_path / "run"
    argv = ["--once", "--games", "1", "--players", "2", "--seed", "3"]
    proc = run_launcher([*argv, "--report", str(report_path)], data_dir)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(report_path.read_text())
    tournaments = {t["game"]: t for t in report["tournaments"]}
    assert set(tournaments) == {"noggin", "gnomes", "resource_hog"}
    assert [g["game"] for g in report["games"]] == ["gnomes", "noggin", "resource_hog"]
    for t in tournaments.values():
        assert t["players"] == 2 and t["seed"] == "3" and len(t["games"]) == 1
    for game in report["games"]:
        assert game["ended_by"] == "rules", game
        assert game["final_state_hash"] and game["reason"]
        assert len(game["final_scores"]) == 2
        assert [s["seat"] for s in game["seats"]] == [0, 1]
    gnomes = tournaments["gnomes"]["games"][0]
    assert [row["total"] for row in gnomes["breakdown"]] == gnomes["final_scores"]
    noggin = tournaments["noggin"]["games"][0]
    assert noggin["winning_side"] in ("noggin", "nogbad")
    # 9.0: when Nogbad takes the crown every player has lost; the top score only leads in exile
    assert noggin["winner"] if noggin["winning_side"] == "noggin" else (
        not noggin["winner"] and noggin["leader_in_exile"])
    assert "Standings" in proc.stdout
    assert_all_gone(data_dir)
    for name in ("redis", "decks", "market", "boards", "scoring", "worker", "gateway"):
        assert (data_dir / "logs" / f"{name}.log").exists()
    assert list((data_dir / "redis").glob("appendonlydir*")), "Redis runs with its append-only file on"
    for game, launched in tournaments.items():
        config = tournament_config(parse_args(argv), game)
        other = run_tournament_job(stack.gateway_url, config, operator_key=stack.operator_key).model_dump(mode="json")
        for report in (launched, other):
            for row in report["games"]:
                row.pop("game_id")
        assert launched == other, game


def serving_launcher(tmp_path: Path) -> tuple[subprocess.Popen, Settings, Path, Path]:
    """``python -m services.launcher --games 0`` on free ports, once it serves: ``(process,
    settings, data_dir, path of its output)``; the caller stops it."""
    data_dir = tmp_path / "run"
    settings = free_port_settings(Settings())
    env = stack_env(settings, data_dir)
    out_path = tmp_path / "out.txt"
    with open(out_path, "w") as out_file:
        proc = subprocess.Popen([sys.executable, "-m", "services.launcher", "--games", "0",
                                 "--data-dir", str(data_dir)],
                                cwd=ROOT, env=env, stdout=out_file, stderr=subprocess.STDOUT, text=True)
    try:
        wait_until(lambda: "press Ctrl-C to stop" in out_path.read_text(), 120, "the launcher to serve")
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, settings, data_dir, out_path


def stop_serving_launcher(proc: subprocess.Popen, sig: int, out_path: Path, data_dir: Path) -> str:
    """Send ``sig`` to a serving launcher and check that it stopped every child by the child's own
    graceful shutdown (exit status 0, each mover too) and exited 0 itself, leaving no
    process behind. Returns its output."""
    try:
        proc.send_signal(sig)
        proc.wait(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = out_path.read_text()
    assert proc.returncode == 0, out
    stopped = dict(re.findall(r"([\w-]+) \((-?\d+|None)\)", out.split("stopped:")[-1]))
    assert set(stopped) == {r["name"] for r in json.loads((data_dir / "children.json").read_text())}, out
    assert {"mover-0", "mover-1"} <= set(stopped) and set(stopped.values()) == {"0"}, out
    assert_all_gone(data_dir)
    return out


def test_launcher_serves_until_sigterm_then_stops_everything(tmp_path):
    """SIGTERM (a service manager's stop); Ctrl-C (SIGINT) is sent in
    :func:`test_the_launcher_restarts_a_child_that_dies_and_says_so`."""
    proc, settings, data_dir, out_path = serving_launcher(tmp_path)
    url = f"http://127.0.0.1:{settings.gateway_port}"
    try:
        assert requests.get(url + "/healthz", timeout=5).status_code == 200
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    assert url in stop_serving_launcher(proc, signal.SIGTERM, out_path, data_dir)


def test_children_stop_even_if_the_launcher_is_killed(tmp_path):
    data_dir = tmp_path / "run"
    settings = free_port_settings(Settings())
    out_path = tmp_path / "out.txt"
    with open(out_path, "w") as out_file:
        proc = subprocess.Popen([sys.executable, "-m", "services.launcher", "--games", "0",
                                 "--data-dir", str(data_dir)],
                                cwd=ROOT, env=stack_env(settings, data_dir), stdout=out_file,
                                stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: "press Ctrl-C to stop" in out_path.read_text(), 120, "the launcher to serve")
    finally:
        proc.kill()  # no chance to clean up: the parent-death signal must do it
        proc.wait()
    rows = json.loads((data_dir / "children.json").read_text())
    wait_until(lambda: not any(pid_alive(r["pid"]) or live_group_members(r["pid"]) for r in rows), 60,
               "every child of the killed launcher to exit")


@pytest.mark.parametrize("given_dir", [True, False], ids=["data-dir", "fresh-run-dir"])
def test_launcher_refuses_a_taken_port(tmp_path, given_dir):
    data_dir = tmp_path / "run"
    settings = free_port_settings(Settings())
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        env = stack_env(settings.model_copy(update={"gateway_port": taken}), data_dir)
        argv = ["--data-dir", str(data_dir)] if given_dir else []  # else a fresh run-<time> under data_dir
        proc = subprocess.run([sys.executable, "-m", "services.launcher", "--once", *argv],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert f"{taken} (gateway: LONGHOUSE_GATEWAY_PORT)" in proc.stdout and "already in use" in proc.stdout
    assert not (data_dir / "children.json").exists(), "nothing was started"
    if not given_dir:
        assert not list(data_dir.glob("run-*")), "no empty run directory is left behind"


# -- the supervisor ----------------------------------------------------------------------

def test_supervisor_stops_the_whole_process_group(tmp_path):
    sup = Supervisor(tmp_path / "logs")
    # the shell forks two grandchildren; a stop must reach them too (the marker is computed
    # so that the command line the log starts with does not contain it)
    spec = ChildSpec("forker", ["sh", "-c", "sleep 300 & sleep 300 & echo up-$((6*7)); wait"],
                     probe=lambda: "up-42" in (tmp_path / "logs" / "forker.log").read_text())
    with sup:
        sup.start(spec)
        pgid = sup.children["forker"].pgid
        assert group_exists(pgid)
    assert not group_exists(pgid)


def test_supervisor_kills_a_child_that_ignores_sigterm(tmp_path):
    sup = Supervisor(tmp_path / "logs")
    log = tmp_path / "logs" / "stubborn.log"
    spec = ChildSpec("stubborn", ["sh", "-c", "trap '' TERM; echo up-$((6*7)); sleep 300"],
                     probe=lambda: "up-42" in log.read_text(), stop_grace=0.5)
    sup.start(spec)
    started = time.monotonic()
    code = sup.stop("stubborn")
    assert code == -signal.SIGKILL
    assert time.monotonic() - started < 10
    assert not group_exists(sup.children["stubborn"].pgid)


def test_supervisor_reports_a_child_that_dies_before_ready(tmp_path):
    sup = Supervisor(tmp_path / "logs")
    spec = ChildSpec("broken", ["sh", "-c", "echo boom >&2; exit 3"], probe=lambda: False)
    with sup, pytest.raises(LaunchError, match="(?s)exited with code 3.*boom"):
        sup.start(spec)


def test_supervisor_refuses_a_taken_port(tmp_path):
    sup = Supervisor(tmp_path / "logs")
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        port = blocker.getsockname()[1]
        with pytest.raises(PortInUse, match=str(port)):
            sup.start(ChildSpec("x", ["true"], probe=lambda: True, ports=[port]))
    assert sup.children == {}


# -- the stack fixture -----------------------------------------------------------------

def test_stack_serves_and_records_its_children(stack):
    assert GatewayClient(stack.gateway_url).health()
    assert redis.Redis.from_url(stack.redis_url).ping()
    pids = stack.pids()
    assert set(pids) == {"redis", "decks", "market", "boards", "scoring", "worker", "mover-0", "mover-1", "gateway"}
    assert all(pid_alive(pid) for pid in pids.values())


def test_stack_worker_can_be_stopped_and_started(stack):
    old = stack.pids()["worker"]
    stack.stop_worker()
    assert not pid_alive(old)
    stack.start_worker()
    assert stack.pids()["worker"] != old
    # a game with phases still runs to its end on the new worker
    config = TournamentConfig(game="lap_race", players=2, games=1, seed="w", move_cap=500, game_timeout=120)
    report = run_tournament(stack.gateway_url, config, operator_key=stack.operator_key)
    assert report.games[0].ended_by == "rules", report.games[0].error


def test_tournament_through_the_stack_is_deterministic(stack):
    config = TournamentConfig(game="step_race", players=3, games=3, seed="42", move_cap=500, game_timeout=120)
    first = run_tournament(stack.gateway_url, config, operator_key=stack.operator_key)
    second = run_tournament(stack.gateway_url, config.__class__(**{**config.__dict__, "parallel": 1}),
                            operator_key=stack.operator_key)
    assert first.failed == 0, [g.error for g in first.games]
    assert [g.final_state_hash for g in first.games] == [g.final_state_hash for g in second.games]
    assert [g.moves for g in first.games] == [g.moves for g in second.games]
    assert {g.game_id for g in first.games}.isdisjoint({g.game_id for g in second.games})


@pytest.mark.parametrize("via", ["bus", "http"])
def test_a_game_that_reaches_the_move_cap_fails_on_either_path(stack, via):
    # over HTTP the driver stops at the cap; on the bus the bots play on the server, and a game
    # found at or past the cap (here long finished: a few moves' cap) is given up as failed
    config = TournamentConfig(game="step_race", players=3, games=2, seed="cap", move_cap=4, game_timeout=120, via=via)
    report = run_tournament(stack.gateway_url, config, operator_key=stack.operator_key)
    assert [g.ended_by for g in report.games] == ["move cap", "move cap"], [g.error for g in report.games]
    assert report.failed == 2 and all(g.moves >= 4 for g in report.games)
    if via == "http":
        assert [g.moves for g in report.games] == [4, 4]


def test_the_launcher_restarts_a_child_that_dies_and_says_so(tmp_path):
    """Issue: reliability, fault 5. A service killed while ``make run`` served made the launcher
    stop the whole stack; now it starts that child again and says so."""
    proc, settings, data_dir, out_path = serving_launcher(tmp_path)
    try:
        rows = json.loads((data_dir / "children.json").read_text())
        market = next(r["pid"] for r in rows if r["name"] == "market")
        os.killpg(market, signal.SIGKILL)
        wait_until(lambda: "market restarted" in out_path.read_text(), 60, "the launcher to restart market")
        rows = json.loads((data_dir / "children.json").read_text())
        assert [r["name"] for r in rows].count("market") == 2
        url = f"http://127.0.0.1:{settings.gateway_port}"
        key = (data_dir / "operator.key").read_text().strip()  # made by the launcher, which said where
        created = requests.post(url + "/games", json={"game": "noggin", "players": 2, "seed": "healed"},
                                headers={OPERATOR_KEY_HEADER: key}, timeout=30)
        assert created.status_code == 201, created.text  # the stack serves on
        assert proc.poll() is None
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    out = stop_serving_launcher(proc, signal.SIGINT, out_path, data_dir)  # Ctrl-C
    assert "market exited with code" in out


def test_a_tournament_job_reports_a_game_past_the_move_cap_as_failed(stack):
    # make run's bus path: a series job on the stack; the bots play on the server, so a game
    # that went past the cap is reported failed with the moves it took
    from services.tournament.runner import run_tournament_job

    config = TournamentConfig(game="step_race", players=3, games=1, seed="cap", move_cap=4, game_timeout=120)
    report = run_tournament_job(stack.gateway_url, config, operator_key=stack.operator_key)
    game = report.games[0]
    assert game.ended_by == "move cap" and game.moves > 4 and "past the move cap of 4" in game.error
    assert game.winner == [] and game.final_scores == [] and game.final_state_hash is None  # no result
    assert report.failed == 1
    roomy = TournamentConfig(game="step_race", players=3, games=1, seed="cap", move_cap=500, game_timeout=120)
    assert run_tournament_job(stack.gateway_url, roomy, operator_key=stack.operator_key).games[0].ended_by == "rules"
