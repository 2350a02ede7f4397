"""Closed-form statics of stacked boxes: the numbers the physics is checked against.

Pure functions (no physics engine), for rigid bodies with sharp corners on a deck tilted
by theta:

- N equal boxes of width w and height h stacked single file topple about the bottom
  box's downhill corner when tan(theta) = w / (N h): the centre of mass of the stack,
  at height N h / 2, then stands above that corner.
- A box slides when tan(theta) = mu, whatever its shape.
- Harmonic stack: with the k-th box from the top overhanging the one below by
  w / (2 k), the centre of mass of every sub-stack stands exactly above the edge
  beneath it (the critical overhang).
"""

from __future__ import annotations

import math

from sim.params import BarrelSpec


def box_spec(width_m: float, height_m: float, mass_kg: float = 0.02, name: str = "box") -> BarrelSpec:
    """A rectangular box (a barrel with no bulge): width and height in metres, mass in kg."""
    return BarrelSpec(name=name, colour="grey", count=1, height_m=height_m, end_diameter_m=width_m,
                      belly_diameter_m=width_m, mass_kg=mass_kg)


def toppling_angle(width_m: float, height_m: float, n: int) -> float:
    """Closed-form toppling angle (rad) of ``n`` equal boxes: tan(theta) = w / (n h)."""
    return math.atan(width_m / (n * height_m))


def sliding_angle(mu: float) -> float:
    """Closed-form sliding angle (rad): tan(theta) = mu."""
    return math.atan(mu)


def harmonic_offsets(width_m: float, n: int, scale: float = 1.0) -> list[float]:
    """Centre positions (m) along the slice of ``n`` boxes, bottom first, stacked with the
    harmonic overhang ``scale * w / (2 k)`` of the k-th box from the top over the one below."""
    positions = [0.0]
    for k in range(n - 1, 0, -1):  # the box above box (n - k) is the k-th from the top
        positions.append(positions[-1] + scale * width_m / (2 * k))
    return positions
