"""Is the physics referee converged? Its verdicts under finer solver settings, and their cost.

The physics referee is the ground truth of every other referee, but near the toppling
threshold its own verdict depends on the numerical settings: the fixed step
(``solver.steps_per_second``), the solver iterations per step (``solver.iterations``), and
pymunk's contact softening (``collision_slop_mm``, ``collision_bias``, ``damping``). This
re-decides the benchmark situations (``lab/data/benchmark_situations.json``, rich in close
calls) under each setting and compares the verdicts (crashed or stands) with those of a
finer setting, counting each direction apart: ``crash->stand`` is a situation this setting
crashes and the finer one holds. It also times the 12-barrel turn decisions of
:func:`lab.decision_timing.turn_situations` (CPU ms per decision, median and 90th percentile).

The rule the project checks itself against (DESIGN.md 3): the default solver's verdicts
differ on at most 1% of the set from those with rate and iterations both doubled.

- ``python -m lab.solver_sensitivity``: the check itself, the default ``[solver]``
  against the setting 2x finer in both rate and iterations.
- ``--table``: the convergence table, every setting of :data:`TABLE_SETTINGS` (and the
  default) against the reference ``--reference`` (default 3840:160), and each against its
  own 2x-finer setting where that is one of the settings run (CPU heavy: the reference
  alone costs about 30 times the default).
- settings as arguments: ``RATE:ITERATIONS`` with optional ``:slop=MM``, ``:bias=FRACTION``,
  ``:damping=FRACTION``, e.g. ``960:80:slop=0.05``; each is compared with the reference and
  with its 2x-finer setting (same slop, bias and damping).

``--results FILE`` keeps every setting's verdicts (keyed by the full physics fingerprint),
so an interrupted or extended run only decides what is new. The times are measured in
every run, all settings interleaved decision by decision, so they compare as ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import numpy as np

from lab.bench_situations import BenchSituation, load_situations
from lab.decision_timing import time_decisions, turn_situations
from sim.params import Params, load_params, physics_fingerprint
from sim.referees.loop import LoopReferee
from sim.tower import Situation

TABLE_SETTINGS = ((480, 40), (480, 80), (960, 40), (960, 80), (1920, 80), (1920, 160), (3840, 160))
REFERENCE = (3840, 160)
DEFAULT_SETTINGS = TABLE_SETTINGS  # kept for callers of the older report


@dataclass(frozen=True)
class Setting:
    """Solver settings to try; ``None`` keeps the value of the parameters given."""

    steps_per_second: int
    iterations: int
    collision_slop_mm: float | None = None
    collision_bias: float | None = None
    damping: float | None = None

    def finer(self) -> "Setting":
        """Rate and iterations both doubled, the rest kept."""
        return replace(self, steps_per_second=2 * self.steps_per_second, iterations=2 * self.iterations)

    def apply(self, params: Params) -> Params:
        solver = replace(params.solver, steps_per_second=self.steps_per_second, iterations=self.iterations)
        if self.collision_slop_mm is not None:
            solver = replace(solver, collision_slop_m=self.collision_slop_mm / 1000)
        if self.collision_bias is not None:
            solver = replace(solver, collision_bias=self.collision_bias)
        if self.damping is not None:
            solver = replace(solver, damping=self.damping)
        return replace(params, solver=solver)

    def label(self) -> str:
        text = f"{self.steps_per_second}x{self.iterations}"
        for name, value in (("slop", self.collision_slop_mm), ("bias", self.collision_bias),
                            ("damping", self.damping)):
            if value is not None:
                text += f" {name}={value:g}"
        return text


def default_setting(params: Params) -> Setting:
    return Setting(params.solver.steps_per_second, params.solver.iterations)


@dataclass(frozen=True)
class Run:
    """One setting's verdicts on the stored situations (True: crashed) and turn-decision times."""

    setting: Setting
    crashed: tuple[bool, ...]
    turn_ms: tuple[float, ...]

    @property
    def crashes(self) -> int:
        return sum(self.crashed)

    def ms(self, quantile: float) -> float | None:
        return float(np.quantile(self.turn_ms, quantile)) if self.turn_ms else None


@dataclass(frozen=True)
class Differences:
    """Verdicts of one run against another's: ``crash_stand`` crashed here and stood there."""

    crash_stand: int
    stand_crash: int

    @property
    def total(self) -> int:
        return self.crash_stand + self.stand_crash


def differences(run: Run, other: Run) -> Differences:
    pairs = list(zip(run.crashed, other.crashed, strict=True))
    return Differences(sum(a and not b for a, b in pairs), sum(b and not a for a, b in pairs))


def with_solver(params: Params, steps_per_second: int, iterations: int) -> Params:
    """``params`` with other rate and iterations (everything else kept)."""
    return Setting(steps_per_second, iterations).apply(params)


def decide(params: Params, setting: Setting, stored: Sequence[BenchSituation],
           timed: Sequence[Situation]) -> Run:
    """Re-decide ``stored`` and time ``timed`` under ``setting``."""
    referee = LoopReferee(setting.apply(params))
    crashed = tuple(referee.decide(*s.situation).crashed for s in stored)
    times, _ = time_decisions(referee, list(timed))
    return Run(setting, crashed, tuple(float(t * 1000) for t in times))


@dataclass(frozen=True)
class SolverRow:
    """The older one-line report: verdicts that differ from the stored labels, and the time."""

    steps_per_second: int
    iterations: int
    flipped: int
    situations: int
    turn_ms_median: float | None


def measure(params: Params, steps_per_second: int, iterations: int, stored: Sequence[BenchSituation],
            timed: Sequence[Situation]) -> SolverRow:
    """Re-decide ``stored`` (against their stored labels) and time ``timed`` at rate x iterations."""
    run = decide(params, Setting(steps_per_second, iterations), stored, timed)
    flipped = sum(c != s.crashed for c, s in zip(run.crashed, stored))
    return SolverRow(steps_per_second, iterations, int(flipped), len(stored), run.ms(0.5))


def time_side_by_side(params: Params, settings: Sequence[Setting], timed: Sequence[Situation],
                      ) -> dict[Setting, tuple[float, ...]]:
    """CPU ms of each timed decision under each setting, interleaved (every situation under
    every setting in turn), so that a busy machine slows all settings alike."""
    referees = {setting: LoopReferee(setting.apply(params)) for setting in settings}
    times: dict[Setting, list[float]] = {setting: [] for setting in settings}
    for situation in timed:
        for setting, referee in referees.items():
            seconds, _ = time_decisions(referee, [situation])
            times[setting].append(float(seconds[0] * 1000))
    return {setting: tuple(values) for setting, values in times.items()}


class Results:
    """Runs by setting, optionally kept in a JSON file (written atomically after each run)."""

    def __init__(self, params: Params, stored: Sequence[BenchSituation], timed: Sequence[Situation],
                 path: str | None = None) -> None:
        self.params, self.stored, self.timed, self.path = params, stored, timed, path
        self._runs: dict[Setting, Run] = {}
        self._times: dict[Setting, tuple[float, ...]] = {}
        self._file: dict = {}
        if path and Path(path).exists():
            self._file = json.loads(Path(path).read_text(encoding="utf-8"))

    def _key(self, setting: Setting) -> str:
        return f"{physics_fingerprint(setting.apply(self.params))}/{len(self.stored)}"

    def get(self, setting: Setting) -> Run:
        """The setting's verdicts (decided now, or read back), with its times if measured in this
        run (:meth:`time`), else none."""
        if setting in self._runs:
            return self._runs[setting]
        key = self._key(setting)
        if key in self._file:
            crashed = tuple(self._file[key]["crashed"])
        else:
            crashed = decide(self.params, setting, self.stored, []).crashed
            if self.path:
                self._file[key] = {"setting": setting.label(), "crashed": list(crashed)}
                _write_atomically(self.path, json.dumps(self._file, indent=0))
        run = Run(setting, crashed, self._times.get(setting, ()))
        self._runs[setting] = run
        return run

    def time(self, settings: Sequence[Setting]) -> None:
        """Time the turn decisions under all ``settings`` side by side (see :func:`time_side_by_side`)."""
        self._times.update(time_side_by_side(self.params, list(dict.fromkeys(settings)), self.timed))
        self._runs = {s: Run(s, r.crashed, self._times.get(s, r.turn_ms)) for s, r in self._runs.items()}


def _write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".solver_sensitivity.")
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        stream.write(text)
    os.replace(temporary, path)


def _cell(d: Differences | None) -> str:
    return "-" if d is None else f"{d.crash_stand}/{d.stand_crash}"


def row_text(run: Run, reference: Run | None, finer: Run | None) -> str:
    median, p90 = run.ms(0.5), run.ms(0.9)
    times = "-" if median is None else f"{median:.1f}/{p90:.1f}"
    ref = None if reference is None or reference is run else differences(run, reference)
    fin = None if finer is None else differences(run, finer)
    return (f"{run.setting.label():<28} {run.crashes:>7} {_cell(ref):>13} {_cell(fin):>13} {times:>13}")


HEADER = (f"{'setting (Hz x iterations)':<28} {'crashes':>7} {'vs reference':>13} {'vs 2x finer':>13} "
          f"{'turn ms':>13}\n{'':<28} {'':>7} {'c->s/s->c':>13} {'c->s/s->c':>13} {'median/p90':>13}")


def _setting(text: str) -> Setting:
    parts = text.split(":")
    try:
        rate, iterations = int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        raise argparse.ArgumentTypeError(f"{text!r}: expected RATE:ITERATIONS, e.g. 480:20") from None
    if rate <= 0 or iterations <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: rate and iterations must be positive")
    extra: dict[str, float] = {}
    names = {"slop": "collision_slop_mm", "bias": "collision_bias", "damping": "damping"}
    for part in parts[2:]:
        name, _, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if name not in names or not np.isfinite(number):
            raise argparse.ArgumentTypeError(f"{text!r}: expected RATE:ITERATIONS[:slop=MM][:bias=F][:damping=F]")
        if (name == "slop" and number < 0) or (name != "slop" and not 0 < number <= 1):
            raise argparse.ArgumentTypeError(f"{text!r}: slop must be >= 0, bias and damping in (0, 1]")
        extra[names[name]] = number
    return Setting(rate, iterations, **extra)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.solver_sensitivity",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("settings", nargs="*", type=_setting,
                        help="RATE:ITERATIONS[:slop=MM][:bias=F][:damping=F] to compare with the reference")
    parser.add_argument("--table", action="store_true", help="the convergence table over the standard settings")
    parser.add_argument("--reference", type=_setting, default=Setting(*REFERENCE),
                        help="the converged setting the table measures against (default 3840:160)")
    parser.add_argument("--timed", type=int, default=20, help="12-barrel turn decisions timed per setting")
    parser.add_argument("--results", help="JSON file keeping every setting's verdicts and times")
    args = parser.parse_args(argv)
    params = load_params()
    stored = load_situations()
    timed = turn_situations(LoopReferee(params), args.timed)
    results = Results(params, stored, timed, args.results)
    default = default_setting(params)

    settings = list(args.settings)
    if args.table:
        settings = [Setting(*s) for s in TABLE_SETTINGS] + [default] + settings
    settings = list(dict.fromkeys(settings))
    finers = [s.finer() for s in settings if _affordable(s.finer(), args.reference)]
    results.time([default, default.finer(), *settings, *([args.reference] if settings else []), *finers])

    print(f"{len(stored)} benchmark situations; {len(timed)} 12-barrel turn decisions timed "
          f"(CPU, all settings side by side)")
    print("the default solver against the setting 2x finer in rate and iterations:")
    print(HEADER)
    run, finer = results.get(default), results.get(default.finer())
    print(row_text(run, None, finer), flush=True)
    print(row_text(finer, None, None), flush=True)
    d = differences(run, finer)
    verdict = "converged" if d.total <= len(stored) // 100 else "NOT converged"
    print(f"{verdict}: {d.total} of {len(stored)} verdicts change when both are doubled (rule: <= 1%)")

    if settings:
        reference = results.get(args.reference)
        print(f"\nagainst the reference {args.reference.label()} ({reference.crashes} crashes):")
        print(HEADER)
        for setting in settings:
            finer_run = results.get(setting.finer()) if _affordable(setting.finer(), args.reference) else None
            print(row_text(results.get(setting), reference, finer_run), flush=True)
    return 0


def _affordable(setting: Setting, reference: Setting) -> bool:
    """Is ``setting`` no dearer than the reference (the 2x-finer runs beyond it are left out)?"""
    return setting.steps_per_second * setting.iterations <= reference.steps_per_second * reference.iterations


if __name__ == "__main__":
    raise SystemExit(main())
