"""The README names every ``LONGHOUSE_*`` variable the code, the Makefile and the deployment files
read (issue 12: "the README's configuration table names every variable"): literally, as one end
of a range row (``LONGHOUSE_DECKS_PORT`` … ``LONGHOUSE_SCORING_PORT`` covers the four services), or
as a short form after a full name (```LONGHOUSE_RATE_LIMIT_MOVES_TOKEN` / `_MOVES_ADDRESS```)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAME = re.compile(r"LONGHOUSE_[A-Z0-9_]*[A-Z0-9]")
SERVICES = ("DECKS", "MARKET", "BOARDS", "SCORING")
"""The gRPC services, in the order the README's range rows name them."""


def used() -> set[str]:
    """Every whole variable name in the sources (a prefix, ``LONGHOUSE_RATE_LIMIT_*`` or one a name is
    built from at run time, ends in ``_``: skipped)."""
    files = [*ROOT.glob("services/**/*.py"), *ROOT.glob("gateway/**/*.py"), *ROOT.glob("deploy/**/*.y*ml"),
             *ROOT.glob("docker-compose*.yml"), ROOT / "Makefile"]
    return {m.group(0) for f in files for m in re.finditer(r"LONGHOUSE_[A-Z0-9_]+", f.read_text())
            if not m.group(0).endswith("_")}


def named(readme: str) -> set[str]:
    """The names the README gives, with its range rows and short forms spelled out."""
    out = set(NAME.findall(readme))
    for kind in ("PORT", "HOST"):
        if re.search(rf"`LONGHOUSE_{SERVICES[0]}_{kind}` … `LONGHOUSE_{SERVICES[-1]}_{kind}`", readme):
            out |= {f"LONGHOUSE_{s}_{kind}" for s in SERVICES}
    for full, short in re.findall(r"`(LONGHOUSE_[A-Z0-9_]+)` / `(_[A-Z0-9_]+)`", readme):
        head = short.split("_")[1]
        cut = full.rfind(f"_{head}")
        if cut > 0:
            out.add(full[:cut] + short)
    return out


def test_every_variable_the_code_reads_is_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    missing = sorted(used() - named(readme))
    assert missing == [], f"variables the README does not name: {missing}"


def test_the_check_sees_range_rows_and_short_forms():
    text = "| `LONGHOUSE_DECKS_PORT` … `LONGHOUSE_SCORING_PORT` | `LONGHOUSE_RATE_LIMIT_READS_TOKEN` / `_READS_ADDRESS` |"
    assert {"LONGHOUSE_BOARDS_PORT", "LONGHOUSE_RATE_LIMIT_READS_ADDRESS"} <= named(text)
    assert "LONGHOUSE_BOARDS_HOST" not in named(text)
