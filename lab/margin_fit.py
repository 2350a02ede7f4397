"""Fit the fast referee's dynamic margins, and the hybrid's band, to the physics referee.

The fast referee (:mod:`sim.referees.fast`) calls a crash when a phase's static margin
(the extra deck tilt the tower would stand, :mod:`sim.static_check`) is below a
threshold: ``place_margin_deg`` for a placement, ``turn_margin_deg +
turn_margin_deg_per_m * height`` for a turn (height of the tower's top, metres). The
three numbers are fitted by maximum likelihood to the physics referee's decisions on the
benchmark situations (``lab/data/benchmark_situations.json``): a crash has probability

    P = 1 - (1 - s((c - m_place) / w)) (1 - s((a + b h - m_turn) / w)),   s the logistic,

a smooth stand-in for the 0/1 rule whose width ``w`` (deg) is fitted too
(:func:`scipy.optimize.minimize`, Nelder-Mead, from a = 0.5, b = 0, c = 0). The hybrid's
band is then the smallest ``hybrid_band_deg`` for which deciding by physics every
situation with a margin within the band of its threshold (and by the fast rule
elsewhere) agrees with physics on at least ``target`` of the set. Split-half agreement
(fit on one half, count on the other) says how much of that is over-fitting.

Run ``python -m lab.margin_fit [--situations FILE]``: it prints the fit and the
``[fast]`` table to paste into a parameter file. The defaults shipped in
``sim/default_params.toml`` come from this fit (values in its comment).
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit

from lab.bench_situations import load_situations
from sim.params import Params, load_params
from sim.referees.fast import Assessment, FastReferee
from sim.tower import Situation

DEFAULT_SITUATIONS = Path(__file__).resolve().parent / "data" / "benchmark_situations.json"


@dataclass(frozen=True)
class MarginFit:
    """Fitted thresholds (deg, deg per metre), the hybrid band (deg) and the agreements reached."""

    turn_margin_deg: float
    turn_margin_deg_per_m: float
    turn_margin_s2: float
    place_margin_deg: float
    width_deg: float
    hybrid_band_deg: float
    fast_agreement: float
    hybrid_agreement: float
    physics_share: float
    """Fraction of the situations the hybrid hands to physics."""
    split_fast_agreement: float
    split_hybrid_agreement: float
    count: int

    def toml(self) -> str:
        """The ``[fast]`` table with these values (the wall-contact angle left as it is)."""
        return (f"[fast]\nturn_margin_deg = {self.turn_margin_deg:.3f}\n"
                f"turn_margin_deg_per_m = {self.turn_margin_deg_per_m:.3f}\n"
                f"turn_margin_s2 = {self.turn_margin_s2:.4f}\n"
                f"place_margin_deg = {self.place_margin_deg:.3f}\nhybrid_band_deg = {self.hybrid_band_deg:.3f}\n")


@dataclass(frozen=True)
class _Features:
    place: np.ndarray
    turn: np.ndarray
    height: np.ndarray
    acceleration: np.ndarray
    labels: np.ndarray

    def subset(self, rows: np.ndarray) -> "_Features":
        return _Features(self.place[rows], self.turn[rows], self.height[rows], self.acceleration[rows],
                         self.labels[rows])


def _features(assessment: Assessment, referee: FastReferee, labels: Sequence[bool]) -> _Features:
    height = np.array([t.top_height_m(referee.params) for t in assessment.turned])
    acceleration = np.array([referee.turn_acceleration_deg_s2(b, a)
                             for b, a in zip(assessment.placed, assessment.turned)])
    return _Features(assessment.place_margin_deg, assessment.turn_margin_deg, height, acceleration,
                     np.asarray(labels, bool))


def predict(f: _Features, a: float, b: float, d: float, c: float) -> tuple[np.ndarray, np.ndarray]:
    """Fast crashes and each situation's distance (deg) from the nearer decided threshold."""
    place_gap = f.place - c
    place_crash = place_gap < 0
    turn_gap = np.where(place_crash, np.nan, f.turn - (a + b * f.height + d * f.acceleration))
    crash = place_crash | (turn_gap < 0)
    return crash, np.fmin(np.abs(place_gap), np.abs(turn_gap))


def _nll(theta: np.ndarray, f: _Features) -> float:
    a, b, d, c, log_w = theta
    w = math.exp(log_w)
    p_place = np.where(np.isnan(f.place), 0.0, expit((c - np.nan_to_num(f.place)) / w))
    threshold = a + b * f.height + d * f.acceleration
    p_turn = np.where(np.isnan(f.turn), 0.0, expit((threshold - np.nan_to_num(f.turn)) / w))
    p = np.clip(1 - (1 - p_place) * (1 - p_turn), 1e-9, 1 - 1e-9)
    return float(-np.sum(np.where(f.labels, np.log(p), np.log1p(-p))))


def _fit_thresholds(f: _Features) -> tuple[float, float, float, float, float]:
    result = minimize(_nll, np.array([0.5, 0.0, 0.0, 0.0, math.log(0.2)]), args=(f,), method="Nelder-Mead",
                      options={"xatol": 1e-5, "fatol": 1e-7, "maxiter": 20000, "maxfev": 20000})
    a, b, d, c, log_w = result.x
    return float(a), float(b), float(d), float(c), math.exp(log_w)


def hybrid_agreement(f: _Features, a: float, b: float, d: float, c: float, band: float) -> tuple[float, float]:
    """(agreement with physics, share handed to physics) of the hybrid with ``band`` (deg)."""
    crash, gap = predict(f, a, b, d, c)
    to_physics = gap < band
    return float(np.mean(to_physics | (crash == f.labels))), float(np.mean(to_physics))


def choose_band(f: _Features, a: float, b: float, d: float, c: float, target: float) -> float:
    """The smallest band (deg, rounded up to 0.01) whose hybrid agreement reaches ``target``."""
    crash, gap = predict(f, a, b, d, c)
    wrong = np.sort(gap[crash != f.labels])
    allowed = int(math.floor((1 - target) * len(f.labels) + 1e-9))
    if len(wrong) <= allowed:
        return 0.0
    return math.ceil((wrong[len(wrong) - allowed - 1] + 1e-9) * 100) / 100


def fit(params: Params, situations: Sequence[tuple], labels: Sequence[bool], target: float = 0.995) -> MarginFit:
    """Fit the margins and the band (see the module docstring) on ``situations`` and physics ``labels``."""
    referee = FastReferee(params)
    f = _features(referee.assess_batch(situations), referee, labels)
    a, b, d, c, w = _fit_thresholds(f)
    band = choose_band(f, a, b, d, c, target)
    crash, _ = predict(f, a, b, d, c)
    hybrid, share = hybrid_agreement(f, a, b, d, c, band)
    # split halves: fit on one, count on the other, both ways
    halves = [np.arange(len(f.labels)) % 2 == k for k in (0, 1)]
    fast_ok = hybrid_ok = 0
    for train, test in (halves, halves[::-1]):
        sub, other = f.subset(train), f.subset(test)
        ha, hb, hd, hc, _ = _fit_thresholds(sub)
        hband = choose_band(sub, ha, hb, hd, hc, target)
        fast_ok += int(np.sum(predict(other, ha, hb, hd, hc)[0] == other.labels))
        hybrid_ok += hybrid_agreement(other, ha, hb, hd, hc, hband)[0] * len(other.labels)
    n = len(f.labels)
    return MarginFit(a, b, d, c, w, band, float(np.mean(crash == f.labels)), hybrid, share,
                     fast_ok / n, hybrid_ok / n, n)


def read_situations(path: str | Path, check_params: Params | None = None) -> tuple[list[Situation], list[bool]]:
    """(situations, physics labels) of a benchmark file (:func:`lab.bench_situations.load_situations`);
    with ``check_params``, ``ValueError`` if the labels were made with other physics."""
    labelled = load_situations(path, check_params=check_params)
    return [s.situation for s in labelled], [s.crashed for s in labelled]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.margin_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--situations", default=str(DEFAULT_SITUATIONS))
    parser.add_argument("--target", type=float, default=0.995, help="hybrid agreement the band must reach")
    args = parser.parse_args(argv)
    params = load_params()
    try:
        situations, labels = read_situations(args.situations, check_params=params)
    except ValueError as error:
        parser.error(str(error))
    result = fit(params, situations, labels, args.target)
    print(f"{result.count} situations, {sum(labels)} crashes; logistic width {result.width_deg:.3f} deg")
    print(f"fast agreement {result.fast_agreement:.4f} (split-half {result.split_fast_agreement:.4f}); "
          f"hybrid {result.hybrid_agreement:.4f} (split-half {result.split_hybrid_agreement:.4f}) "
          f"with {result.physics_share:.1%} of the set sent to physics")
    print(result.toml(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
