"""Hosted-stack benchmarks: the whole stack on free loopback ports, games played at once.

For each concurrency (games in play at the same time) it measures moves per second over
the whole run and the per-move latency: the time between two consecutive commits of one
game, read from the commits' own timestamps (``t`` of each log entry, the Redis clock), so
it covers everything a move costs on the path — the bot's decision, the domain calls, the
commit and getting the next decision going. Three paths:

* ``bus``: 3-seat Noggin, every seat a random bot deciding on the bus (the movers);
* ``http``: 3-seat Noggin, every seat a random bot posting its moves through the gateway (the
  tournament runner's HTTP driver: one request a move while a seat keeps the decision, its next
  legal moves in the move's answer, one read of the legal moves when the turn passes);
* ``floor``: the test-only ``noop`` game (:mod:`services.bench.noop`) on the bus: the
  cost of the path itself;
* ``agent-webhook`` and ``agent-grpc`` (:data:`AGENT_PATHS`): 3-seat Noggin, every seat an
  external agent, the sample agent of ``examples/`` (``http_agent.py``: a signed JSON webhook;
  ``grpc_agent.py``: ``longhouse.agent.v1.Agent``) answering each request at once with a random
  legal move, in a process of its own on a free loopback port (:func:`sample_agents`); the
  engine asks it from the movers (:mod:`services.phases.agent_desk`; with
  ``LONGHOUSE_AGENT_ASKER=worker``, through the Celery worker's agent queue) under the default
  time control. The stack's allow-list is exactly those agents' addresses.

Each concurrency keeps that many games in play for a fixed window (a new game starts in a
slot as soon as one ends, as boardgame.io's driver does), and counts the moves committed
inside the window, so set-up and the last games' tail do not dilute the rate.

CPU: the share of the machine's cores that were busy during the window (all processes,
the benchmark's own clients included; psutil), apart from it the share the stack's
processes used (with the sample agents' processes on the agent paths), and the busiest single process's share of one core. The CPU is saturated
when the machine is :data:`SATURATED` busy, or when one process is: a Python process runs
its code on one core at a time (the GIL), so a process that keeps a core
:data:`SATURATED` busy is the bottleneck whatever the other core does. From there more
games at once can only queue, and latency grows with them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import psutil
import redis

from services.bots.client import GatewayClient
from services.common.redis_client import connect
from services.coordinator.redis_store import key
from services.tournament.runner import TournamentConfig, run_tournament
from services.tournament.seeds import derive_seed

SATURATED = 0.9
"""CPU share (of all cores) from which a run counts as saturated."""
DEADLINE_S = 900
AGENT_PATHS = {"agent-webhook": "http", "agent-grpc": "grpc"}
"""The agent paths, each with the protocol of the sample agent that plays every seat."""
AGENT_LEVELS = (8,)
"""Games at once the agent paths are measured at by default (issue 25: 8 matches)."""
PATHS = ("bus", "http", "floor", *AGENT_PATHS)
"""Every stack path ``make bench --paths`` measures."""


def start_stack(tmp: str, agent_allow: str | None = None) -> Any:
    """A started :class:`~services.launcher.stack.Stack` on free ports that also hosts the
    ``noop`` game; ``agent_allow``: its allow-list of agent addresses (``LONGHOUSE_AGENT_ALLOW``
    syntax; default: the environment's). Stop it with ``stack.stop()``."""
    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings

    extra = [g for g in os.environ.get("LONGHOUSE_EXTRA_GAMES", "").split(",") if g]
    os.environ["LONGHOUSE_EXTRA_GAMES"] = ",".join([*extra, "services.bench.noop"])
    settings = Settings() if agent_allow is None else Settings(agent_allow=agent_allow)
    stack = Stack(free_port_settings(settings), tmp)
    stack.start()
    return stack


@dataclass
class SampleAgents:
    """The running sample agents of the agent paths.

    Attributes:
        secret: the secret they were started with (a fresh random one).
        addresses: protocol (``http``, ``grpc``) -> the address to register.
        pids: protocol -> the agent's process id.
        ids: path (``agent-webhook``, ``agent-grpc``) -> its agent's id once registered with a
            stack (:meth:`register`).
    """

    secret: str
    addresses: dict[str, str]
    pids: dict[str, int]
    ids: dict[str, str] = field(default_factory=dict)

    @property
    def allow(self) -> str:
        """The allow-list of exactly these agents' addresses (``host:port,...``)."""
        from services.launcher.demo import agent_allow

        return agent_allow(self.addresses)

    def register(self, gateway_url: str, operator_key: str) -> dict[str, str]:
        """Register each agent with the stack at ``gateway_url`` (``POST /agents``); returns and
        keeps :attr:`ids`. Raises ``requests.HTTPError`` if the gateway refuses one."""
        from services.launcher.demo import register_agents

        by_protocol = register_agents(gateway_url, operator_key, self.addresses, self.secret, "bench")
        self.ids.update({path: by_protocol[p] for path, p in AGENT_PATHS.items() if p in by_protocol})
        return self.ids


@contextlib.contextmanager
def sample_agents(log_dir: str | os.PathLike[str], protocols: tuple[str, ...] = ("http", "grpc")) -> Iterator[SampleAgents]:
    """Run the sample agents of ``examples/`` (``<protocol>_agent.py``, behaviour ``good``: a
    seeded random legal move at once) on free loopback ports, each in its own process, their
    output in ``log_dir/agent-<protocol>.log``; stop them when the block ends. Raises
    :class:`~services.launcher.supervisor.LaunchError` if one does not start within a minute."""
    from services.launcher.demo import sample_agent_process

    secret = os.urandom(16).hex()
    with contextlib.ExitStack() as running:
        addresses, pids = {}, {}
        for protocol in protocols:
            address, proc = running.enter_context(
                sample_agent_process(protocol, secret, Path(log_dir) / f"agent-{protocol}.log"))
            addresses[protocol], pids[protocol] = address, proc.pid
        yield SampleAgents(secret, addresses, pids)


def _processes(stack: Any, extra: dict[str, int] | None = None) -> list[tuple[str, psutil.Process]]:
    """Every process of the stack with its child's kind (``mover`` for each of the movers; forked
    workers under their parent's), and those of ``extra`` (name -> pid)."""
    out = []
    kinds = [(stack.supervisor.specs[name].role, pid) for name, pid in stack.pids().items()]
    for name, pid in [*kinds, *(extra or {}).items()]:
        try:
            p = psutil.Process(pid)
            out += [(name, q) for q in (p, *p.children(recursive=True))]
        except psutil.NoSuchProcess:
            continue
    return out


def _cpu_seconds(procs: list[tuple[str, psutil.Process]]) -> dict[int, tuple[str, float]]:
    """CPU seconds (user + system) each process has used so far, by pid."""
    out = {}
    for name, p in procs:
        try:
            t = p.cpu_times()
            out[p.pid] = (name, t.user + t.system)
        except psutil.NoSuchProcess:
            continue
    return out


def _cpu_shares(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]],
                seconds: float) -> tuple[float, str, float]:
    """The stack's share of all cores, and its busiest process (name, share of one core)."""
    used = {pid: after[pid][1] - before[pid][1] for pid in after.keys() & before.keys()}
    total = sum(used.values()) / (seconds * psutil.cpu_count())
    pid = max(used, key=used.__getitem__, default=None)
    if pid is None:
        return total, "", 0.0
    return total, after[pid][0], used[pid] / seconds


def _cpu_of(name: str, before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> float:
    """CPU seconds the processes of the children of kind ``name`` (``mover``: every mover; their
    forked workers included) used between two :func:`_cpu_seconds` readings."""
    return sum(after[pid][1] - before[pid][1] for pid in after.keys() & before.keys() if after[pid][0] == name)


def _busy(before: Any, after: Any) -> float:
    """The machine's busy share between two ``psutil.cpu_times()`` readings."""
    total = sum(after) - sum(before)
    idle = (after.idle - before.idle) + (getattr(after, "iowait", 0.0) - getattr(before, "iowait", 0.0))
    return 1.0 - idle / total if total > 0 else 0.0


def _window(client: redis.Redis, game_ids: list[str], start_ms: int,
            end_ms: int) -> tuple[int, list[int], int]:
    """Moves committed in ``[start_ms, end_ms)`` (Redis clock) over ``game_ids``, the
    milliseconds between each of those moves and its game's previous commit, and how many of
    those commits recorded a strike (an agent's late, crashed or illegal answer)."""
    moves = strikes = 0
    gaps: list[int] = []
    for gid in game_ids:
        prev = None
        for _id, fields in client.xrange(key(gid, "log")):
            t = int(fields.get(b"t", 0))
            if fields[b"kind"] == b"move" and t and start_ms <= t < end_ms:
                moves += 1
                strikes += b"StrikeRecorded" in fields.get(b"events", b"")
                if prev is not None:
                    gaps.append(t - prev)
            prev = t or prev
    return moves, gaps, strikes


def _redis_ms(client: redis.Redis) -> int:
    sec, usec = client.time()
    return int(sec) * 1000 + int(usec) // 1000


def _pct(values: list[int], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return float(values[min(len(values) - 1, int(q * len(values)))])


def _bus_game(url: str, game: str, players: int, seed: str, index: int,
              operator_key: str | None = None, agent: str | None = None) -> tuple[str, int]:
    """Play one game to its end, every seat a random bot on the bus (or the registered agent
    ``agent``); ``(game id, moves)``."""
    bots = {str(s): {"kind": "agent", "agent": agent} if agent else
            {"kind": "random", "seed": derive_seed(seed, index, "seat", s)} for s in range(players)}
    with GatewayClient(url, timeout=60, operator_key=operator_key) as client:
        gid = client.create_game(game, players, seed=derive_seed(seed, index), bots=bots)["game_id"]
        deadline = time.monotonic() + DEADLINE_S
        game_state = client.game(gid)
        while game_state["status"] != "over":
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {gid} did not end in {DEADLINE_S} s")
            game_state = client.wait(gid, after=game_state["version"], timeout=25, until_over=True)
        return gid, int(game_state["moves"])


def _slot(stack: Any, path: str, slot: int, seed: str, until: float, ids: list[str],
          agent: str | None = None) -> None:
    """Keep one game of ``path`` in play until ``until`` (monotonic): a new one when one ends
    (``agent``: the agent id of an agent path)."""
    n = 0
    key = stack.operator_key
    while time.monotonic() < until:
        index = slot * 10_000 + n
        if path == "http":
            # a game still going when the window closes is left there (its moves in the window count)
            left = max(1.0, until - time.monotonic() + 1.0)
            report = run_tournament(stack.gateway_url, TournamentConfig(
                game="noggin", players=3, games=1, seed=f"{seed}:{index}", parallel=1, bots=["random"], via="http",
                game_timeout=left), operator_key=key)
            game = report.games[0]
            if game.ended_by != "rules" and not (game.error or "").startswith("game did not end within"):
                raise RuntimeError(f"game failed: {game.error}")
            if game.game_id:
                ids.append(game.game_id)
        else:
            game, players = ("noop", 2) if path == "floor" else ("noggin", 3)
            gid, _ = _bus_game(stack.gateway_url, game, players, seed, index, key, agent)
            ids.append(gid)
        n += 1


def run_level(stack: Any, path: str, games: int, seed: str = "bench", seconds: float = 12.0,
              agents: SampleAgents | None = None) -> dict[str, Any]:
    """Keep ``games`` games of ``path`` (``bus``, ``http``, ``floor``, or an agent path of
    :data:`AGENT_PATHS`, which needs ``agents`` registered with this stack) in play at once for
    about ``seconds`` (a new game starts in each slot when one ends, as boardgame.io's driver
    does); count the moves committed in that window. Returns ``{"path", "games", "moves",
    "seconds", "moves_per_s", "p50_ms", "p99_ms", "strikes", "cpu", "stack_cpu", "busiest",
    "busiest_cpu", "gateway_ms_per_move", "worker_ms_per_move", "mover_ms_per_move", "ms_per_move_by_process",
    "saturated"}`` (``strikes``: commits in the window that
    recorded an agent's strike; ``cpu``: the machine's busy share; ``stack_cpu``: the stack
    processes' share of all cores, the sample agents' included on an agent path; ``busiest``: the
    process that used the most CPU, with its share of one core; ``gateway_ms_per_move``: CPU
    milliseconds the gateway's processes used in the window per move committed in it, and
    ``worker_ms_per_move`` the Celery worker's and ``mover_ms_per_move`` the movers' (one of
    them asks the agents); ``ms_per_move_by_process``: the same for every process, by name;
    ``saturated``: see the module docstring).

    Raises:
        ValueError: an agent path without its agent registered in ``agents``.
    """
    agent = None
    if path in AGENT_PATHS:
        agent = (agents.ids if agents else {}).get(path)
        if agent is None:
            raise ValueError(f"path {path}: its sample agent is not registered with this stack")
    rclient = connect(stack.settings.redis_url)
    extra = {f"agent-{p}": pid for p, pid in agents.pids.items()} if agent and agents else None
    procs = _processes(stack, extra)
    ids: list[str] = []
    until = time.monotonic() + seconds

    def snapshot() -> tuple[int, dict[int, tuple[str, float]], float, Any]:
        """Redis clock (ms), each process's CPU seconds, the local clock, the machine's CPU times."""
        return _redis_ms(rclient), _cpu_seconds(procs), time.perf_counter(), psutil.cpu_times()

    start_ms, cpu0, t0, machine0 = snapshot()
    end = None
    with ThreadPoolExecutor(max_workers=games) as pool:
        futures = [pool.submit(_slot, stack, path, slot, f"{seed}:{path}:{games}", until, ids, agent)
                   for slot in range(games)]
        while not all(f.done() for f in futures):
            if end is None and time.monotonic() >= until:
                end = snapshot()
            time.sleep(0.05)
        for f in futures:
            f.result()
    window_end_ms, cpu1, t1, machine1 = end or snapshot()
    moves, gaps, strikes = _window(rclient, ids, start_ms, window_end_ms)
    span = (window_end_ms - start_ms) / 1000
    stack_cpu, busiest, busiest_cpu = _cpu_shares(cpu0, cpu1, t1 - t0)
    busy = _busy(machine0, machine1)
    return {"path": path, "games": games, "moves": moves, "seconds": span, "moves_per_s": moves / span,
            "p50_ms": _pct(gaps, 0.5), "p99_ms": _pct(gaps, 0.99), "strikes": strikes, "cpu": busy, "stack_cpu": stack_cpu,
            "busiest": busiest, "busiest_cpu": busiest_cpu,
            "gateway_ms_per_move": 1000 * _cpu_of("gateway", cpu0, cpu1) / moves if moves else float("nan"),
            "worker_ms_per_move": 1000 * _cpu_of("worker", cpu0, cpu1) / moves if moves else float("nan"),
            "mover_ms_per_move": 1000 * _cpu_of("mover", cpu0, cpu1) / moves if moves else float("nan"),
            "ms_per_move_by_process": {name: 1000 * _cpu_of(name, cpu0, cpu1) / moves
                                       for name in sorted({n for n, _ in cpu1.values()})} if moves else {},
            "saturated": busy >= SATURATED or busiest_cpu >= SATURATED}


def memory(stack: Any) -> dict[str, Any]:
    """Redis bytes per game (its keys' ``MEMORY USAGE``): in play, finished, and a finished
    game's record (log and meta: what stays once the other keys' time to live has passed,
    README, Retention); and each process's resident memory (RSS, MiB, its children included)."""
    client = connect(stack.settings.redis_url)
    with GatewayClient(stack.gateway_url, operator_key=stack.operator_key) as c:
        playing = c.create_game("noggin", 3, seed="memory-playing")["game_id"]
        finished, _ = _bus_game(stack.gateway_url, "noggin", 3, "memory", 0, stack.operator_key)

    def game_bytes(gid: str, names: tuple[str, ...] = ("*",)) -> int:
        return sum(int(client.memory_usage(k) or 0)
                   for name in names for k in client.scan_iter(match=f"game:{{{gid}}}:{name}"))

    rss: dict[str, float] = {}
    for name, p in _processes(stack):
        try:
            rss[name] = rss.get(name, 0.0) + p.memory_info().rss / 2**20
        except psutil.NoSuchProcess:
            continue
    rss = {name: round(mib, 1) for name, mib in rss.items()}
    return {"redis_bytes_in_play": game_bytes(playing), "redis_bytes_finished": game_bytes(finished),
            "redis_bytes_record": game_bytes(finished, ("log", "meta")), "rss_mib": rss}


KEPT_LOGS = Path(__file__).resolve().parents[2] / "var" / "bench-logs"
"""Where a failed ``make bench`` run's logs go (its stack's children and the sample agents),
one folder a run, named by the time it failed."""


def keep_logs(run_dir: str | os.PathLike[str], into: Path | None = None) -> Path:
    """Copy every ``*.log`` under ``run_dir`` (keeping their folders) into a new folder of
    ``into`` (default :data:`KEPT_LOGS`) named by the UTC time; returns that folder. The run's own
    directory is temporary and removed when the run ends, failed or not."""
    target = (into or KEPT_LOGS) / time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target.mkdir(parents=True, exist_ok=True)
    for log in Path(run_dir).rglob("*.log"):
        dest = target / log.relative_to(run_dir)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(log, dest)
    return target


def run_all(levels: list[int], paths: list[str], window: float = 12.0,
            agent_levels: list[int] | None = None, agent_rounds: int = 1) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Start a stack, run every path at every level (each for ``window`` seconds; the agent paths
    at ``agent_levels``, default :data:`AGENT_LEVELS`, with the sample agents started first and the
    stack's allow-list exactly their addresses), measure memory, stop it. If anything fails, the
    stack is stopped and its logs kept (:func:`keep_logs`, the folder named on standard error)
    before the error is raised again.

    Every row has ``"round": 0``. With ``agent_rounds`` R > 1 and the bus path and an agent path
    among ``paths``, R - 1 more rounds follow at each agent level: the bus path and the agent paths, in an order
    turned by one each round (so that no path always runs first or last on the machine), rows
    with ``"round": r``. :func:`services.bench.__main__.agent_targets` takes the median of the
    rounds' ratios (issue 25, acceptance: medians of alternated rounds)."""
    rows = []
    agent_levels = list(AGENT_LEVELS) if agent_levels is None else agent_levels
    protocols = tuple(AGENT_PATHS[p] for p in paths if p in AGENT_PATHS and agent_levels)
    with tempfile.TemporaryDirectory(prefix="longhouse-bench-") as tmp, contextlib.ExitStack() as running:
        agents = running.enter_context(sample_agents(tmp, protocols)) if protocols else None
        stack = start_stack(tmp, agents.allow if agents else None)
        try:
            if agents:
                agents.register(stack.gateway_url, stack.operator_key)
            run_level(stack, "floor", 1, seed="warm-up", seconds=2)
            for path in paths:
                for n in agent_levels if path in AGENT_PATHS else levels:
                    rows.append({**run_level(stack, path, n, seconds=window, agents=agents), "round": 0})
            compared = [p for p in paths if p == "bus" or p in AGENT_PATHS] if protocols and "bus" in paths else []
            for r in range(1, agent_rounds if len(compared) > 1 else 1):
                for n in agent_levels:
                    for path in compared[r % len(compared):] + compared[:r % len(compared)]:
                        rows.append({**run_level(stack, path, n, seed=f"round-{r}", seconds=window, agents=agents),
                                     "round": r})
            mem = memory(stack)
        except Exception:
            try:
                stack.stop()
            finally:
                print(f"bench: the run failed; its logs are kept in {keep_logs(tmp)}", file=sys.stderr)
            raise
        stack.stop()
    return rows, mem


__all__ = ["AGENT_LEVELS", "AGENT_PATHS", "KEPT_LOGS", "SampleAgents", "keep_logs", "memory", "run_all", "run_level", "sample_agents", "start_stack"]
