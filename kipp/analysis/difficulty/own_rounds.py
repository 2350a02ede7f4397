"""Picked orders played again, each on rounds of its own: the reference values nothing was selected on.

A sweep plays every order on the same rounds (common random numbers, :mod:`kipp.analysis.rounds`),
so its orders err together. :func:`references` plays each picked order on rounds no other order
shares: the ``i``-th picked order plays rounds ``i * rounds + k`` (``k < rounds``) of the stream
family ``family``, so the references' errors are independent of each other and of the sweep's
rounds (which are of the family ``"round"``). :mod:`kipp.analysis.difficulty.confirm` (``kipp tune
--confirm``) measures a sweep's extremes with it; the coverage check of the physics-quality
intervals (``python -m lab.coverage_check``) its held-out orders.
"""

from __future__ import annotations

import numpy as np

from kipp.analysis.executor import run_with_progress
from kipp.analysis.rounds import RoundModel, play_round
from kipp.language import N_
from sim.params import Params
from sim.referees import shared_referee

BLOCK = 20
"""Reference rounds per task."""


def _block(model: RoundModel, referee: str, params, seed: int, held: list, rounds: int, first: int,
           count: int, family: str):
    """Reference rounds ``first .. first + count - 1`` of every held-out order. Order ``i``
    plays rounds ``i * rounds + k`` of its own (of the stream ``family``): the references'
    errors are independent (rounds shared by all orders would move every reference together)."""
    ref, bot, config = shared_referee(referee, params), model.bot(params), model.config()
    out = [[play_round(order, ref, bot, config, seed, i * rounds + k, family) for i, order in enumerate(held)]
           for k in range(first, first + count)]
    return (first, np.array([[r.stacked for r in row] for row in out]),
            np.array([[r.completed for r in row] for row in out]))


def references(orders: list, picked: np.ndarray, model: RoundModel, seed: int, rounds: int, referee: str,
               workers: int, progress: bool, family: str = "holdout",
               desc: str = N_("held-out physics rounds"), *,
               params: Params) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per metric: the picked orders' means over ``rounds`` rounds each of their own (streams
    ``(family, i * rounds + k, ...)`` for the ``i``-th picked order) and their standard errors,
    played under the parameter set ``params`` (the sweep's: its referees, ship and bot)."""
    held = [orders[int(i)] for i in picked]
    stacked = np.zeros((rounds, len(held)))
    completed = np.zeros((rounds, len(held)))

    def record(result) -> int:
        first, s, c = result
        stacked[first:first + len(s)], completed[first:first + len(c)] = s, c
        return len(s)

    tasks = ((model, referee, params, seed, held, rounds, first, min(BLOCK, rounds - first), family)
             for first in range(0, rounds, BLOCK))
    run_with_progress(_block, tasks, record, workers=workers, progress=progress, total=rounds, unit="round",
                      desc=desc)
    return {name: (values.mean(axis=0), values.std(axis=0, ddof=1) / np.sqrt(rounds))
            for name, values in (("stacked", stacked), ("completed", completed))}
