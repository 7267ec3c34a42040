"""``python -m services.tournament --url URL``: play a tournament against a running gateway.

The same tournament as ``make run`` plays, for a stack that is already serving (one
started by ``make run``, or elsewhere). Exit code 0 if every game ended by the rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.console import Console

from .display import games_table, play_with_progress, standings_table
from .runner import DEFAULT_MOVE_CAP, TournamentConfig


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, play, print the tables, write the report; returns the exit code."""
    p = argparse.ArgumentParser(prog="python -m services.tournament")
    p.add_argument("--url", default="http://127.0.0.1:8470", help="the gateway (default http://127.0.0.1:8470)")
    p.add_argument("--game", default="noggin")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", default="7")
    p.add_argument("--bots", default="random", help="comma-separated bot per seat, repeated (default random)")
    p.add_argument("--parallel", type=int, default=3)
    p.add_argument("--move-cap", type=int, default=DEFAULT_MOVE_CAP)
    p.add_argument("--report", type=Path)
    args = p.parse_args(argv)
    console = Console()
    config = TournamentConfig(game=args.game, players=args.players, games=args.games, seed=args.seed,
                              bots=[b.strip() for b in args.bots.split(",") if b.strip()],
                              move_cap=args.move_cap, parallel=args.parallel)
    report = play_with_progress(args.url, config, console)
    console.print(games_table(report))
    console.print(standings_table(report))
    for g in report.games:
        if g.ended_by != "rules":
            console.print(f"[red]game {g.index} ({g.game_id}) ended by {g.ended_by}: {g.error}[/red]")
    if args.report:
        args.report.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
