"""The observation tensor: a seat's player view as a fixed-size float32 vector per game.

The views of the three games are nested JSON of varying length (hands, piles, tracks), so the
tensor is built by feature hashing (K. Weinberger, A. Dasgupta, J. Langford, A. Smola and
J. Attenberg, "Feature Hashing for Large Scale Multitask Learning", ICML 2009): every leaf
of the view becomes a feature named by its path, whose slot is the CRC-32 of the name
modulo the size (stable across processes and machines, unlike Python's ``hash``), and the
tensor is binary (a slot is 1 if any feature falls in it), as OpenSpiel's own games' are:

* an integer ``v`` at path ``p`` sets ``slot(p + "=" + v)`` for ``|v| <=`` :data:`EXACT`, else
  ``slot(p + "~" + b)`` with ``b`` its sign and bit length (a one-hot by magnitude);
* a true boolean sets ``slot(p)``; a string ``s`` sets ``slot(p + "=" + s)`` (a one-hot);
* a list of strings (a hand, a pile's cards) sets ``slot(p + "[]=" + s + "#" + k)`` for the
  ``k``-th copy of each ``s``: a bag, whatever the order; other lists keep each item's index
  in the path.

The first :data:`HEADER` slots are not hashed: the observing seat (one-hot, 4), whether it is
deciding (1) and whether it has taken a step of a decision taken in steps (1). A view holds
only what its seat may see, so the tensor does too.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

SIZES = {"noggin": 4096, "gnomes": 2048, "resource_hog": 1024}
"""Tensor size by game: about five times the distinct features seen in random games' views
(Noggin 835, Gnomes 633, Resource Hog 230), so that few collide."""
DEFAULT_SIZE = 2048
"""The size for a game missing from :data:`SIZES`."""
HEADER = 6
"""Slots before the hashed features: seat one-hot (4), deciding, a step taken."""
EXACT = 12
"""Integers up to this magnitude get a slot each; larger ones a slot per bit length."""
MAX_SEATS = 4


def size(game: str) -> int:
    """The length of ``game``'s observation tensor."""
    return SIZES.get(game, DEFAULT_SIZE)


_SLOTS: dict[tuple[str, int], int] = {}
_SLOTS_MAX = 1 << 17


def _slot(name: str, width: int) -> int:
    key = (name, width)
    out = _SLOTS.get(key)
    if out is None:
        out = HEADER + zlib.crc32(name.encode()) % width
        if len(_SLOTS) < _SLOTS_MAX:  # a memo of the names seen, bounded
            _SLOTS[key] = out
    return out


def _walk(view: Any, out: np.ndarray, width: int) -> None:
    slot = _slot
    stack: list[tuple[str, Any]] = [("", view)]
    pop, push = stack.pop, stack.append
    while stack:
        path, obj = pop()
        kind = type(obj)
        if kind is dict:
            for key, value in obj.items():
                push((f"{path}.{key}", value))
        elif kind is list or kind is tuple:
            if obj and all(type(x) is str for x in obj):
                seen: dict[str, int] = {}
                for x in obj:
                    k = seen[x] = seen.get(x, 0) + 1
                    out[slot(f"{path}[]={x}#{k}", width)] = 1.0
            else:
                for i, x in enumerate(obj):
                    push((f"{path}[{i}]", x))
        elif kind is bool:
            if obj:
                out[slot(path, width)] = 1.0
        elif kind is int:
            if -EXACT <= obj <= EXACT:
                out[slot(f"{path}={obj}", width)] = 1.0
            else:
                out[slot(f"{path}~{'-' if obj < 0 else ''}{obj.bit_length()}", width)] = 1.0
        elif kind is str:
            out[slot(f"{path}={obj}", width)] = 1.0


def encode(game: str, view: dict[str, Any], seat: int, deciding: bool, steps: int,
           out: np.ndarray | None = None) -> np.ndarray:
    """The observation tensor of ``view`` (the player view of ``seat``), float32 of
    :func:`size` ``(game)``; written into ``out`` if given (zeroed first).

    Args:
        deciding: whether ``seat`` is the seat to decide.
        steps: the steps it has taken towards a decision taken in steps (0 otherwise).
    Raises:
        ValueError: ``out`` has the wrong length, or ``seat`` is not in 0..3.
    """
    n = size(game)
    if out is None:
        out = np.zeros(n, np.float32)
    elif out.shape != (n,):
        raise ValueError(f"the {game} observation has {n} slots, not {out.shape}")
    else:
        out.fill(0.0)
    if not 0 <= seat < MAX_SEATS:
        raise ValueError(f"seat {seat} is not 0..{MAX_SEATS - 1}")
    out[seat] = 1.0
    out[MAX_SEATS] = 1.0 if deciding else 0.0
    out[MAX_SEATS + 1] = 1.0 if steps else 0.0
    _walk(view, out, n - HEADER)
    return out


__all__ = ["DEFAULT_SIZE", "HEADER", "SIZES", "encode", "size"]
