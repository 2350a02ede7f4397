"""Balance margins of one tower with a barrel set at each of many aims: the bots' search.

:func:`sim.static_check.balance_margins` judges a batch of whole towers. A player choosing
where to set the next barrel judges one tower with that barrel at each of K candidate
aims, at a few deck gradients (today's, and after each sailor the roll may turn): G x K
towers that differ only in where the new barrel stands. :func:`balance_margins_of_aims`
gives the same numbers (the tests check them against :func:`~sim.static_check.balance_margins`)
for that case, and is written for it: a search is a few dozen numpy calls on arrays of a
few thousand numbers, so the calls, not the numbers, are what it pays for.

- Each centre of mass is the tower's part (summed once, in plain Python) plus the new
  barrel's share of its aim.
- Every point is projected onto the downhill direction and across it (:class:`Slopes`),
  where a ray through a disc is one square root. The frames depend only on the gradients,
  so a caller judging the same gradients again can keep them.
- Arrays put the candidates innermost (numpy's loops pay per row).

Frames and units: the deck frame of :mod:`sim.tower` (x toward the bow, y to port,
metres); margins in radians.

>>> from sim.params import load_params
>>> from sim.static_check import SizeTable
>>> from sim.tower import BarrelPose
>>> table = SizeTable.from_params(load_params())
>>> tower = (BarrelPose("large", 0.0, 0.0, 0.016),)
>>> top = 0.016 + load_params().barrel("large").height_m / 2
>>> aims = np.array([[0.0, 0.0], [0.004, 0.0], [-0.004, 0.0]])
>>> margins = balance_margins_of_aims(table, tower, "medium", top, aims, [(0.0, 0.0), (0.05, 0.0)], 0.0)
>>> margins.shape, bool(margins[1, 1] > margins[1, 0] > margins[1, 2])   # deck rising to +x: uphill is better
((2, 3), True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from sim.static_check import _FAR, SizeTable
from sim.tower import BarrelPose


@dataclass(frozen=True)
class Slopes:
    """Per deck gradient, the tilt and the frame margins are measured in."""

    theta: np.ndarray
    """(G, 1) deck tilt, radians."""
    axes: np.ndarray
    """(G, 2, 2) per gradient, as columns: the downhill unit vector d (the level direction on a
    level deck) and the unit vector across it (d turned 90 degrees anticlockwise)."""
    frames: np.ndarray
    """(G, 2, 2) the same as rows (``axes`` transposed, contiguous)."""

    @classmethod
    def of(cls, gradients, direction: float) -> "Slopes":
        """The slopes of ``gradients`` (G, 2) (dz/dx, dz/dy); ``direction`` (radians from the
        bow) stands in for downhill where a gradient is level."""
        gradients = np.asarray(gradients, dtype=float).reshape(-1, 2).T
        slope = np.hypot(*gradients)
        level = (math.cos(direction), math.sin(direction))
        axes, frames = [], []
        for gx, gy, s in zip(*gradients.tolist(), slope.tolist()):
            dx, dy = level if s <= 0 else (-gx / s, -gy / s)
            axes.append(((dx, -dy), (dy, dx)))
            frames.append(((dx, dy), (-dy, dx)))
        return cls(np.arctan(slope)[:, None], np.array(axes), np.array(frames))


def balance_margins_of_aims(table: SizeTable, barrels: Sequence[BarrelPose], size: str, top_z_m: float,
                            aims: np.ndarray, gradients, direction: float) -> np.ndarray:
    """:func:`sim.static_check.balance_margins` of one tower with a barrel of ``size`` set at each aim,
    at each gradient: (G, K) radians.

    ``barrels`` is the tower (at least one barrel), ``top_z_m`` the height of its top face
    (the new barrel's bottom), ``aims`` (K, 2) deck-frame centres of the new barrel (m),
    ``gradients`` (G, 2), ``direction`` the level direction (radians from the bow).
    """
    return margins_at_slopes(table, barrels, size, top_z_m, aims, Slopes.of(gradients, direction))


def margins_at_slopes(table: SizeTable, barrels: Sequence[BarrelPose], size: str, top_z_m: float,
                      aims: np.ndarray, slopes: Slopes) -> np.ndarray:
    """:func:`balance_margins_of_aims` at gradients already turned into :class:`Slopes`."""
    scalars = table.scalars
    n = len(barrels)
    r_new, m_new, half_new, _ = scalars[size]
    # per interface k = 0..n (n: the new barrel on the top face), from the centre of mass of
    # what stands on it (the tower's part, summed from the top; the new barrel's share of its
    # aim moves it): its two discs' centres, how they move with the aim, their squared radii
    # (the barrel's own bottom disc, and the top disc of the one below: the deck, a disc of
    # radius _FAR, under the bottom one), and the lever. The new barrel's own disc moves with
    # its centre of mass; the top barrel's moves against it. Filled into flat lists (numpy
    # converts those fastest): the centres (2 discs, n+1, 2), and rows of n+1 numbers.
    m1 = n + 1
    centres = [0.0] * (4 * m1)
    mass, wx, wy, wz = m_new, 0.0, 0.0, m_new * (top_z_m + half_new)
    rows = [0.0] * m1 + [-1.0] * m1 + [r_new * r_new] * m1 + [_FAR * _FAR] * m1 + [max(wz / mass - top_z_m, 1e-9)] * m1
    x_below, y_below = (barrels[-1].x_m, barrels[-1].y_m) if n else (0.0, 0.0)
    centres[2 * m1 + 2 * n:] = x_below, y_below
    for k in range(n - 1, -1, -1):
        pose = barrels[k]
        radius, m, half_height, _ = scalars[pose.size]
        mass += m
        wx += m * pose.x_m
        wy += m * pose.y_m
        wz += m * pose.z_m
        px, py = wx / mass, wy / mass
        x_below, y_below = (barrels[k - 1].x_m, barrels[k - 1].y_m) if k else (0.0, 0.0)
        centres[2 * k:2 * k + 2] = pose.x_m - px, pose.y_m - py
        centres[2 * (m1 + k):2 * (m1 + k) + 2] = x_below - px, y_below - py
        rows[k] = rows[m1 + k] = -(m_new / mass)
        rows[2 * m1 + k] = rows[3 * m1 + k + 1] = radius * radius
        rows[4 * m1 + k] = max(wz / mass - (pose.z_m - half_height), 1e-9)
    centres = np.array(centres).reshape(2, m1, 2)
    rows = np.array(rows).reshape(5, m1)
    move, r2, lever = rows[:2, None, :, None], rows[2:4, None, :, None], rows[4, :, None]

    # (2 discs, G, n+1, K): disc centres from the centres of mass, along d and across it
    fixed = centres[:, None] @ slopes.axes  # (2 discs, G, n+1, along and across)
    projected = np.matmul(slopes.frames, aims.T)  # (G, along and across, K)
    along = fixed[..., 0, None] + move * projected[:, 0, None]
    across = fixed[..., 1, None] + move * projected[:, 1, None]
    room = r2 - across * across
    # per interface, the lens's edges uphill (negated: -t_enter) and downhill (t_exit) from the
    # centre of mass, along d
    edges = np.empty((2,) + room.shape[1:])
    if room.min() >= 0.0:  # the usual case: every ray meets both discs
        half = np.sqrt(room, out=room)
        np.minimum(half[0] - along[0], half[1] - along[1], out=edges[0])
        np.minimum(along[0] + half[0], along[1] + half[1], out=edges[1])
    else:  # a ray that misses a disc leaves the lens empty
        half = np.sqrt(np.maximum(room, 0.0))
        hit = room >= 0
        np.min(np.where(hit, half - along, -np.inf), axis=0, out=edges[0])
        np.min(np.where(hit, along + half, -np.inf), axis=0, out=edges[1])
    # how much further the deck may tilt back uphill, and downhill, before an interface tips
    uphill, downhill = np.arctan2(edges, lever).min(axis=2)
    uphill += slopes.theta
    downhill -= slopes.theta
    return np.minimum(downhill, uphill)
