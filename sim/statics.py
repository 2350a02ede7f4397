"""Quasi-static experiments that check the physics against the closed forms of
:mod:`sim.closed_forms`.

The experiments tilt a flat deck (no recess) slowly and report the deck angle at which
the boxes start to move; the physics core's tests compare them with the closed forms,
and calibration uses them to check that solver settings still reproduce them.
"""

from __future__ import annotations

import math
from dataclasses import replace

from sim.closed_forms import sliding_angle, toppling_angle
from sim.params import BarrelSpec, Params
from sim.world import TowerWorld

ONSET_TILT_RAD = math.radians(0.5)
"""A box turned this far against its support has started to topple."""
ONSET_SLIDE_M = 0.0001
"""A box moved this far along its support has started to slide."""


def flat_deck(params: Params) -> Params:
    """The same parameters on a deck without the recess (a plain plank)."""
    return replace(params, ship=replace(params.ship, recess_depth_m=0.0))


def stacked_world(params: Params, spec: BarrelSpec, n: int, positions_m: list[float] | None = None,
                  deck_slope: float = 0.0) -> TowerWorld:
    """A world with ``n`` boxes of ``spec`` stacked at rest, centres at ``positions_m`` along the deck."""
    world = TowerWorld(params, deck_slope)
    positions = positions_m if positions_m is not None else [0.0] * n
    for k, s in enumerate(positions):
        world.add_barrel(spec, s, spec.height_m * (k + 0.5))
    return world


def _tilt_until(world: TowerWorld, start_rad: float, rate_rad_s: float, max_rad: float, moved) -> float | None:
    """Tilt to ``start_rad`` in 2 s, rest 0.5 s, then ramp at ``rate_rad_s`` until ``moved(world)``;
    the deck angle (rad) at that moment, or None if nothing moved by ``max_rad``."""
    world.start_deck_motion(-math.tan(start_rad), 2.0, "smooth")
    for _ in range(round(2.5 / world.dt_s)):
        world.step()
    if moved(world):
        return abs(world.deck.angle)
    ramp = (max_rad - start_rad) / rate_rad_s
    world.start_deck_motion(-math.tan(max_rad), ramp, "constant")
    while world.deck_moving:
        world.step()
        if moved(world):
            return abs(world.deck.angle)
    return None


def measure_toppling_angle(params: Params, spec: BarrelSpec, n: int,
                           rate_rad_s: float = math.radians(0.1)) -> float | None:
    """Deck angle (rad) at which ``n`` stacked boxes start to topple on a flat deck tilted at
    ``rate_rad_s`` from 1.5 deg below the closed form (None if they never do within 3 deg above)."""
    params = flat_deck(params)
    world = stacked_world(params, spec, n)
    for _ in range(round(0.5 / world.dt_s)):  # let the contacts take up the slop
        world.step()
    expected = toppling_angle(spec.end_diameter_m, spec.height_m, n)

    def toppling(w: TowerWorld) -> bool:
        return abs(w.poses()[0][2]) > ONSET_TILT_RAD

    return _tilt_until(world, max(expected - math.radians(1.5), 0.0), rate_rad_s,
                       expected + math.radians(3.0), toppling)


def measure_sliding_angle(params: Params, spec: BarrelSpec,
                          rate_rad_s: float = math.radians(0.1)) -> float | None:
    """Deck angle (rad) at which a box starts to slide down a flat deck tilted at ``rate_rad_s``
    from 1.5 deg below tan(theta) = mu (None if it never does within 3 deg above)."""
    params = flat_deck(params)
    world = stacked_world(params, spec, 1)
    for _ in range(round(0.5 / world.dt_s)):
        world.step()
    expected = sliding_angle(params.mu)
    start: list[float] = []

    def sliding(w: TowerWorld) -> bool:
        along = w.poses()[0][0]
        if not start:
            start.append(along)
        return abs(along - start[0]) > ONSET_SLIDE_M

    return _tilt_until(world, expected - math.radians(1.5), rate_rad_s, expected + math.radians(3.0), sliding)


def falls_when_tilted(params: Params, spec: BarrelSpec, n: int, final_rad: float, duration_s: float,
                      profile: str = "smooth", hold_s: float = 3.0) -> bool:
    """Do ``n`` stacked boxes fall when a flat deck tilts from level to ``final_rad`` in one
    motion of ``duration_s`` seconds along ``profile``, then holds for ``hold_s`` seconds?"""
    world = stacked_world(flat_deck(params), spec, n)
    for _ in range(round(0.5 / world.dt_s)):
        world.step()
    world.start_deck_motion(-math.tan(final_rad), duration_s, profile)
    end = world.time_s + duration_s + hold_s
    while world.time_s < end:
        world.step()
        if world.find_fall() is not None:
            return True
    return False
