"""Quasi-static tilting against closed-form statics (sim.closed_forms has the closed forms).

Tolerances: toppling of N = 1..12 boxes and sliding within 0.1 deg, at the default solver.
The measured angles are late by the detection lag (0.5 deg of relative turn or 0.1 mm of
slip while the deck turns at 0.1 deg/s: a few hundredths of a degree) and early by the
compliance of the unconverged contacts, which lets a tall stack lean: at 480 Hz x 40
iterations (slop 0.1 mm) 12 boxes toppled 0.152 deg early; at the default 480 x 60 (slop
0.2 mm) every N is within -0.056..+0.022 deg (measured) and sliding +0.03 deg late. N = 1, 6, 12 run by default,
the rest are marked slow.
"""

import math

import pytest

from sim.closed_forms import box_spec, sliding_angle, toppling_angle
from sim.params import load_params
from sim.statics import measure_sliding_angle, measure_toppling_angle

BOX_W, BOX_H = 0.030, 0.035  # a 3 x 3.5 cm box, as measured in DESIGN.md section 3


QUICK = (1, 6, 12)


@pytest.mark.parametrize("n", [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in range(1, 13)])
def test_toppling_angle_of_n_boxes_matches_tan_w_over_n_h(n):
    # mu high enough that the boxes topple before they slide (tan = 0.86 for one box)
    params = load_params(overrides={"friction": {"mu": 1.0}})
    measured = measure_toppling_angle(params, box_spec(BOX_W, BOX_H), n)
    expected = toppling_angle(BOX_W, BOX_H, n)
    assert measured is not None, "the stack never toppled"
    assert math.degrees(abs(measured - expected)) < 0.1


@pytest.mark.parametrize("mu", [0.3, 0.45, 0.7])
def test_low_wide_box_slides_at_tan_theta_equal_mu(mu):
    # Each shape carries sqrt(mu): the pair must slide at mu itself, not at mu**2 or mu.
    params = load_params(overrides={"friction": {"mu": mu}})
    measured = measure_sliding_angle(params, box_spec(0.060, 0.010))
    assert measured is not None, "the box never slid"
    assert math.degrees(abs(measured - sliding_angle(mu))) < 0.1


def test_sliding_uses_the_pairs_mu_not_the_product_of_the_shapes():
    # with the product of unsquared frictions the box would slide at atan(0.45**2) = 11.4 deg
    measured = measure_sliding_angle(load_params(), box_spec(0.060, 0.010))
    assert measured is not None and math.degrees(measured) > 20.0
