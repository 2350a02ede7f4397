"""``python -m lab.confirm``: a finished sweep's extremes, measured again on rounds of their own.

The command line of :mod:`kipp.analysis.difficulty.confirm` (``kipp tune --confirm N`` runs the same after a
sweep) for a results file that is already there: ``python -m lab.confirm --results FILE.sqlite
--top 20 --rounds 2000 --json confirm.json`` prints the ``--top`` hardest and easiest orders with
their confirmed values and writes the report (the sweeps' record, :mod:`lab.sweep_record`, reads it).
"""

from __future__ import annotations

import argparse
import sys

from kipp.analysis.difficulty.confirm import ROUNDS, confirm, format_report
from kipp.analysis.export import write_json
from sim.params import load_params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.confirm", description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="a finished physics-quality sweep (kipp tune --out)")
    parser.add_argument("--top", type=int, default=20, help="orders in each list (hardest, easiest)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="new fast rounds per order")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--params", default=None, metavar="FILE", help="the sweep's --params (default: the defaults)")
    parser.add_argument("--json", default=None, help="write the report here")
    args = parser.parse_args(argv)
    try:
        report = confirm(args.results, load_params(args.params), args.top, args.rounds, args.workers)
    except (OSError, ValueError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    print(format_report(report))
    if args.json:
        write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
