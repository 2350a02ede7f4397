"""Ship geometry: sailor turn counts -> deck plane -> gradient, tilt and downhill direction.

Pure functions, no physics engine. Frames: the deck frame has x toward the bow, y to
port, z up, origin at the tower spot. Turning a sailor by one revolution in the arrow's
direction raises the deck at its screw by the thread pitch, so the screw tops sit at
heights ``pitch * turns``; the deck is the plane through the three screw tops.

>>> from sim.params import load_params
>>> ship = load_params().ship
>>> deck_gradient(ship, {"red": 1, "yellow": 1, "blue": 1})
(0.0, 0.0)
>>> round(math.degrees(tilt_angle(deck_gradient(ship, {"red": 1.0}))), 3)
2.182
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from sim.params import SCREWS, ShipParams

Gradient = tuple[float, float]
"""(dz/dx, dz/dy) of the deck plane, dimensionless."""


def _screw_matrix(ship: ShipParams) -> np.ndarray:
    return np.array([[1.0, x, y] for _, x, y in ship.screw_positions_m])


def deck_plane(ship: ShipParams, turns: Mapping[str, float]) -> tuple[float, float, float]:
    """The deck plane z = z0 + gx x + gy y through the three screw tops.

    ``turns`` maps sailor name to revolutions turned (fractions allowed, missing = 0).
    Returns (z0 in metres at the tower spot, gx, gy).
    """
    unknown = set(turns) - set(SCREWS)
    if unknown:
        raise ValueError(f"unknown sailor(s) {sorted(unknown)}; expected {', '.join(SCREWS)}")
    heights = np.array([ship.thread_pitch_m * float(turns.get(name, 0.0)) for name in SCREWS])
    z0, gx, gy = np.linalg.solve(_screw_matrix(ship), heights)
    return float(z0), float(gx) + 0.0, float(gy) + 0.0  # + 0.0 turns -0.0 into 0.0


def deck_gradient(ship: ShipParams, turns: Mapping[str, float]) -> Gradient:
    """Gradient (dz/dx, dz/dy) of the deck for the given sailor turn counts (revolutions)."""
    _, gx, gy = deck_plane(ship, turns)
    return gx, gy


def tilt_angle(gradient: Gradient) -> float:
    """Angle between the deck and the horizontal, radians."""
    return math.atan(math.hypot(*gradient))


def downhill_direction(gradient: Gradient, *, level_tolerance: float = 1e-12) -> float | None:
    """Direction the deck leans toward (of -gradient), radians from the bow (+x) toward port (+y).

    ``None`` when the deck is level (|gradient| <= ``level_tolerance``).
    """
    gx, gy = gradient
    if math.hypot(gx, gy) <= level_tolerance:
        return None
    return math.atan2(-gy, -gx)


def slope_along(gradient: Gradient, direction_rad: float) -> float:
    """Slope dz/ds of the deck along the horizontal direction ``direction_rad`` (dimensionless)."""
    return gradient[0] * math.cos(direction_rad) + gradient[1] * math.sin(direction_rad)
