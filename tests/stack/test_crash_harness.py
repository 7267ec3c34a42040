"""The crash harness, short (issue: reliability, "a crash harness", acceptance 2): seeded games of
every game through a stack of its own while one process of every kind is SIGKILLed and
restarted; nothing acknowledged is lost, nothing applied twice, every game ends, and every log
equals its uncrashed run. ``make crash-test`` runs the long version (100 kill points).

Also the launcher bug the harness found: :meth:`Stack.heal` counted restarts for ever, so a
stack that served long enough gave up on a child at its eleventh death, however far apart
the deaths were."""

from __future__ import annotations

import os
import re
import signal
import time

import pytest

from services.common.config import Settings
from services.launcher import stack as stack_module
from services.launcher.stack import MAX_RESTARTS, RESTART_FORGIVEN, Stack
from services.launcher.supervisor import ChildSpec, LaunchError
from services.reliability.crash import GAMES, KINDS, plan_game, run_harness

pytestmark = pytest.mark.stack


@pytest.mark.timeout(400)  # about 90 s; the stack's start alone can take 40 s on a busy machine
def test_a_short_crash_run_loses_nothing_and_plays_nothing_twice(tmp_path):
    lines: list[str] = []
    verdict, kills = run_harness(kills=len(KINDS), games=3, seed="t1", data_dir=tmp_path / "run", parallel=3,
                                 spacing=4, game_timeout=180, say=lines.append)
    report = "\n".join(lines + verdict.notes)
    assert {k.kind for k in kills} == set(KINDS), report  # every kind killed once
    assert all(k.back_after is not None for k in kills), report
    assert (verdict.lost, verdict.twice, verdict.unfinished, verdict.diverged) == (0, 0, 0, 0), report
    assert verdict.died_unkilled == {}, report  # nothing died of another's death (the movers did)
    assert verdict.games >= 3 and verdict.moves > len(KINDS), report
    assert re.fullmatch(r"crash harness: 8 kills, 0 lost, 0 applied twice, 0 unfinished", verdict.line)


def test_the_game_plan_is_a_function_of_the_seed_and_mixes_the_games():
    plans = [plan_game("s", i) for i in range(6)]
    assert plans == [plan_game("s", i) for i in range(6)]
    assert {p.game for p in plans} == set(GAMES)
    assert {p.players for p in plans} <= {2, 3}
    assert any(p.bus for p in plans) and any(not p.bus for p in plans)
    assert plans != [plan_game("other", i) for i in range(6)]


def _sleeper(tmp_path) -> tuple[Stack, ChildSpec]:
    stack = Stack(Settings(), tmp_path)
    spec = ChildSpec("sleeper", ["sleep", "300"], probe=lambda: True, ready_timeout=10, stop_grace=1)
    stack.supervisor.start(spec)
    return stack, spec


def _kill(stack: Stack) -> None:
    child = stack.supervisor.children["sleeper"]
    os.kill(child.pid, signal.SIGKILL)
    child.proc.wait(10)


def test_a_child_that_served_a_while_is_restarted_however_often_it_died(tmp_path):
    stack, _ = _sleeper(tmp_path)
    try:
        stack._restarts["sleeper"] = MAX_RESTARTS  # ten deaths over a long time already
        stack.supervisor.children["sleeper"].ready_at -= RESTART_FORGIVEN + 1  # it then served a while
        _kill(stack)
        deadline = time.monotonic() + 10
        restarted: list[str] = []
        while not restarted and time.monotonic() < deadline:
            restarted = stack.heal()  # raised LaunchError ("giving up") before the fix
            time.sleep(0.05)
        assert restarted == ["sleeper"]
        assert stack.supervisor.children["sleeper"].alive()
    finally:
        stack.stop()


def test_a_child_that_keeps_dying_at_once_is_still_given_up(tmp_path, monkeypatch):
    monkeypatch.setattr(stack_module, "RESTART_FORGIVEN", 3600.0)
    stack, _ = _sleeper(tmp_path)
    try:
        stack._restarts["sleeper"] = MAX_RESTARTS
        _kill(stack)
        with pytest.raises(LaunchError, match="giving up"):
            stack.heal()
    finally:
        stack.stop()


def test_only_kombus_close_after_a_lost_broker_counts_as_an_upstream_worker_death(tmp_path):
    """services/reliability/crash.py kombu_close_deaths: the worker's exit on kombu's known close
    fault (its log line as the worker writes it, JSON) is counted apart; any other exit is not."""
    from services.reliability.crash import kombu_close_deaths

    log = tmp_path / "worker.log"
    assert kombu_close_deaths(log) == 0  # no log yet
    known = ('{"event": "Unrecoverable error: AttributeError(\\"\'NoneType\' object has no attribute \'hostname\'\\")",'
             ' "level": "critical", "logger": "celery.worker", "service": "worker"}')
    other = '{"event": "Unrecoverable error: RuntimeError(\\"boom\\")", "level": "critical", "service": "worker"}'
    log.write_text("\n".join([known, "--- starting again", other, known]) + "\n")
    assert kombu_close_deaths(log) == 2
