"""Towers that cannot stand fall, in the plane where they fall (sim.slice_contact and the physics referee).

Exact rigid statics: the barrels above an interface stand only if the gravity line through
their centre of mass meets the contact lens of that interface (the overlap of the two end
discs), whatever the direction. The closed form used here is that of two discs: a point q
lies in the lens of discs (c0, R) and (c1, R) when |q - c0| <= R and |q - c1| <= R.

The towers below put the centre of mass of the two upper barrels off both barrel centres,
diagonally, just outside the lower disc's rim: along the slice it lies inside the chord the
2D world used to give it (the lower face's chord at the upper *centre's* offset across), and
across the slice inside the overlap of the two faces' widths, so a cross-shaped support held
it up. A two-barrel stack cannot show this: its centre of mass is the upper centre.
"""

import math

import pytest

from sim.geometry import deck_gradient
from sim.params import SCREWS, load_params
from sim.referees.loop import LoopReferee
from sim.slice_contact import lens_edge, tower_leans
from sim.tower import BarrelPose, Placement, TowerState, Turn

PARAMS = load_params()
LARGE = PARAMS.barrel("large")
R = LARGE.end_diameter_m / 2
H = LARGE.height_m
BOTTOM_Z = H / 2 - PARAMS.ship.recess_depth_m
D = 0.011
"""Barrel 1's centre is this far (m) from barrel 0's, along the direction ``beta``."""
THETA = math.radians(70)
"""The two upper barrels' centre of mass lies at this angle from that direction, seen from barrel 1."""


def _rotate(x: float, y: float, beta: float) -> tuple[float, float]:
    return x * math.cos(beta) - y * math.sin(beta), x * math.sin(beta) + y * math.cos(beta)


def leaning_tower(beta: float, outside_m: float, turns: tuple[float, float, float]):
    """Barrels 0 and 1 (a TowerState) and where barrel 2 goes, so that the gravity line of
    barrels 1 and 2 meets interface 1 ``outside_m`` beyond barrel 0's rim (negative: inside).

    The gravity line meets the interface at q = c - H g (c the centre of mass of barrels 1
    and 2, a lever H above the interface, g the deck gradient); found by bisection on the
    distance of c from barrel 1's centre, with the closed form |q| - R.
    """
    g = deck_gradient(PARAMS.ship, dict(zip(SCREWS, turns)))

    def shortfall(rho: float) -> float:
        cx, cy = _rotate(D + rho * math.cos(THETA), rho * math.sin(THETA), beta)
        return math.hypot(cx - H * g[0], cy - H * g[1]) - R

    low, high = 0.0, R / 2
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if shortfall(mid) < outside_m else (low, mid)
    rho = (low + high) / 2
    assert shortfall(rho) == pytest.approx(outside_m, abs=1e-9), "no such tower within barrel 1's rim"
    b1 = _rotate(D, 0.0, beta)
    b2 = _rotate(D + 2 * rho * math.cos(THETA), 2 * rho * math.sin(THETA), beta)
    tower = TowerState(turns=turns, slice_direction_rad=0.0, barrels=(
        BarrelPose("large", 0.0, 0.0, BOTTOM_Z), BarrelPose("large", *b1, BOTTOM_Z + H)))
    return tower, Placement("large", *b2), g


def test_the_towers_pass_the_old_cross_shaped_contact_but_not_the_lens():
    """Seen in a slice toward the bow (beta = 0): along it, the centre of mass lies within the
    lower face's chord at barrel 1's offset across (0 here, so the full radius) and barrel 1's
    own face; across it, within both faces' widths. Yet it misses the lens."""
    tower, placement, _ = leaning_tower(0.0, 0.0005, (0.0, 0.0, 0.0))
    b1 = tower.barrels[1]
    cx, cy = (b1.x_m + placement.x_m) / 2, (b1.y_m + placement.y_m) / 2
    assert max(-R, b1.x_m - R) < cx < min(R, b1.x_m + R)  # along: inside the old overlap of chords
    assert abs(cy) < R and abs(cy - b1.y_m) < R  # across: inside both faces' widths
    assert math.hypot(cx, cy) == pytest.approx(R + 0.0005)  # outside barrel 0's rim: off the lens


@pytest.mark.parametrize("turns", [(0.0, 0.0, 0.0), (0.5, 0.0, 0.0)], ids=["level", "tilted"])
@pytest.mark.parametrize("beta_deg", range(0, 360, 45))
def test_a_stack_leaning_diagonally_off_its_lens_falls_and_just_inside_it_stands(beta_deg, turns):
    """The tower is built at rest and left standing (a sailor turned by nothing): statics alone
    decides, no drop or turn shakes it."""
    referee = LoopReferee(PARAMS)
    beta = math.radians(beta_deg)
    outside = referee.decide(standing(*leaning_tower(beta, 0.0005, turns)[:2]), None, Turn("red", 0.0))
    assert outside.crashed, outside.reason
    assert outside.fallen.lowest == 1 and outside.fallen.in_slice, outside.reason  # seen falling in 2D
    inside = referee.decide(standing(*leaning_tower(beta, -0.0005, turns)[:2]), None, Turn("red", 0.0))
    assert not inside.crashed, inside.reason


def standing(tower: TowerState, placement: Placement) -> TowerState:
    """``tower`` with a large barrel resting on its top at ``placement``."""
    top = tower.barrels[-1]
    return TowerState(tower.turns, tower.slice_direction_rad,
                      tower.barrels + (BarrelPose("large", placement.x_m, placement.y_m, top.z_m + H),))


def test_lens_edge_is_the_distance_to_the_nearest_point_of_the_lens():
    """Two unit discs 1 apart: their lens has corners at (0.5, +-sqrt(3)/2). From (0.5, 2) the
    nearest lens point is the upper corner; from (-0.5, 0) (inside disc 0 only) the point (0, 0)
    on disc 1's rim; from the middle (0.5, 0) the rims are 0.5 away."""
    corner = (0.5, math.sqrt(3) / 2)
    inside, direction = lens_edge((0.5, 2.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0)
    assert inside == pytest.approx(-(2.0 - corner[1]))
    assert direction == pytest.approx(math.pi / 2)
    inside, direction = lens_edge((-0.5, 0.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0)
    assert inside == pytest.approx(-0.5) and direction == pytest.approx(math.pi)
    inside, _ = lens_edge((0.5, 0.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0)
    assert inside == pytest.approx(0.5)


def test_leans_meet_the_interface_where_gravity_does():
    """On a tilted deck the gravity line through a centre of mass H above the interface meets
    it at (x, y) - H g: the same tower, moved uphill by H g, leans exactly as a level one."""
    turns = (1.0, 0.0, 0.0)
    g = deck_gradient(PARAMS.ship, dict(zip(SCREWS, turns)))
    z = BOTTOM_Z + H
    level = tower_leans(PARAMS, (BarrelPose("large", 0.0, 0.0, BOTTOM_Z), BarrelPose("large", 0.004, 0.0, z)), (0, 0))
    shift = H / 2  # the lever of the top barrel alone over interface 1
    tilted = tower_leans(PARAMS, (BarrelPose("large", 0.0, 0.0, BOTTOM_Z),
                                  BarrelPose("large", 0.004 + shift * g[0], shift * g[1], z)), g)
    assert tilted[1].inside_m == pytest.approx(level[1].inside_m, abs=1e-12)
