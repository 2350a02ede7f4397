"""The smooth topple model against the physics referee, on a small tower."""

import math

import numpy as np

from calibration.likelihood_fit import DEFAULT_MARGIN_DEG, make_batch, topple_trial
from calibration.measurements import ToppleExperiment
from calibration.numerical_check import numerical_check
from calibration.topple_model import JITTER_DEG
from sim.params import load_params
from sim.referees.loop import LoopReferee
from sim.tower import Placement, Turn

PARAMS = load_params()


def test_centred_tower_falls_in_physics_where_the_model_puts_the_threshold():
    """6 large barrels, centred, red turned one revolution at a time: the model's static
    angle (atan(26 / (6 * 36)) = 6.86 deg) less its margin lies between the last tilt that
    stood and the tilt that crashed in physics."""
    referee = LoopReferee(PARAMS)
    tower = referee.new_tower()
    order = ("large",) * 6
    for size in order:
        decision = referee.decide(tower, Placement(size, 0.0, 0.0), None)
        assert not decision.crashed
        tower = decision.tower
    fell = None
    for k in range(1, 13):  # half turns: 1.09 deg steps
        decision = referee.decide(tower, None, Turn("red", 0.5))
        tower = decision.tower
        if decision.crashed:
            fell = k
            break
    assert fell is not None and fell >= 2
    trial = topple_trial(PARAMS, ToppleExperiment(order, ("red",) * fell, 0.5, fell))
    batch = make_batch(PARAMS, [trial], np.random.default_rng(0), n_draws=2)
    # the model's crash threshold, give or take two standard deviations of its jitter
    threshold = batch.theta_c(1e-9)[0, 0] - math.radians(DEFAULT_MARGIN_DEG)
    slack = math.radians(2 * JITTER_DEG)
    tilts = batch.tilts
    assert tilts[fell - 2] < threshold + slack and tilts[fell - 1] > threshold - slack


def test_numerical_check_passes_with_the_default_solver():
    checks = numerical_check(PARAMS, ["small"])
    assert [c.kind for c in checks] == ["topple of 3", "slide"]
    assert all(c.ok for c in checks), [c.text() for c in checks]


def test_numerical_check_fails_with_a_crippled_solver():
    from dataclasses import replace
    crippled = replace(PARAMS, solver=replace(PARAMS.solver, iterations=1, steps_per_second=60))
    checks = numerical_check(crippled, ["small"], slide=False)
    assert not all(c.ok for c in checks)
