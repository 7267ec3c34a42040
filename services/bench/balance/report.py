"""The balance page (``docs/balance.md``) and the targets of the balance issue.

Targets (3 seats, at least 100 games a measure):

1. Resource Hog: every seat's and every start's win share within 1/3 ± 8 points; no probe wins
   more than 25 % against two experts; every building type built in at least 15 % of the
   experts' games and adding to its builder's final wealth on average (measured against the
   expert without it, in games paired by seed: :func:`.core.ablation_effect`); mercenaries bought in at
   least 10 % of games; a fight in at least 40 % of games.
2. Noggin (games where Noggin was crowned) and A Game of Gnomes: seat-order win shares within the
   fair share ± 8 points.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

from ..sections import write_section
from .core import Watched, ablation_effect, effects, occurrence, probe_share, run, seat_shares, start_shares
from .specs import spec as spec_of

DOC = Path(__file__).resolve().parents[3] / "docs" / "balance.md"
HEADER = ("# Balance\n\nOne section a game, each made by the command it names (`--write` replaces the\n"
          "sections of the games it ran and keeps the others). Regenerate a section rather than edit it.\n")
"""The balance page."""
GAMES = ("resource_hog", "noggin", "gnomes")
TOLERANCE = 0.08
"""How far a seat's or start's win share may sit from the fair share."""
PROBE_LIMIT = 0.25
BUILT_SHARE = 0.15
MERCENARY_SHARE = 0.10
FIGHT_SHARE = 0.40


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def _share_rows(shares: list[Any]) -> list[str]:
    return [f"| {s.label} | {s.wins:g} / {s.games} | {_pct(s.rate)} | {_pct(s.interval[0])}–{_pct(s.interval[1])} |"
            for s in shares]


def targets(game: str, results: dict[str, list[Watched]]) -> list[tuple[str, bool]]:
    """One line per target of ``game`` (see the module's docstring), met or not."""
    spec = spec_of(game)
    experts = results.get("experts", [])
    fair = 1 / spec.players
    out = []
    seats = seat_shares(spec, experts)
    out.append((f"{game}: every seat's win share within {_pct(fair)} ± {100 * TOLERANCE:.0f} points",
                bool(seats) and all(abs(s.rate - fair) <= TOLERANCE for s in seats)))
    if game != "resource_hog":
        return out
    starts = start_shares(spec, experts)
    out.append((f"{game}: every start's win share within {_pct(fair)} ± {100 * TOLERANCE:.0f} points",
                bool(starts) and all(abs(s.rate - fair) <= TOLERANCE for s in starts)))
    probes = [probe_share(n, results.get(f"probe:{n}", [])) for n in spec.probes]
    out.append((f"{game}: no probe wins more than {_pct(PROBE_LIMIT)} against two experts",
                all(p.rate <= PROBE_LIMIT for p in probes)))
    from services.rules.resource_hog.content import content

    built = {e.key: e for e in effects(experts) if e.key.startswith("built:")}
    for b in sorted(x.id for x in content().buildings.buildings):
        e = built.get(f"built:{b}")
        a = ablation_effect(f"without:{b}", experts, results.get(f"ablation:without:{b}", []))
        out.append((f"{game}: {b} built in ≥ {_pct(BUILT_SHARE)} of games and adds to its builder's wealth",
                    e is not None and e.games_with >= BUILT_SHARE and a.gap > 0))
    seen = dict((k, g) for k, g, _ in occurrence(experts))
    out.append((f"{game}: mercenaries bought in ≥ {_pct(MERCENARY_SHARE)} of games",
                seen.get("bought:mercenary", 0) >= MERCENARY_SHARE))
    out.append((f"{game}: a fight in ≥ {_pct(FIGHT_SHARE)} of games", seen.get("fight", 0) >= FIGHT_SHARE))
    return out


def markdown(game: str, results: dict[str, list[Watched]], games: int) -> str:
    """The section of ``game``."""
    spec = spec_of(game)
    experts = results.get("experts", [])
    errors = sum(1 for recs in results.values() for r in recs if r.error)
    lines = [f"## {game}", "", f"{len(experts)} games with `expert` on all {spec.players} seats"
             + (" (seat-order shares over the games where Noggin was crowned)" if game == "noggin" else "")
             + f"; {errors} failed.", "", f"| {'seat (order)' if spec.order is None else 'place in the turn order'} | wins | share | 95 % interval |", "|---|---|---|---|",
             *_share_rows(seat_shares(spec, experts))]
    starts = start_shares(spec, experts)
    if starts:
        lines += ["", "| start | wins | share | 95 % interval |", "|---|---|---|---|", *_share_rows(starts)]
    if spec.probes:
        lines += ["", f"Probes ({games} games each, the probe's seat rotated, two experts beside it):", "",
                  "| probe | wins | share | 95 % interval |", "|---|---|---|---|",
                  *_share_rows([probe_share(n, results.get(f"probe:{n}", [])) for n in spec.probes])]
    eff = effects(experts)
    if eff:
        lines += ["", "What taking it adds to a seat's final score (mean of the seats that took it less the rest):",
                  "", "| taken | seat-games | games with it | adds | 95 % interval |", "|---|---|---|---|---|"]
        for e in eff:
            interval = "–" if math.isinf(e.low) else f"{e.low:+.1f} to {e.high:+.1f}"
            gap = "–" if math.isnan(e.gap) else f"{e.gap:+.1f}"
            lines.append(f"| {e.key} | {e.taken} / {e.seats} | {_pct(e.games_with)} | {gap} | {interval} |")
    if spec.ablations:
        lines += ["", f"What each choice adds to the expert's final score: {games} games of each ablation, the "
                  "experts' seeds, one seat (rotated) playing the expert without that choice; the mean of the "
                  "expert's score less the ablated expert's on that seat, paired game by game:", "",
                  "| without | games | games it changed | adds | 95 % interval |", "|---|---|---|---|---|"]
        for name in spec.ablations:
            a = ablation_effect(name, experts, results.get(f"ablation:{name}", []))
            interval = "–" if math.isinf(a.low) else f"{a.low:+.1f} to {a.high:+.1f}"
            lines.append(f"| {name.split(':', 1)[1]} | {a.taken} | {_pct(a.games_with)} | {a.gap:+.1f} | {interval} |")
    occ = [o for o in occurrence(experts) if not o[0].startswith("event:") or o[1] < 1]
    if occ:
        lines += ["", "How often it happens (share of games, mean a game); event types in every game left out:", "",
                  "| what | games | a game |", "|---|---|---|"]
        lines += [f"| {k} | {_pct(g)} | {m:.1f} |" for k, g, m in occ]
    lines += ["", *[f"- {'met' if ok else 'not met'}: {text}" for text, ok in targets(game, results)], ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``make balance [ARGS=...]``; exit 1 if a target is not met or a game failed, 2 on bad input."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    parser = argparse.ArgumentParser(prog="make balance", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games a measure (default 100)")
    parser.add_argument("--game", default=",".join(GAMES), help="games, comma-separated (default all)")
    parser.add_argument("--seed", default="balance", help="the report's seed")
    parser.add_argument("--iterations", type=int, default=None, help="the experts' search budget")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--quick", action="store_true", help="3 games a measure (shows it works; no claim)")
    parser.add_argument("--write", action="store_true", help=f"write the report to docs/{DOC.name}")
    raw = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(raw)
    console = Console(width=200)
    names = list(dict.fromkeys(g.strip() for g in args.game.split(",") if g.strip()))
    games = 3 if args.quick and "--games" not in raw else args.games
    if any(g not in GAMES for g in names) or games < 1 or (args.iterations is not None and args.iterations < 0):
        console.print(f"games: {', '.join(GAMES)}; --games at least 1; --iterations 0 or more")
        return 2
    iterations = {"expert": args.iterations} if args.iterations is not None else {}
    command = "make balance" + (f' ARGS="{" ".join(raw)}"' if raw else "")
    sections: list[tuple[str, str]] = []
    ok = True
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        for game in names:
            spec = spec_of(game)
            bar = progress.add_task(game, total=games * (1 + len(spec.probes) + len(spec.ablations)))
            t0 = time.monotonic()
            results = run(spec, games, args.seed, iterations, args.workers, lambda: progress.advance(bar))
            head, _, rest = markdown(game, results, games).partition("\n\n")
            sections.append((head, f"{head}\n\nMade by `{command}` in {time.monotonic() - t0:.0f} s "
                                   f"({args.workers} worker{'s' if args.workers != 1 else ''}); seed `{args.seed}`.\n\n{rest}"))
            ok = ok and all(met for _, met in targets(game, results)) \
                and not any(r.error for recs in results.values() for r in recs)
    console.print("\n".join(text for _, text in sections), markup=False, highlight=False)
    if args.write:
        if not DOC.exists():
            DOC.write_text(HEADER, encoding="utf-8")
        for head, text in sections:
            write_section(head, text, DOC)
        console.print(f"written docs/{DOC.name} ({', '.join(names)}; the other games' sections kept)")
    if args.quick:
        console.print("--quick: a few games a measure show that the report runs; its verdicts are no claim")
        return 0
    return 0 if ok else 1
