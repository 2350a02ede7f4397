"""Where a tower would tip, and the contacts its 2D slice must give it there.

Exact rigid statics (DESIGN.md 3): the barrels from ``k`` up stand on barrel ``k - 1`` only
if the gravity line through their centre of mass meets interface ``k`` inside its contact
*lens*, the overlap of barrel ``k``'s bottom disc and barrel ``k - 1``'s top disc (for
``k = 0`` barrel 0's own disc on the deck, or the deck's round recess when it stands in it:
tipping, it soon leans on the recess wall's edge). Frames: the deck frame (x toward the bow, y to
port, z along the deck normal; metres), the deck tilted by its gradient g = (dz/dx, dz/dy).
Seen in the deck frame gravity leans downhill, so the line through a centre of mass (x, y)
a lever H above the interface meets it at q = (x, y) - H g.

:func:`tower_leans` gives, per interface, how far q lies inside the lens (negative:
outside, it must fall), and the direction it tips toward: the outward normal of the lens's
edge nearest q. :func:`fall_slice` turns that into the vertical plane the 2D world should
run in: along the weakest interface's tipping direction when the tower is near tipping
(:data:`NEAR_TIPPING_RAD`), so that a leaning tower falls *in* the slice, where it is
simulated and can be seen; else the caller's plane (the deck's downhill direction after a
turn). :func:`slice_faces` narrows each barrel's end faces in that plane to the chords of
their discs at the across-slice position of the gravity line through each interface: the
two chords overlap exactly on the lens's chord there, so the 2D world's contact along the
slice is the true contact under the gravity line, and a stack tips in 2D exactly when it
does in 3D (for its offsets across the slice, which the slice keeps fixed).

>>> from sim.params import load_params
>>> params = load_params()
>>> large = params.barrel("large")          # end radius 13 mm, 36 mm high
>>> z0 = large.height_m / 2
>>> tower = [BarrelPose("large", 0.0, 0.0, z0), BarrelPose("large", 0.009, 0.009, z0 + large.height_m)]
>>> lean = tower_leans(params, tower, (0.0, 0.0))[1]   # 12.7 mm off the centre below, diagonally
>>> round(lean.inside_m * 1000, 2), round(math.degrees(lean.direction_rad), 1)
(0.27, 45.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from sim.barrel_shape import chord_half_width
from sim.geometry import Gradient, to_slice
from sim.params import Params
from sim.tower import BarrelPose

NEAR_TIPPING_RAD = math.radians(3.0)
"""A phase runs in the plane of its weakest interface's tipping direction when that
interface's gravity line is within this angle (seen from the centre of mass) of the lens's
edge; otherwise in the caller's plane (the same angle as :data:`sim.rigid_turn.STAND_MARGIN_RAD`)."""


@dataclass(frozen=True)
class Lean:
    """Where the gravity line of the stack above one interface meets its contact lens.

    ``inside_m`` is the distance (m) from that point to the lens's nearest edge, negative
    outside the lens (the stack must fall); ``lever_m`` the height (m) of the stack's centre
    of mass above the interface; ``direction_rad`` the horizontal deck-frame direction (from
    the bow toward port) it tips toward: the outward normal of that nearest edge.
    """

    interface: int
    inside_m: float
    lever_m: float
    direction_rad: float
    point_xy_m: tuple[float, float]
    """The gravity line's meeting point with the interface, deck frame (m)."""

    @property
    def angle_rad(self) -> float:
        """How far the deck could tilt further toward ``direction_rad`` before the stack tips
        (radians, seen from its centre of mass; negative: it tips now)."""
        return math.atan2(self.inside_m, self.lever_m)


@dataclass(frozen=True)
class Faces:
    """Half-widths (m) of a barrel's bottom and top end faces in a 2D slice."""

    bottom_m: float
    top_m: float


def _edge_of_disc(q: tuple[float, float], centre: tuple[float, float], radius: float) -> tuple[float, float, float]:
    """(distance inside, outward direction x, y) of ``q`` from the circle's nearest point."""
    dx, dy = q[0] - centre[0], q[1] - centre[1]
    dist = math.hypot(dx, dy)
    if dist == 0.0:
        return radius, 1.0, 0.0  # the centre: every direction is as far from the edge
    return radius - dist, dx / dist, dy / dist


def lens_edge(q: tuple[float, float], upper: tuple[float, float], upper_r: float,
              lower: tuple[float, float] | None, lower_r: float) -> tuple[float, float]:
    """Signed distance (m, positive inside) from ``q`` to the edge of the lens of two discs,
    and the direction (radians) of that edge's outward normal at the nearest point.

    ``lower`` None: the lens is the ``upper`` disc alone (a bottom barrel on the deck).
    From inside, the nearer circle's radial projection is the nearest edge point; from
    outside, the nearest lens point is a circle's radial projection that lies in the other
    disc, or one of the two corners where the circles cross.
    """
    in_u, ux, uy = _edge_of_disc(q, upper, upper_r)
    if lower is None:
        return in_u, math.atan2(uy, ux)
    in_l, lx, ly = _edge_of_disc(q, lower, lower_r)
    if in_u >= 0.0 and in_l >= 0.0:
        return (in_u, math.atan2(uy, ux)) if in_u <= in_l else (in_l, math.atan2(ly, lx))
    candidates = []
    for centre, radius, (ex, ey), other, other_r in ((upper, upper_r, (ux, uy), lower, lower_r),
                                                     (lower, lower_r, (lx, ly), upper, upper_r)):
        point = (centre[0] + radius * ex, centre[1] + radius * ey)
        if math.hypot(point[0] - other[0], point[1] - other[1]) <= other_r * (1 + 1e-12):
            candidates.append(point)
    candidates += _corners(upper, upper_r, lower, lower_r)
    if not candidates:  # the discs do not overlap: measure to the support's disc
        return min(in_u, in_l), math.atan2(ly, lx)
    nearest = min(candidates, key=lambda p: math.hypot(q[0] - p[0], q[1] - p[1]))
    dx, dy = q[0] - nearest[0], q[1] - nearest[1]
    return -math.hypot(dx, dy), math.atan2(dy, dx)


def _corners(a: tuple[float, float], ra: float, b: tuple[float, float], rb: float) -> list[tuple[float, float]]:
    """The points where two circles cross (none if they do not)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d == 0.0 or d > ra + rb or d < abs(ra - rb):
        return []
    along = (ra * ra - rb * rb + d * d) / (2 * d)
    half = math.sqrt(max(ra * ra - along * along, 0.0))
    mx, my = a[0] + along * dx / d, a[1] + along * dy / d
    return [(mx - half * dy / d, my + half * dx / d), (mx + half * dy / d, my - half * dx / d)]


def tower_leans(params: Params, barrels: Sequence[BarrelPose], gradient: Gradient) -> list[Lean]:
    """The :class:`Lean` of every interface of a tower (bottom first; ``k = 0`` the deck)
    on a deck of ``gradient`` (dz/dx, dz/dy). Barrels in the deck frame (m)."""
    gx, gy = gradient
    leans: list[Lean] = []
    mass = wx = wy = wz = 0.0
    for k in range(len(barrels) - 1, -1, -1):
        barrel = barrels[k]
        spec = params.barrel(barrel.size)
        mass += spec.mass_kg
        wx += spec.mass_kg * barrel.x_m
        wy += spec.mass_kg * barrel.y_m
        wz += spec.mass_kg * barrel.z_m
        lever = max(wz / mass - (barrel.z_m - spec.height_m / 2), 1e-9)
        q = (wx / mass - lever * gx, wy / mass - lever * gy)
        upper, upper_r = (barrel.x_m, barrel.y_m), spec.end_diameter_m / 2
        if k > 0:
            below = barrels[k - 1]
            lower, lower_r = (below.x_m, below.y_m), params.barrel(below.size).end_diameter_m / 2
        else:
            lower, lower_r = None, 0.0
            if in_recess(params, barrel):  # it tips onto the recess wall's edge, which then holds it
                upper, upper_r = (0.0, 0.0), params.ship.recess_diameter_m / 2
        inside, direction = lens_edge(q, upper, upper_r, lower, lower_r)
        leans.append(Lean(k, inside, lever, direction, q))
    return leans[::-1]


def in_recess(params: Params, bottom: BarrelPose) -> bool:
    """Does the bottom barrel sit in the deck's round recess (its bottom below the deck's top)?"""
    depth = params.ship.recess_depth_m
    return depth > 0 and bottom.z_m - params.barrel(bottom.size).height_m / 2 < -depth / 2


def fall_slice(leans: Sequence[Lean], fallback_rad: float) -> float:
    """The slice direction (radians from the bow) of a phase: the weakest interface's tipping
    direction if it is within :data:`NEAR_TIPPING_RAD` of tipping, else ``fallback_rad``."""
    if not leans:
        return fallback_rad
    weakest = min(leans, key=lambda lean: lean.angle_rad)
    return weakest.direction_rad if weakest.angle_rad < NEAR_TIPPING_RAD else fallback_rad


def slice_faces(params: Params, barrels: Sequence[BarrelPose], leans: Sequence[Lean],
                direction_rad: float) -> list[Faces]:
    """Per barrel, the half-widths of its end faces in the slice along ``direction_rad``:
    at interface ``k`` both faces (barrel ``k``'s bottom, barrel ``k - 1``'s top) are the
    chords of their discs at the gravity line's position across the slice (``leans[k]``);
    the top barrel's top face keeps its full radius."""
    across = [to_slice(b.x_m, b.y_m, direction_rad)[1] for b in barrels]
    radii = [params.barrel(b.size).end_diameter_m / 2 for b in barrels]
    bottoms, tops = [], []
    for k, lean in enumerate(leans):
        line = to_slice(*lean.point_xy_m, direction_rad)[1]
        bottoms.append(chord_half_width(radii[k], line - across[k]))
        if k > 0:
            tops.append(chord_half_width(radii[k - 1], line - across[k - 1]))
    if barrels:
        tops.append(radii[-1])
    return [Faces(b, t) for b, t in zip(bottoms, tops)]


def unsupported(leans: Sequence[Lean], tolerance_m: float) -> Lean | None:
    """The lowest interface whose gravity line lies outside its lens by more than
    ``tolerance_m`` (m): exact statics says the stack above it cannot stand. None if none."""
    for lean in leans:
        if lean.inside_m < -tolerance_m:
            return lean
    return None
