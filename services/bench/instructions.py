"""Instructions a fixed set of random playouts executes: a measure of the engine's cost that,
unlike a timing, does not move with a shared machine's speed.

``python -m services.bench.instructions GAME [--players N] [--games N] [--root DIR]`` runs
valgrind's callgrind twice on a fresh Python process that imports the rules, plays one warm-up
game and then ``--games`` seeded random games (:func:`fixed_games`: :func:`.engine.playout`
with seeds ``fixed:<i>``): once with those games and once with none. It prints the
difference, the instructions of the games alone (``Ir``, callgrind's count of executed
instructions), and per decision. Hash randomisation is off (``PYTHONHASHSEED=0``), so a
rerun of the same tree counts within about half a per cent (what the collector happens to
sweep). ``--root`` measures another checkout (its rules as built there: compiled or not;
``LONGHOUSE_PURE_PYTHON=1`` passes through), so two builds of the rules compare by the
instructions of the very same games: how each speed-up of issue 25's sixth round was
measured (docs/benchmarks.md).

A development tool, not part of ``make bench`` (which times against OpenSpiel): it needs
valgrind (``apt-get install valgrind``) and takes about half a minute a run under it. Exits 2,
saying so, when valgrind is missing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def fixed_games(game: str, players: int, games: int) -> int:
    """Play one warm-up game, then ``games`` seeded random games of ``game`` (the same ones on
    every call: seeds ``fixed:<i>``, choices from ``random.Random("fixed")``); return the
    decisions of the counted games."""
    from services.rules.core import get_rules

    from .engine import playout

    rules = get_rules(game)
    playout(rules, players, "warm-up", random.Random(0))
    rng = random.Random("fixed")
    return sum(playout(rules, players, f"fixed:{i}", rng)[0] for i in range(games))


def count(game: str, players: int, games: int, root: Path = ROOT) -> tuple[int, int]:
    """``(instructions, decisions)`` of :func:`fixed_games` in a process of ``root``'s tree under
    callgrind. Raises FileNotFoundError if valgrind is missing, RuntimeError if a run fails."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise FileNotFoundError("valgrind is not installed (apt-get install valgrind)")
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
    with tempfile.TemporaryDirectory(prefix="longhouse-ir-") as tmp:
        out = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable,
                              "-m", "services.bench.instructions", "--play", game, str(players), str(games)],
                             cwd=root, env=env, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"the run under callgrind failed: {out.stderr[-2000:]}")
    collected = re.search(r"Collected : ([\d,]+)", out.stderr)
    if collected is None:
        raise RuntimeError("callgrind printed no instruction count")
    return int(collected.group(1).replace(",", "")), int(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring). Returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--play"]:  # the measured side, inside callgrind
        print(fixed_games(args[1], int(args[2]), int(args[3])))
        return 0
    parser = argparse.ArgumentParser(prog="python -m services.bench.instructions", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=3, help="seats (default 3)")
    parser.add_argument("--games", type=int, default=10, help="games counted (default 10)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default this one)")
    ns = parser.parse_args(args)
    from services.rules.core.game import game_names

    if ns.game not in game_names():
        parser.error(f"no game {ns.game!r}; the games are {', '.join(sorted(game_names()))}")
    if ns.games < 1 or ns.players < 1:
        parser.error("--games and --players must be >= 1")
    try:
        base, _ = count(ns.game, ns.players, 0, ns.root)
        total, decisions = count(ns.game, ns.players, ns.games, ns.root)
    except FileNotFoundError as exc:
        print(f"instructions: {exc}")
        return 2
    ir = total - base
    print(f"{ns.game}, {ns.players} seats, {ns.games} games, {decisions} decisions ({ns.root}): "
          f"{ir:,} instructions, {ir / max(1, decisions):,.0f} a decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
