"""``make tournament-demo ARGS="--out DIR"``: a whole tournament of built-in bots and external
agents through the hosted stack, from nothing.

It starts the two sample agents of ``examples/`` (one HTTP, one gRPC) on free loopback ports,
then the stack (as ``make run`` does, on free loopback ports, in a fresh data directory) with an
agent allow-list (``LONGHOUSE_AGENT_ALLOW``) of exactly those two addresses, registers the agents
through the gateway with the stack's operator key, then runs a round robin of six participants — the ``random``, ``greedy``, ``ismcts`` and
``expert`` built-in bots and the two agents — over every game that exists, two seats a match,
each pairing on both seat orders with one seed: 15 pairings x 2 x 3 games = 90 matches. It
follows the tournament with a progress bar, prints the standings and writes
``DIR/standings.json``, ``DIR/standings.csv`` and ``DIR/ratings.png``; then it stops everything
it started. Exit code 0 when every match was played by the rules (or forfeited), 1 otherwise,
2 when the stack or an agent could not start.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import requests
from rich.console import Console

from services.bots.client import OPERATOR_KEY_HEADER
from services.cli import follow, print_standings
from services.common.config import Settings
from services.launcher.stack import Stack, free_port_settings
from services.launcher.supervisor import LaunchError

from services.tournament import jobs

ROOT = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"listening on (127\.0\.0\.1:\d+)")


@contextlib.contextmanager
def sample_agent(protocol: str, secret: str, log_path: Path, ready_s: float = 60.0) -> Iterator[str]:
    """Run ``examples/<protocol>_agent.py`` on a free loopback port, its output in ``log_path``;
    yield its address once it prints ``listening on``. Raises LaunchError if it does not."""
    with sample_agent_process(protocol, secret, log_path, ready_s) as (address, _proc):
        yield address


def agent_allow(addresses: dict[str, str]) -> str:
    """The allow-list (``LONGHOUSE_AGENT_ALLOW`` syntax, ``host:port,...``) of exactly the agents at
    ``addresses`` (protocol -> address as :func:`sample_agent` yields it)."""
    return ",".join(urlsplit(a).netloc if "://" in a else a for a in addresses.values())


def register_agents(gateway_url: str, operator_key: str, addresses: dict[str, str], secret: str,
                    prefix: str) -> dict[str, str]:
    """Register each agent of ``addresses`` (protocol -> address) with the stack at ``gateway_url``
    (``POST /agents``, named ``<prefix>-<protocol>``, all with ``secret``); returns protocol ->
    agent id. Raises ``requests.HTTPError`` if the gateway refuses one."""
    ids = {}
    for protocol, address in addresses.items():
        resp = requests.post(f"{gateway_url}/agents", json={"name": f"{prefix}-{protocol}", "protocol": protocol,
                                                            "address": address, "secret": secret},
                             headers={OPERATOR_KEY_HEADER: operator_key}, timeout=30)
        resp.raise_for_status()
        ids[protocol] = resp.json()["agent_id"]
    return ids


@contextlib.contextmanager
def sample_agent_process(protocol: str, secret: str, log_path: Path,
                         ready_s: float = 60.0) -> Iterator[tuple[str, subprocess.Popen]]:
    """:func:`sample_agent` that also yields the agent's process: ``(address, process)`` (the
    address as the registry takes it: ``http://127.0.0.1:<port>/`` or ``127.0.0.1:<port>``).
    The process is stopped (SIGTERM, SIGKILL after 10 s) when the block ends."""
    log = log_path.open("w")
    proc = subprocess.Popen([sys.executable, str(ROOT / "examples" / f"{protocol}_agent.py"), "--port", "0",
                             "--secret", secret, "--seed", protocol], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline = time.monotonic() + ready_s
        found = None
        while found is None and time.monotonic() < deadline and proc.poll() is None:
            found = LISTENING.search(log_path.read_text())
            if found is None:
                time.sleep(0.1)  # polling a child's log file for its ready line, with a deadline
        if found is None:
            raise LaunchError(f"the sample {protocol} agent did not start: {log_path.read_text()[-1000:]}")
        yield (f"http://{found.group(1)}/" if protocol == "http" else found.group(1)), proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def main(argv: list[str] | None = None) -> int:
    """Run the demo; returns the exit code."""
    parser = argparse.ArgumentParser(prog="make tournament-demo ARGS=...")
    parser.add_argument("--out", type=Path, required=True, help="directory for the three result files")
    parser.add_argument("--seed", default="demo")
    parser.add_argument("--games-per-pairing", type=int, default=1)
    parser.add_argument("--ismcts-iterations", type=int, default=24)
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds to wait for the tournament")
    args = parser.parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 120)
    secret = os.urandom(16).hex()
    data_dir = Path(tempfile.mkdtemp(prefix="longhouse-demo-"))
    (data_dir / "logs").mkdir(parents=True, exist_ok=True)
    stack: Stack | None = None
    try:
        with sample_agent("http", secret, data_dir / "logs" / "agent-http.log") as http_address, \
                sample_agent("grpc", secret, data_dir / "logs" / "agent-grpc.log") as grpc_address:
            addresses = {"http": http_address, "grpc": grpc_address}
            allow = agent_allow(addresses)  # the two agents, nothing else
            stack = Stack(free_port_settings(Settings(data_dir=str(data_dir), agent_allow=allow)), data_dir)
            console.print(f"starting the stack (logs in {data_dir / 'logs'}; agents allowed at {allow})")
            stack.start()
            console.print(f"operator key in {stack.operator_key_path}")
            url = stack.gateway_url
            operator = {OPERATOR_KEY_HEADER: stack.operator_key}
            ids = register_agents(url, stack.operator_key, addresses, secret, "sample")
            for protocol, address in addresses.items():
                console.print(f"registered the sample {protocol} agent at {address} as {ids[protocol]}")
            from services.rules.core.game import builtin_game_names

            spec = {"games": builtin_game_names(), "format": "round_robin", "players": 2, "seed": args.seed,
                    "games_per_pairing": args.games_per_pairing, "parallel": 6,
                    "time_control": {"move_ms": 2000, "bank_ms": 10000, "max_strikes": 3},
                    "participants": [{"name": "random", "kind": "random"}, {"name": "greedy", "kind": "greedy"},
                                     {"name": "ismcts", "kind": "ismcts", "iterations": args.ismcts_iterations},
                                     {"name": "expert", "kind": "expert"},
                                     {"name": "sample-http", "kind": "agent", "agent": ids["http"]},
                                     {"name": "sample-grpc", "kind": "agent", "agent": ids["grpc"]}]}
            resp = requests.post(f"{url}/tournaments", json=spec, headers=operator, timeout=60)
            if resp.status_code != 201:
                console.print(f"[red]the tournament was refused: {resp.text}")
                return 1
            tid = resp.json()["tournament_id"]
            console.print(f"tournament {tid}: {resp.json()['planned']} matches over {', '.join(spec['games'])}")
            doc = follow(url, tid, console, args.timeout)
        print_standings(doc, console)
        paths = jobs.write_outputs(doc, args.out)
        console.print("wrote " + ", ".join(paths.values()))
        failed = [m for m in doc["matches"] if m["ended_by"] not in ("rules", "forfeit")]
        if doc["status"] != "done" or failed:
            console.print(f"[red]tournament {doc['status']}, {len(failed)} failed match(es)")
            return 1
        return 0
    except LaunchError as exc:
        console.print(f"[red]could not start: {exc}")
        return 2
    finally:
        if stack is not None:
            stack.stop()


if __name__ == "__main__":
    sys.exit(main())
