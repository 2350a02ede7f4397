"""A smooth model of the chance that a hand-built tower falls: statics with placement noise.

The model (used both to fit topple experiments and game records, and to make the
synthetic data set):

- Each barrel is put down with a Gaussian error of ``sigma_mm`` per axis around the
  centre of the barrel below (the aim of a careful hand; the bottom barrel's own place
  does not matter, tipping is translation invariant on a large deck).
- The tower is rigid until it falls. At deck tilt theta toward the horizontal unit
  vector u, the stack above an interface tips when the point ``S + H tan(theta) u`` (S
  the horizontal position of that stack's centre of mass, H its height above the
  interface) leaves the contact region: the intersection of the upper barrel's bottom
  disc and the lower barrel's top disc (the deck for the bottom barrel, which sits in
  the recess and cannot slide). ``theta_c`` is the smallest such tilt over the
  interfaces, capped by the sliding angle atan(mu) above the bottom barrel. These are
  the closed-form statics of sim.closed_forms, in 3D for round end faces.
- A turn crashes the tower when ``theta > theta_c - margin + jitter``: ``margin_deg`` is
  the dynamic deficit of a real turn (DESIGN.md 3: a 1 s turn topples a stack 0.5-0.7
  deg below its static angle); ``jitter`` ~ N(0, JITTER_DEG^2) independently per phase
  stands for everything else (hand speed, wood, dust). Placing a barrel on a tilted
  deck crashes it when ``theta > theta_c + jitter`` (no margin).

So for one draw of the placement errors the chance of a crash in a phase is
``Phi((theta - theta_c + margin) / JITTER_DEG)``: smooth in every parameter. The
likelihood averages over ``n_draws`` placement draws fixed once from a seed (common
random numbers, so the optimiser sees a smooth surface).

Units inside: millimetres, grams, degrees for the margin and jitter, radians for tilts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import special

from sim.geometry import deck_gradient, downhill_direction, tilt_angle
from sim.params import SCREWS, Params

JITTER_DEG = 0.25
"""Standard deviation of the per-phase threshold jitter, degrees (fixed, not fitted)."""

_NO_DISC_MM = 1.0e4
"""Radius standing for "no limit": the deck under the bottom barrel."""


@dataclass(frozen=True)
class Step:
    """One turn: optionally place the next barrel of the order, then turn ``sailor``."""

    sailor: str
    revolutions: float
    place: bool


@dataclass(frozen=True)
class Phase:
    """A moment at which the tower may fall: ``n`` barrels on a deck tilted ``tilt_rad``
    toward ``direction_rad``; ``turn`` (margin applies) or placement; ``group`` is the turn index."""

    n: int
    tilt_rad: float
    direction_rad: float
    turn: bool
    group: int


def phases(params: Params, n_start: int, steps: list[Step] | tuple[Step, ...]) -> list[Phase]:
    """The phases of a trial: ``n_start`` barrels already stacked on the level deck, then ``steps``.

    A placement on a level deck is skipped (the tower stood while it was built).
    """
    turns = dict.fromkeys(SCREWS, 0.0)
    n, tilt, direction = n_start, 0.0, 0.0
    out = []
    for k, step in enumerate(steps):
        if step.place:
            n += 1
            if tilt > 1e-12:
                out.append(Phase(n, tilt, direction, False, k))
        turns[step.sailor] += step.revolutions
        gradient = deck_gradient(params.ship, turns)
        tilt = tilt_angle(gradient)
        new_direction = downhill_direction(gradient)
        direction = direction if new_direction is None else new_direction
        out.append(Phase(n, tilt, direction, True, k))
    return out


@dataclass(frozen=True)
class Trial:
    """A tower's history and what happened: ``fell_group`` is the turn index of the crash, or None."""

    sizes: tuple[str, ...]
    phases: tuple[Phase, ...]
    n_groups: int
    fell_group: int | None


def _barrel_arrays(params: Params, sizes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    specs = [params.barrel(s) for s in sizes]
    heights = np.array([s.height_m * 1000 for s in specs])
    radii = np.array([s.end_diameter_m * 500 for s in specs])
    masses = np.array([s.mass_kg * 1000 for s in specs])
    return heights, radii, masses


class Batch:
    """Trials with their placement draws, precomputed for fast evaluation at any sigma and margin.

    ``draws[t]`` holds standard normal errors of shape (n_draws, len(sizes), 2) for trial t.
    """

    def __init__(self, params: Params, trials: list[Trial], draws: list[np.ndarray]) -> None:
        self.trials = trials
        self.n_draws = draws[0].shape[0] if draws else 0
        a_parts, b_parts, r_parts, h_parts, starts = [], [], [], [], []
        tilts, turn_flags, slide_caps, group_of_phase = [], [], [], []
        slide = math.atan(params.mu)
        q = 0
        group_base = 0
        self.group_slices = []
        for trial, z in zip(trials, draws):
            heights, radii, masses = _barrel_arrays(params, trial.sizes)
            walk = np.cumsum(z, axis=1) - z[:, :1, :]  # offsets of the barrel centres / sigma, bottom at 0
            for phase in trial.phases:
                n = phase.n
                u = np.array([math.cos(phase.direction_rad), math.sin(phase.direction_rad)])
                m = masses[:n]
                centres = np.cumsum(heights[:n]) - heights[:n] / 2
                bottoms = np.cumsum(heights[:n]) - heights[:n]
                suffix_m = np.cumsum(m[::-1])[::-1]
                com_h = np.cumsum((m * centres)[::-1])[::-1] / suffix_m - bottoms
                com_xy = np.cumsum((walk[:, :n] * m[None, :, None])[:, ::-1], axis=1)[:, ::-1] / suffix_m[None, :, None]
                lower = np.concatenate([np.zeros_like(walk[:, :1]), walk[:, :n - 1]], axis=1)
                d = np.stack([com_xy - walk[:, :n], com_xy - lower], axis=2)  # (draws, n, 2 discs, 2 xy)
                a = d @ u
                b = np.einsum("mndk,mndk->mnd", d, d) - a * a
                a_parts.append(a)
                b_parts.append(np.maximum(b, 0.0))
                r_parts.append(np.stack([radii[:n], np.r_[_NO_DISC_MM, radii[:n - 1]]], axis=1))
                h_parts.append(com_h)
                starts.append(q)
                q += n
                tilts.append(phase.tilt_rad)
                turn_flags.append(phase.turn)
                slide_caps.append(slide if n >= 2 else math.pi / 2)
                group_of_phase.append(group_base + phase.group)
            self.group_slices.append((group_base, trial.n_groups))
            group_base += trial.n_groups
        self.n_groups = group_base
        empty = np.zeros((self.n_draws, 0, 2))
        self._a = np.concatenate(a_parts, axis=1) if a_parts else empty
        self._b = np.concatenate(b_parts, axis=1) if b_parts else empty
        self._r2 = (np.concatenate(r_parts, axis=0) ** 2) if r_parts else np.zeros((0, 2))
        self._r = np.sqrt(self._r2)
        self._h = np.concatenate(h_parts) if h_parts else np.zeros(0)
        self._starts = np.array(starts, dtype=int)
        self.tilts = np.array(tilts)
        self.turn = np.array(turn_flags, dtype=float)
        self._slide = np.array(slide_caps)
        self._phase_group = np.array(group_of_phase, dtype=int)
        self._theta_c = lru_cache(maxsize=64)(self._theta_c_uncached)

    def theta_c(self, sigma_mm: float) -> np.ndarray:
        """Static critical tilt (rad) of every phase for every draw, shape (n_draws, n_phases)."""
        return self._theta_c(float(sigma_mm))

    def _theta_c_uncached(self, sigma_mm: float) -> np.ndarray:
        if len(self._starts) == 0:
            return np.zeros((self.n_draws, 0))
        inside = self._r2 - sigma_mm * sigma_mm * self._b
        # distance from the stack's centre of mass to the disc's rim along u (negative: outside)
        exit_mm = -sigma_mm * self._a + np.sqrt(np.maximum(inside, 0.0)) - np.sqrt(np.maximum(-inside, 0.0))
        exit_mm = np.minimum(exit_mm[..., 0], exit_mm[..., 1])
        tan_c = np.minimum.reduceat(exit_mm / self._h, self._starts, axis=1)
        return np.minimum(np.arctan(tan_c), self._slide)

    def log_stand(self, sigma_mm: float, margin_deg: float) -> np.ndarray:
        """log P(no crash in each turn | draw), shape (n_draws, n_groups)."""
        theta_c = self.theta_c(sigma_mm)
        x = (self.tilts - theta_c + self.turn * math.radians(margin_deg)) / math.radians(JITTER_DEG)
        log_s = special.log_ndtr(-x)
        out = np.zeros((self.n_draws, self.n_groups))
        np.add.at(out.T, self._phase_group, log_s.T)
        return out

    def outcome_probabilities(self, sigma_mm: float, margin_deg: float) -> tuple[np.ndarray, np.ndarray]:
        """(P(observed outcome), P(crash at all)) of every trial, averaged over the draws."""
        log_s = self.log_stand(sigma_mm, margin_deg)
        observed, crash = np.empty(len(self.trials)), np.empty(len(self.trials))
        for t, (trial, (base, count)) in enumerate(zip(self.trials, self.group_slices)):
            block = log_s[:, base:base + count]
            stand_all = np.exp(block.sum(axis=1))
            crash[t] = 1.0 - stand_all.mean()
            if trial.fell_group is None:
                observed[t] = stand_all.mean()
            else:
                k = trial.fell_group
                before = np.exp(block[:, :k].sum(axis=1))
                observed[t] = np.mean(before * -np.expm1(block[:, k]))
        return observed, crash

    def hazards(self, sigma_mm: float, margin_deg: float) -> list[np.ndarray]:
        """For every trial, the chance of a crash in each turn given that the tower stood until
        then (averaged over the draws): the expected counterpart of the observed crashes."""
        log_s = self.log_stand(sigma_mm, margin_deg)
        out = []
        for base, count in self.group_slices:
            block = log_s[:, base:base + count]
            before = np.exp(np.cumsum(block, axis=1) - block)  # stood through the turns before each
            out.append(np.mean(before * -np.expm1(block), axis=0) / np.maximum(np.mean(before, axis=0), 1e-300))
        return out

    def sample_outcomes(self, sigma_mm: float, margin_deg: float, rng: np.random.Generator) -> list[int | None]:
        """For the first draw of every trial: the turn index of the first crash (jitter drawn
        from ``rng``), or None. The generating model of the synthetic data."""
        theta_c = self.theta_c(sigma_mm)[0]
        jitter = rng.standard_normal(len(theta_c)) * math.radians(JITTER_DEG)
        crashed = self.tilts > theta_c - self.turn * math.radians(margin_deg) + jitter
        out = []
        for base, count in self.group_slices:
            groups = self._phase_group[crashed] - base
            groups = groups[(groups >= 0) & (groups < count)]
            out.append(int(groups.min()) if len(groups) else None)
        return out
