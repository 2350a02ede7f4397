"""The pilot that decides the savings: how closely a fast round follows its physics twin.

``python -m lab.pilot --player casual --pairs 2000`` plays ``--pairs`` rounds, each
a uniformly drawn order in a round of its own (the anchor rounds of
:mod:`kipp.analysis.difficulty.quality_sweep`: the same draws), once with the fast referee and once
with physics on the same luck, and reports the round-level correlation of barrels stacked
and of completion, with Fisher-z 95% intervals, and the variance of the paired difference
against that of a physics round alone (the factor by which a paired correction needs fewer
physics rounds than physics alone).
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

from kipp.analysis.executor import open_executor, run_tasks
from kipp.analysis.export import write_json
from kipp.analysis.orders import all_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.stats import Z95
from sim.params import load_params
from sim.referees import shared_referee
from sim.seeds import stream

BLOCK = 50


def _pairs(model: RoundModel, seed: int, first: int, count: int) -> tuple[int, np.ndarray]:
    params = load_params()
    orders = all_orders(model.barrels)
    bot, config = model.bot(params), model.config()
    fast, physics = shared_referee("fast", params), shared_referee("physics", params)
    rows = []
    for j in range(first, first + count):
        order = orders[int(stream(seed, "anchor", j, "order sample").integers(len(orders)))]
        f = play_round(order, fast, bot, config, seed, j, "anchor")
        p = play_round(order, physics, bot, config, seed, j, "anchor")
        rows.append((f.stacked, p.stacked, f.completed, p.completed))
    return first, np.array(rows, dtype=float)


def correlation(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Pearson's r with its Fisher-z 95% interval (nan where a variable is constant or n < 4)."""
    if len(x) < 4 or x.std() == 0 or y.std() == 0:
        return math.nan, math.nan, math.nan
    r = float(np.corrcoef(x, y)[0, 1])
    z, half = math.atanh(min(r, 0.999999)), Z95 / math.sqrt(len(x) - 3)
    return r, math.tanh(z - half), math.tanh(z + half)


def pilot(player: str, pairs: int, seed: int = 1, barrels: int = 12, workers: int = 1) -> dict:
    model = RoundModel(barrels=barrels, player=player)
    blocks: dict[int, np.ndarray] = {}
    with open_executor(workers) as executor:
        run_tasks(executor, _pairs, ((model, seed, a, min(BLOCK, pairs - a)) for a in range(0, pairs, BLOCK)),
                  max_in_flight=2 * workers, on_result=lambda r: blocks.__setitem__(r[0], r[1]))
    data = np.concatenate([blocks[a] for a in sorted(blocks)])
    report = {"player": player, "pairs": pairs, "seed": seed, "barrels": barrels}
    for name, f, p in (("stacked", data[:, 0], data[:, 1]), ("completed", data[:, 2], data[:, 3])):
        r, low, high = correlation(f, p)
        report[name] = {"r": r, "r_interval": [low, high], "fast_mean": f.mean(), "physics_mean": p.mean(),
                        "physics_var": p.var(ddof=1), "difference_var": (p - f).var(ddof=1)}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pilot", description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="casual")
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--barrels", type=int, default=12)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    report = pilot(args.player, args.pairs, args.seed, args.barrels, args.workers)
    for name in ("stacked", "completed"):
        r = report[name]
        print(f"{args.player}, {name}: r = {r['r']:.3f} [{r['r_interval'][0]:.3f}, {r['r_interval'][1]:.3f}] over "
              f"{args.pairs} paired rounds; fast mean {r['fast_mean']:.3f}, physics {r['physics_mean']:.3f}; "
              f"variance of physics - fast {r['difference_var']:.3f} against physics alone {r['physics_var']:.3f}")
    if args.json:
        write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
