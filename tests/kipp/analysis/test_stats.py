"""Confidence intervals against known binomial and normal cases."""

from __future__ import annotations

import math

import pytest
from scipy.stats import binomtest

from kipp.analysis.stats import histogram_moments, mean_interval, mean_interval_from_sums, wilson_interval


@pytest.mark.parametrize("k, n, low, high", [
    # Wilson (1927) score intervals, z = 1.959964; e.g. Newcombe (1998) Table I case 0/10.
    (0, 10, 0.0, 0.2775),
    (1, 10, 0.0179, 0.4042),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),  # Newcombe (1998) example 81/263
])
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


@pytest.mark.parametrize("k, n", [(0, 1), (3, 7), (17, 200), (199, 200), (500, 1000)])
def test_wilson_matches_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson_interval(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_wilson_rejects_impossible_counts_and_has_no_interval_without_trials():
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_t_interval_of_a_known_sample():
    # mean 5, sd 2, n = 4: half width t(0.975, 3) * 2 / 2 = 3.182446
    mean, lo, hi = mean_interval([3.0, 5.0, 7.0, 5.0 + 0.0])
    values = [3.0, 5.0, 7.0, 5.0]
    assert mean == 5.0
    sd = math.sqrt(sum((v - 5.0) ** 2 for v in values) / 3)
    assert hi - mean == pytest.approx(3.182446305 * sd / 2, rel=1e-8)
    assert mean - lo == pytest.approx(hi - mean)


def test_moments_from_a_histogram():
    n, total, total_sq = histogram_moments([1, 0, 2, 1])  # values 0, 2, 2, 3
    assert (n, total, total_sq) == (4, 7, 17)
    assert mean_interval_from_sums(total, total_sq, n) == pytest.approx(mean_interval([0, 2, 2, 3]))
    assert math.isnan(mean_interval([4.0])[1])
