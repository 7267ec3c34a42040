"""``make rules-coverage``: which entries of each game's rules index have a passing test.

Runs the tests marked ``@pytest.mark.rules(...)`` (``pytest -m rules``) with the rules
plugin's ``--rules-report``, then prints, per game and section, how many entries have
at least one passing test, lists the entries without one, and ends with one line per
game: ``<game>: <covered>/<entries> rules covered``. An entry counts as covered when
every test naming it ran and passed, and at least one did.

Usage: ``python -m services.rules.coverage [--game NAMES] [--report PATH] [--strict] [pytest
args...]``; ``--game`` shows only those games (comma-separated; an unknown one is refused);
``--report`` reads an existing report instead of running pytest; ``--strict`` exits 1 when an
entry is not covered; anything else is passed to pytest.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from services.rules.core.index import games_with_index, load_index


def run_tests(extra: list[str]) -> dict:
    """Run the marked tests and return the plugin's report."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules.json"
        cmd = [sys.executable, "-m", "pytest", "-q", "-m", "rules", "-p", "no:cacheprovider",
               f"--rules-report={path}", *extra]
        subprocess.run(cmd, check=False)
        if not path.exists():
            passed = f" (pytest was given: {' '.join(extra)})" if extra else ""
            raise SystemExit(f"the test run wrote no rules report: collection failed or pytest refused an "
                             f"argument{passed}")
        return json.loads(path.read_text())


def coverage(report: dict) -> dict[str, str]:
    """Entry id -> ``"covered"``, ``"failing"`` or ``"untested"``."""
    state: dict[str, str] = {}
    for test in report["tests"]:
        for e in test["entries"]:
            ok = test["outcome"] == "passed"
            if not ok:
                state[e] = "failing"
            elif state.get(e) != "failing":
                state[e] = "covered"
    return state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make rules-coverage", description=__doc__.splitlines()[0])
    parser.add_argument("--report", help="read this report instead of running the tests")
    parser.add_argument("--strict", action="store_true", help="exit 1 if any entry lacks a passing test")
    parser.add_argument("--game", help="show only these games (comma-separated; default every game)")
    args, extra = parser.parse_known_args(argv)
    known = games_with_index()
    shown = [g.strip() for g in args.game.split(",") if g.strip()] if args.game else list(known)
    unknown = [g for g in shown if g not in known]
    if unknown or not shown:
        parser.error(f"--game: no rules index for {', '.join(map(repr, unknown)) or 'no game'}; "
                     f"the games are {', '.join(known)}")
    report = json.loads(Path(args.report).read_text()) if args.report else run_tests(extra)
    status = coverage(report)
    console = Console() if sys.stdout.isatty() else Console(width=120)  # a file or pipe: no wrapping at 80
    summary = []
    missing_any = False
    for game in shown:
        entries = load_index(game)
        by_section: dict[str, list] = defaultdict(list)
        for e in entries:
            by_section[e.section].append(e)
        table = Table(title=f"{game}: rules index coverage")
        for col in ("section", "title", "covered", "entries", "without a passing test"):
            table.add_column(col, overflow="fold")
        covered_total = 0
        for section, items in by_section.items():
            covered = [e for e in items if status.get(e.id) == "covered"]
            covered_total += len(covered)
            rest = [f"{e.name} ({status.get(e.id, 'untested')})" for e in items if status.get(e.id) != "covered"]
            table.add_row(section, items[0].title, str(len(covered)), str(len(items)), ", ".join(rest) or "-")
        console.print(table)
        summary.append(f"{game}: {covered_total}/{len(entries)} rules covered")
        missing_any |= covered_total < len(entries)
    for line in summary:
        print(line)
    return 1 if (args.strict and missing_any) else 0


if __name__ == "__main__":
    sys.exit(main())
