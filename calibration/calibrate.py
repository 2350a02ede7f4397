"""The whole calibration: measurements in, a fitted parameter set and a report out.

>>> from calibration import calibrate, load_measurements, SYNTHETIC_PATH
>>> result = calibrate(load_measurements(SYNTHETIC_PATH), n_draws=50)   # doctest: +SKIP
>>> print(result.report())                                              # doctest: +SKIP

Order of the fits (each uses the parameters fitted before it): thread pitch, screw
positions and barrels (least squares / means); friction (slide tests, whose turn
counts need the ship); then the likelihood fit of topple experiments and game rounds
(which needs barrels and friction). Keys the measurements do not touch keep the values
of the start parameters (``--params START``, else the shipped defaults).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from calibration.direct_fit import CalibrationError, Fitted, Quality, fit_barrels, fit_friction, fit_pitch, fit_screws
from calibration.likelihood_fit import N_DRAWS, fit_likelihood
from calibration.measurements import Measurements
from sim.params import Params, ParamsError, load_params

PHYSICAL_BOUNDS = {
    "ship.thread_pitch_mm": (0.2, 20.0),
    "friction.mu": (0.05, 1.5),
    "x_mm": (-300.0, 300.0),
    "y_mm": (-300.0, 300.0),
    "height_mm": (5.0, 100.0),
    "end_diameter_mm": (5.0, 80.0),
    "belly_diameter_mm": (5.0, 80.0),
    "mass_g": (0.5, 200.0),
}
"""Plausible ranges of a wooden toy's parameters; a fit outside them is an error in the data."""


def _bounds(key: str) -> tuple[float, float] | None:
    return PHYSICAL_BOUNDS.get(key) or PHYSICAL_BOUNDS.get(key.rsplit(".", 1)[-1])


def _set(tables: dict, key: str, value: float) -> None:
    *path, last = key.split(".")
    for part in path:
        tables = tables.setdefault(part, {})
    tables[last] = value


@dataclass
class Calibration:
    """Result of :func:`calibrate`: the fitted parameter set and how well it fits.

    ``fitted`` holds the parameter-file keys (``section.key``, units in the name) and the
    likelihood parameters (``sigma_topple_mm``, ``sigma_game_mm``, ``turn_margin_deg``),
    which the parameter file does not hold (they are written as comments).
    """

    params: Params
    fitted: list[Fitted]
    quality: list[Quality]
    warnings: list[str]
    overrides: dict
    """The calibrated keys as raw TOML tables (``load_params(overrides=...)``)."""
    start: dict[str, float] = field(default_factory=dict)
    """The start value of every fitted parameter-file key."""
    synthetic: bool = False

    def value(self, key: str) -> Fitted:
        for fitted in self.fitted:
            if fitted.key == key:
                return fitted
        raise KeyError(key)

    def report(self, translate: Callable[[str], str] | None = None) -> str:
        """A table of fitted values with 95 % intervals, then the fit quality and warnings.

        ``translate`` turns each heading and sentence (English, as written here and in the fit's
        quality and warnings) into the reader's language (``kipp calibrate`` passes its catalogue's);
        the table's columns widen by what a translated heading adds. Default: English as written.
        """
        say = translate or (lambda text: text)
        headings = ("parameter", "fitted", "std err", "95% interval", "n", "start")
        words = [say(heading) for heading in headings]
        words[3] = say("{level} interval").format(level="95%")
        widths = [width + max(0, len(word) - len(heading))
                  for width, heading, word in zip((34, 10, 9, 21, 4, 9), headings, words)]
        lines = []
        if self.synthetic:
            lines.append(say("NOTE: these measurements are SYNTHETIC (made by the model), not of a real set."))
        lines.append(f"{words[0]:{widths[0]}} {words[1]:>{widths[1]}} {words[2]:>{widths[2]}}   "
                     f"{words[3]:<{widths[3]}} {words[4]:>{widths[4]}} {words[5]:>{widths[5]}}")
        for f in self.fitted:
            interval = say("(at bound)") if f.stderr != f.stderr else f"[{f.low:.4g}, {f.high:.4g}]"
            start = f"{self.start[f.key]:.4g}" if f.key in self.start else "-"
            lines.append(f"{f.key:{widths[0]}} {f.value:{widths[1]}.4g} {f.stderr:{widths[2]}.2g}   "
                         f"{interval:<{widths[3]}} {f.n:{widths[4]}d} {start:>{widths[5]}}")
        lines.append(say("fit quality:"))
        lines.extend(f"  {say(q.text)}" for q in self.quality)
        lines.extend(say("warning: {warning}").format(warning=say(w)) for w in self.warnings)
        return "\n".join(lines)


def _start_values(params: Params) -> dict[str, float]:
    values = {"ship.thread_pitch_mm": params.ship.thread_pitch_m * 1000, "friction.mu": params.mu}
    for sailor, x, y in params.ship.screw_positions_m:
        values[f"ship.screws.{sailor}.x_mm"] = x * 1000
        values[f"ship.screws.{sailor}.y_mm"] = y * 1000
    for spec in params.barrels:
        for key, value in (("height_mm", spec.height_m * 1000), ("end_diameter_mm", spec.end_diameter_m * 1000),
                           ("belly_diameter_mm", spec.belly_diameter_m * 1000), ("mass_g", spec.mass_kg * 1000)):
            values[f"barrels.{spec.name}.{key}"] = value
    return values


def _load(start_path: str | Path | None, overrides: dict) -> Params:
    try:
        return load_params(start_path, overrides=overrides)
    except ParamsError as error:
        raise CalibrationError(f"the fitted values make an impossible parameter set: {error}") from None


def calibrate(measurements: Measurements, start_path: str | Path | None = None, *, seed: int = 0,
              n_draws: int = N_DRAWS, progress: Callable[[str], None] | None = None) -> Calibration:
    """Fit every parameter the measurements inform; see the module docstring.

    ``seed`` fixes the placement draws of the simulated likelihood. ``progress`` is told
    the name of each stage as it starts. Raises :class:`CalibrationError` for too little
    data, contradictions or unphysical fits.
    """
    say = progress or (lambda stage: None)
    start = _load(start_path, {})
    say("direct fits: screw pitch, screw positions, barrels")
    fitted: list[Fitted] = []
    quality: list[Quality] = []
    warnings: list[str] = []
    if measurements.screw_rise:
        pitch, q = fit_pitch(measurements)
        fitted.append(pitch)
        quality.append(q)
    fitted.extend(fit_screws(measurements))
    fitted.extend(fit_barrels(measurements))
    overrides: dict = {}
    for f in fitted:
        _check_bounds(f)
        _set(overrides, f.key, f.value)
    params = _load(start_path, overrides)
    if measurements.slides:
        say(f"friction from {len(measurements.slides)} slide tests")
        mu, q = fit_friction(measurements, params.ship)
        _check_bounds(mu)
        fitted.append(mu)
        quality.append(q)
        _set(overrides, mu.key, mu.value)
        params = _load(start_path, overrides)
    for q in quality:
        if q.p_value is not None and q.p_value < 0.001:
            warnings.append(f"{q.part}: the groups disagree (p = {q.p_value:.1e}) but the model has one value "
                            "for all; check the measurements")
    if measurements.topples or measurements.rounds:
        say(f"placement skill and turn margin from {len(measurements.topples)} topple experiments and "
            f"{len(measurements.rounds)} game rounds ({n_draws} draws each; the slow part)")
    more, more_quality, more_warnings = fit_likelihood(params, measurements, seed=seed, n_draws=n_draws)
    if not fitted and not more:
        raise CalibrationError("the measurement file holds no data to fit")
    for f in more:
        if f.key == "sigma_game_mm":  # the recorded players' skill becomes the bots' default
            _set(overrides, "placement.sigma_mm", f.value)
            params = _load(start_path, overrides)
    starts = _start_values(start)
    return Calibration(params, fitted + more, quality + more_quality, warnings + more_warnings, overrides,
                       {f.key: starts[f.key] for f in fitted if f.key in starts}, measurements.synthetic)


def _check_bounds(f: Fitted) -> None:
    bounds = _bounds(f.key)
    if bounds and not bounds[0] <= f.value <= bounds[1]:
        raise CalibrationError(f"{f.key} = {f.value:.4g} is outside the physical range {bounds[0]:g}..{bounds[1]:g} "
                               f"(from {f.n} {f.source} readings); check the units and the data")
