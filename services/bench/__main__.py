"""``make bench``: how fast the rules and the hosted stack play, against a peer in the same run.

Tables (and, with ``--write``, ``docs/benchmarks.md`` with the command that produced it):

* **engine**, per game: random playouts on the forward model (moves/s, games/s, the cost of
  ``legal_moves`` and of ``apply`` apart; the rules compiled with Cython where ``make compile``
  built them, and pure Python beside them), alternated round by round with OpenSpiel's
  pure-Python tic-tac-toe (the reference; ratio of the medians; each side's moves a CPU
  second of its own process, ``--wall`` for wall-clock seconds), and ``Rules.clone`` (the
  copy-on-write clone) against ``copy.deepcopy``;
* **stack**: moves/s and per-move p50/p99 at each concurrency for bots on the bus, bots
  over HTTP, and the floor (a no-op test game on the bus), with the share of the CPU used; and
  at 8 games (``--agent-levels``) every seat an external agent, the sample agents of
  ``examples/`` answering at once over an HTTP webhook and over gRPC, beside the bus path at
  the same number of games (issue 25, item 3), in ``--agent-rounds`` rounds alternated with
  the bus path (the ratio: the median of the rounds');
* **memory**: Redis bytes of a game in play and of a finished one; each process's RSS;
* **adapters**, per game: random games through the OpenSpiel adapter (``services.interop``)
  against the engine's own random playouts, alternated game by game (:mod:`.interop`).

The targets of the performance issue are checked at the end (ratios, never timed tests): playouts
at least OpenSpiel's moves a second, the clone at least 50 times faster than ``copy.deepcopy``
(issue 25), the hosted stack against boardgame.io, latency until the CPU saturates.
``make bench-peers`` (:mod:`services.bench.peers`) adds boardgame.io at 8 matches;
``make bench-bots`` (:mod:`services.bench.ladder`) records the bot ladder in its own section
of ``docs/benchmarks.md``, which ``--write`` here keeps, as it keeps every section it does not
produce (:func:`.sections.keep_recorded`).
"""

from __future__ import annotations

import argparse
import math
import platform
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from services.rules.core import game_names

from . import engine, interop
from .sections import DOC, keep_recorded, recorded_section
from .stack import SATURATED

ENGINE_TARGET = 1.0
"""Target 1 (issue 25): every game's random playouts on the forward model at least as many moves
a second as OpenSpiel's pure-Python tic-tac-toe, in the same run (alternated, medians)."""
CLONE_TARGET = 50.0
"""Target 2 (issue 25): every game's ``Rules.clone`` (the copy-on-write clone search uses) at
least this many times faster than ``copy.deepcopy``."""
LATENCY_TARGET = 1.2
"""Target 4: per-move p50 at the highest concurrency at most this times that at 1 game,
until the CPU saturates."""
AGENT_TARGET = 0.5
"""Target 6 (issue 25, item 3): the agent path's moves a second at 8 games at least this share of
the bus path's at 8 games, in the same run."""
PLAYERS = {"noggin": 3}


def engine_rows(rounds: int, seconds: float, cpu: bool = True) -> list[dict[str, Any]]:
    """The engine measurements of every built-in game (moves a CPU second of each side's
    process with ``cpu``, else a wall-clock second: :func:`.engine.paired`)."""
    rows = []
    for game in game_names():
        if game in ("noop",):
            continue
        players = PLAYERS.get(game, 2)
        row = {"game": game, "players": players, **engine.paired(game, players, rounds, seconds, cpu),
               **engine.clone_cost(game, players)}
        rows.append(row)
    return rows


def demand_bound(rows: list[dict[str, Any]]) -> float:
    """The concurrency from which the games' CPU demand exceeds the machine, over one path's
    rows (lowest concurrency first): ``N* = n / U_n`` for the lowest row (``n`` games
    keeping the share ``U_n`` of all cores busy). Beyond ``N*`` games cannot all run
    without queueing for the CPU, and per-move latency grows at least in proportion to the
    games (the asymptotic bounds of operational analysis: Lazowska, Zahorjan, Graham and
    Sevcik, *Quantitative System Performance*, 1984, ch. 5). ``inf`` if nothing was busy."""
    lo = rows[0]
    return lo["games"] / lo["cpu"] if lo["cpu"] > 0 else float("inf")


def mark_saturation(rows: list[dict[str, Any]]) -> None:
    """Set ``saturated_by`` on each row of one path: ``"busy"`` where the machine or one
    process's core was measured :data:`SATURATED` busy (see :mod:`services.bench.stack`),
    ``"demand"`` where the concurrency is at least :func:`demand_bound`, else ``""``."""
    bound = demand_bound(rows)
    for r in rows:
        r["saturated_by"] = "busy" if r["saturated"] else ("demand" if r["games"] >= bound else "")


def latency_target(rows: list[dict[str, Any]]) -> str:
    """Target 4 over one path's rows (lowest concurrency first, :func:`mark_saturation`
    applied): the p50 at every concurrency below saturation within :data:`LATENCY_TARGET`
    times the p50 at the lowest; where the CPU saturates, and the p50 at the highest
    concurrency against the lowest."""
    lo, hi = rows[0], rows[-1]
    if len(rows) < 2:
        return (f"target 4, {lo['path']}: not measured: it compares the p50 a move across levels, and only "
                f"{lo['games']} game(s) ran (give two or more, e.g. --levels 1,8; <= {LATENCY_TARGET}x until "
                f"saturation)")
    sat = min((r["games"] for r in rows if r["saturated_by"]), default=None)
    below = [r for r in rows[1:] if sat is None or r["games"] < sat]
    worst = max((r["p50_ms"] / max(lo["p50_ms"], 1e-9) for r in below), default=1.0)
    met = worst <= LATENCY_TARGET
    bound = demand_bound(rows)
    where = (f"the CPU saturates from {sat} games (one game keeps {100 * lo['cpu']:.0f} % of the cores busy: "
             f"demand exceeds them from {bound:.1f} games)" if sat else "the CPU did not saturate")
    checked = (f"{len(below)} level(s) between {lo['games']} and saturation, at most {worst:.2f}x" if below
               else f"no level between {lo['games']} game(s) and saturation to compare")
    return (f"target 4, {lo['path']} p50 at {hi['games']} / at {lo['games']} games: "
            f"{hi['p50_ms'] / max(lo['p50_ms'], 1e-9):.1f}; {where}; {checked} "
            f"({'met' if met else 'not met'}, <= {LATENCY_TARGET}x until saturation)")


def agent_targets(rows: list[dict[str, Any]]) -> list[str]:
    """Target 6 for each agent path and number of games in ``rows`` (every path's stack rows): its
    moves a second against the bus path's at the same number of games in the same round
    (``"round"``, 0 where absent: :func:`.stack.run_all`), met where the median of the rounds'
    ratios reaches :data:`AGENT_TARGET`. The line gives round 0's figures, and with more than one
    round each round's ratio; an agent row with no bus row beside it in any round is printed
    without a ratio."""
    from .stack import AGENT_PATHS

    bus = {(r.get("round", 0), r["games"]): r for r in rows if r["path"] == "bus"}
    agent_rows: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        if r["path"] in AGENT_PATHS:
            agent_rows.setdefault((r["path"], r["games"]), []).append(r)
    lines = []
    for (path, games), runs in agent_rows.items():
        runs.sort(key=lambda r: r.get("round", 0))
        r = runs[0]
        said = (f"target 6 (issue 25), {path} at {games} games: {r['moves_per_s']:.0f} moves/s, "
                f"p50 {r['p50_ms']:.0f} ms, {r.get('strikes', 0)} strikes, "
                f"CPU a move: movers {r.get('mover_ms_per_move', float('nan')):.1f} ms, "
                f"worker {r.get('worker_ms_per_move', float('nan')):.1f} ms")
        pairs = [(a, bus[a.get("round", 0), games]) for a in runs
                 if (a.get("round", 0), games) in bus and bus[a.get("round", 0), games]["moves_per_s"]]
        if not pairs:
            lines.append(f"{said}; no bus row at {games} games to compare (not measured)")
            continue
        ratios = [a["moves_per_s"] / b["moves_per_s"] for a, b in pairs]
        ratio = statistics.median(ratios)
        verdict = f"({'met' if ratio >= AGENT_TARGET else 'not met'}, >= {AGENT_TARGET}x)"
        # shown rounded down, so that a ratio shown at the target is one that meets it (0.497: 0.49x)
        shown = f"{math.floor(ratio * 100 + 1e-9) / 100:.2f}x"
        if len(pairs) == 1:
            b = pairs[0][1]
            lines.append(f"{said}; / bus at {b['games']} ({b['moves_per_s']:.0f} moves/s): {shown} {verdict}")
        else:
            each = ", ".join(f"{a['moves_per_s']:.0f}/{b['moves_per_s']:.0f}" for a, b in pairs)
            lines.append(f"{said}; / bus at {games}, median of {len(pairs)} alternated rounds: {shown} {verdict} "
                         f"(moves/s, agent/bus: {each})")
    return lines


def adapter_rows(rounds: int, seconds: float) -> list[dict[str, Any]]:
    """The OpenSpiel adapter against the engine, every built-in game (:func:`.interop.paired`)."""
    return [interop.paired(game, PLAYERS.get(game, 2), rounds, seconds) for game in game_names() if game != "noop"]


def _build(row: dict[str, Any]) -> str:
    """How an engine row's rules ran: ``"compiled (N modules loaded)"`` or ``"pure"``."""
    return f"compiled ({row['compiled']} modules loaded)" if row.get("build") == "compiled" else "pure"


def print_tables(console: Console, eng: list[dict[str, Any]], stack: list[dict[str, Any]],
                 mem: dict[str, Any] | None, adapters: list[dict[str, Any]] | None = None,
                 rounds: list[dict[str, Any]] | None = None) -> list[str]:
    """Print every table; return the target lines. ``stack``: the stack's main pass (its table);
    ``rounds``: every stack row, the alternated rounds' too (target 6; default ``stack``)."""
    t = Table(title="engine: random playouts on the forward model (medians), against OpenSpiel's tic-tac-toe; "
                    "moves/s and ratio of the rules as built (compiled where `make compile` built them), "
                    "pure: LONGHOUSE_PURE_PYTHON=1")
    for col in ("game", "build", "moves/s", "games/s", "legal_moves µs", "apply µs", "OpenSpiel moves/s", "ratio",
                "pure moves/s", "pure ratio", "clone µs", "deepcopy µs", "clone ×"):
        t.add_column(col, justify="right")
    for r in eng:
        t.add_row(r["game"], _build(r), f"{r['moves_per_s']:.0f}", f"{r['games_per_s']:.1f}", f"{r['legal_us']:.0f}",
                  f"{r['apply_us']:.0f}", f"{r['reference_moves_per_s']:.0f}", f"{r['ratio']:.2f}",
                  f"{r.get('pure_moves_per_s', r['moves_per_s']):.0f}", f"{r.get('pure_ratio', r['ratio']):.2f}",
                  f"{r['clone_us']:.1f}", f"{r['deepcopy_us']:.0f}", f"{r['ratio_clone']:.0f}")
    if eng:
        console.print(t)
    if stack:
        s = Table(title="hosted stack: games at once, moves/s and per-move latency (between a game's commits)")
        for col in ("path", "games", "moves", "seconds", "moves/s", "p50 ms", "p99 ms", "strikes", "CPU busy %",
                    "stack CPU %", "busiest process", "gateway CPU ms/move", "saturated"):
            s.add_column(col, justify="right")
        for r in stack:
            s.add_row(r["path"], str(r["games"]), str(r["moves"]), f"{r['seconds']:.1f}", f"{r['moves_per_s']:.0f}",
                      f"{r['p50_ms']:.0f}", f"{r['p99_ms']:.0f}", str(r.get("strikes", 0)), f"{100 * r['cpu']:.0f}",
                      f"{100 * r['stack_cpu']:.0f}", f"{r['busiest']} {100 * r['busiest_cpu']:.0f} %",
                      f"{r.get('gateway_ms_per_move', float('nan')):.2f}", r.get("saturated_by", ""))
        console.print(s)
    if mem:
        m = Table(title="memory")
        m.add_column("what")
        m.add_column("value", justify="right")
        m.add_row("Redis bytes, a game in play (after set-up)", str(mem["redis_bytes_in_play"]))
        m.add_row("Redis bytes, a finished game", str(mem["redis_bytes_finished"]))
        m.add_row("Redis bytes, a finished game's record (kept)", str(mem["redis_bytes_record"]))
        for name, mib in mem["rss_mib"].items():
            m.add_row(f"RSS of {name} (MiB)", f"{mib}")
        console.print(m)
    if adapters:
        a = Table(title="adapters: random games through the OpenSpiel adapter against the engine (decisions/s, medians)")
        for col in ("game", "seats", "engine decisions/s", "OpenSpiel adapter decisions/s", "ratio"):
            a.add_column(col, justify="right")
        for r in adapters:
            a.add_row(r["game"], str(r["players"]), f"{r['engine_moves_per_s']:.0f}", f"{r['adapter_moves_per_s']:.0f}",
                      f"{r['ratio']:.2f}")
        console.print(a)
    lines = []
    for r in eng:
        pure = f"; pure Python {r['pure_ratio']:.2f}" if r.get("build") == "compiled" else ""
        lines.append(f"target 1 (issue 25), {r['game']} playouts / OpenSpiel: {r['ratio']:.2f} "
                     f"({'met' if r['ratio'] >= ENGINE_TARGET else 'not met'}, >= {ENGINE_TARGET:.1f}; "
                     f"{_build(r)}{pure})")
        lines.append(f"target 2 (issue 25), {r['game']} clone / deepcopy: {r['ratio_clone']:.0f}x "
                     f"({'met' if r['ratio_clone'] >= CLONE_TARGET else 'not met'}, >= {CLONE_TARGET:.0f}x)")
    lines.append("target 3, hosted / boardgame.io at 8: measured by `make bench-peers` "
                 "(docs/benchmarks-peers.md), which runs boardgame.io beside the stack")
    bus = [r for r in stack if r["path"] == "bus"]
    if bus:
        lines.append(latency_target(bus))
    lines += agent_targets(stack if rounds is None else rounds)
    for r in adapters or []:
        lines.append(interop.target_line(r))
    for line in lines:
        console.print(line, soft_wrap=True)  # one line each, whatever its length (for grep)
    return lines


def carry_targets(targets: list[str], doc: Path = DOC) -> list[str]:
    """``targets`` (this run's verdicts, ``"target N, ..."``) followed by the verdicts ``doc``
    records for the targets this run did not measure (a skipped stack or adapters), each
    marked as recorded before."""
    def number(line: str) -> str:  # "target 1 (issue 25), ..." -> "1"
        return line.split(",")[0].split()[1]

    done = {number(t) for t in targets}
    old = recorded_section("## Targets", doc) or ""
    kept = [line[2:] for line in old.splitlines() if line.startswith("- target ") and number(line[2:]) not in done]
    return targets + [t if t.endswith("(recorded before)") else f"{t} (recorded before)" for t in kept]


def markdown(command: str, eng: list[dict[str, Any]], stack: list[dict[str, Any]], mem: dict[str, Any] | None,
             targets: list[str], adapters: list[dict[str, Any]] | None = None) -> str:
    """``docs/benchmarks.md``."""
    out = ["# Benchmarks", "",
           f"Produced by `{command}` on {time.strftime('%Y-%m-%d')} ({platform.python_implementation()} "
           f"{platform.python_version()}, {platform.machine()}, 2 cores, a shared virtual machine whose speed "
           "varies from minute to minute: compare ratios taken in one run, not figures from different days)."]
    if eng:  # a run without the engine (--no-engine) keeps the section as recorded (keep_recorded)
        out += ["", "## Engine: random playouts on the forward model", "",
                "Medians of rounds alternated with OpenSpiel's pure-Python tic-tac-toe in the same run"
                + (", each side counting moves a CPU second of its own process (time the shared machine gives other "
                   "processes counts for neither)" if eng[0].get("clock", "cpu") == "cpu" else
                   ", in wall-clock seconds") + "; legal_moves and apply: wall-clock means per call; clone: "
                "`Rules.clone`, the copy-on-write clone search uses. Each round plays the rules in processes of their "
                "own: as built (build: compiled with Cython where `make compile` built them, else pure) and pure Python "
                "(`LONGHOUSE_PURE_PYTHON=1`; pure moves/s and pure ratio).", "",
                "| game | build | moves/s | games/s | legal_moves µs | apply µs | OpenSpiel moves/s | ratio | pure moves/s "
                "| pure ratio | clone µs | deepcopy µs | clone × |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in eng:
        out.append(f"| {r['game']} | {_build(r)} | {r['moves_per_s']:.0f} | {r['games_per_s']:.1f} | "
                   f"{r['legal_us']:.0f} | {r['apply_us']:.0f} | {r['reference_moves_per_s']:.0f} | {r['ratio']:.2f} | "
                   f"{r.get('pure_moves_per_s', r['moves_per_s']):.0f} | {r.get('pure_ratio', r['ratio']):.2f} | "
                   f"{r['clone_us']:.1f} | {r['deepcopy_us']:.0f} | {r['ratio_clone']:.0f} |")
    if stack:
        out += ["", "## Hosted stack", "",
                "`bus`: 3-seat Noggin, random bots deciding on the bus (the movers); `http`: the same bots posting "
                "through the gateway; `floor`: the no-op test game on the bus; `agent-webhook` and `agent-grpc`: "
                "3-seat Noggin, every seat an external agent, the sample agent of `examples/` (`http_agent.py`, "
                "`grpc_agent.py`) answering at once with a random legal move from its own process on loopback, "
                "asked by the movers under the default time control (strikes: commits in the "
                "window that recorded one; the agents' processes count in the stack CPU). Latency: time between two "
                "consecutive commits of one game (Redis clock). CPU busy: share of both cores busy during the "
                "window (every process, the benchmark's clients included); stack CPU: the stack processes' share; "
                "busiest process: the stack process that used the most CPU, as a share of one core; saturated: "
                f"`busy` where the machine or the busiest process was at least {100 * SATURATED:.0f} % busy (a "
                "Python process runs on one core at a time), `demand` from the concurrency N* = n / U_n of the "
                "path's lowest row (n games keeping the share U_n of the cores busy), beyond which the games' "
                "CPU demand exceeds the machine and latency must grow with them (asymptotic bounds, Lazowska et "
                "al., Quantitative System Performance, 1984, ch. 5).", "",
                "| path | games at once | moves | seconds | moves/s | p50 ms | p99 ms | strikes | CPU busy % "
                "| stack CPU % | busiest process | saturated |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
        for r in stack:
            out.append(f"| {r['path']} | {r['games']} | {r['moves']} | {r['seconds']:.1f} | {r['moves_per_s']:.0f} | "
                       f"{r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {r.get('strikes', 0)} | {100 * r['cpu']:.0f} | "
                       f"{100 * r['stack_cpu']:.0f} | "
                       f"{r['busiest']} {100 * r['busiest_cpu']:.0f} % | {r.get('saturated_by', '')} |")
    if mem:
        out += ["", "## Memory", "", "| what | value |", "|---|---:|",
                f"| Redis bytes, a game in play (after set-up) | {mem['redis_bytes_in_play']} |",
                f"| Redis bytes, a finished game | {mem['redis_bytes_finished']} |",
                f"| Redis bytes, a finished game's record: log and meta, kept after the other keys expire "
                f"(README, Retention) | {mem['redis_bytes_record']} |"]
        out += [f"| RSS of {name} (MiB) | {mib} |" for name, mib in mem["rss_mib"].items()]
    if adapters:
        out += ["", "## Research adapters", "",
                "Random games through the OpenSpiel adapter (`services.interop`: explicit chance nodes, legal "
                "actions and actions through `pyspiel`) against the engine's own random playouts, alternated "
                "game by game; both count the seats' decisions a CPU second of the process.", "",
                "| game | seats | engine decisions/s | OpenSpiel adapter decisions/s | ratio |", "|---|---:|---:|---:|---:|"]
        out += [f"| {r['game']} | {r['players']} | {r['engine_moves_per_s']:.0f} | {r['adapter_moves_per_s']:.0f} | "
                f"{r['ratio']:.2f} |" for r in adapters]
    out += ["", "## Targets", ""] + [f"- {t}" for t in targets]
    peers = DOC.with_name("benchmarks-peers.md")
    if peers.exists():
        out += ["", f"The boardgame.io comparison (`make bench-peers`) is in [{peers.name}]({peers.name})."]
    return "\n".join(out) + "\n"


def _levels(text: str) -> list[int]:
    """``"1,2,8"`` -> ``[1, 2, 8]`` (empty: ``[]``). Raises ValueError naming what is not a
    number of games at once (a whole number, at least 1)."""
    out = []
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        if not part.isdigit() or int(part) < 1:
            raise ValueError(f"levels are whole numbers of games at once, at least 1: not {part!r}")
        out.append(int(part))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="engine rounds alternated with the reference")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of each engine round (each side); the stack's levels: --window")
    parser.add_argument("--wall", action="store_true",
                        help="engine rounds in wall-clock seconds (default: CPU seconds of each side's process)")
    parser.add_argument("--window", type=float, default=12.0,
                        help="seconds each stack level is measured (games kept in play that long)")
    parser.add_argument("--levels", default="1,2,4,8,32,64", help="games at once in the stack (empty: skip the stack)")
    parser.add_argument("--paths", default="bus,http,floor,agent-webhook,agent-grpc", help="stack paths to measure")
    parser.add_argument("--agent-levels", default="8",
                        help="games at once for the agent paths (agent-webhook, agent-grpc); empty: skip them")
    parser.add_argument("--agent-rounds", type=int, default=3,
                        help="rounds of the bus and the agent paths at --agent-levels, alternated, for the agent "
                             "paths' ratio (its median); the first is the main pass")
    parser.add_argument("--no-adapters", action="store_true", help="skip the OpenSpiel adapter's figure")
    parser.add_argument("--no-engine", action="store_true",
                        help="skip the engine's rounds against OpenSpiel and the adapter's figure (the stack "
                             "only; needs no .venv-bench)")
    parser.add_argument("--write", action="store_true", help="record the results in docs/benchmarks.md")
    args = parser.parse_args(argv)
    from .stack import AGENT_PATHS, PATHS

    unknown = [p for p in args.paths.split(",") if p and p not in PATHS]
    if unknown:
        parser.error(f"--paths: unknown path(s) {', '.join(unknown)}; the paths are {', '.join(PATHS)}")
    try:
        levels, agent_levels = _levels(args.levels), _levels(args.agent_levels)
    except ValueError as exc:
        parser.error(str(exc))
    if args.rounds < 1 or args.agent_rounds < 1 or args.seconds <= 0 or args.window <= 0:
        parser.error("--rounds and --agent-rounds must be >= 1, --seconds and --window > 0")
    console = Console(width=160)
    eng = [] if args.no_engine else engine_rows(args.rounds, args.seconds, cpu=not args.wall)
    adapters = [] if args.no_adapters or args.no_engine else adapter_rows(args.rounds, args.seconds)
    stack: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    mem = None
    paths = [p for p in args.paths.split(",") if p]
    if levels or (agent_levels and any(p in AGENT_PATHS for p in paths)):  # an agent path alone runs the stack too
        from .stack import run_all

        rows, mem = run_all(levels, paths, args.window, agent_levels, args.agent_rounds)
        stack = [r for r in rows if not r.get("round")]  # the tables: the main pass
        for path in dict.fromkeys(r["path"] for r in stack):
            mark_saturation([r for r in stack if r["path"] == path])
    targets = print_tables(console, eng, stack, mem, adapters, rows)
    if args.write:
        given = argv if argv is not None else sys.argv[1:]
        command = "make bench" + (f' ARGS="{shlex.join(given)}"' if given else "")
        # the sections this run does not produce (the bot ladder, notes, a skipped stack) stay as recorded,
        # and so do the verdicts of the targets it did not measure
        targets = carry_targets(targets)
        DOC.write_text(keep_recorded(markdown(command, eng, stack, mem, targets, adapters)), encoding="utf-8")
        console.print(f"written {DOC.relative_to(DOC.parents[1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
