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
1.637
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Mapping

import numpy as np

from sim.params import SCREWS, ShipParams

Gradient = tuple[float, float]
"""(dz/dx, dz/dy) of the deck plane, dimensionless."""

LEVEL_TOLERANCE = 1e-12
"""A gradient this small is rounding noise: the deck is level (equal turns give ~1e-18)."""


def _screw_matrix(ship: ShipParams) -> np.ndarray:
    return np.array([[1.0, x, y] for _, x, y in ship.screw_positions_m])


def deck_plane(ship: ShipParams, turns: Mapping[str, float]) -> tuple[float, float, float]:
    """The deck plane z = z0 + gx x + gy y through the three screw tops.

    ``turns`` maps sailor name to revolutions turned (fractions allowed, missing = 0).
    Returns (z0 in metres at the tower spot, gx, gy). Cached: games and sweeps ask for the
    same few counts (multiples of half a turn) over and over, and solving the plane costs
    more than the rest of a tower's statics.
    """
    unknown = set(turns) - set(SCREWS)
    if unknown:
        raise ValueError(f"unknown sailor(s) {sorted(unknown)}; expected {', '.join(SCREWS)}")
    return _plane(ship, tuple(float(turns.get(name, 0.0)) for name in SCREWS))


@lru_cache(maxsize=4096)
def _plane(ship: ShipParams, counts: tuple[float, ...]) -> tuple[float, float, float]:
    heights = np.array([ship.thread_pitch_m * count for count in counts])
    z0, gx, gy = np.linalg.solve(_screw_matrix(ship), heights)
    return float(z0), float(gx) + 0.0, float(gy) + 0.0  # + 0.0 turns -0.0 into 0.0


def deck_gradient(ship: ShipParams, turns: Mapping[str, float]) -> Gradient:
    """Gradient (dz/dx, dz/dy) of the deck for the given sailor turn counts (revolutions)."""
    _, gx, gy = deck_plane(ship, turns)
    return gx, gy


def tilt_angle(gradient: Gradient) -> float:
    """Angle between the deck and the horizontal, radians."""
    return math.atan(math.hypot(*gradient))


def is_level(gradient: Gradient) -> bool:
    """Is the deck level, up to rounding (|gradient| <= :data:`LEVEL_TOLERANCE`)?"""
    return math.hypot(*gradient) <= LEVEL_TOLERANCE


def deck_tilt_deg(ship: ShipParams, turns: Mapping[str, float]) -> float:
    """Tilt of the deck for the given sailor turn counts (revolutions), degrees.

    Cached too: the rules log it and the bots ask for it at every turn.
    """
    if len(turns) > len(SCREWS) or not all(name in SCREWS for name in turns):
        deck_plane(ship, turns)  # raises, naming the unknown sailor
    return _tilt_deg(ship, tuple(float(turns.get(name, 0.0)) for name in SCREWS))


@lru_cache(maxsize=4096)
def _tilt_deg(ship: ShipParams, counts: tuple[float, ...]) -> float:
    _, gx, gy = _plane(ship, counts)
    return math.degrees(tilt_angle((gx, gy)))


def downhill_direction(gradient: Gradient) -> float | None:
    """Direction the deck leans toward (of -gradient), radians from the bow (+x) toward port (+y).

    ``None`` when the deck is level (:func:`is_level`).
    """
    if is_level(gradient):
        return None
    gx, gy = gradient
    return math.atan2(-gy, -gx)


def slope_along(gradient: Gradient, direction_rad: float) -> float:
    """Slope dz/ds of the deck along the horizontal direction ``direction_rad`` (dimensionless)."""
    return gradient[0] * math.cos(direction_rad) + gradient[1] * math.sin(direction_rad)


def to_slice(x_m: float, y_m: float, direction_rad: float) -> tuple[float, float]:
    """Deck-frame (x, y) -> (along, across) the slice in direction ``direction_rad``, metres.

    ``across`` points to the left of the slice direction (port, for a slice toward the bow).
    """
    cos_d, sin_d = math.cos(direction_rad), math.sin(direction_rad)
    return x_m * cos_d + y_m * sin_d, -x_m * sin_d + y_m * cos_d


def from_slice(along_m: float, across_m: float, direction_rad: float) -> tuple[float, float]:
    """Inverse of :func:`to_slice`: (along, across) -> deck-frame (x, y), metres."""
    cos_d, sin_d = math.cos(direction_rad), math.sin(direction_rad)
    return along_m * cos_d - across_m * sin_d, along_m * sin_d + across_m * cos_d


def into_recess(ship: ShipParams, end_diameter_m: float, x_m: float, y_m: float) -> tuple[float, float]:
    """Where a bottom barrel of ``end_diameter_m`` aimed at (x, y) comes to sit: in the deck's
    round recess, so its centre is at most (recess - end diameter) / 2 from the tower spot."""
    limit = max(0.0, ship.recess_diameter_m - end_diameter_m) / 2
    radius = math.hypot(x_m, y_m)
    if radius <= limit:
        return x_m, y_m
    return x_m * limit / radius, y_m * limit / radius
