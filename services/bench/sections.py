"""Sections of ``docs/benchmarks.md`` that one benchmark records and the others keep: each is a
``## `` heading and what follows it up to the next ``## `` heading."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md"
"""The benchmarks' page."""


def recorded_section(heading: str, doc: Path = DOC) -> str | None:
    """The section under ``heading`` (a whole line such as ``"## Bot ladder"``) of ``doc`` as
    recorded, up to the next ``## `` heading; ``None`` if there is none."""
    if not doc.exists():
        return None
    lines = doc.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == heading), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[start:end]).rstrip("\n") + "\n"


def write_section(heading: str, text: str, doc: Path = DOC) -> None:
    """Replace the section under ``heading`` of ``doc`` by ``text`` (which starts with that
    heading), or insert it before the ``## Targets`` section (at the end if there is none)."""
    old = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n"
    lines = old.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == heading), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = end = next((i for i, line in enumerate(lines) if line.rstrip("\n") == "## Targets"), len(lines))
    before = "".join(lines[:start])
    if before and not before.endswith("\n\n"):
        before += "\n"
    doc.write_text(before + text + ("" if end == len(lines) else "\n") + "".join(lines[end:]), encoding="utf-8")
