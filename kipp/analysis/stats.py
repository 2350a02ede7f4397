"""Confidence intervals for the analyses: Wilson for proportions, bounded t for means, each an
:class:`Interval` (the value with its 95% bounds).

No interval leaves the range its quantity can take: a share stays in [0, 1] (Wilson), and the
mean of values that lie in a known range (barrels stacked in [0, N], crashes per game in [0, 3],
a paired difference of shares in [-1, 1]) gets :data:`BOUNDED_T`, the Student t interval
intersected with that range. The intersection never loses coverage (the true mean is inside
the range, so whenever the t interval holds it, the intersection does too). A sample without
spread (all n values equal to m, or a single value), whose t interval would be a point or
undefined, gets instead the interval that the Wilson bound on the share of values *not*
equal to m gives: that share is at most u = the upper Wilson bound of 0 in n, and those
values lie in the range, so the mean lies in [m - u (m - low), m + u (high - m)]. (At a bound
of the range this is Wilson's interval of the mean scaled to [0, 1]; a paired difference of
shares, in [-1, 1], that was 0 in each of 50 rounds reads 0 [-0.071, +0.071].)

>>> share_interval(3, 10).text(2)
'0.30 [0.11, 0.60]'
>>> lo, hi = wilson_interval(0, 10)
>>> (lo, round(hi, 4))
(0.0, 0.2775)
>>> mean_interval([1.0, 2.0, 3.0])[0]
2.0
>>> mean_interval([11.0, 12.0, 12.0, 12.0], low=0, high=12)[2]
12.0
>>> [round(x, 3) for x in mean_interval([0.0, 0.0, 0.0, 0.0], low=0, high=3)]
[0.0, 0.0, 1.47]
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple, Sequence

from kipp.language import N_

Z95 = NormalDist().inv_cdf(0.975)
"""The standard normal quantile of a two-sided 95% interval (1.95996...)."""


class Interval(NamedTuple):
    """A value with its 95% interval, ``low <= value <= high`` (``nan`` bounds where it is undefined).
    A tuple ``(value, low, high)``: a JSON file holds it as ``[value, low, high]``."""

    value: float
    low: float
    high: float

    def text(self, digits: int, signed: bool = False) -> str:
        """``value [low, high]`` with ``digits`` decimals (``+`` signs with ``signed``)."""
        sign = "+" if signed else ""
        return f"{self.value:{sign}.{digits}f} [{self.low:{sign}.{digits}f}, {self.high:{sign}.{digits}f}]"

    def excludes_zero(self) -> bool:
        """Does the interval leave 0 out (a difference told apart from none)?"""
        return self.low > 0 or self.high < 0


UNDEFINED = Interval(math.nan, math.nan, math.nan)
"""No value and no interval (nothing to compare with, say)."""


def share_interval(successes: int, trials: int) -> Interval:
    """The share ``successes / trials`` with its 95% Wilson interval (:func:`wilson_interval`)."""
    return Interval(successes / trials, *wilson_interval(successes, trials))


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
    lo, hi = _wilson_share(successes / trials, trials, z)
    # At 0 or n successes the bound is exactly 0 or 1; rounding must not leave it a hair off.
    return (0.0 if successes == 0 else lo), (1.0 if successes == trials else hi)


def _wilson_share(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of an observed share ``p`` of ``n`` trials, within [0, 1]."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _t_quantile(df: int) -> float:
    from scipy.stats import t  # scipy is heavy: only when a mean interval is asked for

    return float(t.ppf(0.975, df))


BOUNDED_T = N_("Student t within the possible range (a Wilson bound where the sample has no spread)")
"""What :func:`mean_interval` gives when the values' range is known (the tables say so, translated there)."""


def mean_interval_from_sums(total: float, total_sq: float, n: int, *, low: float = -math.inf,
                            high: float = math.inf) -> Interval:
    """The mean of n values that each lie in [``low``, ``high``]
    and its 95% interval (:data:`BOUNDED_T`, see the module docstring), from their sum and sum of
    squares.

    Without a finite range, one value has an undefined interval (``nan`` bounds) and values
    without spread the plain t interval, a point.
    """
    if n == 0:
        return UNDEFINED
    mean = total / n
    variance = max(0.0, (total_sq - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    bounded = math.isfinite(low) and math.isfinite(high)
    # sums of squares of equal values can leave a rounding residue; a spread that small is none
    if bounded and variance <= 1e-12 * max(1.0, mean * mean):
        other = _wilson_share(0.0, n)[1]  # the most the share of values unlike these can be
        return Interval(mean, float(max(low, mean - other * (mean - low))),
                        float(min(high, mean + other * (high - mean))))
    if n == 1:
        return Interval(mean, math.nan, math.nan)
    half = _t_quantile(n - 1) * math.sqrt(variance / n)
    return Interval(mean, float(max(low, mean - half)), float(min(high, mean + half)))


def mean_interval(values: Sequence[float], *, low: float = -math.inf,
                  high: float = math.inf) -> Interval:
    """The mean with its 95% interval (an :class:`Interval`) for values in [``low``, ``high``]
    (:func:`mean_interval_from_sums`)."""
    values = [float(v) for v in values]
    return mean_interval_from_sums(sum(values), sum(v * v for v in values), len(values), low=low, high=high)


def histogram_moments(hist: Sequence[int]) -> tuple[int, int, int]:
    """(n, sum, sum of squares) of values 0, 1, 2, ... counted ``hist[v]`` times."""
    n = sum(hist)
    total = sum(v * c for v, c in enumerate(hist))
    total_sq = sum(v * v * c for v, c in enumerate(hist))
    return n, total, total_sq
