"""The physics-quality estimator on synthetic outcomes whose truth is known.

Each order has a fast mean and a physics mean that differs from it by a known amount (a
linear function of its features plus an order effect). Rounds share their luck across
orders (common random numbers) and a paired physics round follows its fast round closely,
as the real referees do. Over repeated seeds the estimate must be unbiased and its 95%
interval must cover the physics truth at the nominal rate.
"""

from __future__ import annotations

import numpy as np
import pytest

from kipp.analysis.difficulty import quality_estimate
from kipp.analysis.difficulty.quality_estimate import Totals, estimate, rounds_needed

N_ORDERS = 300
SCALE = 100  # outcomes are integers: values in hundredths


def _world(rng, tau=0.15):
    x = np.column_stack([np.ones(N_ORDERS), rng.integers(0, 2, size=(N_ORDERS, 3))]).astype(float)
    fast_mean = 6.0 + rng.normal(0.0, 0.8, N_ORDERS)
    delta = x @ np.array([0.3, 0.4, -0.2, 0.1]) + rng.normal(0.0, tau, N_ORDERS)
    return x, fast_mean, delta


def _outcomes(rng, mean, rounds, luck_sd=1.8, noise_sd=0.8):
    luck = rng.normal(0.0, luck_sd, size=(rounds, 1))
    return mean + luck + rng.normal(0.0, noise_sd, size=(rounds, mean.size))


def _sample(rng, x, fast_mean, delta, fast_rounds=200, paired_rounds=10, anchors=(400, 4000)):
    t = Totals.empty(N_ORDERS)
    t.add_fast(np.rint(SCALE * _outcomes(rng, fast_mean, fast_rounds)).astype(np.int64))
    fast = _outcomes(rng, fast_mean, paired_rounds)
    physics = fast + delta + rng.normal(0.0, 0.5, size=fast.shape)
    t.add_paired(np.rint(SCALE * physics).astype(np.int64), np.rint(SCALE * fast).astype(np.int64))
    physics_anchors, fast_anchors = anchors
    picked = rng.integers(N_ORDERS, size=physics_anchors)
    t.add_physics_anchors(np.rint(SCALE * (delta[picked] + rng.normal(0.0, 0.5, physics_anchors))).astype(np.int64))
    picked = rng.integers(N_ORDERS, size=fast_anchors)
    one_round_each = fast_mean[picked] + rng.normal(0.0, 1.8, fast_anchors) + rng.normal(0.0, 0.8, fast_anchors)
    t.add_fast_anchors(np.rint(SCALE * one_round_each).astype(np.int64))
    return t


def _repeated(design, world, seeds):
    """Per seed of ``seeds``: the estimate's error per order, and whether its interval covers the truth."""
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    estimates = [estimate(design(np.random.default_rng(seed), *world), x) for seed in seeds]
    return (np.array([e.mean - truth for e in estimates]),
            np.array([np.abs(e.mean - truth) <= 1.96 * e.se for e in estimates]))


def test_unbiased_and_covering_at_the_nominal_rate():
    errors, covered = _repeated(_sample, _world(np.random.default_rng(1)), range(100, 140))
    # the error averaged over seeds and orders is zero within its own noise
    per_seed = errors.mean(axis=1)
    assert abs(per_seed.mean()) < 3 * per_seed.std(ddof=1) / np.sqrt(len(per_seed))
    coverage = np.mean(covered)
    assert 0.92 <= coverage <= 0.985, coverage


def _sampled(rng, x, fast_mean, delta, fast_rounds=200, orders=120, rounds=6, fast_anchors=4000, noise_sd=0.8):
    """The sampled design: no paired rounds of all orders, ``orders`` drawn orders each play
    ``rounds`` paired rounds of their own (so their luck is their own), no physics anchors."""
    t = Totals.empty(N_ORDERS)
    t.add_fast(np.rint(SCALE * _outcomes(rng, fast_mean, fast_rounds, noise_sd=noise_sd)).astype(np.int64))
    index = np.sort(rng.choice(N_ORDERS, orders, replace=False))
    t.sampled(index, rounds)
    fast = fast_mean[index] + rng.normal(0.0, 1.8, (rounds, orders)) + rng.normal(0.0, 0.8, (rounds, orders))
    physics = fast + delta[index] + rng.normal(0.0, 0.5, size=fast.shape)
    t.add_sample(np.arange(orders), np.rint(SCALE * physics).astype(np.int64), np.rint(SCALE * fast).astype(np.int64))
    picked = rng.integers(N_ORDERS, size=fast_anchors)
    one_round_each = fast_mean[picked] + rng.normal(0.0, 1.8, fast_anchors) + rng.normal(0.0, 0.8, fast_anchors)
    t.add_fast_anchors(np.rint(SCALE * one_round_each).astype(np.int64))
    return t


@pytest.mark.parametrize("tau, most", [(0.15, 0.985), (0.0, 0.999)])
def test_the_sampled_correction_is_unbiased_and_covers(tau, most):
    """Paired rounds on a sample of the orders only: the orders not sampled are covered by the
    features' model and the random effect, the sampled ones also by their own rounds. Without
    an order effect the intervals over-cover: tau^2 is taken at its upper bound."""
    errors, covered = _repeated(_sampled, _world(np.random.default_rng(6), tau=tau), range(1000, 1100))
    per_seed = errors.mean(axis=1)
    assert abs(per_seed.mean()) < 3 * per_seed.std(ddof=1) / np.sqrt(len(per_seed))
    assert 0.92 <= np.mean(covered) <= most, np.mean(covered)


def test_the_sampled_correction_without_the_random_effect_would_be_caught():
    """The check can fail: without tau^2 the orders' own effects (tau = 0.3) would be missed
    for the orders that were not sampled."""
    world = _world(np.random.default_rng(7), tau=0.3)
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    totals = _sampled(np.random.default_rng(8), *world)
    est = estimate(totals, x)
    outside = np.ones(N_ORDERS, dtype=bool)
    outside[totals.sample_index] = False
    error, se = np.abs(est.mean - truth)[outside], est.se[outside]
    assert np.mean(error <= 1.96 * np.sqrt(se**2 - est.tau2)) < 0.85
    assert np.mean(error <= 1.96 * se) >= 0.9


def _useless_features_world(rng, tau=0.1, columns=12):
    """Orders whose physics-minus-fast difference is a constant plus an order effect: their
    ``columns`` binary features carry none of it."""
    x = np.column_stack([np.ones(N_ORDERS), rng.integers(0, 2, size=(N_ORDERS, columns))]).astype(float)
    fast_mean = 6.0 + rng.normal(0.0, 0.8, N_ORDERS)
    return x, fast_mean, 0.3 + rng.normal(0.0, tau, N_ORDERS)


def test_the_sampled_correction_keeps_the_features_only_where_they_predict(monkeypatch):
    """Features that carry the difference are kept; features that carry none are dropped in
    all but about the test's false-positive share of seeds (one-sided, 5%). Dropped, the
    intervals cover at the nominal rate and are narrower than with the features forced in
    (12 slopes fitted to noise)."""
    x = _world(np.random.default_rng(6))[0]
    assert all(estimate(_sampled(np.random.default_rng(seed), *_world(np.random.default_rng(6))), x).features_used
               for seed in range(1200, 1220))
    world = _useless_features_world(np.random.default_rng(11))
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    totals = [_sampled(np.random.default_rng(seed), *world, orders=260, rounds=10) for seed in range(1300, 1360)]
    chosen = [estimate(t, x) for t in totals]
    assert np.mean([e.features_used for e in chosen]) <= 0.15
    few = estimate(_sampled(np.random.default_rng(1299), *world, orders=200, rounds=10), x)  # < 20 per feature
    assert not few.features_used and np.isnan(few.features_explain)
    assert 0.92 <= np.mean([np.abs(e.mean - truth) <= 1.96 * e.se for e in chosen]) <= 0.99
    unsampled = [np.setdiff1d(np.arange(N_ORDERS), t.sample_index) for t in totals]
    plain = np.mean([e.corr_var[o].mean() for e, o in zip(chosen, unsampled) if not e.features_used])
    choose = quality_estimate._features_predict
    monkeypatch.setattr(quality_estimate, "_features_predict", lambda design, e: (True, *choose(design, e)[1:]))
    forced = np.mean([estimate(t, x).corr_var[o].mean() for e, t, o in zip(chosen, totals, unsampled)
                      if not e.features_used])
    assert forced > 1.05 * plain, (forced, plain)  # by about 12 (v + tau^2) / m: 10% here


def test_without_an_order_effect_the_pooled_model_carries_the_correction():
    """tau = 0: the features explain the whole difference; intervals still cover."""
    world = _world(np.random.default_rng(2), tau=0.0)
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    covered = [np.abs(e.mean - truth) <= 1.96 * e.se
               for e in (estimate(_sample(np.random.default_rng(seed), *world), x) for seed in range(20))]
    assert 0.92 <= np.mean(covered) <= 0.995


def test_an_ignored_correction_would_be_caught():
    """The check can fail: the fast-only value (without the correction) misses the truth."""
    world = _world(np.random.default_rng(3))
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    est = estimate(_sample(np.random.default_rng(4), *world), x)
    fast_only = est.mean - est.corr - est.grand_diff
    assert np.mean(np.abs(fast_only - truth) <= 1.96 * est.se) < 0.5


def test_round_luck_cancels_from_the_relative_part():
    """With the luck shared, the fast part's variance is the noise's, not the luck's."""
    rng = np.random.default_rng(5)
    world = _world(rng)
    est = estimate(_sample(rng, *world), world[0])
    rel_sd_per_round = np.sqrt(est.rel_var.mean() * 200) / SCALE
    assert rel_sd_per_round == pytest.approx(0.8, rel=0.1)  # noise_sd, not sqrt(1.8^2 + 0.8^2)


NOISE_SD = np.linspace(0.4, 1.6, N_ORDERS)
"""Per order: the round-to-round noise of its own (so some orders need more rounds than others)."""


def _topped_up(rng, x, fast_mean, delta, half_width=0.35, stages=3, panel=40, panel_mean=True):
    """The sampled design, then top-up stages: each order whose 95% half-width is above
    ``half_width`` plays the fast rounds its variance says it needs; a top-up round's orders
    share its luck, and a panel of ``panel`` orders drawn at random plays along (its mean stands
    in for the round's mean over all orders; ``panel_mean=False``: the topped-up orders' own mean
    instead, which is biased because they are not a random sample)."""
    t = _sampled(rng, x, fast_mean, delta, fast_rounds=60, noise_sd=NOISE_SD)
    for _ in range(stages):
        before = t.fast_rounds_per_order()
        after = rounds_needed(estimate(t, x), before, SCALE * half_width, most=2000)
        for j in range(int(before.min()), int(after.max())):
            index = np.flatnonzero((before <= j) & (j < after))
            if index.size == 0:
                continue
            luck = rng.normal(0.0, 1.8)
            y = np.rint(SCALE * (fast_mean[index] + luck + rng.normal(0.0, NOISE_SD[index]))).astype(np.int64)
            if panel_mean:
                drawn = rng.choice(N_ORDERS, panel, replace=False)
                p = np.rint(SCALE * (fast_mean[drawn] + luck + rng.normal(0.0, NOISE_SD[drawn]))).astype(np.int64)
                t.add_topup(index, y[None, :], p[None, :])
            else:
                _add_against_own_mean(t, index, y)
    return t


def _add_against_own_mean(t, index, y):
    """A top-up round whose deviations are taken from the topped-up orders' own mean (wrong)."""
    rounds, sums, squares = (np.zeros(t.n, dtype=np.int64) for _ in range(3))
    dev = np.rint(40 * (y - y.mean())).astype(np.int64)
    rounds[index], sums[index], squares[index] = 1, dev, dev * dev
    t.add_topup_totals(rounds, sums, squares, 40)


def test_top_up_rounds_meet_the_half_width_and_stay_unbiased_and_covering():
    """Orders of unequal noise: after the top-up stages every interval that fast rounds can
    narrow enough (its other parts well inside the target) is within the target, and the
    estimate is still unbiased and covers at the nominal rate."""
    world = _world(np.random.default_rng(9), tau=0.1)
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    target = SCALE * 0.35
    estimates = [estimate(_topped_up(np.random.default_rng(seed), *world, half_width=0.35), x)
                 for seed in range(300, 340)]
    errors = np.array([e.mean - truth for e in estimates])
    covered = np.array([np.abs(e.mean - truth) <= 1.96 * e.se for e in estimates])
    per_seed = errors.mean(axis=1)
    assert abs(per_seed.mean()) < 3 * per_seed.std(ddof=1) / np.sqrt(len(per_seed))
    assert 0.92 <= covered.mean() <= 0.99, covered.mean()
    reachable = np.array([e.se**2 - e.rel_var <= 0.8 * (target / 1.96) ** 2 for e in estimates])
    within = np.array([1.96 * e.se <= target for e in estimates])
    assert reachable.mean() > 0.5
    assert within[reachable].mean() >= 0.995, within[reachable].mean()
    # without the top-up most of them would be outside the target
    plain = [estimate(_sampled(np.random.default_rng(seed), *world, fast_rounds=60, noise_sd=NOISE_SD), x)
             for seed in range(300, 340)]
    plain_within = np.array([1.96 * e.se <= target for e in plain])
    assert plain_within[reachable].mean() < 0.6


def test_top_up_rounds_against_their_own_mean_would_be_caught():
    """The check can fail: the topped-up orders are the noisy ones, not a random sample, so
    their own mean is not the round's mean over all orders and the estimate shifts."""
    world = _world(np.random.default_rng(9), tau=0.1)
    world[1][NOISE_SD > 1.0] += 1.0  # the noisy orders are also the easy ones
    x, fast_mean, delta = world
    truth = SCALE * (fast_mean + delta)
    for panel, least, most in ((True, 0.9, 1.0), (False, 0.0, 0.7)):
        totals = _topped_up(np.random.default_rng(300), *world, panel_mean=panel)
        est, topped = estimate(totals, x), totals.topup_rounds > 0
        assert least <= np.mean(np.abs(est.mean - truth)[topped] <= 1.96 * est.se[topped]) <= most


def test_module_doctests():
    import doctest

    import kipp.analysis.difficulty.features
    import kipp.analysis.difficulty.quality_plan
    import kipp.analysis.difficulty.quality_tasks
    import kipp.analysis.orders
    import kipp.analysis.results_store
    import kipp.analysis.rounds
    for module in (kipp.analysis.difficulty.features, kipp.analysis.results_store, kipp.analysis.rounds,
                   kipp.analysis.orders, kipp.analysis.difficulty.quality_plan, kipp.analysis.difficulty.quality_tasks):
        assert doctest.testmod(module).failed == 0, module.__name__


@pytest.mark.parametrize("effect", ["normal", "exponential"])
def test_the_order_effect_bound_covers_at_the_nominal_rate(effect):
    # 200 sampled orders x 80 rounds (a twelve-barrel sweep's sample), an order effect of 0.06 SD
    # (a skilled sweep's, barrels) against round noise of 1: is the true tau^2 below its upper
    # bound 95% of the time? A skewed (exponential) effect has heavier tails than the bound's
    # chi-square assumes; Satterthwaite's degrees of freedom allow for them.
    rng = np.random.default_rng(21)
    tau, orders, rounds, replicates = 0.06, 200, 80, 400
    covered = []
    for _ in range(replicates):
        u = rng.normal(0.0, tau, orders) if effect == "normal" else rng.exponential(tau, orders) - tau
        d = u[:, None] + rng.normal(0.0, 1.0, (orders, rounds))
        e = d.mean(axis=1)
        bound = quality_estimate.order_effect(e - e.mean(), 1, float(d.var(axis=1, ddof=1).mean()) / rounds)
        covered.append(bound.upper >= tau**2)
    # 400 replicates: a 95% rate gives 0.95 +- 0.011 (SD); the normal approximation this replaced
    # covered 0.93 (normal) and 0.89 (exponential)
    assert np.mean(covered) >= 0.925


def test_without_spread_there_is_no_order_effect():
    effect = quality_estimate.order_effect(np.zeros(50), 1, 0.0)
    assert effect.estimate == effect.upper == 0.0
