"""Where each game's bot parts live: ``services.bots.<game>.<part>``, found by name so that the
generic bots (greedy, ISMCTS) and the dispatcher (:mod:`.decide`) need no list of games."""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

PARTS = ("evaluation", "scripted", "expert")
"""The parts a game's bot package may hold."""


@lru_cache(maxsize=None)
def game_module(game: str, part: str) -> Any | None:
    """``services.bots.<game>.<part>`` (one of :data:`PARTS`), or ``None`` when the game has no
    such module (the tests' tiny games have none).

    Raises:
        ValueError: ``part`` is not one of :data:`PARTS`.
    """
    if part not in PARTS:
        raise ValueError(f"a game's bot part is one of {', '.join(PARTS)}, not {part!r}")
    name = f"services.bots.{game}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise
