"""Fitting the model's parameters to measurements of a real set (scipy; never pygame).

A toy owner measures their set (the TOML format of :mod:`calibration.measurements`;
``template_measurements.toml`` here is a commented template), runs ``kipp calibrate
MEASUREMENTS --out params.toml`` and passes the result to every command with
``--params params.toml``.

- :mod:`calibration.measurements`: the measurement format, read and checked.
- :mod:`calibration.direct_fit`: least squares for pitch, screws, barrels, friction.
- :mod:`calibration.topple_model`: the smooth crash-probability model (statics with
  placement noise) behind the likelihood of topple experiments and game rounds.
- :mod:`calibration.likelihood_fit`: bounded maximum likelihood for sigma and the turn margin.
- :mod:`calibration.calibrate`: all fits in order, with a report.
- :mod:`calibration.params_file`: the calibrated parameter file.
- :mod:`calibration.numerical_check`: do the solver settings still reproduce the
  closed-form tipping and sliding angles for the calibrated barrels?
- :mod:`lab.make_synthetic`: the SYNTHETIC data set ``data/synthetic_measurements.toml``,
  made by the model itself from known parameters plus noise (not a real set).
"""

from pathlib import Path

from calibration.calibrate import Calibration, calibrate
from calibration.direct_fit import CalibrationError, Fitted, Quality
from calibration.measurements import MeasurementError, Measurements, load_measurements, parse_measurements

SYNTHETIC_PATH = Path(__file__).parent / "data" / "synthetic_measurements.toml"
"""The SYNTHETIC measurement set (made by ``python -m lab.make_synthetic``)."""
TEMPLATE_PATH = Path(__file__).parent / "template_measurements.toml"
"""The commented template a toy owner fills in."""

__all__ = ["Calibration", "CalibrationError", "Fitted", "MeasurementError", "Measurements", "Quality",
           "SYNTHETIC_PATH", "TEMPLATE_PATH", "calibrate", "load_measurements", "parse_measurements"]
