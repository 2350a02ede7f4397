"""The harmonic overhang stack (sim.closed_forms.harmonic_offsets): the k-th box from the top
overhanging the one below by w / (2 k) puts the centre of mass of every sub-stack exactly
above the edge beneath it. Scaled to 95% every sub-stack keeps a margin and stands;
scaled to 105% it falls.

The boxes are planks (6 x 1 cm, like the bricks of the classic problem) stacked one at a
time, each resting 0.2 s before the next, as barrels are in the game.
"""

import math

import pytest

from sim.closed_forms import box_spec, harmonic_offsets
from sim.params import load_params
from sim.statics import flat_deck
from sim.world import TowerWorld

PLANK = box_spec(0.060, 0.010)
PARAMS = flat_deck(load_params(overrides={"friction": {"mu": 1.0}}))  # no slipping: overhang only


def build_and_hold(positions, hold_s=5.0):
    """Stack planks at the given centre positions one at a time, then wait; the final poses."""
    world = TowerWorld(PARAMS)
    for s in positions:
        z = world.poses()[-1][1] + PLANK.height_m if world.barrels else PLANK.height_m / 2
        world.add_barrel(PLANK, s, z)
        for _ in range(round(0.2 / world.dt_s)):
            world.step()
    for _ in range(round(hold_s / world.dt_s)):
        world.step()
    return world.poses()


def stacked_height(k):
    return PLANK.height_m * (k + 0.5)


def fell(final):
    # a plank that fell lies tipped over or at least a plank's height below where it was stacked
    return any(abs(tilt) > math.radians(15) or stacked_height(k) - z > PLANK.height_m
               for k, (_, z, tilt) in enumerate(final))


@pytest.mark.parametrize("n", range(4, 9))
def test_harmonic_stack_at_95_percent_stands_5_s(n):
    positions = harmonic_offsets(PLANK.end_diameter_m, n, 0.95)
    final = build_and_hold(positions)
    for k, (s, z, tilt) in enumerate(final):
        assert abs(s - positions[k]) < 0.0005  # within 0.5 mm of where it was put
        assert abs(z - stacked_height(k)) < 0.001  # the contacts' slop compresses the stack a little
        assert abs(tilt) < math.radians(1.0)


@pytest.mark.parametrize("n", range(4, 9))
def test_harmonic_stack_at_105_percent_falls(n):
    assert fell(build_and_hold(harmonic_offsets(PLANK.end_diameter_m, n, 1.05), hold_s=2.0))


@pytest.mark.parametrize("n", range(4, 9))
def test_sub_stack_with_its_centre_of_mass_past_the_bottom_edge_topples(n):
    # The 95% stack with everything above the bottom plank moved 10% of w/2 further out:
    # the sub-stack's centre of mass passes the bottom plank's edge by 5% of w/2, while
    # every plank's own centre stays well over the plank below it.
    positions = harmonic_offsets(PLANK.end_diameter_m, n, 0.95)
    positions = [positions[0]] + [s + 0.10 * PLANK.end_diameter_m / 2 for s in positions[1:]]
    assert all(b - a < PLANK.end_diameter_m / 2 for a, b in zip(positions, positions[1:]))
    final = build_and_hold(positions, hold_s=2.0)
    second_tilt = final[1][2]
    assert abs(second_tilt) > math.radians(15)  # the plank on the bottom one tipped over its edge
