"""Do the physics-quality intervals cover physics? Held-out orders, each played with pure physics.

``python -m lab.coverage_check --results FILE.sqlite --holdout 60 --rounds 400`` draws
``--holdout`` orders of the sweep at random (its orders, player model, variant and seed are read from
the results file), plays each
``--rounds`` rounds with the physics referee alone, on rounds of their own (streams
``("holdout", k, ...)``, independent of every round the estimate used, and each order's
different from every other's, so that the references' errors are independent), and compares. The
reference is itself a sample mean, so two coverages are reported, each with its Wilson
interval over the orders:

- *strict*: the estimate's 95% interval contains the reference's point value (this
  undercounts: the reference's own noise moves it out of a correct interval);
- *paired*: the estimate and the reference differ by less than 1.96 standard errors of
  their difference (both are unbiased for the same value, and independent).

The report keeps every held-out order's reference (mean and standard error per metric), so
``--reference REPORT.json`` checks another sweep of the same orders (a topped-up one, say)
against the same physics rounds without playing them again. ``--draw K`` (K >= 1) holds out
another random set of orders (stream ``("holdout", "order sample", K)``; draw 0, the default, is
the one reported with the sweeps): a second look when one draw's coverage is near the line. An
order held out in two draws plays the same reference rounds in both.

The references are played under the sweep's parameter set: ``--params FILE`` (the defaults
without it) must be the set the file's sweep was played with, else one line naming both
fingerprints and the file, exit code 2 (:func:`lab.confirm.sweep_params`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from kipp.analysis.difficulty.confirm import sweep_settings
from kipp.analysis.difficulty.own_rounds import references
from kipp.analysis.difficulty.quality_sweep import read_quality
from kipp.analysis.export import write_json
from kipp.analysis.orders import resolve_orders
from kipp.analysis.rounds import RoundModel
from kipp.analysis.stats import Z95, wilson_interval
from lab.confirm import sweep_params
from sim.params import Params
from sim.seeds import stream


def reused_references(report: dict, held_out: list[str], rounds: int, referee: str):
    """The references of an earlier report, if it held out the same orders with the same rounds."""
    if report.get("held_out") != held_out or report.get("rounds") != rounds or report.get("referee") != referee:
        raise ValueError("the reference report held out other orders, or played other rounds or another referee")
    if "reference" not in report["stacked"]:
        raise ValueError("the reference report does not keep its references (made before they were kept)")
    return {name: (np.array(report[name]["reference"]), np.array(report[name]["reference_se_per_order"]))
            for name in ("stacked", "completed")}


def held_out_indices(seed: int, orders: int, holdout: int, draw: int = 0) -> np.ndarray:
    """Which ``holdout`` of a sweep's ``orders`` (indices, ascending) draw ``draw`` holds out: a
    function of the sweep's seed and the draw alone."""
    sample = ("holdout", "order sample") + ((draw,) if draw else ())
    return np.sort(stream(seed, *sample).choice(orders, holdout, replace=False))


def check(results: str, orders: list, model: RoundModel, seed: int, holdout: int, rounds: int,
          referee: str = "physics", workers: int = 1, progress: bool = True, reference: dict | None = None,
          draw: int = 0, *, params: Params) -> dict:
    """The coverage report (see the module docstring) as a JSON-ready dict, the references played
    under ``params`` (the sweep's parameter set); ``reference``: an earlier report whose references
    to use instead of playing them; ``draw``: which random set of held-out orders (0: the one
    reported with the sweeps)."""
    estimate = read_quality(results, orders)
    picked = held_out_indices(seed, len(orders), holdout, draw)
    held_out = [estimate.lines[i] for i in picked]
    refs = (reused_references(reference, held_out, rounds, referee) if reference is not None else
            references(orders, picked, model, seed, rounds, referee, workers, progress, params=params))
    report = {"results": str(results), "orders": holdout, "rounds": rounds, "referee": referee,
              "draw": draw, "held_out": held_out}
    for name, est, bounds in (("stacked", estimate.stacked, estimate.stacked_interval()),
                              ("completed", estimate.completed, estimate.p_interval())):
        ref, ref_se = refs[name]
        low, high = (b[picked] for b in bounds)
        mean, se = est.mean[picked], est.se[picked]
        strict = int(np.sum((low <= ref) & (ref <= high)))
        paired = int(np.sum(np.abs(mean - ref) <= Z95 * np.sqrt(se**2 + ref_se**2)))
        report[name] = {
            "strict": strict, "strict_interval": wilson_interval(strict, holdout),
            "paired": paired, "paired_interval": wilson_interval(paired, holdout),
            "mean_error": float(np.mean(mean - ref)), "estimate_se": float(np.mean(se)),
            "reference_se": float(np.mean(ref_se)),
            "z": ((mean - ref) / np.sqrt(se**2 + ref_se**2)).round(3).tolist(),
            "reference": ref.tolist(), "reference_se_per_order": ref_se.tolist()}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.coverage_check", description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="a finished physics-quality sweep (kipp tune --out)")
    parser.add_argument("--holdout", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None, help="write the report here")
    parser.add_argument("--reference", default=None, metavar="REPORT.json",
                        help="use the references of this earlier report (same orders and rounds) instead of playing")
    parser.add_argument("--params", default=None, metavar="FILE",
                        help="the sweep's --params (default: the defaults); another set is refused")
    parser.add_argument("--draw", type=int, default=0, metavar="K",
                        help="hold out the K-th random set of orders (default 0, the one reported with the sweeps)")
    args = parser.parse_args(argv)
    try:
        if args.draw < 0:
            raise ValueError(f"--draw must be 0 or more, not {args.draw}")
        model, seed, order_spec, _ = sweep_settings(args.results)
        params = sweep_params(args.results, args.params)
        reference = json.loads(Path(args.reference).read_text()) if args.reference else None
    except (OSError, ValueError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    orders = resolve_orders(order_spec, model.barrels, seed)
    report = check(args.results, orders, model, seed, args.holdout, args.rounds, workers=args.workers,
                   reference=reference, draw=args.draw, params=params)
    for name in ("stacked", "completed"):
        r = report[name]
        print(f"{name}: strict {r['strict']}/{args.holdout} {np.round(r['strict_interval'], 3).tolist()}, "
              f"paired {r['paired']}/{args.holdout} {np.round(r['paired_interval'], 3).tolist()}; mean error "
              f"{r['mean_error']:+.4f}, estimate se {r['estimate_se']:.4f}, reference se {r['reference_se']:.4f}")
    if args.json:
        write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
