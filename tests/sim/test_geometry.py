"""Screw turns -> deck plane: the plane through the three screw tops."""

import math

import numpy as np
import pytest

from sim.geometry import deck_gradient, deck_plane, downhill_direction, slope_along, tilt_angle
from sim.params import load_params

SHIP = load_params().ship


@pytest.mark.parametrize("turns", [1.0, 2.5, -1.0])
def test_equal_turns_give_a_level_deck(turns):
    gradient = deck_gradient(SHIP, {"red": turns, "yellow": turns, "blue": turns})
    assert tilt_angle(gradient) == pytest.approx(0.0, abs=1e-12)
    assert downhill_direction(gradient) is None


@pytest.mark.parametrize("sailor", ["red", "yellow", "blue"])
def test_half_a_turn_gives_half_the_gradient_of_a_full_turn(sailor):
    full = np.array(deck_gradient(SHIP, {sailor: 1.0}))
    half = np.array(deck_gradient(SHIP, {sailor: 0.5}))
    np.testing.assert_allclose(half, full / 2, rtol=1e-12, atol=1e-15)


def test_one_full_turn_tilts_the_plane_through_the_three_screw_tops():
    # Red at the bow (70, 0) mm rises by one pitch p (3.0 mm by default); yellow and blue
    # stay at 0 on the line x = -35 mm. The plane through those three points rises p over
    # 105 mm toward the bow: gradient (p/105, 0), tilt atan(p/105) (1.637 deg at 3.0 mm), leaning aft.
    gradient = deck_gradient(SHIP, {"red": 1.0})
    pitch_mm = SHIP.thread_pitch_m * 1000
    assert gradient[0] == pytest.approx(pitch_mm / 105, rel=1e-9)
    assert gradient[1] == pytest.approx(0.0, abs=1e-12)
    assert math.degrees(tilt_angle(gradient)) == pytest.approx(math.degrees(math.atan(pitch_mm / 105)), abs=1e-9)
    assert math.cos(downhill_direction(gradient)) == pytest.approx(-1.0)  # toward the stern


def test_the_plane_passes_through_every_screw_top():
    turns = {"red": 0.3, "yellow": 1.7, "blue": -0.4}
    z0, gx, gy = deck_plane(SHIP, turns)
    for sailor, x, y in SHIP.screw_positions_m:
        assert z0 + gx * x + gy * y == pytest.approx(SHIP.thread_pitch_m * turns[sailor], abs=1e-15)


def test_slope_along_the_downhill_direction_is_minus_the_gradient_norm():
    gradient = deck_gradient(SHIP, {"yellow": 1.0, "blue": 0.25})
    direction = downhill_direction(gradient)
    assert slope_along(gradient, direction) == pytest.approx(-math.hypot(*gradient))


def test_unknown_sailor_is_refused():
    with pytest.raises(ValueError, match="green"):
        deck_gradient(SHIP, {"green": 1.0})
