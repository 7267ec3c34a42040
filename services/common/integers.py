"""Whole numbers handed in by callers of the Python APIs (the research adapters' settings,
actions and seeds; a bot seat's search budget).

Python's ``int`` and NumPy's integer scalars and 0-d integer arrays are whole numbers (anything
with ``__index__``, :func:`operator.index`); ``True`` and ``False`` are not, though ``bool`` is a
subclass of ``int``, and neither is a float, even ``2.0``.
"""

from __future__ import annotations

import operator
from typing import Any


def whole_number(value: Any) -> int:
    """``value`` as an ``int``.

    Raises:
        TypeError: ``value`` is a bool, or has no ``__index__`` (a float, text, ``None``).
    """
    if isinstance(value, bool):  # NumPy's bool has no __index__: operator.index refuses it
        raise TypeError(f"{value!r} is a truth value, not a whole number")
    return operator.index(value)


def whole_number_within(value: Any, least: int, most: int | None = None) -> int | None:
    """``value`` as an ``int`` if it is a whole number (:func:`whole_number`) from ``least`` to
    ``most`` (no upper bound if None); None otherwise, for the caller to say what it takes."""
    try:
        n = whole_number(value)
    except TypeError:
        return None
    return n if least <= n and (most is None or n <= most) else None


__all__ = ["whole_number", "whole_number_within"]
