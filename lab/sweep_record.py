"""The record of the committed difficulty sweeps: how each was run and what it cost.

``python -m lab.sweep_record --out notebooks/results/sweeps.json RESULTS.sqlite:TABLE.csv.gz ...
[--coverage coverage.json ...] [--confirm confirm.json ...] [--update]`` reads each physics-quality
results file's options and its ``summary`` (wall time, CPU time, physics share:
:mod:`kipp.analysis.difficulty.quality_sweep`) and writes them, keyed by the table's name, with the
coverage checks' reports (:mod:`lab.coverage_check`, a list), the confirmations of the sweeps'
extremes (:mod:`kipp.analysis.difficulty.confirm`, a list) and the pilot's (:mod:`lab.pilot`) if given. With
``--update`` the other sweeps already in ``--out`` (and their checks) stay, so that one sweep can be
made again without the others' results files, and its checks take the place of the old ones. The notebook
``barrel_order_difficulty.ipynb`` reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from kipp.analysis.difficulty.quality_sweep import KIND
from kipp.analysis.results_store import ResultsStore


def record(results: str) -> dict:
    """One sweep's options and summary, from its results file."""
    with ResultsStore.read(results, KIND) as store:
        meta = store.meta()
    options, summary = json.loads(meta["options"]), json.loads(meta["summary"])
    return {"player": options["player"], "barrels": options["barrels"], "half_turn": options["half_turn"],
            "seed": options["seed"], "params": options["params"], **summary}


def _replaced(kept: list[dict], reports: list[dict], remade: set[str]) -> list[dict]:
    """``kept`` with the reports of the sweeps in ``remade`` replaced by ``reports``, where the first
    of them stood (so the notebook lists the sweeps in the same order); reports of a sweep new to
    the file go last."""
    merged, placed = [], set()
    for report in kept:
        name = report["sweep"]
        if name not in remade:
            merged.append(report)
        elif name not in placed:
            merged += [r for r in reports if r["sweep"] == name]
            placed.add(name)
    return merged + [r for r in reports if r["sweep"] not in placed]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.sweep_record", description=__doc__.splitlines()[0])
    parser.add_argument("sweeps", nargs="+", metavar="RESULTS.sqlite:TABLE.csv.gz")
    parser.add_argument("--out", required=True)
    parser.add_argument("--coverage", action="append", default=[],
                        help="the JSON report of python -m lab.coverage_check (repeatable)")
    parser.add_argument("--confirm", action="append", default=[],
                        help="the JSON report of python -m lab.confirm (repeatable)")
    parser.add_argument("--pilot", default=None, help="the JSON report of python -m lab.pilot")
    parser.add_argument("--update", action="store_true",
                        help="keep the other sweeps of --out (and their checks) and replace only these")
    args = parser.parse_args(argv)
    out: dict = {"sweeps": {}}
    if args.update and Path(args.out).exists():
        out = json.loads(Path(args.out).read_text())
    names = {}
    for item in args.sweeps:
        results, _, table = item.partition(":")
        name = Path(table).name.split(".")[0]
        names[Path(results).resolve()] = name
        out["sweeps"][name] = {"file": Path(table).name, **record(results)}
    for key, paths in (("coverage", args.coverage), ("confirm", args.confirm)):
        reports = []
        for path in paths:
            report = json.loads(Path(path).read_text())
            report["sweep"] = names.get(Path(report.pop("results")).resolve(), "?")
            reports.append(report)
        out[key] = _replaced(out.get(key, []), reports, set(names.values()))
    if args.pilot:
        out["pilot"] = json.loads(Path(args.pilot).read_text())
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
