"""``make bench-peers``: the hosted path against boardgame.io's server, in the same run.

boardgame.io 0.50's server hosting its tic-tac-toe, driven by its own clients over
socket.io on loopback (the scripts of ``--bgio-dir``, copied to a scratch folder, where
``npm install`` fetches boardgame.io from the npm registry), is run at 8 matches at once,
alternating with Longhouse's bus path at 8 Noggin games (bots on the bus; see
:mod:`services.bench.stack`). The medians give the line
``hosted/boardgame.io at 8: <ratio>``, which also goes to ``docs/benchmarks-peers.md``.
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
    args = parser.parse_args(argv)
    console = Console(width=140)
    scratch = prepare(args.bgio_dir)
    ours, theirs = [], []
    with tempfile.TemporaryDirectory(prefix="longhouse-peers-") as tmp:
        stack = start_stack(tmp)
        try:
            run_level(stack, "floor", 1, seed="warm-up", seconds=2)
            for r in range(args.rounds):
                b = bgio(scratch, 8, args.seconds)
                theirs.append(b["moves_per_s"])
                console.print(f"boardgame.io, 8 matches: {b['moves_per_s']:.0f} moves/s "
                              f"(ack p50 {b['lat_ack_ms']['p50']:.1f} ms, server CPU {b['cpu_measured_window']['server_pct_of_core']}% of a core)")
                o = run_level(stack, "bus", 8, seed=f"peers:{r}", seconds=args.seconds)
                ours.append(o["moves_per_s"])
                console.print(f"Longhouse bus, 8 Noggin games: {o['moves_per_s']:.0f} moves/s "
                              f"(p50 {o['p50_ms']:.0f} ms, CPU {100 * o['cpu']:.0f}% of both cores)")
        finally:
            stack.stop()
    ratio = statistics.median(ours) / statistics.median(theirs)
    line = f"hosted/boardgame.io at 8: {ratio:.2f}"
    DOC.write_text("\n".join([
        "# Benchmarks: Longhouse's hosted path beside boardgame.io", "",
        f"Produced by `make bench-peers` on {time.strftime('%Y-%m-%d')}: boardgame.io 0.50's server with its "
        "tic-tac-toe and its own socket.io clients at 8 matches, alternated in the same run with Longhouse's bus "
        "path at 8 three-seat Noggin games (random bots deciding on the mover). Medians of the rounds.", "",
        "| | round moves/s | median |", "|---|---|---:|",
        f"| boardgame.io, 8 matches | {', '.join(f'{x:.0f}' for x in theirs)} | {statistics.median(theirs):.0f} |",
        f"| Longhouse bus, 8 games | {', '.join(f'{x:.0f}' for x in ours)} | {statistics.median(ours):.0f} |",
        "", line, ""]), encoding="utf-8")
    console.print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
