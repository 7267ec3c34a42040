"""Intervals the benchmark reports share: a proportion's (Wilson) and a difference of means'."""

from __future__ import annotations

import math
from statistics import fmean, variance
from typing import Sequence


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (E. B. Wilson, JASA 22, 1927): ``(low, high)``
    for ``successes`` of ``n`` (a shared win counts its share); ``(0, 1)`` when ``n`` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_gap(a: Sequence[float], b: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """``mean(a) - mean(b)`` and its normal (Welch) interval ``(gap, low, high)``; the interval is
    unbounded (``-inf``, ``inf``) when either sample has fewer than 2 values, and the gap ``nan``
    when either is empty."""
    if not a or not b:
        return math.nan, -math.inf, math.inf
    gap = fmean(a) - fmean(b)
    if len(a) < 2 or len(b) < 2:
        return gap, -math.inf, math.inf
    half = z * math.sqrt(variance(a) / len(a) + variance(b) / len(b))
    return gap, gap - half, gap + half
