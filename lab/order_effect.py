"""The order effect: how far each order's physics-minus-cheap difference strays from the mean.

A physics-quality sweep (:mod:`kipp.analysis.difficulty.quality_estimate`) carries the correction measured on
a sample of orders to every other order by its mean; an order without physics rounds of its own
gets the *order effect* ``tau^2`` (barrels^2, or P^2 for completion) in its variance, so
``1.96 sqrt(tau^2)`` is a floor under its 95% half-width that no number of cheap rounds lowers.
This study measures ``tau^2`` for one player model and any cheap referees, side by side on the
same rounds:

``python -m lab.order_effect --player skilled --orders 60 --rounds 20 --cheap fast,hybrid:0.2``

draws ``--orders`` orders (stream ``("order effect", "order sample")``), plays each ``--rounds`` rounds
of its own (family ``"order effect"``, round ``i * rounds + k`` for the order at position
``i``: no luck shared between orders) with the physics referee and with each cheap referee
(``fast``; ``hybrid:BAND``, the hybrid referee with a band of BAND deg, physics deciding the
situations within BAND of the fast threshold). Per cheap referee it reports the CPU time of a
round, the mean difference physics minus cheap, the variance of a round's difference and the
rounds' correlation, and ``tau^2``: the variance of the orders' mean differences less their
mean sampling variance (a moment estimate), with its one-sided 95% upper bound as the sweep
takes it (:func:`kipp.analysis.difficulty.quality_estimate.order_effect`) and the half-width that bound alone
gives an order the sample did not play.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace

import numpy as np

from kipp.analysis.difficulty.quality_estimate import order_effect
from kipp.analysis.executor import open_executor, run_tasks
from kipp.analysis.export import write_json
from kipp.analysis.orders import all_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.stats import Z95
from lab.pilot import correlation
from sim.params import Params, load_params
from sim.referees import shared_referee
from sim.referees.hybrid import HybridReferee
from sim.seeds import stream
from sim.tower import Referee

FAMILY = "order effect"
METRICS = ("stacked", "completed")


def cheap_referee(spec: str, params: Params) -> Referee:
    """``fast``, or ``hybrid:BAND`` (the hybrid referee with a band of BAND degrees)."""
    if spec == "fast":
        return shared_referee("fast", params)
    name, _, band = spec.partition(":")
    if name != "hybrid" or not band:
        raise ValueError(f"a cheap referee is fast or hybrid:BAND (degrees), got {spec!r}")
    return HybridReferee(replace(params, fast=replace(params.fast, hybrid_band_deg=float(band))))


def _order_rounds(model: RoundModel, seed: int, position: int, order: tuple[str, ...], rounds: int,
                  cheap: tuple[str, ...]) -> tuple[int, np.ndarray, np.ndarray]:
    """One order's rounds: (position, outcomes [referee, round, metric] with physics first, CPU
    seconds per referee)."""
    params = load_params()
    bot, config = model.bot(params), model.config()
    referees = [shared_referee("physics", params)] + [cheap_referee(spec, params) for spec in cheap]
    outcomes = np.zeros((len(referees), rounds, len(METRICS)))
    cpu = np.zeros(len(referees))
    for r, referee in enumerate(referees):
        start = time.process_time()
        for k in range(rounds):
            result = play_round(order, referee, bot, config, seed, position * rounds + k, FAMILY)
            outcomes[r, k] = (result.stacked, int(result.completed))
        cpu[r] = time.process_time() - start
    return position, outcomes, cpu


def order_effect_of(differences: np.ndarray) -> dict:
    """``tau^2`` of the per-order mean differences in ``differences`` (orders x rounds) about their
    mean (:func:`kipp.analysis.difficulty.quality_estimate.order_effect`): its estimate, the upper bound a sweep
    takes, and the half-width that bound alone gives an order without physics rounds."""
    r = differences.shape[1]
    e = differences.mean(axis=1)
    sampling_var = float(np.mean(differences.var(axis=1, ddof=1))) / r
    effect = order_effect(e - e.mean(), 1, sampling_var)
    return {"tau2": effect.estimate, "tau2_upper": effect.upper, "half_width": Z95 * math.sqrt(effect.upper),
            "mean_sampling_var": sampling_var}


def measure(player: str, orders: int, rounds: int, cheap: tuple[str, ...], seed: int = 1, barrels: int = 12,
            workers: int = 1) -> dict:
    """The report (see the module docstring)."""
    model = RoundModel(barrels=barrels, player=player)
    every = all_orders(barrels)
    picked = np.sort(stream(seed, FAMILY, "order sample").choice(len(every), orders, replace=False))
    results: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    with open_executor(workers) as executor:
        run_tasks(executor, _order_rounds,
                  ((model, seed, i, every[int(o)], rounds, cheap) for i, o in enumerate(picked)),
                  max_in_flight=2 * workers, on_result=lambda res: results.__setitem__(res[0], res[1:]))
    outcomes = np.stack([results[i][0] for i in range(orders)])  # order, referee, round, metric
    cpu = np.sum([results[i][1] for i in range(orders)], axis=0)
    physics = outcomes[:, 0]
    report = {"player": player, "barrels": barrels, "orders": orders, "rounds": rounds, "seed": seed,
              "physics_ms_per_round": 1000 * cpu[0] / (orders * rounds), "cheap": {}}
    for c, spec in enumerate(cheap, start=1):
        entry = {"ms_per_round": 1000 * cpu[c] / (orders * rounds)}
        for j, metric in enumerate(METRICS):
            p, f = physics[:, :, j], outcomes[:, c, :, j]
            d = p - f
            entry[metric] = {"mean_difference": float(d.mean()), "round_difference_var": float(d.var(ddof=1)),
                             "round_correlation": correlation(p.ravel(), f.ravel())[0],
                             **order_effect_of(d)}
        report["cheap"][spec] = entry
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.order_effect", description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="casual")
    parser.add_argument("--orders", type=int, default=60, help="orders drawn at random")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of its own per order")
    parser.add_argument("--cheap", default="fast", help="comma-separated: fast, hybrid:BAND (deg)")
    parser.add_argument("--barrels", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    cheap = tuple(s.strip() for s in args.cheap.split(",") if s.strip())
    try:
        for spec in cheap:
            cheap_referee(spec, load_params())
    except ValueError as error:
        parser.error(str(error))
    if args.orders < 2 or args.rounds < 2:
        parser.error("--orders and --rounds: at least 2")
    report = measure(args.player, args.orders, args.rounds, cheap, args.seed, args.barrels, args.workers)
    print(f"{args.player}, {args.orders} orders x {args.rounds} rounds of their own; physics "
          f"{report['physics_ms_per_round']:.1f} ms of CPU per round")
    for spec, entry in report["cheap"].items():
        for metric in METRICS:
            e = entry[metric]
            print(f"  {spec:<12} {entry['ms_per_round']:7.1f} ms/round  {metric:<9}  physics - cheap "
                  f"{e['mean_difference']:+.3f}, round variance {e['round_difference_var']:.4f}, r "
                  f"{e['round_correlation']:.3f}; tau^2 {e['tau2']:.5f} (upper {e['tau2_upper']:.5f}: "
                  f"+-{e['half_width']:.3f} for an order without physics rounds)")
    if args.json:
        write_json(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
