"""The research adapters' speed (issue 24, target 5): random games through the OpenSpiel adapter
(``services.interop.openspiel``: chance nodes, legal actions and actions through ``pyspiel``)
against the engine's own random playouts (:func:`services.bench.engine.playout`, the games of
``make bench``), alternated game by game in one run; both count the seats' decisions (moves) a CPU
second of the process.

Game by game, so that both sides share the same moments of a shared machine: alternating whole
rounds of a few seconds let the load of other processes fall on one side more than the other
(the same code measured 0.75 and 0.84 in two runs). Each side is timed around its own games only.

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

from services.rules.core import get_rules

from . import engine
from .sections import DOC, write_section

CLOCK = time.process_time
"""The clock of :func:`paired`: the process's CPU time, so that time the (shared) machine gives
to other processes counts for neither side; both sides run in this one process, one thread."""
TARGET = 0.8
"""Random games through the OpenSpiel adapter reach at least this share of the engine's decisions a second."""


def load(game: str, players: int) -> Any:
    """The ``pyspiel`` game of ``game`` for ``players`` seats, untruncated (``max_moves`` far beyond
    any game's end). Raises ImportError without the ``interop`` extra (open_spiel)."""
    import pyspiel

    from services.interop.openspiel import GAMES

    return pyspiel.load_game(f"{GAMES[game]}(players={players},max_moves=100000)")


def adapter_game(spiel_game: Any, rng: random.Random) -> tuple[int, int]:
    """One random game through ``pyspiel`` (a game of :func:`load`) to its end, as a researcher
    plays one: at a chance node an outcome drawn by its probabilities, at a decision a uniform
    choice among the legal actions, each applied with ``apply_action``. Returns ``(moves,
    nodes)``: the seats' decisions (as the engine counts them) and every node (chance
    included)."""
    state = spiel_game.new_initial_state()
    nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if outcomes[0][1] == outcomes[-1][1]:  # uniform: every draw but a step of one split in steps
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        nodes += 1
    return state.episode.moves, nodes


def adapter_playouts(game: str, players: int, seconds: float, seed: str = "bench",
                     clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Random games of ``game`` through ``pyspiel`` (:func:`adapter_game`) for about ``seconds`` of
    ``clock`` (whole games). Returns ``{"games", "moves", "nodes", "seconds", "moves_per_s"}``:
    ``moves`` are the seats' decisions (as the engine counts them), ``nodes`` every node (chance
    included).

    Raises ImportError without the ``interop`` extra (open_spiel)."""
    g = load(game, players)
    rng = random.Random(seed)
    moves = nodes = games = 0
    start = clock()
    while clock() - start < seconds or games == 0:
        m, n = adapter_game(g, rng)
        moves += m
        nodes += n
        games += 1
    elapsed = clock() - start
    return {"games": games, "moves": moves, "nodes": nodes, "seconds": elapsed, "moves_per_s": moves / elapsed}


def paired(game: str, players: int, rounds: int, seconds: float) -> dict[str, Any]:
    """``rounds`` rounds of the engine's random games (:func:`services.bench.engine.playout`) and
    the adapter's (:func:`adapter_game`), alternated game by game: the side that has had less of
    this process's CPU time (:data:`CLOCK`) plays the next game, until each has had ``seconds``
    (and at least one game). Returns the medians over the rounds of each side's decisions a CPU
    second and their ratio (adapter / engine), with ``rounds`` and ``seconds``.

    Raises ImportError without the ``interop`` extra (open_spiel)."""
    rules = get_rules(game)
    spiel_game = load(game, players)
    ours, theirs = [], []
    for r in range(rounds):
        seed = f"interop:{r}"
        engine_rng, adapter_rng = random.Random(seed), random.Random(seed)
        engine_moves = engine_games = adapter_moves = adapter_games = 0
        engine_s = adapter_s = 0.0
        while engine_s < seconds or adapter_s < seconds or not (engine_games and adapter_games):
            if engine_s <= adapter_s:
                t0 = CLOCK()
                moves, _, _ = engine.playout(rules, players, f"{seed}:{engine_games}", engine_rng)
                engine_s += CLOCK() - t0
                engine_moves += moves
                engine_games += 1
            else:
                t0 = CLOCK()
                moves, _ = adapter_game(spiel_game, adapter_rng)
                adapter_s += CLOCK() - t0
                adapter_moves += moves
                adapter_games += 1
        ours.append(engine_moves / engine_s)
        theirs.append(adapter_moves / adapter_s)
    engine_rate, adapter_rate = statistics.median(ours), statistics.median(theirs)
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
           "`pyspiel`) against the engine's own random playouts (`services.bench.engine.playout`), "
           f"alternated game by game in the same run ({rows[0]['rounds'] if rows else 0} rounds of "
           f"{rows[0]['seconds'] if rows else 0:g} s each side); medians; both count the seats' decisions a "
           "CPU second of the process, each side timed around its own games (time the shared machine gives "
           "to other processes counts for neither side).", "",
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


__all__ = ["GAMES", "SECTION", "TARGET", "adapter_game", "adapter_playouts", "load", "main", "paired", "section",
           "target_line"]


if __name__ == "__main__":
    sys.exit(main())
