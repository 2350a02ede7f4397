"""Least-squares and likelihood fits: interval coverage, closed forms, and clear refusals."""

import math

import numpy as np
import pytest

from calibration import CalibrationError, calibrate, parse_measurements
from calibration.direct_fit import fit_friction, fit_mean, fit_pitch, slide_angles_deg
from calibration.likelihood_fit import make_batch, round_trial, topple_trial
from calibration.measurements import GameRound, ToppleExperiment
from calibration.topple_model import Batch, Step, Trial, phases
from sim.closed_forms import toppling_angle
from sim.params import load_params

PARAMS = load_params()


def _rises(rng, pitch, noise):
    return [{"sailor": s, "turns": t, "rise_mm": pitch * t + rng.normal(0, noise)}
            for s in ("red", "yellow", "blue") for t in (1.0, 2.0, 3.0)]


def test_pitch_and_mean_intervals_cover_the_truth_95_percent_of_the_time():
    rng = np.random.default_rng(5)
    hits_pitch = hits_mean = 0
    runs = 400
    for _ in range(runs):
        m = parse_measurements({"screw_rise": _rises(rng, 3.9, 0.1)})
        hits_pitch += fit_pitch(m)[0].covers(3.9)
        hits_mean += fit_mean("x", tuple(20.0 + rng.normal(0, 0.3, 4)), None, "test").covers(20.0)
    assert 0.92 <= hits_pitch / runs <= 0.98
    assert 0.92 <= hits_mean / runs <= 0.98


def test_friction_from_turns_uses_the_ship_geometry():
    pitch_mm = PARAMS.ship.thread_pitch_m * 1000
    per_turn = math.degrees(math.atan(pitch_mm / 105.0))  # red rises a pitch at x = 70 mm; the hinge line is x = -35 mm
    m = parse_measurements({"slide": [{"pair": "barrel-deck", "turns": {"red": 1.0}},
                                      {"pair": "barrel-deck", "tilt_deg": per_turn}]})
    angles = slide_angles_deg(m, PARAMS.ship)
    assert angles[0] == pytest.approx(angles[1], abs=1e-6)


def test_friction_is_tan_of_the_mean_slide_angle():
    m = parse_measurements({"slide": [{"pair": "barrel-deck", "tilt_deg": a} for a in (22.0, 24.0, 23.0)]})
    mu, quality = fit_friction(m, PARAMS.ship)
    assert mu.value == pytest.approx(math.tan(math.radians(23.0)), rel=1e-6)
    assert mu.low < mu.value < mu.high and quality.n == 3


@pytest.mark.parametrize("raw, message", [
    ({}, "no data to fit"),
    ({"screw_rise": [{"sailor": "red", "turns": 1.0, "rise_mm": 4.0}]}, "the pitch needs at least 2"),
    ({"barrels": {"small": {"mass_g": [5.0]}}}, "single reading and no resolution"),
    ({"slide": [{"pair": "barrel-deck", "tilt_deg": 58.0}, {"pair": "barrel-deck", "tilt_deg": 59.0}]},
     r"friction.mu = 1.6.* outside the physical range"),
    ({"screw_rise": [{"sailor": "red", "turns": 1.0, "rise_mm": 40.0},
                     {"sailor": "red", "turns": 2.0, "rise_mm": 80.0}]}, "thread_pitch_mm = 40 is outside"),
    ({"barrels": {"small": {"end_diameter_mm": [20.0, 20.1], "belly_diameter_mm": [18.0, 18.1]}}},
     "belly_diameter_mm: must be >= end_diameter_mm"),
    ({"screws": {"red": {"x_mm": [-10, -10.2], "y_mm": [0, 0]}, "yellow": {"x_mm": [-35, -35], "y_mm": [60, 60]},
                 "blue": {"x_mm": [-35, -35], "y_mm": [-60, -60]}}}, "must contain the tower spot"),
    ({"topple": [{"order": ["large"], "turns": ["red"], "stood": True}] * 3}, "at least 5 are needed"),
    ({"topple": [{"order": ["large"] * 6, "turns": ["red"], "fell_after_turn": 1}] * 6}, "every experiment fell"),
])
def test_too_little_contradictory_or_unphysical_data_is_refused(raw, message):
    with pytest.raises(CalibrationError, match=message):
        calibrate(parse_measurements(raw), n_draws=20)


def test_centred_stack_of_equal_barrels_has_the_closed_form_toppling_angle():
    """sigma -> 0: tan(theta) = w / (n h) for n equal barrels (sim.closed_forms.toppling_angle)."""
    spec = PARAMS.barrel("medium")
    trial = Trial(("medium",) * 5, tuple(phases(PARAMS, 5, [Step("red", 1.0, False)])), 1, None)
    batch = make_batch(PARAMS, [trial], np.random.default_rng(0), n_draws=4)
    expected = toppling_angle(spec.end_diameter_m, spec.height_m, 5)
    assert batch.theta_c(1e-9)[:, 0] == pytest.approx(expected, abs=1e-6)


def test_outcome_probabilities_of_a_trial_sum_to_one():
    order = ("large", "medium", "small", "large", "medium", "small")
    turns = ("red",) * 6
    trials = [topple_trial(PARAMS, ToppleExperiment(order, turns, 1.0, k)) for k in range(1, 7)]
    trials.append(topple_trial(PARAMS, ToppleExperiment(order, turns, 1.0, None)))
    z = np.random.default_rng(1).standard_normal((8, 6, 2))
    batch = Batch(PARAMS, trials, [z] * len(trials))  # the same placement draws for every outcome
    observed, _ = batch.outcome_probabilities(1.5, 0.5)
    assert observed.sum() == pytest.approx(1.0, abs=1e-9)


def test_more_careless_players_crash_sooner():
    game_round = GameRound(("large", "medium", "small") * 4, ("red", "yellow", "red", "blue", "yellow"), 1.0, True)
    batch = make_batch(PARAMS, [round_trial(PARAMS, game_round)], np.random.default_rng(2), n_draws=200)
    hazard_careful = batch.hazards(0.5, 0.5)[0]
    hazard_careless = batch.hazards(3.0, 0.5)[0]
    assert hazard_careless[2] > hazard_careful[2]
