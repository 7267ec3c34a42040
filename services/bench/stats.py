"""Intervals the benchmark reports share: a proportion's (Wilson), a difference of means' and a
median's (distribution-free)."""

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


def median_interval(values: list[float], z: float = 1.96) -> tuple[float, float]:
    """The distribution-free interval of a median: the order statistics of ranks
    ``n/2 -/+ z*sqrt(n)/2`` of the sorted ``values`` (the normal approximation of the binomial;
    W. J. Conover, Practical Nonparametric Statistics, 3rd ed., 1999, section 3.2). ``(nan, nan)``
    for no values; at small ``n`` the ends are the extremes."""
    if not values:
        return math.nan, math.nan
    ordered = sorted(values)
    n = len(ordered)
    half = z * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half) - 1)
    high = min(n - 1, math.ceil(n / 2 + half))
    return ordered[low], ordered[high]
