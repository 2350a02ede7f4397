"""Speed and exactness of the compound physics referee against the converged plain loop.

For each method given, this decides the benchmark situations
(``lab/data/benchmark_situations.json``) and counts the verdicts (crashed or not) that
differ from the converged plain loop's (``LoopReferee(params, plain=True)`` at the
default ``[solver]``, converged by the rule of :mod:`lab.solver_sensitivity`),
in each direction; and it times 12-barrel turn decisions (:func:`lab.decision_timing.turn_situations`,
CPU ms per decision), all methods interleaved situation by situation in one process so
that the ratios hold on a shared machine.

Methods: ``plain`` (the reference loop), ``early`` (the default early-exit referee at the
converged setting), ``RATE:ITERATIONS:LOCK_DEG`` (:class:`sim.referees.physics.CompoundReferee`
with that solver and lock margin). The reference verdicts take about 3 minutes of CPU and
are cached in ``--reference`` (JSON, keyed by the parameters' fingerprint).

Run ``python -m lab.compound_speed early 480:20:3 --timed 20 --agree``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from lab.bench_situations import load_situations
from lab.decision_timing import turn_situations
from sim.params import Params, load_params, physics_fingerprint
from sim.referees.loop import LoopReferee
from sim.referees.physics import CompoundReferee, PhysicsReferee


def converged_params(params: Params) -> Params:
    """The parameters the methods are measured at: the default ``[solver]`` is the converged
    setting (it differs from a 2x finer one on at most 1% of the benchmark set)."""
    return params


def make_method(name: str, params: Params):
    """The referee a method name stands for (``params`` at the converged setting)."""
    if name == "plain":
        return LoopReferee(params, plain=True)
    if name == "early":
        return LoopReferee(params)
    if name.startswith("confirm:"):  # confirm:RATE:ITERATIONS:LOCK_DEG
        rate, iterations, lock = name.split(":")[1:]
        return PhysicsReferee(params, cheap=(int(rate), int(iterations)), lock_margin_deg=float(lock))
    rate, iterations, lock = name.split(":")
    return CompoundReferee(params, solver=(int(rate), int(iterations)), lock_margin_deg=float(lock))


def reference_verdicts(params: Params, situations, path: Path) -> list[bool]:
    """The converged plain loop's verdicts on ``situations``, from the cache file if it matches."""
    key = physics_fingerprint(params)
    if path.exists():
        data = json.loads(path.read_text())
        if data.get("params") == key and len(data["crashed"]) == len(situations):
            return data["crashed"]
    plain = LoopReferee(params, plain=True)
    crashed = [plain.decide(*s.situation).crashed for s in situations]
    path.write_text(json.dumps({"params": key, "crashed": crashed}))
    return crashed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.compound_speed", description=__doc__.split("\n")[0])
    parser.add_argument("methods", nargs="+", help="plain, early or RATE:ITERATIONS:LOCK_DEG")
    parser.add_argument("--timed", type=int, default=0, help="12-barrel turn decisions to time (interleaved)")
    parser.add_argument("--agree", action="store_true", help="count verdicts that differ from the converged plain loop")
    parser.add_argument("--reference", default="/tmp/kipp_converged_plain_verdicts.json",
                        help="cache of the converged plain loop's verdicts")
    args = parser.parse_args(argv)
    base = load_params()
    params = converged_params(base)
    methods = {name: make_method(name, params) for name in args.methods}
    if args.timed:
        timed = turn_situations(LoopReferee(base), args.timed)
        times = {name: [] for name in methods}
        for situation in timed:
            for name, referee in methods.items():
                start = time.process_time()
                referee.decide(situation.tower, situation.placement, situation.turn)
                times[name].append(time.process_time() - start)
        first = args.methods[0]
        for name, values in times.items():
            ms = np.array(values) * 1000
            ratio = np.median(times[first]) / np.median(values)
            print(f"{name:>14}  median {np.median(ms):7.2f} ms  p90 {np.percentile(ms, 90):7.2f} ms  "
                  f"{first} / this {ratio:5.2f}", flush=True)
    if args.agree:
        situations = load_situations()
        reference = reference_verdicts(params, situations, Path(args.reference))
        for name, referee in methods.items():
            if name == "plain":
                continue
            extra_crash = extra_stand = 0
            differ = []
            for i, (s, ref) in enumerate(zip(situations, reference)):
                crashed = referee.decide(*s.situation).crashed
                if crashed != ref:
                    differ.append(i)
                    extra_crash += crashed
                    extra_stand += not crashed
            print(f"{name:>14}  differ {len(differ):3d} / {len(situations)}  (crash where plain stands "
                  f"{extra_crash}, stands where plain crashes {extra_stand})  {differ}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
