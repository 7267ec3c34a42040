"""The code samples of the docs site (mkdocs.yml's nav): every fenced ``python`` and ``sh`` block
of a page, and the page's ``samples:`` front matter saying where they run: ``offline`` (the
engine in-process, no stack: tests/docs), ``stack`` (against a running stack: tests/stack) or
``none`` (the page has no sample)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RUN_LANGUAGES = ("python", "sh")
"""The languages of code samples: every block in one of them is run."""
TEXT_LANGUAGES = ("json", "http", "text", "")
"""Blocks that show data or output, not code."""
FENCE = re.compile(r"^```([a-z]*)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)
SAMPLE_TIMEOUT_S = 240


@dataclass(frozen=True)
class Page:
    """A page of the site: its path under docs/, its ``samples`` kind and its fenced blocks ``(language, code)``."""

    path: str
    kind: str
    blocks: tuple[tuple[str, str], ...]

    def samples(self, language: str) -> list[str]:
        """The page's blocks in ``language``, in order."""
        return [code for lang, code in self.blocks if lang == language]


def nav_pages() -> list[str]:
    """Every page of mkdocs.yml's nav (paths under docs/), in order."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    found: list[str] = []

    def walk(items) -> None:
        for item in items:
            for value in item.values():
                walk(value) if isinstance(value, list) else found.append(value)

    walk(config["nav"])
    return found


def read_page(path: str) -> Page:
    """The page at docs/``path`` with its front matter's ``samples`` ("" if it has none)."""
    text = (DOCS / path).read_text(encoding="utf-8")
    kind = ""
    if text.startswith("---\n"):
        front, text = text[4:].split("\n---\n", 1)
        kind = str((yaml.safe_load(front) or {}).get("samples", ""))
    return Page(path, kind, tuple((m.group(1), m.group(2)) for m in FENCE.finditer(text)))


def run_page(page: Page, env: dict[str, str], workdir: Path) -> list[str]:
    """Run the page's python blocks in one interpreter (one after another, as a reader would) and
    each sh block with bash (``-euo pipefail``), from the repository root; returns their outputs.

    Raises:
        AssertionError: a sample failed (its output in the message).
    """
    env = {**os.environ, **env, "TMPDIR": str(workdir),
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "sdk" / "longhouse_client" / "src"),
                                          str(ROOT / "sdk" / "longhouse_agent" / "src")])}
    outputs = []
    python = page.samples("python")
    runs = ([[sys.executable, "-c", "\n\n".join(python)]] if python else []) + \
           [["bash", "-euo", "pipefail", "-c", code] for code in page.samples("sh")]
    for argv in runs:
        proc = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=SAMPLE_TIMEOUT_S)
        assert proc.returncode == 0, f"a sample of {page.path} failed:\n{argv[-1]}\n--- output ---\n{proc.stdout[-3000:]}"
        outputs.append(proc.stdout)
    return outputs
