"""Bounded maximum likelihood for topple experiments and game records.

Parameters (model of :mod:`calibration.topple_model`):

- ``sigma_topple_mm``: placement error (per axis) of the person who built the towers of
  the topple experiments;
- ``sigma_game_mm``: placement error of the people in the recorded game rounds, the
  skill bots imitate (``Bot(sigma_mm=...)``);
- ``turn_margin_deg``: how far below its static toppling angle a real turn topples a
  tower. Fitted from topple experiments; with game records only it is held at
  :data:`DEFAULT_MARGIN_DEG` (and reported as assumed).

The negative log-likelihood is minimised with L-BFGS-B within :data:`BOUNDS`; standard
errors come from the inverse of a central-difference Hessian (Wald 95 % intervals).
Goodness of fit per data kind: deviance (-2 log L), observed against expected crashes
over the turns at risk, and a Hosmer-Lemeshow test of the turn-by-turn hazards.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, stats

from calibration.direct_fit import LEVEL, CalibrationError, Fitted, Quality
from calibration.measurements import GameRound, Measurements, ToppleExperiment
from calibration.topple_model import Batch, Step, Trial, phases
from sim.params import Params
from sim.seeds import stream

DEFAULT_MARGIN_DEG = 0.5
"""The turn margin assumed without topple experiments (DESIGN.md 3: 0.5-0.7 deg for a 1 s turn)."""
BOUNDS = {"sigma_topple_mm": (0.02, 8.0), "sigma_game_mm": (0.02, 8.0), "turn_margin_deg": (-2.0, 4.0)}
MIN_TRIALS = 5
"""Fewer topple experiments or game rounds than this are too few to fit anything."""
N_DRAWS = 200
"""Placement draws per trial for the simulated likelihood."""


def topple_trial(params: Params, experiment: ToppleExperiment) -> Trial:
    """The model's view of a topple experiment (turns after the fall are irrelevant)."""
    last = experiment.fell_after_turn or len(experiment.turns)
    steps = [Step(s, experiment.revolutions, False) for s in experiment.turns[:last]]
    fell = None if experiment.fell_after_turn is None else experiment.fell_after_turn - 1
    return Trial(experiment.order, tuple(phases(params, len(experiment.order), steps)), last, fell)


def round_trial(params: Params, game_round: GameRound) -> Trial:
    """The model's view of a recorded game round."""
    steps = [Step(sailor, game_round.revolutions, place) for sailor, place in game_round.turns()]
    fell = len(steps) - 1 if game_round.crashed else None
    return Trial(game_round.order, tuple(phases(params, 0, steps)), len(steps), fell)


def make_batch(params: Params, trials: list[Trial], rng: np.random.Generator, n_draws: int = N_DRAWS) -> Batch:
    """Placement draws for every trial: antithetic pairs (z, -z), which cancel the first-order
    Monte Carlo error of a tower leaning one way or the other."""
    half = [rng.standard_normal(((n_draws + 1) // 2, len(t.sizes), 2)) for t in trials]
    return Batch(params, trials, [np.concatenate([z, -z])[:n_draws] for z in half])


def _hessian(f, x: np.ndarray, steps: np.ndarray) -> np.ndarray:
    n = len(x)
    hess = np.empty((n, n))
    f0 = f(x)
    for i in range(n):
        ei = np.eye(n)[i] * steps[i]
        hess[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / steps[i] ** 2
        for j in range(i):
            ej = np.eye(n)[j] * steps[j]
            hess[i, j] = hess[j, i] = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (
                4 * steps[i] * steps[j])
    return hess


HL_BINS = 5
"""Bins of the Hosmer-Lemeshow test (at-risk turns sorted by their predicted hazard)."""


def hosmer_lemeshow(y: np.ndarray, h: np.ndarray, bins: int = HL_BINS) -> tuple[float, int, list[tuple]]:
    """Hosmer-Lemeshow statistic of crash indicators ``y`` against predicted hazards ``h``.

    The turns are sorted by hazard and cut into ``bins`` groups of equal expected crashes
    (so that no group is empty of expected events); returns (statistic, dof, rows of
    (turns, observed, expected, mean hazard)).
    """
    order = np.argsort(h)
    y, h = y[order], h[order]
    edges = np.searchsorted(np.cumsum(h) / h.sum(), np.linspace(0, 1, bins + 1)[1:-1])
    rows, stat = [], 0.0
    for part_y, part_h in zip(np.split(y, edges), np.split(h, edges)):
        if len(part_y) == 0:
            continue
        expected = float(part_h.sum())
        variance = float(np.sum(part_h * (1 - part_h)))
        stat += (float(part_y.sum()) - expected) ** 2 / max(variance, 1e-12)
        rows.append((len(part_y), int(part_y.sum()), expected, float(part_h.mean())))
    return stat, max(len(rows) - 2, 1), rows


def _quality(part: str, trials: list[Trial], observed: np.ndarray, hazards: list[np.ndarray]) -> Quality:
    """Observed against expected crashes turn by turn (each turn a tower was standing at its start)."""
    y = np.concatenate([np.eye(t.n_groups)[t.fell_group] if t.fell_group is not None else np.zeros(t.n_groups)
                        for t in trials])
    h = np.clip(np.concatenate(hazards), 1e-12, 1 - 1e-12)
    stat, dof, _ = hosmer_lemeshow(y, h)
    p_value = float(stats.chi2.sf(stat, dof))
    deviance = float(-2 * np.sum(np.log(np.maximum(observed, 1e-300))))
    text = (f"{part}: {len(trials)} trials, {len(y)} turns at risk, {int(y.sum())} crashes (model expects "
            f"{h.sum():.1f}); deviance {deviance:.1f}; Hosmer-Lemeshow {stat:.1f} on {dof} dof (p = {p_value:.2f})")
    return Quality(part, len(trials), text, stat, dof, p_value)


def fit_likelihood(params: Params, measurements: Measurements, seed: int = 0,
                   n_draws: int = N_DRAWS) -> tuple[list[Fitted], list[Quality], list[str]]:
    """Fit sigma(s) and the turn margin to the topple experiments and game rounds.

    Returns the fitted values, the fit quality per data kind and warnings. Raises
    :class:`CalibrationError` for too few trials or outcomes that carry no information.
    """
    warnings: list[str] = []
    rng = stream(seed, "likelihood")
    kinds = []
    for part, records, builder, names in (
            ("topple", measurements.topples, topple_trial, ("sigma_topple_mm", "turn_margin_deg")),
            ("round", measurements.rounds, round_trial, ("sigma_game_mm",))):
        if not records:
            continue
        if len(records) < MIN_TRIALS:
            raise CalibrationError(f"{part}: {len(records)} record(s); at least {MIN_TRIALS} are needed to fit "
                                   f"{' and '.join(names)} (or remove the section)")
        outcomes = {r.fell_after_turn is not None if part == "topple" else r.crashed for r in records}
        if part == "topple" and len(outcomes) == 1:
            what = "fell" if outcomes == {True} else "stood"
            raise CalibrationError(f"topple: every experiment {what}; such data cannot place the toppling "
                                   "threshold. Add experiments that end the other way")
        trials = [builder(params, r) for r in records]
        kinds.append((part, trials, make_batch(params, trials, rng, n_draws), names))
    if not kinds:
        return [], [], []

    names = [name for _, _, _, kind_names in kinds for name in kind_names]
    fixed_margin = "turn_margin_deg" not in names
    if fixed_margin:
        warnings.append(f"turn_margin_deg held at {DEFAULT_MARGIN_DEG} deg (assumed): no topple experiments")

    def unpack(x: np.ndarray) -> dict[str, float]:
        values = dict(zip(names, (float(v) for v in x)))
        values.setdefault("turn_margin_deg", DEFAULT_MARGIN_DEG)
        return values

    def negloglik(x: np.ndarray) -> float:
        values = unpack(x)
        total = 0.0
        for part, _, batch, _ in kinds:
            sigma = values["sigma_topple_mm" if part == "topple" else "sigma_game_mm"]
            observed, _ = batch.outcome_probabilities(sigma, values["turn_margin_deg"])
            total -= float(np.sum(np.log(np.maximum(observed, 1e-300))))
        return total

    start = np.array([{"sigma_topple_mm": 1.0, "sigma_game_mm": 1.5, "turn_margin_deg": DEFAULT_MARGIN_DEG}[n]
                      for n in names])
    bounds = [BOUNDS[n] for n in names]
    result = optimize.minimize(negloglik, start, method="L-BFGS-B", bounds=bounds)
    if not result.success:
        warnings.append(f"likelihood fit: the optimiser reports {result.message}")
    x = result.x
    steps = np.maximum(np.abs(x) * 0.1, 0.05)  # wide enough to average over Monte Carlo roughness
    at_bound = [abs(v - lo) < 1e-6 or abs(v - hi) < 1e-6 for v, (lo, hi) in zip(x, bounds)]
    inner = np.array([not b for b in at_bound])
    stderr = np.full(len(x), np.nan)
    if inner.any():
        def sub(y: np.ndarray) -> float:
            full = x.copy()
            full[inner] = y
            return negloglik(full)
        hess = _hessian(sub, x[inner], np.minimum(steps[inner], 0.5 * np.array(
            [min(v - lo, hi - v) for v, (lo, hi) in zip(x[inner], np.array(bounds)[inner])])))
        try:
            cov = np.linalg.inv(hess)
            if np.any(np.diag(cov) <= 0):
                raise np.linalg.LinAlgError
            stderr[inner] = np.sqrt(np.diag(cov))
        except np.linalg.LinAlgError:
            raise CalibrationError(f"likelihood fit: {', '.join(names)} are not determined by these data "
                                   "(flat or saddle likelihood); add more varied experiments") from None
    z = stats.norm.ppf(0.5 + LEVEL / 2)
    fitted = []
    for name, value, se, bound in zip(names, x, stderr, at_bound):
        source = "topple" if name != "sigma_game_mm" else "round"
        n = len(next(t for p, t, _, _ in kinds if p == source))
        if bound:
            warnings.append(f"{name} = {value:.3g} is at its bound {BOUNDS[name]}: the data do not determine it")
            fitted.append(Fitted(name, float(value), float("nan"), float("nan"), float("nan"), n, source))
        else:
            fitted.append(Fitted(name, float(value), float(se), float(value - z * se), float(value + z * se), n,
                                 source))
    values = unpack(x)
    quality = []
    for part, trials, batch, _ in kinds:
        sigma = values["sigma_topple_mm" if part == "topple" else "sigma_game_mm"]
        observed, _ = batch.outcome_probabilities(sigma, values["turn_margin_deg"])
        hazards = batch.hazards(sigma, values["turn_margin_deg"])
        quality.append(_quality(part, trials, observed, hazards))
        for index in np.flatnonzero(observed < 1e-4):
            warnings.append(f"{part}[{index}]: the fitted model gives this outcome a chance of "
                            f"{observed[index]:.1e}; check the record")
    return fitted, quality, warnings
