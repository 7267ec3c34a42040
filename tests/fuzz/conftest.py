"""Prints what the rule fuzzers did (tests/fuzz/harness.py) after the test session."""

from __future__ import annotations

import pytest

from .harness import summary_lines


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    lines = summary_lines()
    if lines:
        terminalreporter.section("rule fuzzing")
        for line in lines:
            terminalreporter.write_line(line)
