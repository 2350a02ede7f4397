"""The static check of a whole tower, vectorised in numpy over a batch of towers.

For every interface -- the deck under the bottom barrel, and each barrel on the one
below -- the barrels above it stand if the gravity line through their centre of mass
meets the interface inside the contact region, and if the interface does not slide
(tan(theta) <= mu). Everything is in the deck frame (x toward the bow, y to port, z up
from the deck's top surface; metres), the deck tilted by its gradient g = (dz/dx, dz/dy):

- The contact region of barrel k on barrel k-1 is the intersection (a lens) of barrel
  k's bottom disc and barrel k-1's top disc, both of the end radius, centred on the
  barrels' (x, y). For the bottom barrel it is its own bottom disc on the deck (or on the
  floor of the round recess at the tower spot).
- Gravity, seen in the deck frame, leans toward the downhill direction d = -g / |g| by
  theta = atan(|g|): the gravity line through a centre of mass H above the interface
  meets it at p + H tan(theta) d, with p the centre of mass's (x, y). The largest tilt
  the interface stands is atan(t_exit / H), t_exit the distance from p along d to the
  lens's edge; the margin of the interface is that angle minus theta (negative: it falls).
- The bottom barrel in the recess may also pivot on the recess wall's top edge (at the
  deck's top surface, radius of the recess) when its side would touch that edge after
  turning less than ``recess_wall_contact_rad`` about its own bottom corner; it then
  stands up to the larger of the two angles. In the recess it cannot slide.

These are the closed forms of :mod:`sim.closed_forms`: a centred stack of N equal boxes
(w wide, h high) on a flat deck topples at tan(theta) = w / (N h); any interface slides
at tan(theta) = mu. Offsets across the downhill direction shorten the lever to the chord
of the disc (the 2D physics narrows its faces the same way, :mod:`sim.barrel_shape`).

Barrel tilts in the tower state are not used: the centres' (x, y, z) already carry the
small leans a settled tower has.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

import numpy as np

from sim.barrel_shape import outline
from sim.params import BarrelSpec, Params
from sim.tower import BarrelPose

_FAR = 1e3
"""Radius (m) standing in for 'no limit' (the deck under a barrel outside the recess)."""


@dataclass(frozen=True)
class SizeTable:
    """Per barrel size: end radius, height, mass and side half-width at the recess depth."""

    index: dict[str, int]
    radius_m: np.ndarray
    height_m: np.ndarray
    mass_kg: np.ndarray
    side_at_recess_m: np.ndarray

    @cached_property
    def scalars(self) -> dict[str, tuple[float, float, float, float]]:
        """Per size name, as Python floats: (end radius m, mass kg, half height m, side
        half-width at the recess depth m), for the plain-Python checks of one tower."""
        return {name: (float(self.radius_m[i]), float(self.mass_kg[i]), float(self.height_m[i]) / 2,
                       float(self.side_at_recess_m[i])) for name, i in self.index.items()}

    @classmethod
    def from_params(cls, params: Params) -> "SizeTable":
        depth = params.ship.recess_depth_m
        return cls(index={spec.name: i for i, spec in enumerate(params.barrels)},
                   radius_m=np.array([s.end_diameter_m / 2 for s in params.barrels]),
                   height_m=np.array([s.height_m for s in params.barrels]),
                   mass_kg=np.array([s.mass_kg for s in params.barrels]),
                   side_at_recess_m=np.array([_side_half_width(s, depth) for s in params.barrels]))


def _side_half_width(spec: BarrelSpec, above_bottom_m: float) -> float:
    """Half-width (m) of the barrel's side-view outline ``above_bottom_m`` above its bottom face."""
    points = [(x, y + spec.height_m / 2) for x, y in outline(spec) if x > 0]
    points.sort(key=lambda p: p[1])
    heights = [y for _, y in points]
    widths = [x for x, _ in points]
    return float(np.interp(min(above_bottom_m, spec.height_m / 2), heights, widths))


@dataclass(frozen=True)
class TowerBatch:
    """A batch of B towers padded to N barrels (bottom first); padding has zero mass."""

    size: np.ndarray
    """(B, N) size index (0 for padding)."""
    xyz: np.ndarray
    """(B, N, 3) barrel centres, deck frame, metres."""
    count: np.ndarray
    """(B,) barrels in each tower."""
    gradient: np.ndarray
    """(B, 2) deck gradient (dz/dx, dz/dy)."""
    direction: np.ndarray
    """(B,) downhill direction (radians from the bow) used when the deck is level."""


def pack(table: SizeTable, towers: Sequence[Sequence[BarrelPose]], gradients: Sequence[tuple[float, float]],
         directions: Sequence[float]) -> TowerBatch:
    """Arrays for :func:`static_margins` from barrel poses (bottom first), gradients and level directions."""
    count = np.array([len(t) for t in towers], dtype=np.int64)
    width = max(1, int(count.max(initial=0)))
    size = np.zeros((len(towers), width), dtype=np.int64)
    xyz = np.zeros((len(towers), width, 3))
    index = table.index
    for b, barrels in enumerate(towers):
        if barrels:
            size[b, :len(barrels)] = [index[p.size] for p in barrels]
            xyz[b, :len(barrels)] = [(p.x_m, p.y_m, p.z_m) for p in barrels]
    return TowerBatch(size, xyz, count, np.asarray(gradients, dtype=float).reshape(-1, 2),
                      np.asarray(directions, dtype=float))


def _ray_through_disc(p: np.ndarray, centre: np.ndarray, radius: np.ndarray,
                      d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the ray p + t d (|d| = 1) enters and leaves a disc: (t_enter, t_exit); (+inf, -inf) if it misses."""
    rel = p - centre
    b = np.einsum("...i,...i->...", rel, d)
    disc = b * b - (np.einsum("...i,...i->...", rel, rel) - radius * radius)
    root = np.sqrt(np.maximum(disc, 0.0))
    hit = disc >= 0.0
    return np.where(hit, -b - root, np.inf), np.where(hit, -b + root, -np.inf)


@dataclass(frozen=True)
class _Interfaces:
    """Per tower and interface: the geometry both margins read (radians, metres)."""

    valid: np.ndarray
    """(B, N) interface k exists (barrel k is in the tower)."""
    com: np.ndarray
    """(B, N, 3) centre of mass of barrels k and up."""
    bottom_z: np.ndarray
    lever: np.ndarray
    """(B, N) height of that centre of mass above interface k."""
    theta: np.ndarray
    """(B,) deck tilt."""
    d: np.ndarray
    """(B, 2) downhill unit vector (the level direction on a level deck)."""
    t_enter: np.ndarray
    t_exit: np.ndarray
    """(B, N) along d from the centre of mass's (x, y): where the ray enters and leaves the contact lens."""


def _interfaces(table: SizeTable, batch: TowerBatch) -> _Interfaces:
    n_towers, width = batch.size.shape
    valid = np.arange(width)[None, :] < batch.count[:, None]
    mass = np.where(valid, table.mass_kg[batch.size], 0.0)
    radius = table.radius_m[batch.size]
    height = table.height_m[batch.size]
    xyz = batch.xyz
    # centre of mass of everything from barrel k up (suffix sums)
    weight = np.cumsum((mass[:, :, None] * xyz)[:, ::-1], axis=1)[:, ::-1]
    total = np.cumsum(mass[:, ::-1], axis=1)[:, ::-1]
    com = weight / np.where(total > 0, total, 1.0)[:, :, None]
    bottom_z = xyz[:, :, 2] - height / 2
    lever = np.maximum(com[:, :, 2] - bottom_z, 1e-9)

    grad = batch.gradient
    slope = np.hypot(grad[:, 0], grad[:, 1])
    theta = np.arctan(slope)
    level_d = np.stack([np.cos(batch.direction), np.sin(batch.direction)], axis=1)
    d = np.where((slope > 0)[:, None], -grad / np.where(slope > 0, slope, 1.0)[:, None], level_d)
    d_b = np.broadcast_to(d[:, None, :], (n_towers, width, 2))

    p = com[:, :, :2]
    centre = xyz[:, :, :2]
    below_centre = np.concatenate([np.zeros((n_towers, 1, 2)), centre[:, :-1]], axis=1)
    below_radius = np.concatenate([np.full((n_towers, 1), _FAR), radius[:, :-1]], axis=1)
    enter_a, exit_a = _ray_through_disc(p, centre, radius, d_b)
    enter_b, exit_b = _ray_through_disc(p, below_centre, below_radius, d_b)
    return _Interfaces(valid, com, bottom_z, lever, theta, d, np.maximum(enter_a, enter_b),
                       np.minimum(exit_a, exit_b))


def static_margins(params: Params, table: SizeTable, batch: TowerBatch,
                   recess_wall_contact_rad: float) -> tuple[np.ndarray, np.ndarray]:
    """Per tower: the static margin (radians; +inf for an empty tower) and the critical interface.

    The margin is the smallest over interfaces of (largest tilt toward d the interface
    stands) - (the deck's tilt), also bounded by sliding; where a centre of mass beyond
    the uphill edge needs more tilt than the deck has, it is the (negative) shortfall.
    Negative: it falls.
    Interface ``k`` is under barrel ``k`` (0: the deck); -1 for an empty tower.
    """
    g = _interfaces(table, batch)
    theta_hi = np.arctan2(g.t_exit, g.lever)
    theta_lo = np.arctan2(g.t_enter, g.lever)

    ship = params.ship
    depth, recess_r = ship.recess_depth_m, ship.recess_diameter_m / 2
    in_recess = (depth > 0) & (g.bottom_z[:, 0] < -depth / 2) & (batch.count > 0)
    if depth > 0 and np.any(in_recess):
        theta_hi[:, 0] = np.where(in_recess, np.maximum(theta_hi[:, 0], _wall_pivot(
            table, batch, g.com, g.d, depth, recess_r, recess_wall_contact_rad)), theta_hi[:, 0])

    theta = g.theta[:, None]
    margin = np.where(theta >= theta_lo, theta_hi - theta, theta - theta_lo)
    slide = np.full_like(margin, math.atan(params.mu)) - theta
    slide[:, 0] = np.where(in_recess, np.inf, slide[:, 0])
    margin = np.where(g.valid, np.minimum(margin, slide), np.inf)
    worst = np.argmin(margin, axis=1)
    tower_margin = margin[np.arange(len(margin)), worst]
    return tower_margin, np.where(batch.count > 0, worst, -1)


def balance_margins(table: SizeTable, batch: TowerBatch) -> np.ndarray:
    """Per tower: how far it is from tipping either way (radians; +inf for an empty tower).

    For every interface, the deck could tilt further downhill by ``atan(t_exit / H) -
    theta`` before the stack above tips over the lens's downhill edge, and swing back
    uphill by ``atan(-t_enter / H) + theta`` before it tips over the uphill edge (H the
    lever, t along the downhill direction from the centre of mass). The smaller of the
    two, over all interfaces; negative where the gravity line already misses the lens.
    A tower whose gravity lines pass through the middle of every contact has the largest
    balance margin: the judgement of a person setting a barrel "just right", not a
    crash verdict (no sliding, no recess wall; see :func:`static_margins` for that).
    """
    g = _interfaces(table, batch)
    theta = g.theta[:, None]
    downhill = np.arctan2(g.t_exit, g.lever) - theta
    uphill = np.arctan2(-g.t_enter, g.lever) + theta
    margin = np.where(g.valid, np.minimum(downhill, uphill), np.inf)
    return margin.min(axis=1)


def _wall_pivot(table: SizeTable, batch: TowerBatch, com: np.ndarray, d: np.ndarray, depth: float,
                recess_r: float, contact_rad: float) -> np.ndarray:
    """(B,) largest tilt the whole tower stands pivoting on the recess wall's top edge
    (-pi/2 where the bottom barrel's side would not reach the edge within ``contact_rad``)."""
    bottom = batch.xyz[:, 0, :2]
    along = np.einsum("bi,bi->b", bottom, d)
    across = bottom[:, 0] * d[:, 1] - bottom[:, 1] * d[:, 0]
    wall = np.sqrt(np.maximum(recess_r ** 2 - across ** 2, 0.0))
    r0 = table.radius_m[batch.size[:, 0]]
    side = table.side_at_recess_m[batch.size[:, 0]]
    turn_to_touch = np.arctan2(wall - along - r0, depth) - np.arctan2(side - r0, depth)
    _, exit_w = _ray_through_disc(com[:, 0, :2], np.zeros_like(d), np.full(len(d), recess_r), d)
    angle = np.arctan2(exit_w, np.maximum(com[:, 0, 2], 1e-9))
    return np.where(turn_to_touch <= contact_rad, angle, -math.pi / 2)


def static_margin_one(params: Params, table: SizeTable, barrels: Sequence[BarrelPose],
                      gradient: tuple[float, float], direction: float,
                      recess_wall_contact_rad: float) -> tuple[float, int]:
    """:func:`static_margins` of one tower in plain Python (faster than numpy for one tower;
    the same formulas, checked equal by the tests)."""
    margins = interface_margins_one(params, table, barrels, gradient, direction, recess_wall_contact_rad)
    worst, worst_k = math.inf, -1
    for k in range(len(margins) - 1, -1, -1):
        if margins[k] <= worst:
            worst, worst_k = margins[k], k
    return worst, worst_k


def interface_margins_one(params: Params, table: SizeTable, barrels: Sequence[BarrelPose],
                          gradient: tuple[float, float], direction: float,
                          recess_wall_contact_rad: float) -> list[float]:
    """The static margin (radians) of every interface of one tower, bottom first: entry ``k``
    is that of barrel ``k`` on its support (0: the deck), as in :func:`static_margins`.

    The hot loop of the fast referee: the rays through the discs are written out inline
    (t = -b -+ sqrt(b^2 - (|r|^2 - R^2)), b = r . d, r from the disc's centre; a ray that
    misses a disc leaves the lens empty), and the sizes' numbers are read as Python floats
    (:attr:`SizeTable.scalars`)."""
    n = len(barrels)
    if n == 0:
        return []
    scalars = table.scalars
    specs = [scalars[b.size] for b in barrels]
    gx, gy = gradient
    slope = math.hypot(gx, gy)
    theta = math.atan(slope)
    if slope > 0:
        dx, dy = -gx / slope, -gy / slope
    else:
        dx, dy = math.cos(direction), math.sin(direction)
    slide = math.atan(params.mu) - theta
    ship = params.ship
    depth, recess_r = ship.recess_depth_m, ship.recess_diameter_m / 2
    inf, sqrt, atan2 = math.inf, math.sqrt, math.atan2
    m_sum = wx = wy = wz = 0.0
    margins = [0.0] * n
    for k in range(n - 1, -1, -1):
        pose = barrels[k]
        radius, mass, half_height, side = specs[k]
        x, y = pose.x_m, pose.y_m
        m_sum += mass
        wx += mass * x
        wy += mass * y
        wz += mass * pose.z_m
        px, py, pz = wx / m_sum, wy / m_sum, wz / m_sum
        bottom_z = pose.z_m - half_height
        lever = max(pz - bottom_z, 1e-9)
        # the ray from the centre of mass along d through barrel k's bottom disc ...
        rx, ry = px - x, py - y
        b = rx * dx + ry * dy
        disc = b * b - (rx * rx + ry * ry - radius * radius)
        if disc < 0.0:
            enter, leave = inf, -inf
        else:
            root = sqrt(disc)
            enter, leave = -b - root, -b + root
        # ... and through the top disc of the barrel below (the deck: a disc of radius _FAR)
        if k > 0:
            below = barrels[k - 1]
            rx, ry, r_below = px - below.x_m, py - below.y_m, specs[k - 1][0]
        else:
            rx, ry, r_below = px, py, _FAR
        b = rx * dx + ry * dy
        disc = b * b - (rx * rx + ry * ry - r_below * r_below)
        if disc < 0.0:
            enter, leave = max(enter, inf), min(leave, -inf)
        else:
            root = sqrt(disc)
            enter, leave = max(enter, -b - root), min(leave, -b + root)
        theta_hi, theta_lo = atan2(leave, lever), atan2(enter, lever)
        in_recess = k == 0 and depth > 0 and bottom_z < -depth / 2
        if in_recess:
            along = x * dx + y * dy
            across = x * dy - y * dx
            wall = sqrt(max(recess_r ** 2 - across ** 2, 0.0))
            turn_to_touch = atan2(wall - along - radius, depth) - atan2(side - radius, depth)
            if turn_to_touch <= recess_wall_contact_rad:
                b = px * dx + py * dy
                disc = b * b - (px * px + py * py - recess_r * recess_r)
                leave_w = -inf if disc < 0.0 else -b + sqrt(disc)
                theta_hi = max(theta_hi, atan2(leave_w, max(pz, 1e-9)))
        margin = theta_hi - theta if theta >= theta_lo else theta - theta_lo
        if not in_recess:
            margin = min(margin, slide)
        margins[k] = margin
    return margins

