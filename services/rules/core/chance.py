"""Chance: a deterministic random source built from the secret per-game seed.

Only the deck domain holds a :class:`Chance` (DESIGN "the deck service alone knows the
secret per-game seed"). The stream is sha256 in counter mode, so the same seed and label
give the same outcomes on every Python version and machine, which the byte-for-byte
determinism of the event log depends on.

A research adapter (``services.interop``) may instead give a :class:`Chance` an *outcome
source* (:data:`OutcomeSource`): every uniform draw (``below(n)``, and so every choice,
shuffle and sample) then asks the source for its outcome, so the adapter chooses chance
outcomes itself (OpenSpiel's explicit chance nodes: one ``n``-way node per draw) without
re-running moves. Without a source nothing changes: the same seed and label draw the
same outcomes as before.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")

OutcomeSource = Callable[[int], int]
"""``source(n) -> k`` with ``0 <= k < n``: the outcome of one uniform draw among ``n``, chosen
outside the rules (a research adapter's explicit chance node)."""


def new_seed() -> str:
    """A fresh secret seed (64 hex characters) for a game created without one."""
    return secrets.token_hex(32)


SHUFFLES_KEPT = 1024
"""How many first shuffles :data:`_SHUFFLES` keeps (then it starts afresh)."""
_SHUFFLES: dict[tuple[str, tuple], tuple[tuple, tuple[bytes, int, int, int]]] = {}
"""``(seed and label, items) -> (order, the stream's state after it)`` of a chance's first draw
when it is a shuffle (:meth:`Chance.shuffled`): the same shuffle again draws nothing. Held in
this process only, as the seed itself is."""


class Chance:
    """Uniform integers, choices and shuffles from ``sha256(seed, label, counter)``.

    Args:
        seed: the game's secret seed (any string).
        label: names the draw, e.g. ``"fishing:17"``; different labels are independent.
        source: if given, every draw's outcome comes from it instead (see
            :data:`OutcomeSource`); ``seed`` and ``label`` are then unused.
    """

    __slots__ = ("_key", "_seed", "_counter", "_pool", "_bits", "_source")

    def __init__(self, seed: str, label: str, source: OutcomeSource | None = None):
        self._source = source
        # the key sha256(seed, label) is worked out at the first draw: many chances are made
        # for an operation that may draw nothing (a shop refill with every shop full)
        self._seed: str | None = None if source is not None else f"{seed}\x00{label}"
        self._key = b""
        self._counter = 0
        self._pool = 0
        self._bits = 0

    def _block(self) -> int:
        """The next 256 bits of the stream (``sha256(key, counter)``), as an integer."""
        if self._seed is not None:
            self._key = hashlib.sha256(self._seed.encode()).digest()
            self._seed = None
        block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(block, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling, or the outcome source's answer
        when the chance has one. Raises ValueError if n < 1 or a source answers outside
        ``[0, n)``."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        if self._source is not None:
            v = self._source(n)
            if not 0 <= v < n:
                raise ValueError(f"the outcome source answered {v} for a draw among {n}")
            return v
        # the stream's next (n - 1).bit_length() bits (at least 1), most significant first,
        # again while they are n or more; the pool and its size kept in locals meanwhile
        k = (n - 1).bit_length() or 1
        pool, bits = self._pool, self._bits
        while True:
            while bits < k:
                pool = (pool << 256) | self._block()
                bits += 256
            bits -= k
            v = pool >> bits
            pool &= (1 << bits) - 1
            if v < n:
                self._pool, self._bits = pool, bits
                return v

    def choice(self, items: Sequence[T]) -> T:
        """One uniformly chosen item. Raises ValueError on an empty sequence."""
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy (Fisher-Yates: ``below(i + 1)`` for each ``i`` from the
        last down to 1).

        A chance's first draw being a shuffle of hashable items is remembered for its seed,
        label and items (:data:`_SHUFFLES`): the same shuffle again (a deck's order is worked
        out from its chance each time a card is drawn) gives the same order and leaves the
        stream where the first left it, without drawing."""
        out = list(items)
        memo = None
        if self._source is None and self._seed is not None:  # nothing drawn yet (the key is made then)
            try:
                memo = (self._seed, tuple(out))
                hit = _SHUFFLES.get(memo)
            except TypeError:  # unhashable items: shuffled every time
                memo = hit = None
            if hit is not None:
                order, (self._key, self._counter, self._pool, self._bits) = hit
                self._seed = None
                return list(order)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        if memo is not None:
            if len(_SHUFFLES) >= SHUFFLES_KEPT:
                _SHUFFLES.clear()
            _SHUFFLES[memo] = (tuple(out), (self._key, self._counter, self._pool, self._bits))
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items drawn without replacement, in draw order."""
        if k > len(items):
            raise ValueError(f"cannot draw {k} from {len(items)}")
        return self.shuffled(items)[:k] if k else []
