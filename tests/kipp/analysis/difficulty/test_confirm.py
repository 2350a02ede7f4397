"""Confirming a sweep's extremes on rounds of their own: the right orders, their own streams,
worker invariance, and (slow) intervals that cover a brute-force truth where the sweep's own
values for the same orders are pulled toward the extremes they were selected for."""

from __future__ import annotations

import numpy as np
import pytest

from kipp.analysis.difficulty.confirm import FAMILY, confirm, extremes
from kipp.analysis.difficulty.quality_sweep import Plan, read_quality, run_quality_sweep
from kipp.analysis.orders import parse_order, sample_orders
from kipp.analysis.rounds import play_round
from tests.kipp.analysis.difficulty.test_quality_sweep import (
    MODEL,
    PARAMS,
    SAMPLED,
    _brute_force_truth,
    _run,
    fast,
    stand_ins,
)


@pytest.fixture(autouse=True)
def _referees():
    with stand_ins():
        yield


def test_extremes_are_the_smallest_first_and_the_largest_last():
    hardest, easiest = extremes(np.array([5.0, 1.0, 9.0, 3.0, 7.0, 1.0]), 2)
    assert hardest.tolist() == [1, 5] and easiest.tolist() == [4, 2]


def test_confirmed_orders_are_the_sweeps_extremes_played_on_rounds_of_their_own(tmp_path):
    orders = sample_orders(40, 9, seed=1)
    out = tmp_path / "q.sqlite"
    run_quality_sweep(_run(plan=SAMPLED), orders, PARAMS, out)
    sweep = read_quality(out, orders)
    one = confirm(out, PARAMS, top=3, rounds=12, orders=orders, progress=False)
    two = confirm(out, PARAMS, top=3, rounds=12, orders=orders, progress=False, workers=2)
    assert one == two
    ranked = np.argsort(sweep.stacked.mean, kind="stable")
    assert [r["order"] for r in one["hardest"]] == [sweep.lines[i] for i in ranked[:3]]
    assert [r["order"] for r in one["easiest"]] == [sweep.lines[i] for i in ranked[-3:]]
    referee, bot, config = fast(PARAMS), MODEL.bot(PARAMS), MODEL.config()
    for slot, row in enumerate(one["hardest"] + one["easiest"]):
        order = parse_order(row["order"], 9)
        own = [play_round(order, referee, bot, config, 4, slot * 12 + k, FAMILY).stacked for k in range(12)]
        assert row["stacked"]["fast_new"] == pytest.approx(np.mean(own), abs=1e-12)
        low, value, high = (row["stacked"][k] for k in ("low", "value", "high"))
        assert 0.0 <= low <= value <= high <= 9.0


def test_too_many_orders_asked_for_is_an_error(tmp_path):
    orders = sample_orders(40, 9, seed=1)
    out = tmp_path / "q.sqlite"
    run_quality_sweep(_run(plan=SAMPLED), orders, PARAMS, out)
    with pytest.raises(ValueError, match="fewer than two lists of 21"):
        confirm(out, PARAMS, top=21, rounds=12, orders=orders, progress=False)


@pytest.mark.slow
@pytest.mark.xdist_group("brute force truth")  # played once per worker: keep its users on one
def test_confirmed_values_cover_the_brute_force_truth(tmp_path):
    """150 orders, their sweep's 60 shared rounds each lucky or not for whole prefix families:
    the confirmed intervals cover the stand-in physics' truth (500 rounds per order), and
    the confirmed values lose the pull toward the extremes that the sweep's values have."""
    orders = sample_orders(150, 9, seed=5)
    out = tmp_path / "q.sqlite"
    run_quality_sweep(_run(8, Plan(60, 12, fast_anchors=2000, paired_orders=100)), orders, PARAMS, out)
    report = confirm(out, PARAMS, top=15, rounds=300, orders=orders, progress=False)
    truth, truth_se = _brute_force_truth()
    where = {line: i for i, line in enumerate(read_quality(out, orders).lines)}
    rows = report["hardest"] + report["easiest"]
    index = [where[r["order"]] for r in rows]
    value = np.array([r["stacked"]["value"] for r in rows])
    se = np.array([r["stacked"]["se"] for r in rows])
    covered = np.abs(value - truth[index]) <= 1.96 * np.sqrt(se**2 + truth_se[index] ** 2)
    assert covered.mean() >= 0.85
    # the sweep's own values of the orders it ranked hardest (easiest) read too hard (too easy):
    # the confirmed ones are at least twice as close to the truth, list by list
    sweep = read_quality(out, orders).stacked.mean[index]
    for part in (slice(0, 15), slice(15, 30)):
        confirmed_error = np.mean(value[part] - truth[index][part])
        sweep_error = np.mean(sweep[part] - truth[index][part])
        assert abs(confirmed_error) < abs(sweep_error) / 2
