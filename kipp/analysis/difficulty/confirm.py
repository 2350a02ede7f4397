"""The hardest and easiest orders of a finished sweep, measured again on rounds of their own.

A sweep's rounds are common random numbers: round ``k`` of every order has the same luck,
so orders that share their first barrels err together, and the orders a sweep ranks
hardest (or easiest) are, besides, those whose own noise happened to point that way (the
winner's curse, which pulls the extremes outward). Each interval holds for its own order,
but the extremes of 34,650 of them are not a fair sample: the shared luck of the rounds
can move a whole family either way, further than its intervals (the committed sweeps'
record, ``notebooks/results/sweeps.json``, ``confirm``, holds each sweep's extremes both ways).

``kipp tune --confirm N`` (or, on a finished sweep's file, ``python -m lab.confirm --results
FILE.sqlite --top 20 --rounds 2000``) takes the ``--top`` hardest and easiest orders by barrels
stacked and plays each ``--rounds`` fast rounds of its own (streams ``("confirm", i * rounds + k, ...)`` for the
``i``-th of them: independent of the sweep's rounds, and of each other's, so nothing it
was selected on enters the new value). Its value at physics quality is then, with the parts
of :mod:`kipp.analysis.difficulty.quality_estimate`::

    confirmed_o = mean of its new fast rounds + grand_diff + corr_o

(the sweep's physics-minus-fast level and the order's correction, which the selection did
not use for an order outside the correction's sample, and which carries its own variance,
the order effect included), with a 95% interval from the variances of the three parts.
The sweep's settings (player model, barrels, variant, seed, orders) are read from its file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from kipp.analysis.difficulty.own_rounds import references
from kipp.analysis.difficulty.quality_sweep import KIND, read_quality
from kipp.analysis.orders import resolve_orders
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.rounds import RoundModel
from kipp.analysis.stats import Z95
from kipp.language import N_, SOURCE_LANGUAGE, Language
from kipp.language.columns import column_width
from sim.params import Params

ROUNDS = 2000
"""Fast rounds of its own for each order confirmed, by default (``kipp tune --confirm``): enough
that a confirmed value's interval, correction included, is a fraction of a barrel (each confirmed
order's ``low`` and ``high`` in the record say how much)."""
FAMILY = "confirm"
"""The stream family of the new rounds (:func:`kipp.analysis.rounds.round_streams`)."""


def sweep_settings(results: str | Path) -> tuple[RoundModel, int, str, str]:
    """The player model and variant, root seed, ``--orders`` and fast referee of a physics-quality results file."""
    with ResultsStore.read(results, KIND) as store:
        options = json.loads(store.meta()["options"])
    model = RoundModel(barrels=options["barrels"], half_turn=options["half_turn"], sigma_mm=options["sigma_mm"],
                       wild=options["wild"], player=options["player"])
    return model, int(options["seed"]), options["orders"], options["fast"]


def extremes(values: np.ndarray, top: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the ``top`` smallest values (smallest first) and of the ``top`` largest (largest
    last); ties go to the earlier index."""
    ranked = np.argsort(values, kind="stable")
    return ranked[:top], ranked[len(values) - top:]


def confirm(results: str | Path, params: Params, top: int = 20, rounds: int = ROUNDS, workers: int = 1,
            progress: bool = True, orders: list[tuple[str, ...]] | None = None) -> dict:
    """The report (see the module docstring) as a JSON-ready dict: per list (``hardest``, fewest
    barrels stacked first; ``easiest``, most last), every order's sweep and confirmed values.
    ``params`` is the sweep's parameter set (its new rounds are played under it: referee, ship,
    bot), with the sweep's fast referee (by the name in the file); ``orders`` defaults to its
    ``--orders`` (tests hand in their orders)."""
    if top < 1 or rounds < 2:
        raise ValueError(f"need at least 1 order per list and 2 rounds, got top={top}, rounds={rounds}")
    model, seed, spec, fast_name = sweep_settings(results)
    orders = orders if orders is not None else resolve_orders(spec, model.barrels, seed)
    if 2 * top > len(orders):
        raise ValueError(f"--top {top}: the sweep has {len(orders)} orders, fewer than two lists of {top}")
    sweep = read_quality(results, orders)
    hardest, easiest = extremes(sweep.stacked.mean, top)
    picked = np.concatenate([hardest, easiest])
    lines = [sweep.lines[i] for i in picked]
    played = references(orders, picked, model, seed, rounds, fast_name, workers,
                        progress, family=FAMILY, desc=N_("confirming rounds"), params=params)
    report = {"results": str(results), "player": model.player, "barrels": model.barrels, "seed": seed,
              "top": top, "rounds": rounds, "referee": fast_name}
    bounds = {"stacked": (0.0, float(model.barrels)), "completed": (0.0, 1.0)}
    rows = []
    for slot, i in enumerate(picked):
        row = {"order": lines[slot]}
        for name, est in (("stacked", sweep.stacked), ("completed", sweep.completed)):
            fast_mean, fast_se = (float(v[slot]) for v in played[name])
            value = fast_mean + float(est.grand_diff + est.corr[i])
            se = float(np.sqrt(fast_se**2 + est.grand_diff_var + est.corr_var[i]))
            low, high = bounds[name]
            row[name] = {"sweep": float(est.mean[i]), "sweep_se": float(est.se[i]),
                         "fast_new": fast_mean, "value": value, "se": se,
                         "low": max(low, value - Z95 * se), "high": min(high, value + Z95 * se)}
        rows.append(row)
    report["hardest"], report["easiest"] = rows[:top], rows[top:]
    return report


CONFIRM_LISTS = {"hardest": N_("hardest"), "easiest": N_("easiest")}
"""The two lists of :func:`format_report`, as it titles them (translated there)."""


def format_report(report: dict, language: Language | None = None) -> str:
    """The two lists as text: the sweep's value and the confirmed one, barrels stacked and P(complete), in
    ``language`` (default English; the table's numbers as Python writes them)."""
    language = language or Language(SOURCE_LANGUAGE)
    _ = language.gettext
    lines = [_("{player}, {barrels} barrels: the {top} hardest and easiest orders of the sweep, each measured again "
               "on {rounds} fast rounds of its own (physics-quality correction from the sweep)").format(
                 player=report["player"], barrels=report["barrels"], top=report["top"],
                 rounds=language.decimal(report["rounds"]))]
    order, sweep, confirmed, p = _("order"), _("sweep"), _("confirmed [95%]"), _("P(complete) sweep / confirmed")
    widths = [column_width(14, "order", order), column_width(9, "sweep", sweep),
              column_width(27, "confirmed [95%]", confirmed)]
    for name, word in CONFIRM_LISTS.items():
        lines.append(f"{_(word)}:  {order:<{widths[0]}}{sweep:<{widths[1]}}{confirmed:<{widths[2]}}{p}")
        for row in report[name]:
            s, c = row["stacked"], row["completed"]
            lines.append(f"  {row['order']:<14}{s['sweep']:6.2f}   {s['value']:6.2f} [{s['low']:.2f}, {s['high']:.2f}]"
                         f"      {c['sweep']:.3f} / {c['value']:.3f}")
    return "\n".join(lines)
