"""The early exit's certainty test: kinetic energy against the potential barrier."""

import math

import pytest

from sim.closed_forms import box_spec
from sim.energy import kinetic_energy, smallest_barrier
from sim.params import load_params
from sim.statics import flat_deck, stacked_world
from sim.world import CM_PER_M, G_PER_KG

PARAMS = flat_deck(load_params())


def settled(world, seconds=0.5):
    for _ in range(round(seconds / world.dt_s)):
        world.step()
    return world


def test_barrier_of_one_box_is_lifting_its_centre_over_a_corner():
    # closed form: m g (sqrt((w/2)^2 + (h/2)^2) - h/2) for a box on a level plane
    w, h, m = 0.030, 0.035, 0.020
    world = settled(stacked_world(PARAMS, box_spec(w, h, m), 1))
    expected_joules = m * 9.81 * (math.hypot(w / 2, h / 2) - h / 2)
    measured_joules = smallest_barrier(world) / (G_PER_KG * CM_PER_M ** 2)
    assert measured_joules == pytest.approx(expected_joules, rel=0.02)  # slop sinks the box ~0.1 mm


def test_barrier_of_a_stack_is_the_lowest_over_every_sub_stack():
    # the top k boxes tipping over the corner beneath them: k m g (sqrt((w/2)^2 + (k h/2)^2) - k h/2)
    w, h, m, n = 0.030, 0.035, 0.020, 4
    world = settled(stacked_world(PARAMS, box_spec(w, h, m), n))
    expected_joules = min(k * m * 9.81 * (math.hypot(w / 2, k * h / 2) - k * h / 2) for k in range(1, n + 1))
    measured_joules = smallest_barrier(world) / (G_PER_KG * CM_PER_M ** 2)
    assert measured_joules == pytest.approx(expected_joules, rel=0.05)


def test_no_barrier_once_the_centre_of_mass_is_outside_the_contact():
    spec = box_spec(0.030, 0.035)
    world = stacked_world(PARAMS, spec, 2, positions_m=[0.0, 0.0155])  # top box's centre past the edge
    for _ in range(8):
        world.step()
    assert smallest_barrier(world) == 0.0


def test_a_resting_stack_has_next_to_no_kinetic_energy():
    world = settled(stacked_world(PARAMS, box_spec(0.030, 0.035), 4), 1.0)
    assert kinetic_energy(world) < 1e-3 * smallest_barrier(world)
