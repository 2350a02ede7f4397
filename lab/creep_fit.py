"""Fit the fast referee's creep to the physics referee: how a standing tower drifts downhill.

In physics a tower does not stay where its barrels were aimed. With the deck tilted, every
standing decision (a barrel placed, a sailor turned) leaves the tower leaning a little
further downhill, and a placed barrel comes to rest a little downhill of its aim point.
The fast referee (:mod:`sim.referees.fast`) models both, per standing decision on a tilted
deck, along the deck's downhill direction d after the decision:

- every barrel above the bottom one that was already standing moves by
  ``creep_lean_rad * (z_k - z_0)`` (its height above the bottom barrel's centre, metres);
- the barrel just placed ends ``creep_placed_mm`` downhill of its aim point.

Both are fitted by least squares to the decisions of seeded games of two bots (casual pairs
and skilled/expert pairs) refereed by physics (every other pair with half turns, as in the benchmark set,
:func:`lab.bench_situations.candidates`): the lean through the origin of each barrel's
downhill move on its height, the placed offset as the mean of the placed barrels'
downhill offsets (the first barrel, clamped into the recess, left out).

Without creep the fast and hybrid referees stack about 0.2 barrels per round more than
physics (``notebooks/referee_choice.ipynb``): a tower that does not lean stays up longer.

Run ``python -m lab.creep_fit`` (about 20 s): it prints the fit and the lines
to paste into ``[fast]``. The defaults shipped in ``sim/default_params.toml`` come from it.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from sim.geometry import deck_gradient, downhill_direction
from sim.params import Params, load_params
from sim.tower import Decision, Placement, TowerState, Turn

DEFAULT_GAMES = 80
DEFAULT_SEED = 9000
"""Games and first game seed of the shipped fit (seeds apart from the benchmark set's)."""


@dataclass(frozen=True)
class CreepSamples:
    """Downhill moves (m) of barrels that were standing, with their heights above the bottom
    barrel (m), and downhill offsets (m) of placed barrels from their aim points."""

    heights_m: np.ndarray
    moves_m: np.ndarray
    placed_offsets_m: np.ndarray


@dataclass(frozen=True)
class CreepFit:
    """The fitted creep and how well it describes the samples."""

    lean_rad: float
    placed_mm: float
    lean_residual_mm: float
    """Standard deviation (mm) of the barrels' moves about the fitted lean."""
    placed_sd_mm: float
    barrels: int
    placements: int

    def toml(self) -> str:
        """The two ``[fast]`` lines with these values."""
        return f"creep_lean_rad = {self.lean_rad:.5f}\ncreep_placed_mm = {self.placed_mm:.3f}\n"


def creep_samples(params: Params,
                  decisions: Iterable[tuple[TowerState, Placement | None, Turn | None, Decision]]) -> CreepSamples:
    """The samples of standing decisions on a tilted deck: (tower before, placement, turn, decision)."""
    heights, moves, placed = [], [], []
    for tower, placement, _, decision in decisions:
        after = decision.tower
        if decision.crashed or not after.barrels:
            continue
        direction = downhill_direction(deck_gradient(params.ship, after.turns_by_sailor()))
        if direction is None:
            continue
        dx, dy = math.cos(direction), math.sin(direction)
        base = after.barrels[0].z_m
        for before, now in list(zip(tower.barrels, after.barrels))[1:]:
            heights.append(now.z_m - base)
            moves.append((now.x_m - before.x_m) * dx + (now.y_m - before.y_m) * dy)
        if placement is not None and tower.barrels:
            top = after.barrels[-1]
            placed.append((top.x_m - placement.x_m) * dx + (top.y_m - placement.y_m) * dy)
    return CreepSamples(np.array(heights), np.array(moves), np.array(placed))


def fit_creep(samples: CreepSamples) -> CreepFit:
    """Least squares: the lean through the origin, the placed offset as a mean."""
    h, m, p = samples.heights_m, samples.moves_m, samples.placed_offsets_m
    if len(h) == 0 or len(p) == 0:
        raise ValueError("no standing decisions on a tilted deck to fit the creep to")
    lean = float(h @ m / (h @ h))
    return CreepFit(lean_rad=lean, placed_mm=float(p.mean() * 1000),
                    lean_residual_mm=float(np.std(m - lean * h) * 1000), placed_sd_mm=float(p.std() * 1000),
                    barrels=len(h), placements=len(p))


def physics_decisions(params: Params, games: int,
                      seed: int) -> list[tuple[TowerState, Placement | None, Turn | None, Decision]]:
    """Every decision physics made in ``games`` seeded games of the benchmark set's bots (casual
    pairs and skilled/expert pairs, :func:`lab.bench_situations.candidates`)."""
    from lab.bench_situations import candidates

    return [(*situation, decision) for _, _, counterfactual, situation, decision in candidates(params, games, seed)
            if not counterfactual]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.creep_fit", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="physics games to fit to")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="first game seed")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    params = load_params()
    fit = fit_creep(creep_samples(params, physics_decisions(params, args.games, args.seed)))
    print(f"{args.games} physics games from seed {args.seed}: {fit.barrels} barrel moves, {fit.placements} placements")
    print(f"lean {fit.lean_rad:.5f} rad per decision (residual sd {fit.lean_residual_mm:.3f} mm); "
          f"placed barrels {fit.placed_mm:+.3f} mm downhill of their aim (sd {fit.placed_sd_mm:.3f} mm)")
    print("[fast]\n" + fit.toml(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
