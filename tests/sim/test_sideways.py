"""Falls across the 2D slice (sim.sideways): the closed form, and the physics referee using it.

A stack of rigid barrels on a level deck stands exactly when the centre of mass of every
sub-stack lies over the contact under it, whatever the direction of the offsets: the
verdict must not depend on how the offsets sit against the slice the physics runs in.
"""

import math

import pytest

from sim.geometry import deck_gradient, downhill_direction
from sim.params import SCREWS, load_params
from sim.referees.loop import LoopReferee
from sim.sideways import sideways_fall
from sim.static_check import SizeTable, interface_margins_one
from sim.tower import BarrelPose, Placement, TowerState, Turn

PARAMS = load_params()
LARGE = PARAMS.barrel("large")
R = LARGE.end_diameter_m / 2


def test_a_barrel_stands_while_its_centre_is_over_the_one_below():
    masses, radii = [LARGE.mass_kg] * 2, [R] * 2
    assert sideways_fall(masses, radii, [0.0, R - 1e-4]) is None
    k, shortfall = sideways_fall(masses, radii, [0.0, R + 1e-4])
    assert k == 1 and shortfall == pytest.approx(1e-4)


def test_a_stack_whose_barrels_each_rest_on_the_one_below_still_falls_when_their_centre_of_mass_does_not():
    """A staircase: each barrel 9 mm across the one below (inside a 13 mm rim), but the two
    above the bottom one have their centre of mass 13.5 mm across it."""
    masses, radii = [LARGE.mass_kg] * 3, [R] * 3
    across = [0.0, 0.009, 0.018]
    k, shortfall = sideways_fall(masses, radii, across)
    assert k == 1 and shortfall == pytest.approx((across[1] + across[2]) / 2 - (across[0] + R))
    assert sideways_fall(masses[:2], radii[:2], across[:2]) is None


def two_large(offset_m: float, direction_rad: float):
    referee = LoopReferee(PARAMS)
    first = referee.decide(referee.new_tower(), Placement("large", 0.0, 0.0), None)
    assert not first.crashed
    bottom = first.tower.barrels[0]
    x = bottom.x_m + offset_m * math.cos(direction_rad)
    y = bottom.y_m + offset_m * math.sin(direction_rad)
    return referee.decide(first.tower, Placement("large", x, y), None)


@pytest.mark.parametrize("direction_deg", [0, 90, 135, 270])
def test_on_a_level_deck_a_barrel_falls_past_the_rim_below_in_every_direction(direction_deg):
    """Closed form: on a level deck a barrel on another tips exactly when its centre of mass
    passes the rim of the face below. The slice runs toward the bow (0 deg); at 90 and 270
    deg the offset is all across it, where only :mod:`sim.sideways` can see the fall."""
    inside = two_large(R - 1e-3, math.radians(direction_deg))
    outside = two_large(R + 1e-3, math.radians(direction_deg))
    assert not inside.crashed, inside.reason
    assert outside.crashed


def test_a_tower_leaning_into_the_old_tilt_falls_sideways_when_the_turn_swings_the_slope_round():
    """Turns (1, 1/2, 0): the deck falls away along d0; a blue turn then swings the downhill
    direction a quarter turn round. A large on a large 13.3 mm uphill of its centre stands
    before the turn (its gravity line meets the face 18 mm x tan(tilt) further downhill,
    inside the 13 mm rim: the static check agrees) and is 13.3 mm across the new slice
    after it, past the rim."""
    turns = (1.0, 0.5, 0.0)
    before = deck_gradient(PARAMS.ship, dict(zip(SCREWS, turns)))
    after = deck_gradient(PARAMS.ship, dict(zip(SCREWS, (1.0, 0.5, 1.0))))
    d0, d1 = downhill_direction(before), downhill_direction(after)
    assert abs(math.sin(d1 - d0)) == pytest.approx(1.0, abs=1e-9)
    offset = 0.0133
    bottom_z = LARGE.height_m / 2 - PARAMS.ship.recess_depth_m
    tower = TowerState(turns=turns, slice_direction_rad=d0, barrels=(
        BarrelPose("large", 0.0, 0.0, bottom_z),
        BarrelPose("large", -offset * math.cos(d0), -offset * math.sin(d0), bottom_z + LARGE.height_m)))
    table = SizeTable.from_params(PARAMS)
    wall = math.radians(PARAMS.fast.recess_wall_contact_deg)
    assert min(interface_margins_one(PARAMS, table, tower.barrels, before, d0, wall)) > 0.0
    assert offset > R

    turned = LoopReferee(PARAMS).decide(tower, None, Turn("blue", 1.0))
    assert turned.crashed and turned.phase == "turn"
    assert "sideways" in turned.reason
