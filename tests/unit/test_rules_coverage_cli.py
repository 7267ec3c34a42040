"""``make rules-coverage``'s command line: ``--game`` shows only the games named and an unknown
game is refused before any test runs; a report is read and counted per game."""

from __future__ import annotations

import json

import pytest

from services.rules import coverage
from services.rules.core.index import load_index


def test_an_unknown_game_is_refused_before_any_test_runs(monkeypatch, capsys):
    monkeypatch.setattr(coverage, "run_tests", lambda extra: pytest.fail("the tests ran"))
    with pytest.raises(SystemExit) as stop:
        coverage.main(["--game", "chess"])
    assert stop.value.code == 2 and "no rules index for 'chess'" in capsys.readouterr().err


def test_one_game_is_shown_from_a_report(tmp_path, capsys):
    first = load_index("noggin")[0]
    report = tmp_path / "rules.json"
    report.write_text(json.dumps({"tests": [{"entries": [first.id], "outcome": "passed"}]}))
    assert coverage.main(["--game", "noggin", "--report", str(report)]) == 0
    out = capsys.readouterr().out
    assert f"noggin: 1/{len(load_index('noggin'))} rules covered" in out
    assert "gnomes:" not in out and "resource_hog:" not in out
