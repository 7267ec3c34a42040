"""Benchmarks (``make bench``): how fast the rules and the hosted stack play Noggin.

Two measurements, each printed as a table and, with ``--write``, recorded in
``docs/benchmarks.md`` with the command that produced them:

* **embedded**: whole seeded games between random bots through ``embedded_table()``
  (memory store, embedded ports, phases inline): games/s, moves/s, and the mean cost
  of ``legal_moves`` and of one committed move;
* **stack**: the whole hosted stack on free loopback ports (Redis, four gRPC services,
  Celery worker, gunicorn gateway) started by the launcher's own code, and a
  tournament played through the gateway: moves/s and wall time per game.

Timings are wall-clock seconds on this machine; compare runs on one machine only.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from services.bots.embedded import play_embedded
from services.bots.random_bot import RandomBot
from services.coordinator.table import embedded_table
from services.rules.core import GameConfig

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
MOVE_CAP = 10_000  # failure guard only


def embedded_games(players: int, games: int, seed: str = "bench") -> dict[str, float]:
    """Play ``games`` whole Noggin games embedded; return rates and mean costs.

    Returns:
        ``{"games", "moves", "seconds", "games_per_s", "moves_per_s", "legal_ms", "move_ms"}``
        (times in seconds or milliseconds as named). ``move_ms`` is the whole cost of a
        decision (legal moves, the bot's choice, resolving and committing); ``legal_ms`` is
        ``legal_moves`` alone, timed on the same states replayed from the log.
    Raises:
        RuntimeError: a game did not end within the move cap.
    """
    moves = 0
    legal_s = move_s = 0.0
    for g in range(games):
        table = embedded_table()
        gid = table.create(GameConfig(game="noggin", players=players), seed=f"{seed}:{players}:{g}")
        bots = [RandomBot(f"{seed}:{g}:{s}") for s in range(players)]
        rules, state, _ = table.state(gid)
        g_start = time.perf_counter()
        g_moves = play_embedded(table, gid, bots, MOVE_CAP)
        g_seconds = time.perf_counter() - g_start
        # legal_moves cost, measured apart on the game's own states by replaying its log
        t0 = time.perf_counter()
        for entry in table.store.read(gid)[2:]:
            if entry.kind == "move":
                rules.legal_moves(state, entry.seat)
            for event in entry.events:
                rules.evolve(state, event)
        legal_s += time.perf_counter() - t0
        move_s += g_seconds
        moves += g_moves
    seconds = move_s  # playing time only, without the separate legal_moves replay
    return {"games": games, "moves": moves, "seconds": seconds, "games_per_s": games / seconds,
            "moves_per_s": moves / seconds, "legal_ms": 1000 * legal_s / moves, "move_ms": 1000 * move_s / moves}


def stack_tournament(players: int, games: int, parallel: int, seed: str = "bench") -> dict[str, float]:
    """Start the whole stack on free ports, play a tournament through the gateway, stop it.

    Returns:
        ``{"games", "moves", "seconds", "moves_per_s", "s_per_game"}``.
    Raises:
        RuntimeError: a game did not end by the rules.
    """
    from services.common.config import Settings
    from services.launcher.stack import Stack, free_port_settings
    from services.tournament.runner import TournamentConfig, run_tournament

    with tempfile.TemporaryDirectory(prefix="longhouse-bench-") as tmp:
        with Stack(free_port_settings(Settings()), tmp) as stack:
            start = time.perf_counter()
            report = run_tournament(stack.gateway_url, TournamentConfig(
                game="noggin", players=players, games=games, seed=seed, parallel=parallel))
            seconds = time.perf_counter() - start
    bad = [g for g in report.games if g.ended_by != "rules"]
    if bad:
        raise RuntimeError(f"{len(bad)} game(s) did not end by the rules")
    moves = sum(g.moves for g in report.games)
    return {"games": games, "moves": moves, "seconds": seconds, "moves_per_s": moves / seconds,
            "s_per_game": seconds / games}


def main(argv: list[str] | None = None) -> int:
    """``python -m services.bench [--games N] [--stack-games N] [--parallel K] [--write]``."""
    parser = argparse.ArgumentParser(prog="make bench", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="embedded games per player count")
    parser.add_argument("--stack-games", type=int, default=4, help="games through the stack (0: skip)")
    parser.add_argument("--parallel", type=int, default=4, help="stack games played at once")
    parser.add_argument("--write", action="store_true", help="record the results in docs/benchmarks.md")
    args = parser.parse_args(argv)
    console = Console()

    emb = RichTable(title="embedded Noggin (random bots)")
    for col in ("players", "games", "moves", "games/s", "moves/s", "legal_moves ms", "move ms"):
        emb.add_column(col, justify="right")
    rows = []
    for players in (2, 3, 4):
        r = embedded_games(players, args.games)
        rows.append((players, r))
        emb.add_row(str(players), str(r["games"]), str(r["moves"]), f"{r['games_per_s']:.2f}",
                    f"{r['moves_per_s']:.0f}", f"{r['legal_ms']:.3f}", f"{r['move_ms']:.3f}")
    console.print(emb)

    stack_row = None
    if args.stack_games:
        stack_row = stack_tournament(3, args.stack_games, args.parallel)
        st = RichTable(title="hosted stack, 3-player Noggin through the gateway")
        for col in ("games", "parallel", "moves", "seconds", "moves/s"):
            st.add_column(col, justify="right")
        st.add_row(str(stack_row["games"]), str(args.parallel), str(stack_row["moves"]),
                   f"{stack_row['seconds']:.1f}", f"{stack_row['moves_per_s']:.0f}")
        console.print(st)

    if args.write:
        command = "make bench ARGS=\"" + " ".join(argv if argv is not None else sys.argv[1:]) + "\""
        lines = [
            "# Benchmarks", "",
            "Produced by `" + command + "` on " + time.strftime("%Y-%m-%d") +
            f" ({platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
            "2 cores). Wall-clock numbers: compare runs on one machine only.", "",
            "## Embedded (rules + coordinator in one process, random bots)", "",
            "| players | games | moves | games/s | moves/s | legal_moves ms | move ms |",
            "|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for players, r in rows:
            lines.append(f"| {players} | {r['games']} | {r['moves']} | {r['games_per_s']:.2f} | "
                         f"{r['moves_per_s']:.0f} | {r['legal_ms']:.3f} | {r['move_ms']:.3f} |")
        if stack_row:
            lines += ["", "## Hosted stack (gateway, four gRPC services, Redis, Celery)", "",
                      "| games | parallel | moves | seconds | moves/s |", "|---:|---:|---:|---:|---:|",
                      f"| {stack_row['games']} | {args.parallel} | {stack_row['moves']} | "
                      f"{stack_row['seconds']:.1f} | {stack_row['moves_per_s']:.0f} |"]
        DOC.write_text("\n".join(lines) + "\n")
        console.print(f"written {DOC.relative_to(DOC.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
