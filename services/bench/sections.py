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


def _split(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``(head, [(heading, section), ...])``: what precedes the first ``## `` heading, then each
    section (its heading line and what follows, up to the next ``## `` heading)."""
    head: list[str] = []
    parts: list[tuple[str, list[str]]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            parts.append((line.rstrip("\n"), [line]))
        elif parts:
            parts[-1][1].append(line)
        else:
            head.append(line)
    return "".join(head), [(h, "".join(lines)) for h, lines in parts]


def keep_recorded(text: str, doc: Path = DOC) -> str:
    """The page ``text`` (a whole ``docs/benchmarks.md`` as one benchmark writes it) with every
    ``## `` section of ``doc`` that ``text`` does not have kept as recorded: each right after
    the section it followed in ``doc`` (first if none of those is in ``text``), the sections
    of ``text`` in their own order; the head of ``text`` then names the sections kept.

    So a run that measures only some sections (``make bench ARGS="--levels ''"``) and the
    sections other commands record or people write (the bot ladder, a profile's notes) never
    drop one another."""
    if not doc.exists():
        return text
    head, new = _split(text)
    _, old = _split(doc.read_text(encoding="utf-8"))
    have = {h for h, _ in new}
    out = list(new)
    kept: list[str] = []
    before: str | None = None
    for heading, body in old:
        if heading not in have:
            at = 0 if before is None else next(i for i, (h, _) in enumerate(out) if h == before) + 1
            out.insert(at, (heading, body))
            have.add(heading)
            kept.append(heading[3:])
        before = heading
    if kept:
        head = head.rstrip("\n") + ("\n\nKept as recorded before (not produced by this run): "
                                    + "; ".join(f"“{k}”" for k in kept) + ".\n\n")
    return head + "\n".join(body.rstrip("\n") + "\n" for _, body in out)
