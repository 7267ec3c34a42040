"""``make bench-peers``: the hosted path against boardgame.io's server, in the same run.

boardgame.io 0.50's server hosting its tic-tac-toe, driven by its own clients over
socket.io on loopback (the scripts of ``--bgio-dir``, copied to a scratch folder, where
``npm install`` fetches boardgame.io from the npm registry), is run at 8 matches at once,
alternating with Longhouse's paths at 8 Noggin games (``--paths``: ``bus``, bots on the bus, and
``http``, the same bots posting through the gateway; see :mod:`services.bench.stack`). The medians
give the lines ``hosted/boardgame.io at 8: <ratio>`` (the bus path) and
``hosted HTTP/boardgame.io at 8: <ratio>`` with the HTTP path's p50 a move and the gateway's CPU
milliseconds a move, which also go to ``docs/benchmarks-peers.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks-peers.md"
SCRATCH = Path(__file__).resolve().parents[2] / "var" / "bench-bgio"
"""Where the boardgame.io scripts are copied and their packages installed (kept between runs)."""


def prepare(bgio_dir: Path) -> Path:
    """Copy the scripts to :data:`SCRATCH` and install boardgame.io there (once).

    Raises FileNotFoundError if ``bgio_dir`` has no ``run.sh``, RuntimeError if npm fails.
    """
    if not (bgio_dir / "run.sh").exists():
        raise FileNotFoundError(f"{bgio_dir} has no run.sh: pass --bgio-dir (make bench-peers BGIO_DIR=...)")
    SCRATCH.mkdir(parents=True, exist_ok=True)
    for item in bgio_dir.iterdir():
        if item.is_file():
            shutil.copy2(item, SCRATCH / item.name)
    if not (SCRATCH / "node_modules" / "boardgame.io").exists():
        done = subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund"], cwd=SCRATCH,
                              capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise RuntimeError(f"npm install failed: {done.stderr[-500:]}")
    return SCRATCH


def bgio(scratch: Path, concurrency: int, seconds: int) -> dict[str, Any]:
    """One boardgame.io run: a fresh server, the driver at ``concurrency`` matches."""
    env = {**os.environ, "WARMUP": "1000", "TAG": f"longhouse-c{concurrency}"}
    subprocess.run(["bash", "run.sh", "rounds", str(concurrency), "100000", str(seconds)], cwd=scratch, env=env,
                   capture_output=True, text=True, timeout=seconds + 300, check=False)
    result = scratch / "results" / f"longhouse-c{concurrency}.json"
    if not result.exists():
        raise RuntimeError("the boardgame.io driver wrote no result")
    return json.loads(result.read_text())


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console

    from .stack import run_level, start_stack

    parser = argparse.ArgumentParser(prog="make bench-peers", description=__doc__.splitlines()[0])
    parser.add_argument("--bgio-dir", type=Path, required=True, help="the boardgame.io benchmark scripts")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=int, default=20, help="seconds of each boardgame.io run")
    parser.add_argument("--paths", default="bus,http", help="Longhouse's paths to run beside it (bus, http)")
    args = parser.parse_args(argv)
    paths = [p for p in args.paths.split(",") if p]
    if not paths or any(p not in PATHS for p in paths):
        parser.error(f"--paths takes {', '.join(PATHS)} separated by commas")
    console = Console(width=140)
    scratch = prepare(args.bgio_dir)
    ours: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
    theirs = []
    with tempfile.TemporaryDirectory(prefix="longhouse-peers-") as tmp:
        stack = start_stack(tmp)
        try:
            run_level(stack, "floor", 1, seed="warm-up", seconds=2)
            for r in range(args.rounds):
                b = bgio(scratch, 8, args.seconds)
                theirs.append(b["moves_per_s"])
                console.print(f"boardgame.io, 8 matches: {b['moves_per_s']:.0f} moves/s "
                              f"(ack p50 {b['lat_ack_ms']['p50']:.1f} ms, server CPU {b['cpu_measured_window']['server_pct_of_core']}% of a core)")
                for path in paths:
                    o = run_level(stack, path, 8, seed=f"peers:{r}", seconds=args.seconds)
                    ours[path].append(o)
                    console.print(f"Longhouse {path}, 8 Noggin games: {o['moves_per_s']:.0f} moves/s "
                                  f"(p50 {o['p50_ms']:.0f} ms, gateway CPU {o['gateway_ms_per_move']:.1f} ms a move, "
                                  f"CPU {100 * o['cpu']:.0f}% of both cores)")
        finally:
            stack.stop()
    lines = summary_lines(theirs, ours)
    DOC.write_text("\n".join([
        "# Benchmarks: Longhouse's hosted path beside boardgame.io", "",
        f"Produced by `make bench-peers ARGS=\"--rounds {args.rounds} --seconds {args.seconds} --paths {args.paths}\"` on "
        f"{time.strftime('%Y-%m-%d')}: boardgame.io 0.50's server with its "
        "tic-tac-toe and its own socket.io clients at 8 matches, alternated in the same run with Longhouse's paths "
        "at 8 three-seat Noggin games with random bots (`bus`: deciding on the mover; `http`: posting their moves "
        "through the gateway, one request a move). Medians of the rounds; latency: between two consecutive commits "
        "of a game; gateway CPU: the gateway processes' CPU milliseconds per move committed.", "",
        "| | round moves/s | median moves/s | p50 ms a move | gateway CPU ms a move |", "|---|---|---:|---:|---:|",
        f"| boardgame.io, 8 matches | {', '.join(f'{x:.0f}' for x in theirs)} | {statistics.median(theirs):.0f} | | |",
        *(_row(path, rows) for path, rows in ours.items()),
        "", *lines, ""]), encoding="utf-8")
    for line in lines:
        console.print(line)
    return 0


def _row(path: str, rows: list[dict[str, Any]]) -> str:
    """The table row of one of Longhouse's paths: each round's moves a second, then the medians."""
    rates = ", ".join(f"{o['moves_per_s']:.0f}" for o in rows)
    return (f"| Longhouse {path}, 8 games | {rates} | {statistics.median(o['moves_per_s'] for o in rows):.0f} | "
            f"{statistics.median(o['p50_ms'] for o in rows):.0f} | "
            f"{statistics.median(o['gateway_ms_per_move'] for o in rows):.1f} |")


PATHS = ("bus", "http")
"""Longhouse's paths ``make bench-peers`` can run beside boardgame.io."""


def summary_lines(theirs: list[float], ours: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The result lines: per path the ratio of the medians of moves a second (ours over
    boardgame.io's) against the issue's targets (issue 25, acceptance 2: the bus at least 1.0x;
    ``http`` at least 0.5x, p50 at most 10 ms a move, the gateway's CPU at most 2 ms a move).

    Args:
        theirs: boardgame.io's moves a second, one a round.
        ours: path -> :func:`services.bench.stack.run_level`'s results, one a round.
    """
    out = []
    for path, rows in ours.items():
        if not rows:
            continue
        ratio = statistics.median(o["moves_per_s"] for o in rows) / statistics.median(theirs)
        if path == "bus":
            out.append(f"hosted/boardgame.io at 8: {ratio:.2f} ({'met' if ratio >= 1.0 else 'not met'}, >= 1.0)")
            continue
        p50 = statistics.median(o["p50_ms"] for o in rows)
        cpu = statistics.median(o["gateway_ms_per_move"] for o in rows)
        out += [f"hosted HTTP/boardgame.io at 8: {ratio:.2f} ({'met' if ratio >= 0.5 else 'not met'}, >= 0.5)",
                f"HTTP p50 a move at 8: {p50:.0f} ms ({'met' if p50 <= 10 else 'not met'}, <= 10)",
                f"gateway CPU a move at 8: {cpu:.1f} ms ({'met' if cpu <= 2 else 'not met'}, <= 2)"]
    return out


if __name__ == "__main__":
    sys.exit(main())
