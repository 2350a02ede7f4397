"""Confidence intervals for the analyses: Wilson for proportions, t for means.

>>> lo, hi = wilson_interval(0, 10)
>>> (lo, round(hi, 4))
(0.0, 0.2775)
>>> mean_interval([1.0, 2.0, 3.0])[0]
2.0
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Sequence

Z95 = NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.95996...)."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Unlike the plain normal interval it stays inside [0, 1] and is sensible at 0 or n
    successes, which matter here: most orders are rarely completed. ``(nan, nan)`` for no
    trials.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return math.nan, math.nan
    n = trials
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not leave it a hair off.
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def _t_quantile(df: int) -> float:
    from scipy.stats import t  # scipy is heavy: only when a mean interval is asked for

    return float(t.ppf(0.975, df))


def mean_interval_from_sums(total: float, total_sq: float, n: int) -> tuple[float, float, float]:
    """(mean, low, high): the mean of n values and its 95% Student-t interval from sums.

    With one value (or none) the interval is undefined: ``nan`` bounds.
    """
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n == 1:
        return mean, math.nan, math.nan
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = _t_quantile(n - 1) * math.sqrt(variance / n)
    return mean, mean - half, mean + half


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) with a 95% Student-t interval."""
    values = [float(v) for v in values]
    return mean_interval_from_sums(sum(values), sum(v * v for v in values), len(values))


def histogram_moments(hist: Sequence[int]) -> tuple[int, int, int]:
    """(n, sum, sum of squares) of values 0, 1, 2, ... counted ``hist[v]`` times."""
    n = sum(hist)
    total = sum(v * c for v, c in enumerate(hist))
    total_sq = sum(v * v * c for v, c in enumerate(hist))
    return n, total, total_sq
