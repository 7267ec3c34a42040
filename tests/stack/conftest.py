"""Stack fixtures: the whole hosted stack as real processes, started by the launcher's own code.

The session fixture :func:`stack` runs :class:`services.launcher.stack.Stack` (the same
supervisor ``make run`` uses) on free loopback ports in a temporary directory, with the
test-only games registered in every child through ``LONGHOUSE_EXTRA_GAMES``. Every wait
is a readiness probe with a deadline, never a sleep. The stack makes its own operator key
(``<data_dir>/operator.key``); :meth:`StackHandle.client` and :attr:`StackHandle.operator`
send it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from services.bots.client import OPERATOR_KEY_HEADER, GatewayClient
from services.common.config import Settings
from services.launcher.stack import Stack, free_port_settings, settings_env
from tests.conftest import TEST_AGENT_ALLOW

ROOT = Path(__file__).resolve().parents[2]
EXTRA_GAMES = "tests.core_games.step_race,tests.core_games.sealed_bid,tests.core_games.lap_race"
"""Test-only games every child of a test stack registers."""


@dataclass
class StackHandle:
    """What a stack test gets.

    Attributes:
        gateway_url: ``http://127.0.0.1:<port>`` of the gateway.
        redis_url: URL of the game store (database 0 of the stack's own redis-server).
        settings: every port and address of this stack.
        env: the environment the children got (use it for more processes of this stack).
        data_dir: the stack's directory (``logs/<child>.log``, ``redis/``, ``children.json``,
            ``operator.key``).
        stack: the :class:`Stack` itself.
    """

    gateway_url: str
    redis_url: str
    settings: Settings
    env: dict[str, str]
    data_dir: Path
    stack: Stack

    @property
    def operator_key(self) -> str:
        """The stack's operator key (``<data_dir>/operator.key``)."""
        return self.stack.operator_key

    @property
    def operator(self) -> dict[str, str]:
        """The header that carries :attr:`operator_key`, for raw HTTP requests."""
        return {OPERATOR_KEY_HEADER: self.operator_key}

    def client(self, **kwargs) -> GatewayClient:
        """A :class:`GatewayClient` of the gateway that creates games with the stack's operator key."""
        return GatewayClient(self.gateway_url, operator_key=self.operator_key, **kwargs)

    def stop_worker(self) -> int | None:
        """Stop the Celery worker (SIGTERM to its process group, SIGKILL after the grace)."""
        return self.stack.stop_worker()

    def kill_worker(self) -> None:
        """Kill the Celery worker's whole process group at once (SIGKILL: a crash, no ack)."""
        child = self.stack.supervisor.children["worker"]
        os.killpg(child.pgid, signal.SIGKILL)
        self.stack.stop_worker()  # reaps it and waits until the group is gone

    def movers_log(self) -> str:
        """What the bus movers have written so far (``logs/mover-<k>.log``, one after another)."""
        return "".join(path.read_text() for path in sorted((self.data_dir / "logs").glob("mover-*.log")))

    def kill_mover(self) -> None:
        """Kill every bus mover's process group at once (SIGKILL: a crash mid-batch)."""
        for name in self.stack.mover_names():
            os.killpg(self.stack.supervisor.children[name].pgid, signal.SIGKILL)
        self.stack.stop_mover()

    def start_mover(self) -> None:
        """Start the bus movers again and wait until they serve."""
        self.stack.start_mover()

    def start_worker(self) -> None:
        """Start the Celery worker again and wait until it answers a control ping."""
        self.stack.start_worker()

    def pids(self) -> dict[str, int]:
        """name -> pid of every running-or-stopped child."""
        return self.stack.pids()


def stack_env(settings: Settings, data_dir: Path) -> dict[str, str]:
    """Environment for a launcher subprocess: free ports, test games, its own data dir."""
    env = {**os.environ, **settings_env(settings.model_copy(update={"data_dir": str(data_dir)}))}
    env["LONGHOUSE_EXTRA_GAMES"] = EXTRA_GAMES
    env["PYTHONUNBUFFERED"] = "1"
    return env


@contextlib.contextmanager
def running_stack(tmp_path_factory, name: str, **settings: Any) -> Iterator[StackHandle]:
    """The whole stack (Redis, four services, Celery worker, gateway) in a fresh directory
    ``name``, with ``settings`` over the tests' own (agents allowed on loopback), stopped when
    the block ends. Fails the test if ``redis-server`` is missing."""
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed; run `make setup`")
    data_dir = tmp_path_factory.mktemp(name)
    chosen = free_port_settings(Settings(**{"agent_allow": TEST_AGENT_ALLOW, **settings}))
    stack = Stack(chosen, data_dir, extra_env={"LONGHOUSE_EXTRA_GAMES": EXTRA_GAMES})
    stack.start()
    try:
        yield StackHandle(stack.gateway_url, stack.redis_url, stack.settings, stack.env, data_dir, stack)
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def stack(tmp_path_factory) -> Iterator[StackHandle]:
    """The whole stack for the session (:func:`running_stack`)."""
    with running_stack(tmp_path_factory, "stack") as handle:
        yield handle
