"""The research adapters' speed (issue 24, target 5): random games through the OpenSpiel adapter
(``services.interop.openspiel``: chance nodes, legal actions and actions through ``pyspiel``)
against the engine's own random playouts (:func:`services.bench.engine.playouts`), alternated
round by round in one run; both count the seats' decisions (moves) a CPU second of the process.

``python -m services.bench.interop [--rounds N] [--seconds S] [--write]`` (``make bench-interop``)
measures this figure alone and, with ``--write``, records it in the "Research adapters" section
of ``docs/benchmarks.md`` with the command that produced it, keeping every other section.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from typing import Any, Callable

from . import engine
from .sections import DOC, write_section

CLOCK = time.process_time
"""The clock of :func:`paired`: the process's CPU time, so that time the (shared) machine gives
to other processes counts for neither side; both sides run in this one process, one thread."""
TARGET = 0.8
"""Random games through the OpenSpiel adapter reach at least this share of the engine's decisions a second."""


def adapter_playouts(game: str, players: int, seconds: float, seed: str = "bench",
                     clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Random games of ``game`` through ``pyspiel`` for about ``seconds`` of ``clock`` (whole games, chance
    drawn by its probabilities, decisions uniform among the legal actions). Returns
    ``{"games", "moves", "nodes", "seconds", "moves_per_s"}``: ``moves`` are the seats'
    decisions (as the engine counts them), ``nodes`` every node (chance included).

    Raises ImportError without the ``interop`` extra (open_spiel)."""
    import pyspiel

    from services.interop.openspiel import GAMES

    g = pyspiel.load_game(f"{GAMES[game]}(players={players},max_moves=100000)")
    rng = random.Random(seed)
    moves = nodes = games = 0
    start = clock()
    while clock() - start < seconds or games == 0:
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
            nodes += 1
        moves += state.episode.moves
        games += 1
    elapsed = clock() - start
    return {"games": games, "moves": moves, "nodes": nodes, "seconds": elapsed, "moves_per_s": moves / elapsed}


def paired(game: str, players: int, rounds: int, seconds: float) -> dict[str, Any]:
    """Alternate the engine's playouts and the adapter's ``rounds`` times (``seconds`` of this
    process's CPU time each, :data:`CLOCK`); the medians and their ratio (adapter / engine
    decisions a CPU second)."""
    ours, theirs = [], []
    for r in range(rounds):
        ours.append(engine.playouts(game, players, seconds, seed=f"interop:{r}", clock=CLOCK))
        theirs.append(adapter_playouts(game, players, seconds, seed=f"interop:{r}", clock=CLOCK))
    engine_rate = statistics.median(x["moves_per_s"] for x in ours)
    adapter_rate = statistics.median(x["moves_per_s"] for x in theirs)
    return {"game": game, "players": players, "engine_moves_per_s": engine_rate, "adapter_moves_per_s": adapter_rate,
            "ratio": adapter_rate / engine_rate, "rounds": rounds, "seconds": seconds}


SECTION = "## Research adapters"
"""The heading of the adapters' section of ``docs/benchmarks.md``."""
PLAYERS = {"noggin": 3}
"""Seats of each game's figure (2 elsewhere), as ``make bench`` plays them."""
GAMES = ("gnomes", "noggin", "resource_hog")


def target_line(row: dict[str, Any]) -> str:
    """Target 5 for one game's row of :func:`paired`, as ``make bench`` prints it."""
    return (f"target 5, {row['game']} OpenSpiel adapter / engine decisions a second: {row['ratio']:.2f} "
            f"({'met' if row['ratio'] >= TARGET else 'not met'}, >= {TARGET})")


def section(command: str, rows: list[dict[str, Any]]) -> str:
    """The "Research adapters" section of ``docs/benchmarks.md`` for ``rows`` (of :func:`paired`)
    produced by ``command``."""
    out = [SECTION, "",
           f"Produced by `{command}` on {time.strftime('%Y-%m-%d')} ({platform.python_implementation()} "
           f"{platform.python_version()}, {platform.machine()}, 2 shared cores). Random games through the "
           "OpenSpiel adapter (`services.interop`: explicit chance nodes, legal actions and actions through "
           "`pyspiel`) against the engine's own random playouts (`services.bench.engine.playouts`), "
           f"alternated round by round in the same run ({rows[0]['rounds'] if rows else 0} rounds of "
           f"{rows[0]['seconds'] if rows else 0:g} s each side); medians; both count the seats' decisions a "
           "CPU second of the process (time the shared machine gives to other processes counts for neither "
           "side).", "",
           "| game | seats | engine decisions/s | OpenSpiel adapter decisions/s | ratio |", "|---|---:|---:|---:|---:|"]
    out += [f"| {r['game']} | {r['players']} | {r['engine_moves_per_s']:.0f} | {r['adapter_moves_per_s']:.0f} | "
            f"{r['ratio']:.2f} |" for r in rows]
    out += ["", *[f"- {target_line(r)}" for r in rows]]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make bench-interop", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds alternated between the engine and the adapter")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of each round (each side)")
    parser.add_argument("--game", action="append", choices=GAMES, help="a game (repeatable; default: all three)")
    parser.add_argument("--write", action="store_true", help="record the figures in docs/benchmarks.md")
    args = parser.parse_args(argv)
    rows = [paired(g, PLAYERS.get(g, 2), args.rounds, args.seconds) for g in (args.game or GAMES)]
    for r in rows:
        print(f"{r['game']}: engine {r['engine_moves_per_s']:.0f}, adapter {r['adapter_moves_per_s']:.0f} "
              "decisions/s")
        print(target_line(r))
    if args.write:
        given = argv if argv is not None else sys.argv[1:]
        write_section(SECTION, section("make bench-interop" + (f' ARGS="{" ".join(given)}"' if given else ""), rows))
        print(f"written {DOC.name}")
    return 0


__all__ = ["GAMES", "SECTION", "TARGET", "adapter_playouts", "main", "paired", "section", "target_line"]


if __name__ == "__main__":
    sys.exit(main())
