"""The physics-quality estimate of every order's difficulty from cheap fast rounds and a few physics ones.

For an order ``o`` and a round outcome ``y`` (barrels stacked, or 1 for a completed round)
the target is ``mu_o = E_k[y_ok]`` under the physics referee, ``k`` the round's luck (die
rolls, placement errors, wild choices: common random numbers, :mod:`kipp.analysis.rounds`).
It is written as four parts, each estimated from its own independent rounds::

    mu_o = grand_fast + grand_diff + rel_o + corr_o

- ``grand_fast``: the mean over all orders of the fast referee's ``mu``; from *fast anchor*
  rounds, each a uniformly drawn order in a round of its own.
- ``grand_diff``: the mean over all orders of physics minus fast; from *physics anchor*
  rounds, each an order and round of its own played by both referees (the paired
  difference: the fast round is the control variate of the physics one).
- ``rel_o``: how far the order is from the mean under the fast referee; from *fast rounds*
  that every order plays, ``mean_k (y_ok - m_k)`` with ``m_k`` the mean over orders of
  round ``k``. The round's luck (how many turns the die gives, say) moves every order
  alike and cancels, so the variance per round falls several-fold.
- ``corr_o``: how far the order's physics-minus-fast difference is from the mean
  difference; from *paired rounds* that every order plays with both referees,
  ``e_o = mean_k [(p_ok - f_ok) - (P_k - F_k)]`` (``P_k``, ``F_k`` the rounds' means over
  orders). ``e_o`` is unbiased but noisy with few paired rounds, so it is pooled: a
  linear model of ``e`` on the order's features (:mod:`kipp.analysis.difficulty.features`)
  plus a random order effect of variance ``tau^2``, combined with ``e_o`` by the best
  linear predictor (empirical Bayes): ``corr_o = g_o + w_o (e_o - g_o)``,
  ``w_o = tau^2 / (tau^2 + v_o)``, ``v_o`` the sampling variance of ``e_o``. ``tau^2``
  is the one-sided 95% upper bound of its moment estimate (:func:`order_effect`), so an
  order effect that the data cannot exclude is not taken as zero.

*Sampled correction* (for sweeps too large to play physics on every order, e.g. all 34,650
orders of a ``skilled`` bot, whose towers share few prefixes that a crash cuts off; and the
safer design from about a thousand orders on, as its orders' rounds are independent: a
paired round shared by all orders in which the referees part early moves every order of
that prefix at once, so a few such rounds dominate the pooled model's variance): instead
of paired rounds of all orders, ``m`` orders drawn at random each play ``r`` rounds of their
own (no luck shared with any other order) with both referees. Their mean differences
``e_o`` estimate ``d_o`` (the order's physics-minus-fast difference) directly, so they fix
the level as well and no physics anchors are needed: the model
``d_o = a + (x_o - xbar) b + u_o`` (``xbar`` the mean features over *all* orders) is fitted
to them by least squares, its coefficients' covariance by the robust (sandwich) formula
over the independent sampled orders; then ``grand_diff = a`` and
``corr_o = (x_o - xbar) b``, with the empirical-Bayes step for the sampled orders
themselves and the random effect ``tau^2`` (upper bound, as above) added for the rest.
The features are used only where they predict: the model with them is kept when its
leave-one-out error over the sampled orders is below that of the mean alone (``d_o = a +
u_o``) by more than 1.645 standard errors: fitted to noise, 25 slopes widen the intervals
(their variance adds about ``25 (v + tau^2) / m``) and explain nothing. So the sampled
correction tries the four *summary* features
(:func:`kipp.analysis.difficulty.features.summary_features`, from 100 sampled orders on;
:attr:`kipp.analysis.difficulty.quality_plan.Plan.correction_features`), not the 25 *layout* features
(:func:`kipp.analysis.difficulty.features.features`), too many for 200 sampled orders. Which of them
each committed sweep kept, and the share of the order effect they explain out of sample, are in
its record (``notebooks/results/sweeps.json``, ``correction``); how well the intervals cover
held-out orders, ``python -m lab.coverage_check`` (the record's ``coverage``). The bound on the order
effect comes from the residuals of the model the test chose, so it can be low.

*Top-up rounds* (for a target on every order's interval): after the planned rounds, an order
whose interval is still too wide plays more fast rounds, as many as its round-to-round
variance so far says it needs (:func:`rounds_needed`). Orders play them in groups that
share a round, so the group's mean is no longer the mean over all orders; each top-up round
also plays a *panel* of orders drawn at random for that round, whose mean ``M_k`` is an
unbiased stand-in for the round's mean over all orders. An order's relative part is then
the mean of ``y_ok - m_k`` over its planned rounds and ``y_ok - M_k`` over its top-up rounds,
each unbiased for ``mu_o - mean_o mu_o``. Which orders top up depends on their variance, not
their mean (a two-stage sample size, as in Stein's procedure).

The parts come from disjoint rounds, so the variance of the estimate is the sum of theirs;
the 95% interval is the estimate +- 1.96 standard errors (clipped to [0, 1] for
P(complete)). Every part is unbiased (the pooled one up to the model, whose error the
random effect carries). Sums are kept as integers scaled by the number of orders
(:class:`Totals`), so the result is exact whatever order tasks finish in.

Tests: ``tests/kipp/analysis/difficulty/test_quality_estimate.py`` (unbiased, and covering at the nominal
rate, on synthetic outcomes with a known truth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import chi2

from kipp.analysis.stats import Z95

TAU_UPPER_Z = 1.6448536269514722
"""One-sided 95% normal quantile (the features' test, :func:`_features_predict`)."""


@dataclass(frozen=True)
class OrderEffect:
    """The random order effect's variance ``tau^2`` (the outcome's unit squared): its moment
    estimate and the one-sided 95% upper bound the intervals take."""

    estimate: float
    upper: float


def order_effect(residual: np.ndarray, parameters: int, sampling_var: float) -> OrderEffect:
    """``tau^2`` from the orders' ``residual`` mean differences after a model of ``parameters``
    coefficients, each with sampling variance ``sampling_var`` on average (the noise of its rounds).

    The spread ``s^2`` (residual mean square) estimates ``tau^2 + sampling_var``; the estimate is
    their difference (at least 0). The bound is ``s^2`` at its one-sided 95% chi-square bound,
    ``s^2 df / chi2_0.05(df)``, less ``sampling_var``, with Satterthwaite's degrees of freedom
    ``df = 2 s^4 / Var(s^2)`` from the residuals' fourth moment (at most the residual degrees of
    freedom): a skewed or heavy-tailed order effect has fewer. On synthetic orders with a normal
    and with an exponential order effect the bound covers the true ``tau^2`` at about its nominal
    rate, where the normal-theory bound (``s^2`` plus 1.645 of its standard error) falls short
    (``tests/kipp/analysis/test_multifidelity.py``, ``test_the_order_effect_bound_covers_at_the_nominal_rate``).
    """
    m = residual.size
    dof = max(1, m - parameters)
    spread = float(np.sum(residual**2)) / dof
    estimate = max(0.0, spread - sampling_var)
    if spread <= 0.0:
        return OrderEffect(estimate, estimate)
    fourth = float(np.mean(residual**4))
    spread_var = max((fourth - spread**2 * (m - 3) / max(1, m - 1)) / m, spread**2 / dof)
    satterthwaite = min(float(dof), 2 * spread**2 / spread_var)
    upper = spread * satterthwaite / float(chi2.ppf(0.05, satterthwaite)) - sampling_var
    return OrderEffect(estimate, max(estimate, upper))


def _scaled_deviation(values: np.ndarray) -> np.ndarray:
    """``n * y_o - sum_o y`` per order of one round: the deviation from the round's mean, times n (exact)."""
    values = np.asarray(values, dtype=np.int64)
    return values.shape[-1] * values - values.sum(axis=-1, keepdims=True)


@dataclass
class Totals:
    """Integer sums of one outcome over every kind of round (see the module docstring).

    Arrays are per order; ``*_dev`` sums are of deviations scaled by ``n`` (the number of
    orders), so they stay integers.
    """

    n: int
    fast_rounds: int = 0
    rel_sum: np.ndarray = field(default=None)
    rel_sq: np.ndarray = field(default=None)
    paired_rounds: int = 0
    corr_sum: np.ndarray = field(default=None)
    corr_sq: np.ndarray = field(default=None)
    paired_round_devs: list = field(default_factory=list)
    """One array per paired round: its scaled deviations (kept for the pooled model's
    round-to-round variance)."""
    sample_index: np.ndarray | None = None
    """Sampled correction (module docstring): the sampled orders' indices (None: paired rounds
    of all orders instead)."""
    sample_rounds: int = 0
    """Rounds each sampled order played with both referees."""
    sample_sum: np.ndarray | None = None
    """Per sampled order: the sum over its rounds of physics minus fast."""
    sample_sq: np.ndarray | None = None
    topup_scale: int = 0
    """Panel size of the top-up rounds (their deviations are scaled by it); 0: none played."""
    topup_rounds: np.ndarray | None = None
    """Per order: top-up rounds played (fast rounds beyond ``fast_rounds``)."""
    topup_sum: np.ndarray | None = None
    """Per order: the sum of its top-up rounds' deviations from their panel's mean, times the panel size."""
    topup_sq: np.ndarray | None = None
    fast_anchors: int = 0
    fast_anchor_sum: int = 0
    fast_anchor_sq: int = 0
    physics_anchors: int = 0
    diff_anchor_sum: int = 0
    diff_anchor_sq: int = 0

    @classmethod
    def empty(cls, n: int) -> "Totals":
        zeros = lambda: np.zeros(n, dtype=np.int64)  # noqa: E731
        return cls(n, rel_sum=zeros(), rel_sq=zeros(), corr_sum=zeros(), corr_sq=zeros())

    def add_fast(self, y: np.ndarray) -> None:
        """Fast rounds every order played: ``y`` is (rounds x orders)."""
        dev = _scaled_deviation(np.atleast_2d(y))
        self.fast_rounds += dev.shape[0]
        self.rel_sum += dev.sum(axis=0)
        self.rel_sq += (dev * dev).sum(axis=0)

    def add_paired(self, physics: np.ndarray, fast: np.ndarray) -> None:
        """Paired rounds every order played with both referees: (rounds x orders) each."""
        dev = _scaled_deviation(np.atleast_2d(physics)) - _scaled_deviation(np.atleast_2d(fast))
        self.paired_rounds += dev.shape[0]
        self.corr_sum += dev.sum(axis=0)
        self.corr_sq += (dev * dev).sum(axis=0)
        self.paired_round_devs.extend(dev)

    def sampled(self, index: np.ndarray, rounds: int) -> "Totals":
        """Use the sampled correction: orders ``index`` each play ``rounds`` paired rounds of their own."""
        self.sample_index = np.asarray(index, dtype=np.int64)
        self.sample_rounds = rounds
        self.sample_sum = np.zeros(self.sample_index.size, dtype=np.int64)
        self.sample_sq = np.zeros(self.sample_index.size, dtype=np.int64)
        return self

    def add_sample(self, positions: np.ndarray, physics: np.ndarray, fast: np.ndarray) -> None:
        """Paired rounds of sampled orders (positions in ``sample_index``): (rounds x positions) each."""
        d = np.atleast_2d(np.asarray(physics, dtype=np.int64) - np.asarray(fast, dtype=np.int64))
        np.add.at(self.sample_sum, positions, d.sum(axis=0))
        np.add.at(self.sample_sq, positions, (d * d).sum(axis=0))

    def add_topup(self, index: np.ndarray, y: np.ndarray, panel: np.ndarray) -> None:
        """Top-up rounds of the orders ``index`` (distinct): ``y`` (rounds x orders) their outcomes,
        ``panel`` (rounds x P) those of the round's panel of P orders drawn at random."""
        y, panel = (np.atleast_2d(np.asarray(a, dtype=np.int64)) for a in (y, panel))
        dev = panel.shape[1] * y - panel.sum(axis=1, keepdims=True)
        rounds, sums, squares = (np.zeros(self.n, dtype=np.int64) for _ in range(3))
        rounds[index], sums[index], squares[index] = dev.shape[0], dev.sum(axis=0), (dev * dev).sum(axis=0)
        self.add_topup_totals(rounds, sums, squares, panel.shape[1])

    def add_topup_totals(self, rounds: np.ndarray, sums: np.ndarray, squares: np.ndarray, scale: int) -> None:
        """Top-up sums kept elsewhere (a results file's): per order the rounds, and the sums of the
        deviations and of their squares, scaled by the panel size ``scale``."""
        if self.topup_rounds is None:
            self.topup_scale = scale
            self.topup_rounds, self.topup_sum, self.topup_sq = (np.zeros(self.n, dtype=np.int64) for _ in range(3))
        if scale != self.topup_scale:
            raise ValueError(f"every top-up round needs a panel of {self.topup_scale} orders, got {scale}")
        self.topup_rounds = self.topup_rounds + rounds
        self.topup_sum = self.topup_sum + sums
        self.topup_sq = self.topup_sq + squares

    def fast_rounds_per_order(self) -> np.ndarray:
        """Per order: fast rounds played in all (planned and top-up)."""
        top = self.topup_rounds if self.topup_rounds is not None else 0
        return np.full(self.n, self.fast_rounds, dtype=np.int64) + top

    def add_fast_anchors(self, y: np.ndarray) -> None:
        y = np.asarray(y, dtype=np.int64)
        self.fast_anchors += y.size
        self.fast_anchor_sum += int(y.sum())
        self.fast_anchor_sq += int((y * y).sum())

    def add_physics_anchors(self, diff: np.ndarray) -> None:
        """Physics-minus-fast outcomes of physics anchor rounds."""
        d = np.asarray(diff, dtype=np.int64)
        self.physics_anchors += d.size
        self.diff_anchor_sum += int(d.sum())
        self.diff_anchor_sq += int((d * d).sum())


@dataclass
class Estimate:
    """Per order: the estimate, its standard error, and the parts (see the module docstring)."""

    mean: np.ndarray
    se: np.ndarray
    grand_fast: float
    grand_fast_var: float
    grand_diff: float
    grand_diff_var: float
    rel: np.ndarray
    rel_var: np.ndarray
    corr: np.ndarray
    corr_var: np.ndarray
    tau2: float
    """The random order effect's variance used (its upper bound)."""
    tau2_estimate: float
    """Its moment estimate."""
    features_explain: float
    """Sampled correction: the share of the order effect (the spread of ``e_o`` beyond its
    noise) that the features explain out of sample (leave one out; 0 when they were tried and
    dropped, nan when too few orders were sampled to try them: fewer than 20 per feature).
    Pooled: nan, as the orders share their paired rounds, so the spread of ``e_o`` over orders
    is not its noise plus the order effect."""
    features_used: bool
    """Whether the correction's model has the features (False: the mean alone)."""

    def interval(self, low: float = -math.inf, high: float = math.inf) -> tuple[np.ndarray, np.ndarray]:
        """The 95% interval, clipped to [low, high]."""
        return np.clip(self.mean - Z95 * self.se, low, high), np.clip(self.mean + Z95 * self.se, low, high)


def _mean_var(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and the variance of the mean of ``n`` values from their sums (nan without two)."""
    if n < 2:
        return (total / n if n else math.nan), math.nan
    mean = total / n
    return mean, max(0.0, (total_sq - n * mean * mean) / (n - 1)) / n


def estimate(totals: Totals, x: np.ndarray | None = None) -> Estimate:
    """The physics-quality estimate from ``totals``; ``x`` the orders' features (intercept first)
    for the pooled correction (None, or too few orders for them: the mean only)."""
    t = totals
    n = t.n
    grand_fast, grand_fast_var = _mean_var(t.fast_anchor_sum, t.fast_anchor_sq, t.fast_anchors)
    kf = t.fast_rounds_per_order()
    dev_sum, dev_sq = t.rel_sum / n, t.rel_sq / n**2
    if t.topup_rounds is not None:
        dev_sum, dev_sq = dev_sum + t.topup_sum / t.topup_scale, dev_sq + t.topup_sq / t.topup_scale**2
    rel = dev_sum / kf
    rel_var = np.maximum(0.0, (dev_sq - kf * rel**2) / (kf - 1)) / kf if t.fast_rounds > 1 else np.full(n, np.nan)
    if t.sample_index is None:
        grand_diff, grand_diff_var = _mean_var(t.diff_anchor_sum, t.diff_anchor_sq, t.physics_anchors)
        corr, corr_var, tau2, tau2_hat, explain, used = _pooled_correction(t, x)
    else:
        grand_diff, grand_diff_var, corr, corr_var, tau2, tau2_hat, explain, used = _sampled_correction(t, x)
    mean = grand_fast + grand_diff + rel + corr
    se = np.sqrt(grand_fast_var + grand_diff_var + rel_var + corr_var)
    return Estimate(mean, se, grand_fast, grand_fast_var, grand_diff, grand_diff_var, rel, rel_var, corr,
                    corr_var, tau2, tau2_hat, explain, used)


def rounds_needed(est: Estimate, rounds: np.ndarray, half_width: float, most: int,
                  inflate: float = 1.1) -> np.ndarray:
    """Per order: the fast rounds in all (at least ``rounds``, the ones played) that bring its
    95% half-width to ``half_width`` (in the estimate's unit), at the variance per round seen so
    far times ``inflate`` (room for that variance's own error). An order that cannot get there
    with fast rounds gets none: its other parts (the correction, the level) alone exceed
    ``half_width``, or it would need more than ``most``."""
    per_round = est.rel_var * rounds
    room = (half_width / Z95) ** 2 - (est.se**2 - est.rel_var)
    need = np.ceil(inflate * per_round / np.where(room > 0, room, 1.0))
    return np.maximum(np.where((room > 0) & (need <= most), need, rounds), rounds).astype(np.int64)


def _pooled_correction(t: Totals, x: np.ndarray | None):
    n, kp = t.n, t.paired_rounds
    if kp < 2:
        raise ValueError(f"the correction needs at least 2 paired rounds, got {kp}")
    e = t.corr_sum / (n * kp)
    s2 = np.maximum(0.0, (t.corr_sq / n**2 - kp * e**2) / (kp - 1))
    if x is None or n < 20 * x.shape[1]:
        x = np.ones((n, 1))
    p = x.shape[1]
    solve = np.linalg.pinv(x)  # (p x n): least squares coefficients of any y as solve @ y
    g = x @ (solve @ e)
    residual = e - g
    # the sampling variance of e_o, smoothed over similar orders (a per-order variance from a
    # few rounds is too noisy to weight by), kept above a tenth of its mean
    v = np.maximum(x @ (solve @ s2), 0.1 * s2.mean()) / kp
    effect = order_effect(residual, p, float(v.mean()))
    tau2_hat, tau2 = effect.estimate, effect.upper
    # (v = 0: both referees agreed on every paired round, so e_o is exact)
    w = np.divide(tau2, tau2 + v, out=np.ones_like(v), where=(tau2 + v) > 0)
    # the model's coefficients vary from paired round to paired round: their variance, from
    # the rounds as replicates, is the pooled part's uncertainty
    rounds = np.array(t.paired_round_devs, dtype=float) / n
    coefficients = rounds @ solve.T  # (rounds x p)
    g_var = np.einsum("ij,jk,ik->i", x, np.atleast_2d(np.cov(coefficients.T)), x) / kp
    corr = g + w * residual
    corr_var = w * v + (1 - w) ** 2 * g_var
    return corr, corr_var, tau2, tau2_hat, math.nan, p > 1


def _leave_one_out_residuals(design: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The leave-one-out residuals of the least-squares fit of ``e`` on ``design`` (infinite
    where a row is fitted by itself alone)."""
    u, s, _ = np.linalg.svd(design, full_matrices=False)
    u = u[:, s > s[0] * max(design.shape) * np.finfo(float).eps]
    leverage = (u**2).sum(axis=1)
    residual = e - u @ (u.T @ e)
    return np.where(leverage < 1 - 1e-9, residual / np.maximum(1e-300, 1 - leverage), math.inf)


def _features_predict(design: np.ndarray, e: np.ndarray) -> tuple[bool, float, float]:
    """Whether the model with features (``design``, intercept first) predicts the sampled
    orders' ``e`` better than their mean: its mean squared leave-one-out residual is lower by
    more than :data:`TAU_UPPER_Z` standard errors of the orders' paired differences. Also
    both mean squares (mean alone, with features)."""
    alone, with_features = (_leave_one_out_residuals(d, e) ** 2 for d in (design[:, :1], design))
    if not np.isfinite(with_features).all():
        return False, float(alone.mean()), math.inf
    gain = alone - with_features
    better = gain.mean() > TAU_UPPER_Z * gain.std(ddof=1) / math.sqrt(gain.size)
    return bool(better), float(alone.mean()), float(with_features.mean())


def _sampled_correction(t: Totals, x: np.ndarray | None):
    """The sampled correction (module docstring): grand_diff and its variance, then corr_o, its
    variance (with the cross term of the two, so that their variances add up), tau^2 used, its
    estimate, the share of the order effect the features explain out of sample, and whether the
    model has them."""
    index, r = t.sample_index, t.sample_rounds
    m = index.size
    if r < 2 or m < 2:
        raise ValueError(f"the sampled correction needs at least 2 orders of 2 rounds, got {m} of {r}")
    e = t.sample_sum / r
    s2 = np.maximum(0.0, (t.sample_sq - r * e**2) / (r - 1))
    centred, explained = np.ones((t.n, 1)), math.nan  # nan: too few sampled orders to try the features
    if x is not None and m >= 20 * x.shape[1]:
        candidate = np.column_stack([np.ones(t.n), x[:, 1:] - x[:, 1:].mean(axis=0)])
        better, alone, with_features = _features_predict(candidate[index], e)
        explained = 0.0
        if better:
            noise = float(np.mean(s2)) / r
            centred, explained = candidate, min(1.0, (alone - with_features) / max(1e-300, alone - noise))
    design = centred[index]
    p = design.shape[1]
    solve = np.linalg.pinv(design)
    coefficients = solve @ e
    residual = e - design @ coefficients
    covariance = (solve * residual**2) @ solve.T * m / max(1, m - p)  # robust: the orders are independent
    v = np.maximum(design @ (solve @ s2), 0.1 * s2.mean()) / r
    effect = order_effect(residual, p, float(v.mean()))
    tau2_hat, tau2 = effect.estimate, effect.upper
    grand_diff, grand_diff_var = float(coefficients[0]), float(covariance[0, 0])
    slopes = centred[:, 1:]
    g = slopes @ coefficients[1:]
    g_var = np.einsum("ij,jk,ik->i", slopes, covariance[1:, 1:], slopes) + 2 * slopes @ covariance[1:, 0]
    corr, corr_var = g.copy(), g_var + tau2  # an order not sampled: the model, and its own effect
    w = np.divide(tau2, tau2 + v, out=np.ones_like(v), where=(tau2 + v) > 0)
    corr[index] = g[index] + w * residual
    corr_var[index] = w * v + (1 - w) ** 2 * (g_var[index] + grand_diff_var) - grand_diff_var
    return grand_diff, grand_diff_var, corr, corr_var, tau2, tau2_hat, explained, p > 1
