"""ISMCTS against random: 2-player matches of every built-in game on the forward model.

``python -m services.bench.ismcts [--matches N] [--iterations K] [--write]`` plays, for each
game, ``N`` matches between the ISMCTS bot (:mod:`services.bots.ismcts`) and the random
bot, seats alternated (ISMCTS is seat 0 in even matches, seat 1 in odd ones), every seed
derived from ``--seed``, in ``--workers`` processes. Both bots decide through
:func:`services.bots.decide.decide` (ISMCTS from the seat's player view only), with the
move count as the version; phases and chance run on the forward model with the match's
seed.

A match counts as an ISMCTS win when its seat is among the winners (a shared win counts
half) or, when nobody wins (Noggin: Nogbad took the crown and every player lost), when it
has the higher score (equal scores count half). Per game it prints the matches, ISMCTS's
wins, its win rate and the mean milliseconds per ISMCTS decision (over every decision,
and over those with more than one legal move); ``--write`` records the table in the
"ISMCTS against random" section of ``docs/benchmarks.md``. The acceptance target is
:data:`TARGET` of the matches of each game; the exit status is 1 if a game misses it.
"""

from __future__ import annotations

import argparse
import hashlib
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

GAMES = ("noggin", "gnomes", "resource_hog")
"""The games played (2 players each)."""
TARGET = 0.8
"""ISMCTS must win at least this share of each game's matches."""
MOVE_CAP = 5_000
"""Failure guard: a match stops (as an error) after this many moves."""
DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
SECTION = "## ISMCTS against random"
"""The heading of the section ``--write`` replaces (or appends) in ``docs/benchmarks.md``."""


def _seed(*parts: Any) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:16]


def score_match(outcome: dict[str, Any], seat: int) -> float:
    """What a finished match (its ``rules.outcome``) is worth to ``seat``: 1/k if it is one of
    the k winners (1 alone, 1/2 for a shared 2-player win); if nobody won, the same over the
    seats with the highest score; else 0."""
    winners = list(outcome.get("winners") or [])
    if winners:
        return 1.0 / len(winners) if seat in winners else 0.0
    scores = list(outcome["scores"])
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    return 1.0 / len(top) if seat in top else 0.0


def play_match(game: str, index: int, seed: str, iterations: int | None = None,
               depth: int | None = None) -> dict[str, Any]:
    """Play match ``index`` of ``game`` (ISMCTS against random, 2 players) to its end.

    Args:
        iterations, depth: the ISMCTS budget and rollout depth (default: the bot's defaults).
    Returns:
        ``{"game", "index", "seat", "score", "scores", "winners", "crown", "moves", "decisions",
        "choices", "seconds", "cpu", "choice_seconds"}``: ``seat`` is ISMCTS's, ``score`` its
        :func:`score_match`; ``seconds`` (wall clock) and ``cpu`` (this process's CPU time) are
        summed over its decisions, ``choice_seconds`` over those with more than one legal move
        (``choices``). A match that failed is ``{"game", "index", "seat", "error"}``.
    """
    from services.bots.decide import decide
    from services.bots.ismcts import search
    from services.rules.core import GameConfig, get_rules
    from services.rules.core.forward import apply, apply_phase, chance_from, start

    rules = get_rules(game)
    mine = index % 2
    seeds = [_seed(seed, game, index, "seat", s) for s in range(2)]
    chance = chance_from(_seed(seed, game, index, "game"))
    out: dict[str, Any] = {"game": game, "index": index, "seat": mine}
    try:
        state, _ = start(rules, GameConfig(game=game, players=2), chance)
        version = decisions = choices = moves = 0
        seconds = cpu = choice_seconds = 0.0
        while rules.outcome(state) is None:
            version += 1
            if rules.pending_phase(state):
                apply_phase(rules, state, chance)
                continue
            if moves >= MOVE_CAP:
                raise RuntimeError(f"no end after {MOVE_CAP} moves")
            seat = rules.to_move(state)[0]
            legal = rules.legal_moves(state, seat)
            if seat == mine:
                t0, c0 = time.perf_counter(), time.process_time()
                # what decide("ismcts", ...) runs, with the depth as a parameter
                move = search(rules, rules.view(state, seat), seeds[seat], version, iterations, depth, legal).move
                dt = time.perf_counter() - t0
                cpu += time.process_time() - c0
                seconds += dt
                decisions += 1
                if len(legal) > 1:
                    choices += 1
                    choice_seconds += dt
            else:
                move = decide("random", seeds[seat], rules, state, seat, version, legal)
            apply(rules, state, seat, move, chance, checked=True)
            moves += 1
        outcome = rules.outcome(state)
        out.update(score=score_match(outcome, mine), scores=list(outcome["scores"]),
                   winners=list(outcome.get("winners") or []), crown=outcome.get("crown"), moves=moves,
                   decisions=decisions, choices=choices, seconds=seconds, cpu=cpu, choice_seconds=choice_seconds)
    except Exception as exc:  # reported with the match, the benchmark goes on
        out["error"] = f"{type(exc).__name__}: {exc}"
    return out


def run(games: list[str], matches: int, seed: str, iterations: int | None = None, depth: int | None = None,
        workers: int = 2) -> list[dict[str, Any]]:
    """Every match of every game (in ``workers`` processes), sorted by game then index."""
    tasks = [(g, i) for i in range(matches) for g in games]
    n = len(tasks)
    args = ([g for g, _ in tasks], [i for _, i in tasks], [seed] * n, [iterations] * n, [depth] * n)
    if workers <= 1:
        results = [play_match(*a) for a in zip(*args)]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(play_match, *args))
    return sorted(results, key=lambda r: (games.index(r["game"]), r["index"]))


def summary(results: list[dict[str, Any]], games: list[str]) -> list[dict[str, Any]]:
    """One row per game: ``matches`` (finished), ``wins``, ``rate``, ``ms`` and ``cpu_ms`` (mean
    wall and CPU milliseconds per ISMCTS decision), ``choice_ms`` (wall, per decision with
    more than one legal move), ``no_winner`` (matches nobody won, decided by the score),
    ``errors`` (failed matches)."""
    rows = []
    for g in games:
        done = [r for r in results if r["game"] == g and "error" not in r]
        wins = sum(r["score"] for r in done)
        decisions = max(1, sum(r["decisions"] for r in done))
        choices = max(1, sum(r["choices"] for r in done))
        rows.append({"game": g, "matches": len(done), "wins": wins, "rate": wins / len(done) if done else 0.0,
                     "ms": 1000 * sum(r["seconds"] for r in done) / decisions,
                     "cpu_ms": 1000 * sum(r["cpu"] for r in done) / decisions,
                     "choice_ms": 1000 * sum(r["choice_seconds"] for r in done) / choices,
                     "no_winner": sum(1 for r in done if not r["winners"]),
                     "errors": sum(1 for r in results if r["game"] == g and "error" in r)})
    return rows


def met(rows: list[dict[str, Any]]) -> bool:
    """Whether every game reached :data:`TARGET` with no failed match."""
    return all(r["matches"] and not r["errors"] and r["rate"] >= TARGET for r in rows)


def budget(game: str, iterations: int | None, depth: int | None) -> tuple[int, int]:
    """The iterations and rollout depth a game's ISMCTS decisions used (its defaults unless
    ``--iterations``/``--depth``)."""
    from services.bots.ismcts import DEFAULT_DEPTH, DEFAULT_ITERATIONS, DEPTHS, FALLBACK_ITERATIONS

    return (DEFAULT_ITERATIONS.get(game, FALLBACK_ITERATIONS) if iterations is None else iterations,
            DEPTHS.get(game, DEFAULT_DEPTH) if depth is None else depth)


COLUMNS = ("game", "iterations", "depth", "matches", "ISMCTS wins", "win rate", "ms/decision", "CPU ms/decision",
           "ms/decision with a choice")


def cells(r: dict[str, Any], iterations: int | None, depth: int | None) -> list[str]:
    """A row of the table (:data:`COLUMNS`)."""
    return [r["game"], *map(str, budget(r["game"], iterations, depth)), str(r["matches"]), f"{r['wins']:g}",
            f"{100 * r['rate']:.0f} %", f"{r['ms']:.0f}", f"{r['cpu_ms']:.0f}", f"{r['choice_ms']:.0f}"]


def markdown(command: str, rows: list[dict[str, Any]], iterations: int | None, depth: int | None,
             elapsed: float) -> str:
    """The "ISMCTS against random" section of ``docs/benchmarks.md``."""
    produced = (f"Produced by `{command}` on {time.strftime('%Y-%m-%d')} ({platform.python_implementation()} "
                f"{platform.python_version()}, {platform.machine()}, 2 cores, 2 worker processes, {elapsed:.0f} s).")
    about = ("`make bench-ismcts ARGS=\"...\"` runs the same. 2-player matches on the forward model between "
             "the ISMCTS bot (`services/bots/ismcts.py`: "
             "single-observer information-set MCTS after Cowling, Powley and Whitehouse, IEEE TCIAIG 4(2), 2012, "
             "deciding from its player view only; `iterations` per decision, rollouts of `depth` random moves, "
             "then the greedy bot's evaluation) and the random bot, seats alternated, every seed derived from "
             "the benchmark's. A match is an ISMCTS win when its seat is among the winners (a shared win counts "
             "half) or, when nobody wins (Noggin: Nogbad took the crown and every player lost), when it has the "
             "higher score (equal scores count half). ms/decision: mean wall-clock time of one ISMCTS decision "
             "(its view and search) over all its decisions; CPU ms: the same in the process's CPU time, which "
             "other work on the machine does not inflate; with a choice: wall clock over the decisions with "
             f"more than one legal move. Target: ISMCTS wins at least {100 * TARGET:.0f} % of each game's matches.")
    out = [SECTION, "", produced, "", about, "",
           "| " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * (len(COLUMNS) - 1)]
    out += ["| " + " | ".join(cells(r, iterations, depth)) + " |" for r in rows]
    out += ["", "Matches nobody won (scored on the higher score): "
            + ", ".join(f"{r['game']} {r['no_winner']}" for r in rows) + ". "
            + ("Target met for every game." if met(rows) else
               "Target not met for: " + ", ".join(r["game"] for r in rows if not met([r])) + ".")]
    return "\n".join(out) + "\n"


def recorded_section(doc: Path = DOC) -> str | None:
    """The section :data:`SECTION` of ``doc`` as recorded (up to the next ``## `` heading), or
    ``None``; ``make bench ARGS=--write`` keeps it when it rewrites the file."""
    if not doc.exists():
        return None
    lines = doc.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == SECTION), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[start:end]).rstrip("\n") + "\n"


def write_section(text: str, doc: Path = DOC) -> None:
    """Replace the section :data:`SECTION` of ``doc`` by ``text`` (up to the next ``## `` heading),
    or insert it before the ``## Targets`` section (at the end if there is none)."""
    old = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    lines = old.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == SECTION), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = end = next((i for i, line in enumerate(lines) if line.rstrip("\n") == "## Targets"), len(lines))
    before = "".join(lines[:start])
    if before and not before.endswith("\n\n"):
        before += "\n"
    doc.write_text(before + text + ("" if end == len(lines) else "\n") + "".join(lines[end:]), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.table import Table

    parser = argparse.ArgumentParser(prog="python -m services.bench.ismcts", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="matches per game (at least 20 for the target)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="ISMCTS iterations per decision (default: each game's default)")
    parser.add_argument("--depth", type=int, default=None, help="ISMCTS rollout depth (default: the bot's)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--verbose", action="store_true", help="print every match")
    parser.add_argument("--write", action="store_true", help="record the table in docs/benchmarks.md")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    t0 = time.monotonic()
    results = run(games, args.matches, args.seed, args.iterations, args.depth, args.workers)
    elapsed = time.monotonic() - t0
    rows = summary(results, games)
    console = Console(width=160)
    if args.verbose:
        for r in results:
            console.print(r)
    table = Table(title=f"ISMCTS against random, 2 players, seed {args.seed} ({elapsed:.0f} s)")
    for col in COLUMNS:
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(*cells(r, args.iterations, args.depth))
    console.print(table)
    console.print("matches nobody won (scored on the higher score): "
                  + ", ".join(f"{r['game']} {r['no_winner']}" for r in rows))
    for r in results:
        if "error" in r:
            console.print(f"{r['game']} match {r['index']}: {r['error']}")
    ok = met(rows)
    console.print(f"target: ISMCTS wins >= {100 * TARGET:.0f} % of each game's matches: {'met' if ok else 'not met'}")
    if args.write:
        used = argv if argv is not None else sys.argv[1:]
        command = " ".join(["python -m services.bench.ismcts", *used])
        write_section(markdown(command, rows, args.iterations, args.depth, elapsed))
        console.print(f"written {DOC.relative_to(DOC.parents[1])}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
