"""Hosted-stack benchmarks: the whole stack on free loopback ports, games played at once.

For each concurrency (games in play at the same time) it measures moves per second over
the whole run and the per-move latency: the time between two consecutive commits of one
game, read from the commits' own timestamps (``t`` of each log entry, the Redis clock), so
it covers everything a move costs on the path — the bot's decision, the domain calls, the
commit and getting the next decision going. Three paths:

* ``bus``: 3-seat Noggin, every seat a random bot deciding on the Celery worker;
* ``http``: 3-seat Noggin, every seat a random bot posting its moves through the gateway;
* ``floor``: the test-only ``noop`` game (:mod:`services.bench.noop`) on the bus: the
  cost of the path itself.

CPU: the share of the machine's cores the stack's processes used during a run (psutil);
at or above :data:`SATURATED` the CPU is saturated and latency can only grow.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import psutil
import redis

from services.bots.client import GatewayClient
from services.coordinator.redis_store import key
from services.tournament.runner import TournamentConfig, derive_seed, run_tournament

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


def _processes(stack: Any) -> list[psutil.Process]:
    out = []
    for pid in stack.pids().values():
        try:
            p = psutil.Process(pid)
            out += [p, *p.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
    return out


def _cpu_seconds(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            continue
    return total


def _latencies(client: redis.Redis, game_ids: list[str]) -> list[int]:
    """Milliseconds between consecutive commits, for every move entry of ``game_ids``."""
    out: list[int] = []
    for gid in game_ids:
        rows = client.xrange(key(gid, "log"))
        prev = None
        for _id, fields in rows:
            t = int(fields.get(b"t", 0))
            if prev is not None and fields[b"kind"] == b"move" and t:
                out.append(t - prev)
            prev = t or prev
    return out


def _pct(values: list[int], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return float(values[min(len(values) - 1, int(q * len(values)))])


def _bus_game(url: str, game: str, players: int, seed: str, index: int) -> tuple[str, int]:
    bots = {str(s): {"kind": "random", "seed": derive_seed(seed, index, "seat", s)} for s in range(players)}
    with GatewayClient(url, timeout=60) as client:
        gid = client.create_game(game, players, seed=derive_seed(seed, index), bots=bots)["game_id"]
        deadline = time.monotonic() + DEADLINE_S
        game_state = client.game(gid)
        while game_state["status"] != "over":
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {gid} did not end in {DEADLINE_S} s")
            game_state = client.wait(gid, after=game_state["version"], timeout=25, until_over=True)
        return gid, int(game_state["moves"])


def run_level(stack: Any, path: str, games: int, seed: str = "bench") -> dict[str, Any]:
    """Play ``games`` games at once on ``path`` (``bus``, ``http`` or ``floor``); return
    ``{"path", "games", "moves", "seconds", "moves_per_s", "p50_ms", "p99_ms", "cpu"}``."""
    rclient = redis.Redis.from_url(stack.settings.redis_url)
    procs = _processes(stack)
    cpu0 = _cpu_seconds(procs)
    start = time.perf_counter()
    if path == "http":
        report = run_tournament(stack.gateway_url, TournamentConfig(
            game="noggin", players=3, games=games, seed=f"{seed}:{path}:{games}", parallel=games,
            bots=["random"], via="http"))
        bad = [g for g in report.games if g.ended_by != "rules"]
        if bad:
            raise RuntimeError(f"{len(bad)} game(s) failed: {bad[0].error}")
        ids = [g.game_id for g in report.games if g.game_id]
        moves = sum(g.moves for g in report.games)
    else:
        game, players = ("noop", 2) if path == "floor" else ("noggin", 3)
        with ThreadPoolExecutor(max_workers=games) as pool:
            results = list(pool.map(lambda i: _bus_game(stack.gateway_url, game, players, f"{seed}:{path}", i),
                                    range(games)))
        ids = [gid for gid, _ in results]
        moves = sum(m for _, m in results)
    seconds = time.perf_counter() - start
    cpu = (_cpu_seconds(procs) - cpu0) / (seconds * psutil.cpu_count())
    lat = _latencies(rclient, ids)
    return {"path": path, "games": games, "moves": moves, "seconds": seconds, "moves_per_s": moves / seconds,
            "p50_ms": _pct(lat, 0.5), "p99_ms": _pct(lat, 0.99), "cpu": cpu}


def memory(stack: Any) -> dict[str, Any]:
    """Redis bytes per game (its keys' ``MEMORY USAGE``) in play and finished, and each
    process's resident memory (RSS, MiB, its children included)."""
    client = redis.Redis.from_url(stack.settings.redis_url)
    with GatewayClient(stack.gateway_url) as c:
        playing = c.create_game("noggin", 3, seed="memory-playing")["game_id"]
        finished, _ = _bus_game(stack.gateway_url, "noggin", 3, "memory", 0)

    def game_bytes(gid: str) -> int:
        return sum(int(client.memory_usage(k) or 0) for k in client.scan_iter(match=f"game:{{{gid}}}:*"))

    rss = {}
    for name, pid in stack.pids().items():
        try:
            p = psutil.Process(pid)
            rss[name] = round(sum(q.memory_info().rss for q in [p, *p.children(recursive=True)]) / 2**20, 1)
        except psutil.NoSuchProcess:
            continue
    return {"redis_bytes_in_play": game_bytes(playing), "redis_bytes_finished": game_bytes(finished), "rss_mib": rss}


def run_all(levels: list[int], paths: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Start a stack, run every path at every level, measure memory, stop it."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="longhouse-bench-") as tmp:
        stack = start_stack(tmp)
        try:
            run_level(stack, "floor", 1, seed="warm-up")
            for path in paths:
                for n in levels:
                    rows.append(run_level(stack, path, n))
            mem = memory(stack)
        finally:
            stack.stop()
    return rows, mem


_lock = threading.Lock()
__all__ = ["memory", "run_all", "run_level", "start_stack"]


def median(xs: list[float]) -> float:
    """The median (NaN for none)."""
    return statistics.median(xs) if xs else float("nan")
