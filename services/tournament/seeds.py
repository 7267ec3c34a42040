"""Child seeds of a tournament seed: every game, bot and match seed of a tournament derives from
its one seed, so the seed fixes every deal and every bot choice.
"""

from __future__ import annotations

import hashlib
from typing import Any


def derive_seed(seed: str, *parts: Any) -> str:
    """16 hex digits of ``sha256("<seed>:<part>:...")`` — a child seed of ``seed``."""
    text = ":".join([str(seed), *(str(p) for p in parts)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]
