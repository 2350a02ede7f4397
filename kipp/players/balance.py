"""A player's sense of balance: where to set the next barrel, which sailor to turn, how risky a turn is.

A person rolls first, so they know which sailor is about to turn, and sets the barrel a
little uphill of the coming tilt so that the gravity lines of the tower pass through the
middle of its contacts. :class:`BalanceJudge` models that judgement with the project's
static check (:mod:`sim.static_check`), never with a referee's verdict:

- :meth:`BalanceJudge.aim`: the aim that maximises the worst **balance margin**
  (:func:`sim.static_check.balance_margins`: how far every interface is from tipping,
  downhill or back uphill) of the decision about to happen: the tower with the barrel
  set, at today's tilt and at the tilt after the rolled sailor's turn. On a wild roll
  the sailor can be chosen with the aim (the best pair). Candidate aims lie on a polar
  grid around the top barrel's centre, never farther from it than
  :data:`AIM_REACH` of the smaller end radius of the two barrels, so the barrel is always
  set on the one below.
- :meth:`BalanceJudge.crash_probability`: a person's estimate of how likely a turn is
  to end in a crash: their own placement error (a fixed set of standard-normal draws
  scaled by sigma) propagated through the static check, with the turn's jolt allowed for
  by ``turn_allowance_deg`` (the dynamic deficit a player learns at the table).

Frames and units: the deck frame of :mod:`sim.tower` (x toward the bow, y to port,
metres); margins in radians unless a name says ``_deg``.

>>> from sim.params import load_params
>>> from sim.tower import TowerState, BarrelPose
>>> params = load_params()
>>> judge = BalanceJudge(params)
>>> tower = TowerState(barrels=(BarrelPose("large", 0.0, 0.0, 0.016),))
>>> aim = judge.aim(tower, "medium", ["red"], 1.0)
>>> aim.sailor, aim.x_m > 0.0, abs(aim.y_m) < 1e-5   # a red turn raises the bow (+x): set it bow-ward, uphill
('red', True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from sim.aim_margins import Slopes, margins_at_slopes
from sim.geometry import deck_gradient
from sim.params import SCREWS, Params
from sim.static_check import SizeTable, TowerBatch, static_margins
from sim.tower import TowerState


class Aim(NamedTuple):
    """The best aim and sailor of :meth:`BalanceJudge.aim` (unpacks as ``x, y, sailor, margin``)."""

    x_m: float
    """Where to set the barrel's centre: deck frame (:mod:`sim.tower`; x toward the bow), metres."""
    y_m: float
    """The same aim's y (toward port), metres."""
    sailor: str
    """The sailor to turn with it (the rolled one, or on a wild roll the best of those offered)."""
    margin_rad: float
    """The worst balance margin of the decision at this aim (:func:`sim.static_check.balance_margins`,
    today's tilt and the tilt after the turn), radians, less the tie-break that favours aims near the
    top centre (at most :data:`_TIE_RAD`); ``inf`` on an empty deck."""


AIM_REACH = 0.75
"""Farthest aim from the top barrel's centre, as a fraction of the smaller end radius of
the barrel set and the top barrel: a person sets a barrel on the one below, never on its rim."""

_RADII = np.linspace(0.0, 1.0, 3)[1:]
"""Coarse candidate distances, as fractions of the reach (the centre is always a candidate)."""
_COMPASS = 8
"""Coarse candidate directions besides the uphill ones."""
_UPHILL_STEPS = 16
"""Fine candidate distances along each uphill direction (after the turn, and halfway between
it and today's): the best aim lies near one, since the margins trade today's tilt against
the coming one along it (spacing: reach / 16, about 0.4 mm for a small barrel, inside any
player's placement error)."""
_ALONG = np.linspace(0.0, 1.0, _UPHILL_STEPS + 1)[1:]
_ALONG_LIST = _ALONG.tolist()
_ANGLES = np.linspace(0.0, 2 * math.pi, _COMPASS, endpoint=False)
_COMPASS_GRID = np.vstack([[0.0, 0.0], (_RADII[None, :, None] * np.stack(
    [np.cos(_ANGLES), np.sin(_ANGLES)], axis=1)[:, None, :]).reshape(-1, 2)])
"""The centre and the coarse compass, in units of the reach."""
_TIE_RAD = 1e-5
"""Margin (radians) an aim at the full reach gives up against one at the centre: breaks ties
toward the centre where the margins do not care (across the tilt), and is far below any
margin that matters (1e-5 rad is 0.0006 deg)."""

_SEARCHES_KEPT = 4096
"""Searches (candidates and slopes, :meth:`BalanceJudge._search`) a judge keeps, each a few kB."""

_STANDARD_DRAWS = np.random.default_rng(20261201).standard_normal((256, 2))
"""A fixed set of standard-normal placement errors: the crash estimate is a deterministic
function of the situation (a quadrature, not a draw from any game's stream)."""


class BalanceJudge:
    """The static check as a player's judgement, for one parameter set (see the module docstring)."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.table = SizeTable.from_params(params)
        self._wall_rad = math.radians(params.fast.recess_wall_contact_deg)
        self._radius = {spec.name: spec.end_diameter_m / 2 for spec in params.barrels}
        self._height = {spec.name: spec.height_m for spec in params.barrels}
        # the deck plane is linear in the screw heights: (gx, gy) = rows @ turns, solved once
        self._rows = np.array([deck_gradient(params.ship, dict.fromkeys(SCREWS, 0.0) | {s: 1.0}) for s in SCREWS]).T
        self._searches: dict[tuple, _Search] = {}

    def gradient(self, turns: dict[str, float]) -> tuple[float, float]:
        """Deck gradient (dz/dx, dz/dy) for sailor turn counts (revolutions): :func:`sim.geometry.deck_gradient`."""
        gx, gy = self._rows @ [turns[s] for s in SCREWS]
        return float(gx), float(gy)

    def gradient_after(self, tower: TowerState, sailor: str, fraction: float) -> tuple[float, float]:
        """The deck gradient after ``sailor`` turns ``fraction`` of a revolution."""
        turns = tower.turns_by_sailor()
        turns[sailor] = turns[sailor] + fraction
        return self.gradient(turns)

    # --- candidate towers ---------------------------------------------------------------

    def _with_barrel(self, tower: TowerState, size: str | None, aims: np.ndarray,
                     gradients: Sequence[tuple[float, float]]) -> TowerBatch:
        """A batch: the tower with ``size`` set at each aim (K, 2), at each gradient; aim-major."""
        n = len(tower.barrels)
        width = n + (size is not None)
        k, g = len(aims), len(gradients)
        sizes = np.array([self.table.index[b.size] for b in tower.barrels]
                         + ([self.table.index[size]] if size is not None else []), dtype=np.int64)
        xyz = np.zeros((k, width, 3))
        if n:
            xyz[:, :n] = [(b.x_m, b.y_m, b.z_m) for b in tower.barrels]
        if size is not None:
            spec = self.params.barrel(size)
            xyz[:, n, :2] = aims
            xyz[:, n, 2] = tower.top_height_m(self.params) + spec.height_m / 2
        return TowerBatch(size=np.broadcast_to(sizes, (k * g, width)),
                          xyz=np.repeat(xyz, g, axis=0),
                          count=np.full(k * g, width, dtype=np.int64),
                          gradient=np.tile(np.asarray(gradients, dtype=float), (k, 1)),
                          direction=np.full(k * g, tower.slice_direction_rad))

    def reach_m(self, tower: TowerState, size: str) -> float:
        """How far from the top barrel's centre the player may aim (m): :data:`AIM_REACH` of the
        smaller end radius of the barrel to set and the top barrel."""
        radius = self._radius[size]
        if tower.barrels:
            radius = min(radius, self._radius[tower.barrels[-1].size])
        return AIM_REACH * radius

    def candidate_aims(self, tower: TowerState, size: str,
                       uphill: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
        """(K, 2) deck-frame aims (metres) and their distances from the top centre as shares of
        the reach: the top centre and fine rays along the given uphill directions (unit
        vectors) at :data:`_UPHILL_STEPS` distances; with no uphill direction (the deck stays
        level), a coarse compass of :data:`_COMPASS` rays at :data:`_RADII`."""
        unit, share = _candidate_units(uphill)
        return self.reach_m(tower, size) * unit + np.array(tower.top_xy()), share

    # --- the judgements -------------------------------------------------------------------

    def aim(self, tower: TowerState, size: str, sailors: Sequence[str], fraction: float) -> Aim:
        """The best aim and sailor (:class:`Aim`) for setting a barrel of ``size`` on ``tower``
        before a turn of ``fraction`` revolutions.

        ``sailors``: the sailor the roll turns, or several on a wild roll (the pair of aim and
        sailor with the best worst margin is chosen; ties go to the first sailor, then to the
        aim nearest the top centre). The candidates (:meth:`candidate_aims`) are judged in one
        batch. On an empty deck the barrel goes into the recess: the aim is the tower spot.
        """
        if not tower.barrels:
            return Aim(0.0, 0.0, sailors[0], math.inf)
        search = self._search(tower, sailors, fraction)
        aims = self.reach_m(tower, size) * search.unit + np.array(tower.top_xy())
        top = tower.barrels[-1]
        margins = margins_at_slopes(self.table, tower.barrels, size, top.z_m + self._height[top.size] / 2,
                                    aims, search.slopes)
        worst = np.minimum(margins[:1], margins[1:])  # (sailors, K)
        worst -= search.tie
        s, k = divmod(int(np.argmax(worst)), worst.shape[1])  # ties: earlier sailor, then earlier aim
        return Aim(float(aims[k, 0]), float(aims[k, 1]), sailors[s], float(worst[s, k]))

    def _search(self, tower: TowerState, sailors: Sequence[str], fraction: float) -> "_Search":
        """What :meth:`aim` judges by: it depends on the turn counts, the sailors who may turn
        and the level direction, not on the barrels, and games come back to the same turn counts
        often (in 600 skilled and expert rounds, 4,586 aims met 1,248 of them), so it is kept
        (up to :data:`_SEARCHES_KEPT` of them)."""
        key = (tower.turns, tuple(sailors), fraction, tower.slice_direction_rad)
        search = self._searches.get(key)
        if search is None:
            if len(self._searches) >= _SEARCHES_KEPT:
                self._searches.clear()
            search = self._searches[key] = self._new_search(*key)
        return search

    def _new_search(self, turns: tuple[float, float, float], sailors: tuple[str, ...], fraction: float,
                    direction: float) -> "_Search":
        counts = [turns] + [tuple(t + fraction if s == sailor else t for s, t in zip(SCREWS, turns))
                            for sailor in sailors]
        gradients = np.array(counts) @ self._rows.T  # today's, then after each sailor's turn
        now, *afters = gradients.tolist()
        up_now = _unit(now)
        uphill = []
        for after in afters:
            up = _unit(after)
            if up is not None:
                uphill.append(up)
                if up_now is not None and (mid := _unit((up[0] + up_now[0], up[1] + up_now[1]))) is not None:
                    uphill.append(mid)
        unit, share = _candidate_units(uphill)
        # among aims equally good (the margins are flat across the tilt), the one nearer the centre
        return _Search(unit, _TIE_RAD * share, Slopes.of(gradients, direction))

    def best_sailor(self, tower: TowerState, sailors: Sequence[str], fraction: float) -> str:
        """The sailor whose turn leaves the tower as it stands best balanced (ties: ``sailors`` order):
        the balance margin of the tower's top barrel set where it stands, at the gradients of
        :meth:`aim`'s search."""
        if not tower.barrels:
            return sailors[0]
        *below, top = tower.barrels
        search = self._search(tower, sailors, fraction)
        margins = margins_at_slopes(self.table, below, top.size, top.z_m - self._height[top.size] / 2,
                                    np.array([[top.x_m, top.y_m]]), search.slopes)
        return sailors[int(np.argmax(margins[1:, 0]))]

    def standing_margin(self, tower: TowerState) -> float:
        """How much more tilt (radians) the tower as it stands takes before the static check
        says it falls, at today's tilt (:func:`sim.static_check.static_margins`; +inf when empty)."""
        if not tower.barrels:
            return math.inf
        batch = self._with_barrel(tower, None, np.zeros((1, 2)), [self.gradient(tower.turns_by_sailor())])
        margins, _ = static_margins(self.params, self.table, batch, self._wall_rad)
        return float(margins[0])

    def crash_probability(self, tower: TowerState, size: str | None, aim: tuple[float, float] | None,
                          sailor: str, fraction: float, sigma_m: float, turn_allowance_deg: float) -> float:
        """The player's own estimate that setting ``size`` at ``aim`` (none: no barrel) and then
        turning ``sailor`` crashes: the share of their placement errors (``sigma_m`` per
        axis) for which the static check fails, at today's tilt for the placement or at the
        tilt after the turn with ``turn_allowance_deg`` to spare."""
        if size is None:
            aims = np.zeros((1, 2))
        else:
            aims = np.asarray(aim, dtype=float) + sigma_m * _STANDARD_DRAWS
        gradients = [self.gradient(tower.turns_by_sailor()), self.gradient_after(tower, sailor, fraction)]
        if size is not None and not tower.barrels:  # the recess centres the first barrel
            aims = np.zeros((1, 2))
        margins, _ = static_margins(self.params, self.table, self._with_barrel(tower, size, aims, gradients),
                                    self._wall_rad)
        margins = margins.reshape(len(aims), 2)
        crashed = (margins[:, 0] < 0.0) | (margins[:, 1] < math.radians(turn_allowance_deg))
        return float(crashed.mean())


@dataclass(frozen=True)
class _Search:
    """The candidates and slopes of one search of :meth:`BalanceJudge.aim` (see :meth:`BalanceJudge._search`)."""

    unit: np.ndarray
    """(K, 2) candidate aims from the top centre, in units of the reach."""
    tie: np.ndarray
    """(K,) margin (radians) each candidate gives up for its distance from the centre (:data:`_TIE_RAD`)."""
    slopes: Slopes
    """Today's gradient, then the one after each sailor's turn."""


def _candidate_units(uphill: Sequence[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`BalanceJudge.candidate_aims` in units of the reach, from the top centre; and their lengths."""
    if uphill:  # the centre, and the fine rays
        unit = np.array([0.0, 0.0] + [a * u for ux, uy in uphill for a in _ALONG_LIST for u in (ux, uy)]).reshape(-1, 2)
    else:  # the deck stays level: no direction to prefer
        unit = _COMPASS_GRID
    return unit, np.hypot(unit[:, 0], unit[:, 1])


def _unit(gradient) -> tuple[float, float] | None:
    """The uphill unit vector of a deck gradient (the direction the deck rises), None if level."""
    gx, gy = gradient
    slope = math.hypot(gx, gy)
    if slope < 1e-12:
        return None
    return gx / slope, gy / slope

