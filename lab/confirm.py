"""``python -m lab.confirm``: a finished sweep's extremes, measured again on rounds of their own.

The command line of :mod:`kipp.analysis.difficulty.confirm` (``kipp tune --confirm N`` runs the same after a
sweep) for a results file that is already there: ``python -m lab.confirm --results FILE.sqlite
--top 20 --rounds 2000 --json confirm.json`` prints the ``--top`` hardest and easiest orders with
their confirmed values and writes the report (the sweeps' record, :mod:`lab.sweep_record`, reads it).

The new rounds are played under the sweep's parameter set: ``--params FILE`` (the defaults
without it) must be the set the file's sweep was played with (the fingerprint,
:func:`sim.params.params_fingerprint`, stored in its options); another set is refused in one
line naming both fingerprints and the file, exit code 2 (:func:`sweep_params`, which
:mod:`lab.coverage_check` shares).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kipp.analysis.difficulty.confirm import ROUNDS, confirm, format_report
from kipp.analysis.difficulty.quality_sweep import KIND
from kipp.analysis.export import write_json
from kipp.analysis.results_store import ResultsStore
from sim.params import Params, load_params, params_fingerprint


def sweep_params(results: str | Path, params_file: str | None) -> Params:
    """The parameter set of ``--params`` (``params_file``; the defaults without it) if it is the one
    the physics-quality sweep in ``results`` was played with, else ``ValueError``: one line naming
    the file and both fingerprints (:func:`sim.params.params_fingerprint`)."""
    params = load_params(params_file)
    with ResultsStore.read(results, KIND) as store:
        stored = json.loads(store.meta()["options"]).get("params")
    given = params_fingerprint(params)
    if stored != given:
        which = f"--params {params_file}" if params_file is not None else "the defaults, no --params"
        raise ValueError(f"{results}: its sweep was played with parameter set {stored}, not {given} ({which}); "
                         "give the sweep's --params")
    return params


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.confirm", description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="a finished physics-quality sweep (kipp tune --out)")
    parser.add_argument("--top", type=int, default=20, help="orders in each list (hardest, easiest)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="new fast rounds per order")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--params", default=None, metavar="FILE",
                        help="the sweep's --params (default: the defaults); another set is refused")
    parser.add_argument("--json", default=None, help="write the report here")
    args = parser.parse_args(argv)
    try:
        report = confirm(args.results, sweep_params(args.results, args.params), args.top, args.rounds, args.workers)
    except (OSError, ValueError) as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2
    print(format_report(report))
    if args.json:
        write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
