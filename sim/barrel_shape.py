"""Side view of a barrel: a convex polygon, and its mass properties.

The outline has flat ends of the end diameter and bulges to the belly diameter at
mid-height along a parabola (a box when the two diameters are equal). Corners are
sharp: a rounded corner would move the tipping edge inward.

In the 2D slice a barrel sits on its neighbour over a chord of their round faces, not over
their full diameters: along the line where the gravity line of the stack above crosses the
interface, ``c`` across the slice from a face's centre, that face reaches only
``sqrt(r^2 - c^2)`` along the slice (:func:`chord_half_width`). :func:`outline` narrows the
top and bottom faces to such chords (:mod:`sim.slice_contact` says which).
"""

from __future__ import annotations

import math

from sim.params import BarrelSpec

_PROFILE_HEIGHTS = (-1.0, -2 / 3, -1 / 3, 0.0, 1 / 3, 2 / 3, 1.0)
"""Sample heights of the bulge, as fractions of the half-height."""


def chord_half_width(radius_m: float, cross_offset_m: float) -> float:
    """Half-length (m) of the chord of a disc of ``radius_m`` at ``cross_offset_m`` from its centre.

    Never below 10% of the radius: a barrel that far across has fallen anyway, and a
    degenerate polygon would break the physics.
    """
    inside = radius_m * radius_m - cross_offset_m * cross_offset_m
    return max(math.sqrt(max(inside, 0.0)), 0.1 * radius_m)


def outline(spec: BarrelSpec, *, top_half_width_m: float | None = None,
            bottom_half_width_m: float | None = None) -> list[tuple[float, float]]:
    """Counter-clockwise outline (x, y) in metres about the barrel's centre.

    The end faces have the end diameter; pass narrower half-widths (m, see
    :func:`chord_half_width`) for the chords the slice cuts from them.
    """
    half_h = spec.height_m / 2
    end = spec.end_diameter_m / 2
    bulge = (spec.belly_diameter_m - spec.end_diameter_m) / 2
    right = []
    for fraction in _PROFILE_HEIGHTS:
        half_w = end + bulge * (1.0 - fraction * fraction)
        if fraction == 1.0 and top_half_width_m is not None:
            half_w = min(half_w, top_half_width_m)
        if fraction == -1.0 and bottom_half_width_m is not None:
            half_w = min(half_w, bottom_half_width_m)
        right.append((half_w, fraction * half_h))
    points = right + [(-x, y) for x, y in reversed(right)]
    if bulge == 0.0:  # a box: keep only its four corners (collinear points confuse nobody, but cost time)
        points = [right[0], right[-1], (-right[-1][0], right[-1][1]), (-right[0][0], right[0][1])]
    return points


def moment_of_inertia(spec: BarrelSpec) -> float:
    """Moment of inertia (kg m^2) about a horizontal axis through the centre.

    That of a solid cylinder about a transverse axis, m (3 r^2 + h^2) / 12, with r^2 the
    mean of the squared radius over the bulging profile: an approximation of the 3D
    barrel (it spreads the mass evenly along the height), not the flat side-view
    polygon's value (which would be m (4 r^2 + h^2) / 12 for a box).
    """
    end = spec.end_diameter_m / 2
    bulge = (spec.belly_diameter_m - spec.end_diameter_m) / 2
    # mean over u in [-1, 1] of (end + bulge (1 - u^2))^2
    mean_r2 = end * end + 4 / 3 * end * bulge + 8 / 15 * bulge * bulge
    return spec.mass_kg * (3 * mean_r2 + spec.height_m ** 2) / 12
