"""Recovery: the fit of the SYNTHETIC set returns the parameters it was made from."""

import pytest
import scipy.stats

from calibration import SYNTHETIC_PATH
from lab.make_synthetic import SEED, TRUTH, generate


def test_shipped_synthetic_set_is_what_the_script_makes():
    assert SYNTHETIC_PATH.read_text() == generate(SEED)


def test_parameters_within_their_stated_95_percent_intervals(synthetic_fit):
    # With honest 95% intervals each of the n parameters misses with probability 0.05, so
    # requiring no miss at all would pass for only ~30% of seeds with 24 parameters.
    # Allow what a binomial(n, 0.05) exceeds with probability < 1%.
    n = len(synthetic_fit.fitted)
    allowed = int(scipy.stats.binom.ppf(0.99, n, 0.05))
    misses = [f"{f.key}: true {TRUTH[f.key]}, fitted {f.value:.4g} [{f.low:.4g}, {f.high:.4g}]"
              for f in synthetic_fit.fitted if not f.covers(TRUTH[f.key])]
    assert len(misses) <= allowed, misses
    assert {f.key for f in synthetic_fit.fitted} == set(TRUTH)


@pytest.mark.parametrize("key", ["ship.thread_pitch_mm", "friction.mu"])
def test_pitch_and_friction_within_5_percent(synthetic_fit, key):
    assert synthetic_fit.value(key).value == pytest.approx(TRUTH[key], rel=0.05)


def test_fit_quality_is_reported_and_acceptable(synthetic_fit):
    assert [q.part for q in synthetic_fit.quality] == ["screw_rise", "slide", "topple", "round"]
    assert all(q.p_value > 0.01 for q in synthetic_fit.quality)
    report = synthetic_fit.report()
    assert "SYNTHETIC" in report and "Hosmer-Lemeshow" in report
    assert not synthetic_fit.warnings


def test_fitted_parameter_set_holds_the_calibrated_values(synthetic_fit):
    params = synthetic_fit.params
    assert params.ship.thread_pitch_m * 1000 == pytest.approx(synthetic_fit.value("ship.thread_pitch_mm").value)
    assert params.mu == pytest.approx(synthetic_fit.value("friction.mu").value)
    assert params.barrel("small").mass_kg * 1000 == pytest.approx(synthetic_fit.value("barrels.small.mass_g").value)
