"""No interval leaves the range its quantity can take, even on tiny samples (4 games, 4 rounds):
shares in [0, 1], barrels in [0, N], crashes per game in [0, 3], paired differences of shares in
[-1, 1]; tables say when a difference or a ranking is not resolved; every plot's title names
the player model, the referee and the sample size."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kipp.analysis.compare import format_compare, run_compare, verdict
from kipp.analysis.difficulty.sweeps import TuneRun, format_table, read_summaries, run_sweep
from kipp.analysis.orders import sample_orders
from kipp.analysis.rounds import RoundModel
from kipp.analysis.stats import mean_interval, wilson_interval
from kipp.rules.config import ROUNDS
from sim.params import load_params
from sim.referees import registered_referee
from tests.kipp.kipp_referees import ThresholdReferee

PARAMS = load_params()


def threshold(params):
    return ThresholdReferee(seed=2, crash_rate=0.03, tilt_budget_deg=60.0, ship=params.ship)


@pytest.fixture
def threshold_registered():
    """The sweeps of the tests that ask for it name their referee ``threshold``."""
    with registered_referee("threshold", threshold):
        yield


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 12).flatmap(lambda top: st.tuples(
    st.just(top), st.lists(st.integers(0, top), min_size=1, max_size=6))))
def test_a_mean_of_bounded_values_keeps_its_interval_in_the_range(case):
    top, values = case
    mean, low, high = mean_interval(values, low=0, high=top)
    assert 0 <= low <= mean <= high <= top
    assert mean == pytest.approx(np.mean(values))


@pytest.mark.parametrize("values, low, high", [
    ([0, 0, 0, 0], 0, 3),        # four games without a crash
    ([12, 12, 12, 12], 0, 12),   # four completed towers
    ([0.0, 0.0, 0.0, 0.0], -1, 1),  # a variant that changed no game
    ([5], 0, 12),                # one value
])
def test_a_sample_without_spread_still_gets_an_interval_of_some_width(values, low, high):
    """The t interval of such a sample is a point (or undefined); the true mean need not be
    that value, so the interval must have width, and stay in the range."""
    mean, lo, hi = mean_interval(values, low=low, high=high)
    assert low <= lo <= mean <= hi <= high and hi - lo > 0.1 * (high - low) / len(values)


def test_the_bounded_interval_is_the_t_interval_where_that_stays_inside():
    values = [5.0, 6.0, 7.0, 6.0, 5.5]
    assert mean_interval(values, low=0, high=12) == pytest.approx(mean_interval(values))


def test_the_zero_spread_interval_bounds_the_share_of_other_values_by_wilson():
    """Four games without a crash, crashes per game in [0, 3]: at most Wilson(0 of 4) of all games
    have a crash, of at most 3; a paired difference that was 0 in all of 50 rounds, in [-1, 1]:
    within +- Wilson(0 of 50)."""
    _, lo, hi = mean_interval([0, 0, 0, 0], low=0, high=3)
    assert (lo, hi) == pytest.approx((0.0, 3 * wilson_interval(0, 4)[1]))
    _, lo, hi = mean_interval([0] * 50, low=-1, high=1)
    assert (lo, hi) == pytest.approx((-wilson_interval(0, 50)[1], wilson_interval(0, 50)[1]))
    assert hi == pytest.approx(0.0714, abs=1e-4)


def test_bounded_coverage_on_a_skewed_variable():
    """Barrels stacked near the top (mostly 12): the bounded interval covers the true mean at
    least as often as the plain t interval (it only drops impossible values) and stays in range."""
    rng = np.random.default_rng(3)
    truth = 12 - 0.3
    covered = plain = 0
    for _ in range(2000):
        values = 12 - rng.binomial(1, 0.1, size=8) * 3  # 12 or 9, mean 11.7
        _, lo, hi = mean_interval(values, low=0, high=12)
        _, plo, phi = mean_interval(values)
        assert 0 <= lo and hi <= 12
        covered += lo <= truth <= hi
        plain += (not math.isnan(plo)) and plo <= truth <= phi
    assert covered >= plain


def test_kipp_compare_with_four_games_stays_in_range_and_says_what_is_not_resolved(threshold_registered):
    summaries = run_compare(4, players=2, seed=0, params=PARAMS, referee="threshold", workers=1)
    for s in summaries:
        barrels = 9 if "nine" in s.arm else 12
        for (mean, lo, hi), (least, most) in ((s.completion, (0, 1)), (s.stacked, (0, barrels)),
                                              (s.crashes, (0, ROUNDS)), (s.winner_chips, (0, 25)),
                                              (s.turns, (0, math.inf))):
            assert least <= lo <= mean <= hi <= most, s
        if s.arm != "standard":
            mean, lo, hi = s.completion_vs_standard
            assert -1 <= lo <= mean <= hi <= 1
            mean, lo, hi = s.stacked_vs_standard
            assert -12 <= lo <= mean <= hi <= 12
    text = format_compare(summaries, 2)
    assert "Student t within the possible range" in text
    assert "not resolved: the 95% interval holds 0" in text


def test_verdict_says_resolved_only_when_the_interval_excludes_zero():
    assert verdict((0.2, 0.05, 0.4), "more", "fewer") == "more"
    assert verdict((-0.2, -0.4, -0.01), "more", "fewer") == "fewer"
    assert verdict((0.2, -0.05, 0.4), "more", "fewer") == "not resolved"


def test_kipp_tune_with_four_rounds_stays_in_range_and_judges_its_ranking(tmp_path, threshold_registered):
    out = tmp_path / "r.sqlite"
    run_sweep(TuneRun(RoundModel(barrels=9), 1, 4, "threshold", "default", "test"), sample_orders(30, 9, seed=2),
              PARAMS, out)
    summaries = read_summaries(out)
    for s in summaries:
        assert 0 <= s.p_low <= s.p_complete <= s.p_high <= 1
        assert 0 <= s.stacked_low <= s.mean_stacked <= s.stacked_high <= 9
    text = format_table(summaries, top=3)
    assert "Ranking at 95% confidence (P(complete)):" in text
    assert "the 3 hardest: NOT resolved" in text  # 4 rounds tell no order apart


def test_plot_titles_name_model_referee_and_sample_and_panels_differ(threshold_registered):
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from kipp.analysis.compare import compare_figure
    from kipp.analysis.difficulty.sweeps import summarise_row
    from kipp.analysis.plots import tune_figure

    about = "casual, fast referee, 10 rounds per order"
    orders = [summarise_row(line, 10, c, hist) for line, c, hist in [
        ("LLLLMMMMSSSS", 2, [0] * 6 + [3, 1, 1, 1, 1, 1, 2]),
        ("SSSSMMMMLLLL", 0, [2] * 5 + [0] * 8)]]
    fig = tune_figure(orders, about)
    titles = [ax.get_title() for ax in fig.axes]
    assert all(about in t for t in titles) and len(set(titles)) == len(titles)
    plt.close(fig)
    summaries = run_compare(2, players=2, seed=0, params=PARAMS, referee="threshold", workers=1)
    fig = compare_figure(summaries, "casual, fast referee, 2 games per arm")
    assert all("casual, fast referee, 2 games per arm" in ax.get_title() for ax in fig.axes)
    plt.close(fig)
