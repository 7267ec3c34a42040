"""Rich output of a tournament: a progress bar while it plays, then the standings table."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .models import GameReport, TournamentReport
from .runner import TournamentConfig, run_tournament, run_tournament_job


REPORT_WIDTH = 120
"""Columns for tables written to a file or pipe (a terminal keeps its own width)."""


def report_console() -> Console:
    """A console for tables: the terminal's width, or :data:`REPORT_WIDTH` when not a terminal,
    so that piped and logged tables are not cut."""
    import sys

    return Console() if sys.stdout.isatty() else Console(width=REPORT_WIDTH)


def play_with_progress(base_url: str, config: TournamentConfig, console: Console,
                       operator_key: str | None = None) -> TournamentReport:
    """Run the tournament with a rich progress bar (games finished, moves made); ``operator_key``
    creates its games or tournament (``None``: the client's default, from the environment)."""
    lock = threading.Lock()
    moves = {i: 0 for i in range(config.games)}
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[moves]} moves"), TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        task = progress.add_task(f"{config.game} games", total=config.games, moves=0)

        def on_progress(index: int, what: str, n: int) -> None:
            with lock:
                moves[index] = n
                total = sum(moves.values())
            if what == "done":
                progress.update(task, advance=1, moves=total)
            else:
                progress.update(task, moves=total)

        if config.via == "bus":
            return run_tournament_job(base_url, config, on_progress, operator_key=operator_key)
        return run_tournament(base_url, config, on_progress, operator_key=operator_key)


def standings_table(report: TournamentReport) -> Table:
    """Standings: seat, bot, games, wins, win rate and average score."""
    title = f"Standings: {len(report.games)} {report.game} game(s), seed {report.seed}"
    if report.sides:
        title += " — crown: " + ", ".join(f"{SIDE_NAMES.get(k, k)} {v}" for k, v in sorted(report.sides.items()))
    table = Table(title=title)
    columns = [("seat", "right"), ("bot", "left"), ("games", "right"), ("wins", "right"), ("win %", "right"),
               ("avg score", "right")]
    if report.sides:
        columns.append(("led in exile", "right"))
    for col, justify in columns:
        table.add_column(col, justify=justify)
    for s in report.standings:
        rate = f"{100 * s.wins / s.games:.0f}" if s.games else "-"
        row = [str(s.seat), s.bot, str(s.games), str(s.wins), rate, f"{s.average_score:.2f}"]
        if report.sides:
            row.append(str(s.exiled_leads))
        table.add_row(*row)
    return table


SIDE_NAMES = {"noggin": "Noggin", "nogbad": "Nogbad"}
"""How the crown's side is shown (rulebook 9.0)."""


def winner_text(g: GameReport) -> str:
    """The winner cell: the winning seats, or for Noggin who took the crown and, when Nogbad
    did, that everyone lost and who led in exile (rulebook 9.0)."""
    seats = ",".join(map(str, g.winner))
    if g.winning_side == "nogbad":
        exile = ",".join(map(str, g.leader_in_exile)) or "-"
        return f"Nogbad: {seats}" if seats else f"Nogbad (exile {exile})"
    if g.winning_side == "noggin":
        return f"Noggin: {seats or '-'}"
    return seats or "-"


def games_table(report: TournamentReport) -> Table:
    """One row per game: id, moves, how it ended, winners, scores, start of the state hash."""
    table = Table(title="Games (winner: who took Noggin's crown, then the winning seats)"
                  if report.sides else "Games")
    for col in ("#", "game id", "moves", "ended by", "winner", "scores", "state hash"):
        table.add_column(col, no_wrap=True)
    for g in report.games:
        table.add_row(str(g.index), g.game_id or "-", str(g.moves),
                      g.ended_by if g.ended_by == "rules" else f"[red]{g.ended_by}[/red]",
                      winner_text(g), ",".join(map(str, g.final_scores)) or "-",
                      (g.final_state_hash or "-")[:12])
    return table


def print_results(report: TournamentReport, console: Console, path: Path | None = None) -> None:
    """Print the games and standings tables and every failed game; write the JSON report to ``path``.

    The report file is ``TournamentReport`` as JSON (see :mod:`services.tournament.models`).
    """
    console.print(games_table(report))
    console.print(standings_table(report))
    for g in report.games:
        if g.ended_by != "rules":
            console.print(f"[red]game {g.index} ({g.game_id}) ended by {g.ended_by}: {g.error}[/red]")
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
        console.print(f"report written to {path}")
