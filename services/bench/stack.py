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
  cost of the path itself.

Each concurrency keeps that many games in play for a fixed window (a new game starts in a
slot as soon as one ends, as boardgame.io's driver does), and counts the moves committed
inside the window, so set-up and the last games' tail do not dilute the rate.

CPU: the share of the machine's cores that were busy during the window (all processes,
the benchmark's own clients included; psutil), apart from it the share the stack's
processes used, and the busiest single process's share of one core. The CPU is saturated
when the machine is :data:`SATURATED` busy, or when one process is: a Python process runs
its code on one core at a time (the GIL), so a process that keeps a core
:data:`SATURATED` busy is the bottleneck whatever the other core does. From there more
games at once can only queue, and latency grows with them.
"""

from __future__ import annotations

import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

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


def start_stack(tmp: str) -> Any:
    """A started :class:`~services.launcher.stack.Stack` on free ports that also hosts the
    ``noop`` game. Stop it with ``stack.stop()``."""
    import os

    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings

    extra = [g for g in os.environ.get("LONGHOUSE_EXTRA_GAMES", "").split(",") if g]
    os.environ["LONGHOUSE_EXTRA_GAMES"] = ",".join([*extra, "services.bench.noop"])
    stack = Stack(free_port_settings(Settings()), tmp)
    stack.start()
    return stack


def _processes(stack: Any) -> list[tuple[str, psutil.Process]]:
    """Every process of the stack with its child's name (forked workers under their parent's)."""
    out = []
    for name, pid in stack.pids().items():
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
    """CPU seconds the processes of child ``name`` (its forked workers included) used between two
    :func:`_cpu_seconds` readings."""
    return sum(after[pid][1] - before[pid][1] for pid in after.keys() & before.keys() if after[pid][0] == name)


def _busy(before: Any, after: Any) -> float:
    """The machine's busy share between two ``psutil.cpu_times()`` readings."""
    total = sum(after) - sum(before)
    idle = (after.idle - before.idle) + (getattr(after, "iowait", 0.0) - getattr(before, "iowait", 0.0))
    return 1.0 - idle / total if total > 0 else 0.0


def _window(client: redis.Redis, game_ids: list[str], start_ms: int, end_ms: int) -> tuple[int, list[int]]:
    """Moves committed in ``[start_ms, end_ms)`` (Redis clock) over ``game_ids``, and the
    milliseconds between each of those moves and its game's previous commit."""
    moves = 0
    gaps: list[int] = []
    for gid in game_ids:
        prev = None
        for _id, fields in client.xrange(key(gid, "log")):
            t = int(fields.get(b"t", 0))
            if fields[b"kind"] == b"move" and t and start_ms <= t < end_ms:
                moves += 1
                if prev is not None:
                    gaps.append(t - prev)
            prev = t or prev
    return moves, gaps


def _redis_ms(client: redis.Redis) -> int:
    sec, usec = client.time()
    return int(sec) * 1000 + int(usec) // 1000


def _pct(values: list[int], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return float(values[min(len(values) - 1, int(q * len(values)))])


def _bus_game(url: str, game: str, players: int, seed: str, index: int,
              operator_key: str | None = None) -> tuple[str, int]:
    bots = {str(s): {"kind": "random", "seed": derive_seed(seed, index, "seat", s)} for s in range(players)}
    with GatewayClient(url, timeout=60, operator_key=operator_key) as client:
        gid = client.create_game(game, players, seed=derive_seed(seed, index), bots=bots)["game_id"]
        deadline = time.monotonic() + DEADLINE_S
        game_state = client.game(gid)
        while game_state["status"] != "over":
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {gid} did not end in {DEADLINE_S} s")
            game_state = client.wait(gid, after=game_state["version"], timeout=25, until_over=True)
        return gid, int(game_state["moves"])


def _slot(stack: Any, path: str, slot: int, seed: str, until: float, ids: list[str]) -> None:
    """Keep one game of ``path`` in play until ``until`` (monotonic): a new one when one ends."""
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
            gid, _ = _bus_game(stack.gateway_url, game, players, seed, index, key)
            ids.append(gid)
        n += 1


def run_level(stack: Any, path: str, games: int, seed: str = "bench", seconds: float = 12.0) -> dict[str, Any]:
    """Keep ``games`` games of ``path`` (``bus``, ``http`` or ``floor``) in play at once for
    about ``seconds`` (a new game starts in each slot when one ends, as boardgame.io's driver
    does); count the moves committed in that window. Returns ``{"path", "games", "moves",
    "seconds", "moves_per_s", "p50_ms", "p99_ms", "cpu", "stack_cpu", "busiest", "busiest_cpu",
    "gateway_ms_per_move", "saturated"}`` (``cpu``: the machine's busy share; ``stack_cpu``: the stack
    processes' share of all cores; ``busiest``: the stack process that used the most CPU, with its
    share of one core; ``gateway_ms_per_move``: CPU milliseconds the gateway's processes used in the
    window per move committed in it; ``saturated``: see the module docstring)."""
    rclient = connect(stack.settings.redis_url)
    procs = _processes(stack)
    ids: list[str] = []
    until = time.monotonic() + seconds

    def snapshot() -> tuple[int, dict[int, tuple[str, float]], float, Any]:
        """Redis clock (ms), each process's CPU seconds, the local clock, the machine's CPU times."""
        return _redis_ms(rclient), _cpu_seconds(procs), time.perf_counter(), psutil.cpu_times()

    start_ms, cpu0, t0, machine0 = snapshot()
    end = None
    with ThreadPoolExecutor(max_workers=games) as pool:
        futures = [pool.submit(_slot, stack, path, slot, f"{seed}:{path}:{games}", until, ids) for slot in range(games)]
        while not all(f.done() for f in futures):
            if end is None and time.monotonic() >= until:
                end = snapshot()
            time.sleep(0.05)
        for f in futures:
            f.result()
    window_end_ms, cpu1, t1, machine1 = end or snapshot()
    moves, gaps = _window(rclient, ids, start_ms, window_end_ms)
    span = (window_end_ms - start_ms) / 1000
    stack_cpu, busiest, busiest_cpu = _cpu_shares(cpu0, cpu1, t1 - t0)
    busy = _busy(machine0, machine1)
    return {"path": path, "games": games, "moves": moves, "seconds": span, "moves_per_s": moves / span,
            "p50_ms": _pct(gaps, 0.5), "p99_ms": _pct(gaps, 0.99), "cpu": busy, "stack_cpu": stack_cpu,
            "busiest": busiest, "busiest_cpu": busiest_cpu,
            "gateway_ms_per_move": 1000 * _cpu_of("gateway", cpu0, cpu1) / moves if moves else float("nan"),
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

    rss = {}
    for name, pid in stack.pids().items():
        try:
            p = psutil.Process(pid)
            rss[name] = round(sum(q.memory_info().rss for q in [p, *p.children(recursive=True)]) / 2**20, 1)
        except psutil.NoSuchProcess:
            continue
    return {"redis_bytes_in_play": game_bytes(playing), "redis_bytes_finished": game_bytes(finished),
            "redis_bytes_record": game_bytes(finished, ("log", "meta")), "rss_mib": rss}


def run_all(levels: list[int], paths: list[str], window: float = 12.0) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Start a stack, run every path at every level (each for ``window`` seconds), measure
    memory, stop it."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="longhouse-bench-") as tmp:
        stack = start_stack(tmp)
        try:
            run_level(stack, "floor", 1, seed="warm-up", seconds=2)
            for path in paths:
                for n in levels:
                    rows.append(run_level(stack, path, n, seconds=window))
            mem = memory(stack)
        finally:
            stack.stop()
    return rows, mem


__all__ = ["memory", "run_all", "run_level", "start_stack"]
