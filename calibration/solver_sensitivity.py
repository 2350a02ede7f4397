"""How much the physics referee's verdicts depend on the solver settings, and what they cost.

The physics referee is the ground truth of every other referee, but near the toppling
threshold its own verdict depends on the numerical settings: the fixed step
(``solver.steps_per_second``) and the number of solver iterations per step
(``solver.iterations``). For each setting given, this re-decides the benchmark situations
(``kipp/data/benchmark_situations.json``, rich in close calls) and counts the verdicts
that differ from the stored labels (made with the shipped settings), and times the
12-barrel turn decisions of :func:`sim.benchmark.turn_situations` (CPU ms, median).

It answers two questions before anyone changes ``[solver]``: would fewer iterations or a
longer step make the physics faster without changing what it decides, and how settled
are its decisions at the shipped settings (more iterations, or a shorter step, should
change little if they are).

Run ``python -m calibration.solver_sensitivity`` (a few seconds per setting); pass
settings as ``RATE:ITERATIONS`` (steps per second, iterations), e.g. ``480:20 960:40``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from kipp.analysis.bench_situations import BenchSituation, load_situations
from sim.benchmark import Situation, time_decisions, turn_situations
from sim.params import Params, load_params
from sim.physics_referee import PhysicsReferee

DEFAULT_SETTINGS = ((480, 20), (480, 30), (480, 60), (480, 80), (240, 40), (960, 40))


@dataclass(frozen=True)
class SolverRow:
    """One solver setting: verdicts that differ from the stored labels, and the time it takes."""

    steps_per_second: int
    iterations: int
    flipped: int
    situations: int
    turn_ms_median: float | None
    """None when nothing was timed."""


def with_solver(params: Params, steps_per_second: int, iterations: int) -> Params:
    """``params`` with other solver settings (everything else kept)."""
    return replace(params, solver=replace(params.solver, steps_per_second=steps_per_second, iterations=iterations))


def measure(params: Params, steps_per_second: int, iterations: int, stored: Sequence[BenchSituation],
            timed: Sequence[Situation]) -> SolverRow:
    """Re-decide ``stored`` and time ``timed`` with the given solver settings."""
    referee = PhysicsReferee(with_solver(params, steps_per_second, iterations))
    flipped = sum(referee.decide(*s.situation).crashed != s.crashed for s in stored)
    times, _ = time_decisions(referee, list(timed))
    median = float(np.median(times) * 1000) if len(times) else None
    return SolverRow(steps_per_second, iterations, int(flipped), len(stored), median)


def _setting(text: str) -> tuple[int, int]:
    try:
        rate, iterations = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected RATE:ITERATIONS, e.g. 480:20") from None
    if rate <= 0 or iterations <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: rate and iterations must be positive")
    return rate, iterations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m calibration.solver_sensitivity",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("settings", nargs="*", type=_setting, default=list(DEFAULT_SETTINGS),
                        help="RATE:ITERATIONS (steps per second : solver iterations); default: a spread around 480:40")
    parser.add_argument("--timed", type=int, default=20, help="12-barrel turn decisions timed per setting")
    args = parser.parse_args(argv)
    params = load_params()
    stored = load_situations(check_params=params)
    timed = turn_situations(PhysicsReferee(params), args.timed)
    shipped = measure(params, params.solver.steps_per_second, params.solver.iterations, [], timed)
    print(f"shipped {shipped.steps_per_second} Hz, {shipped.iterations} iterations: "
          f"turn decision {shipped.turn_ms_median:.1f} ms (median CPU)")
    print(f"{'rate (Hz)':>9}  {'iterations':>10}  {'verdicts changed':>16}  {'turn ms':>7}")
    for rate, iterations in args.settings:
        row = measure(params, rate, iterations, stored, timed)
        print(f"{row.steps_per_second:>9}  {row.iterations:>10}  {row.flipped:>9} / {row.situations:<4}  "
              f"{row.turn_ms_median:>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
