"""Least-squares fits of the directly measured parameters and of friction.

- Thread pitch: ``rise_mm = pitch * turns`` over every screw-rise reading (one pitch for
  all three screws, as in the model), fitted with :func:`scipy.optimize.least_squares`;
  the standard error from the Jacobian, ``cov = s^2 (J^T J)^-1``; a chi-square test of
  separate per-screw pitches against the common one flags screws that disagree.
- Screw positions, barrel dimensions and masses: the mean of the readings with its
  standard error ``s / sqrt(n)`` (a quantity read once gets the calliper's or scale's
  resolution / sqrt(12), if the file states it).
- Friction: ``tilt_i = atan(mu)`` over all slide tests (one mu for every pair, as in the
  model), least squares in angle; slide tests given as sailor turns are converted to
  tilt with the fitted ship. A chi-square test flags pairs (barrel-deck, barrel-barrel)
  that disagree.

Intervals are 95 %: Student t with the residual degrees of freedom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats

from calibration.measurements import BARREL_KEYS, PAIRS, Measurements
from sim.geometry import deck_gradient, tilt_angle
from sim.params import SCREWS, ShipParams

LEVEL = 0.95
"""Coverage of every stated interval."""


class CalibrationError(ValueError):
    """The data cannot give a sound fit: too little data, contradictions, unphysical results."""


@dataclass(frozen=True)
class Fitted:
    """One fitted parameter: ``key`` is its path in the parameter TOML (units in the name)."""

    key: str
    value: float
    stderr: float
    low: float
    high: float
    n: int
    source: str

    def covers(self, truth: float) -> bool:
        return self.low <= truth <= self.high


@dataclass(frozen=True)
class Quality:
    """Goodness of fit of one part: a line of text plus the numbers behind it."""

    part: str
    n: int
    text: str
    chi2: float | None = None
    dof: int | None = None
    p_value: float | None = None


def _t_interval(value: float, stderr: float, dof: int) -> tuple[float, float]:
    factor = stats.t.ppf(0.5 + LEVEL / 2, dof) if dof > 0 else stats.norm.ppf(0.5 + LEVEL / 2)
    return value - factor * stderr, value + factor * stderr


def fit_mean(key: str, readings: tuple[float, ...], resolution: float | None, source: str) -> Fitted:
    """Mean of repeated readings with its standard error and t interval."""
    values = np.asarray(readings, dtype=float)
    n = len(values)
    floor = resolution / math.sqrt(12) if resolution else 0.0
    if n == 1:
        if not resolution:
            raise CalibrationError(f"{key}: a single reading and no resolution in [meta]: "
                                   "measure it at least twice or state the instrument's resolution")
        stderr, dof = floor, 0
    else:
        stderr, dof = max(float(values.std(ddof=1)), floor) / math.sqrt(n), n - 1
    low, high = _t_interval(float(values.mean()), stderr, dof)
    return Fitted(key, float(values.mean()), stderr, low, high, n, source)


def fit_pitch(measurements: Measurements) -> tuple[Fitted, Quality]:
    """Thread pitch (mm per revolution) from the screw-rise readings."""
    rises = measurements.screw_rise
    if len(rises) < 2:
        raise CalibrationError(f"screw_rise: {len(rises)} reading(s); the pitch needs at least 2")
    turns = np.array([r.turns for r in rises])
    rise = np.array([r.rise_mm for r in rises])
    fit = optimize.least_squares(lambda p: rise - p[0] * turns, x0=[max(float(np.median(rise / turns)), 1e-3)])
    pitch = float(fit.x[0])
    residuals = fit.fun
    dof = len(rises) - 1
    s2 = float(residuals @ residuals) / dof
    floor = (measurements.length_resolution_mm or 0.0) ** 2 / 12
    s2 = max(s2, floor, 1e-12)  # exact data: no scatter to divide by
    stderr = math.sqrt(s2 / float(fit.jac[:, 0] @ fit.jac[:, 0]))
    low, high = _t_interval(pitch, stderr, dof)
    # do the screws agree? separate pitches against the common one (chi-square with the pooled variance)
    chi2, groups = 0.0, 0
    for sailor in SCREWS:
        mask = np.array([r.sailor == sailor for r in rises])
        if mask.any():
            own = float(rise[mask] @ turns[mask] / (turns[mask] @ turns[mask]))
            chi2 += (own - pitch) ** 2 * float(turns[mask] @ turns[mask]) / s2
            groups += 1
    p_value = float(stats.chi2.sf(chi2, groups - 1)) if groups > 1 else None
    rms = math.sqrt(float(residuals @ residuals) / len(rises))
    text = f"screw rise: {len(rises)} readings, rms residual {rms:.3f} mm"
    if p_value is not None:
        text += f"; screws agree on one pitch: chi2 {chi2:.2f} on {groups - 1} dof (p = {p_value:.2f})"
    return (Fitted("ship.thread_pitch_mm", pitch, stderr, low, high, len(rises), "screw_rise"),
            Quality("screw_rise", len(rises), text, chi2, groups - 1, p_value))


def fit_screws(measurements: Measurements) -> list[Fitted]:
    """Screw positions (mm) as means of the readings."""
    res = measurements.length_resolution_mm
    return [fit_mean(f"ship.screws.{sailor}.{axis}", measurements.screws[sailor][axis], res, "screws")
            for sailor in SCREWS if sailor in measurements.screws for axis in ("x_mm", "y_mm")]


def fit_barrels(measurements: Measurements) -> list[Fitted]:
    """Barrel dimensions (mm) and masses (g) as means of the readings."""
    out = []
    for size, table in measurements.barrels.items():
        for key in BARREL_KEYS:
            if key in table:
                res = measurements.mass_resolution_g if key == "mass_g" else measurements.length_resolution_mm
                out.append(fit_mean(f"barrels.{size}.{key}", table[key], res, "barrels"))
    return out


def slide_angles_deg(measurements: Measurements, ship: ShipParams) -> np.ndarray:
    """The deck tilt (deg) of every slide test; turn counts converted with ``ship``."""
    angles = []
    for test in measurements.slides:
        if test.tilt_deg is not None:
            angles.append(test.tilt_deg)
        else:
            gradient = deck_gradient(ship, dict(zip(SCREWS, test.turns)))
            angles.append(math.degrees(tilt_angle(gradient)))
    return np.array(angles)


def fit_friction(measurements: Measurements, ship: ShipParams) -> tuple[Fitted, Quality]:
    """mu from the slide tests: least squares of tilt_i - atan(mu), in degrees."""
    tests = measurements.slides
    if len(tests) < 2:
        raise CalibrationError(f"slide: {len(tests)} test(s); friction needs at least 2")
    angles = slide_angles_deg(measurements, ship)
    if np.any(angles <= 0.0):
        raise CalibrationError("slide: a test's turns leave the deck level; it cannot have slid there")
    fit = optimize.least_squares(lambda m: angles - np.degrees(np.arctan(m[0])),
                                 x0=[math.tan(math.radians(float(np.mean(angles))))], bounds=([1e-6], [np.inf]))
    mu = float(fit.x[0])
    residuals = fit.fun
    dof = len(tests) - 1
    s2 = max(float(residuals @ residuals) / dof, 1e-12)
    stderr = math.sqrt(s2 / float(fit.jac[:, 0] @ fit.jac[:, 0]))
    low, high = _t_interval(mu, stderr, dof)
    chi2, groups, means = 0.0, 0, []
    for pair in PAIRS:
        mask = np.array([t.pair == pair for t in tests])
        if mask.any():
            mean = float(angles[mask].mean())
            chi2 += (mean - math.degrees(math.atan(mu))) ** 2 * mask.sum() / s2
            groups += 1
            means.append(f"{pair} {mean:.2f} deg (n = {mask.sum()})")
    p_value = float(stats.chi2.sf(chi2, groups - 1)) if groups > 1 else None
    text = (f"slide: {len(tests)} tests, rms residual {math.sqrt(float(residuals @ residuals) / len(tests)):.2f} deg; "
            + ", ".join(means))
    if p_value is not None:
        text += f"; pairs agree on one mu: chi2 {chi2:.2f} on {groups - 1} dof (p = {p_value:.2f})"
    return (Fitted("friction.mu", mu, stderr, low, high, len(tests), "slide"),
            Quality("slide", len(tests), text, chi2, groups - 1, p_value))
