"""Chance: a deterministic random source built from the secret per-game seed.

Only the deck domain holds a :class:`Chance` (DESIGN "the deck service alone knows the
secret per-game seed"). The stream is sha256 in counter mode, so the same seed and label
give the same outcomes on every Python version and machine, which the byte-for-byte
determinism of the event log depends on.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Sequence, TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed (64 hex characters) for a game created without one."""
    return secrets.token_hex(32)


class Chance:
    """Uniform integers, choices and shuffles from ``sha256(seed, label, counter)``.

    Args:
        seed: the game's secret seed (any string).
        label: names the draw, e.g. ``"fishing:17"``; different labels are independent.
    """

    __slots__ = ("_key", "_counter", "_pool", "_bits")

    def __init__(self, seed: str, label: str):
        self._key = hashlib.sha256(f"{seed}\x00{label}".encode()).digest()
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _refill(self) -> None:
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._pool = (self._pool << 256) | int.from_bytes(block, "big")
        self._bits += 256

    def _take(self, k: int) -> int:
        while self._bits < k:
            self._refill()
        self._bits -= k
        value = self._pool >> self._bits
        self._pool &= (1 << self._bits) - 1
        return value

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling. Raises ValueError if n < 1."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        k = max(1, (n - 1).bit_length())
        while True:
            v = self._take(k)
            if v < n:
                return v

    def choice(self, items: Sequence[T]) -> T:
        """One uniformly chosen item. Raises ValueError on an empty sequence."""
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items drawn without replacement, in draw order."""
        if k > len(items):
            raise ValueError(f"cannot draw {k} from {len(items)}")
        return self.shuffled(items)[:k] if k else []
