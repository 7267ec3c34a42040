"""Pytest plugin for the rules indexes (``services/rules/<game>/RULES.yaml``).

* ``@pytest.mark.rules("noggin:5.1/dig-cost", ...)`` names the index entries a test
  checks; an id that is not in its game's index fails the collection, so an entry
  cannot be named by mistake.
* ``--rules-report PATH`` writes, after the run, which tests named which entries and
  how each test ended: ``{"tests": [{"nodeid", "entries", "outcome"}]}``.

``python -m services.rules.coverage`` (``make rules-coverage``) runs the marked tests
with this option and prints the coverage per game and section.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from services.rules.core.index import all_entries


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rules-report", default=None, help="write the rules-index coverage of this run as JSON")


def _entries(item: pytest.Item) -> list[str]:
    out: list[str] = []
    for mark in item.iter_markers("rules"):
        out.extend(str(a) for a in mark.args)
    return out


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    known = all_entries()
    bad = sorted({(item.nodeid, e) for item in items for e in _entries(item) if e not in known})
    if bad:
        lines = "\n".join(f"  {nodeid}: {e}" for nodeid, e in bad)
        raise pytest.UsageError(f"tests name rules-index entries that do not exist:\n{lines}")
    config.stash[_OUTCOMES] = {item.nodeid: {"entries": _entries(item), "outcome": "not run"}
                               for item in items if _entries(item)}


_OUTCOMES = pytest.StashKey[dict]()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    config = _CONFIG.get("config")
    if config is None:
        return
    outcomes = config.stash.get(_OUTCOMES, {})
    rec = outcomes.get(report.nodeid)
    if rec is None:
        return
    if report.when == "call" or report.outcome != "passed":
        if rec["outcome"] in ("not run", "passed"):
            rec["outcome"] = report.outcome


_CONFIG: dict[str, pytest.Config] = {}


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG["config"] = config


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = session.config.getoption("--rules-report")
    if not path:
        return
    outcomes = session.config.stash.get(_OUTCOMES, {})
    tests = [{"nodeid": k, **v} for k, v in sorted(outcomes.items())]
    Path(path).write_text(json.dumps({"tests": tests}, indent=1) + "\n", encoding="utf-8")
