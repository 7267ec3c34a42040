"""What every game's part of the bot batch (:mod:`.batch`) counts alike: each event by type, and
each event that went to other clients than its type's visibility allows (a leak).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from services.rules.core import SEALED


def count_audience(e: Any, kind: str, counts: Counter[str]) -> None:
    """Count event ``e`` (``event:<type>``) and, if it went to other clients than its type's
    ``kind`` (``public``, ``private`` to its ``seat``, ``sealed``) allows, ``leak:<type>``."""
    counts[f"event:{e.type}"] += 1
    if (kind == "public") != (e.to is None) or (kind == "sealed") != (e.to == SEALED) \
            or (kind == "private" and e.to != e.data.get("seat")):
        counts[f"leak:{e.type}"] += 1
