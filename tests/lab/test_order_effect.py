"""lab.order_effect: a cheap referee that is physics shows no difference; bad input is refused."""

import numpy as np
import pytest

from lab.order_effect import cheap_referee, measure, order_effect_of
from sim.params import load_params


def test_a_cheap_referee_that_is_physics_has_no_difference():
    # the hybrid with a band wider than any margin asks physics of every decision: its rounds are
    # physics' rounds, so every difference, and the order effect, is exactly zero
    report = measure("casual", orders=2, rounds=2, cheap=("hybrid:1000",), barrels=9)
    entry = report["cheap"]["hybrid:1000"]
    for metric in ("stacked", "completed"):
        assert entry[metric]["mean_difference"] == 0.0
        assert entry[metric]["tau2"] == 0.0 and entry[metric]["half_width"] == 0.0


def test_the_order_effect_of_known_differences():
    rng = np.random.default_rng(3)
    tau = 0.3  # large against the rounds' noise (1 / sqrt(400) = 0.05 per order): well estimated
    differences = rng.normal(0.0, tau, (400, 1)) + rng.normal(0.0, 1.0, (400, 400))
    report = order_effect_of(differences)
    assert report["tau2"] == pytest.approx(tau**2, rel=0.2)
    assert report["tau2"] <= report["tau2_upper"] <= 1.3 * tau**2
    assert report["half_width"] == pytest.approx(1.96 * np.sqrt(report["tau2_upper"]), rel=1e-3)


def test_a_bad_cheap_referee_is_refused():
    with pytest.raises(ValueError, match="hybrid:BAND"):
        cheap_referee("hybrid", load_params())
