"""Machine-readable rules indexes: one entry per separately testable rule of a game.

Each game keeps ``RULES.yaml`` in its package (``services/rules/<game>/RULES.yaml``)::

    game: noggin
    rulebook: noggin-the-nog-rulebook.txt
    sections:
      "5.1":
        title: Miner
        rules:
          dig-cost: Digging one Stone or Gold costs 1 Step.
          dig-adjacent: Only a square orthogonally next to the Miner can be dug.

An entry's id is ``<game>:<section>/<name>`` (``noggin:5.1/dig-cost``). Tests name the
entries they check with ``@pytest.mark.rules("noggin:5.1/dig-cost", ...)``; the test
plugin (``tests/rules_plugin.py``) refuses unknown ids and records which entries have a
passing test, and ``make rules-coverage`` prints the result per game and section.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

RULES_DIR = Path(__file__).resolve().parent.parent
"""``services/rules``: one package per game, each with its ``RULES.yaml``."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule: ``game``, ``section`` (e.g. ``"5.1"``), ``name`` and the ``text`` that
    paraphrases it. ``id`` is ``game:section/name``."""

    game: str
    section: str
    title: str
    name: str
    text: str

    @property
    def id(self) -> str:
        """``<game>:<section>/<name>``."""
        return f"{self.game}:{self.section}/{self.name}"


class IndexError_(ValueError):
    """A rules index file is malformed (the message names the file and the problem)."""


def index_path(game: str) -> Path:
    """Where game ``game`` keeps its index."""
    return RULES_DIR / game / "RULES.yaml"


def games_with_index() -> list[str]:
    """Names of the games that have a ``RULES.yaml``, sorted."""
    return sorted(p.parent.name for p in RULES_DIR.glob("*/RULES.yaml"))


@lru_cache(maxsize=None)
def load_index(game: str) -> tuple[Entry, ...]:
    """The entries of ``game``'s index in file order.

    Raises:
        FileNotFoundError: the game has no index.
        IndexError_: the file does not have the documented shape, or an id repeats.
    """
    path = index_path(game)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("game") != game or not isinstance(data.get("sections"), dict):
        raise IndexError_(f"{path}: needs 'game: {game}' and a 'sections' mapping")
    out: list[Entry] = []
    seen: set[str] = set()
    for section, body in data["sections"].items():
        if not isinstance(body, dict) or not isinstance(body.get("rules"), dict):
            raise IndexError_(f"{path}: section {section!r} needs a 'rules' mapping")
        for name, text in body["rules"].items():
            if not isinstance(text, str) or not text.strip():
                raise IndexError_(f"{path}: {section}/{name} needs a text")
            e = Entry(game, str(section), str(body.get("title", "")), str(name), " ".join(text.split()))
            if e.id in seen:
                raise IndexError_(f"{path}: {e.id} appears twice")
            seen.add(e.id)
            out.append(e)
    return tuple(out)


def all_entries() -> dict[str, Entry]:
    """Every entry of every game's index, by id."""
    return {e.id: e for game in games_with_index() for e in load_index(game)}
