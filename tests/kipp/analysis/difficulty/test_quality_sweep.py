"""``kipp tune``'s physics-quality sweep: the same totals on 1 or 2 workers, resume after
SIGKILL, the same totals when a worker process dies mid-sweep, and intervals that cover a
brute-force truth. Two threshold referees of different crash rates, registered as
``threshold-fast`` and ``threshold-physics``, play the fast referee and physics (their
difference is the correction)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import sqlite3
import textwrap
from dataclasses import replace

import numpy as np
import pytest

from kipp.analysis.difficulty.quality_sweep import (
    COLUMNS,
    KIND,
    Plan,
    QualityRun,
    read_quality,
    run_quality_sweep,
    tasks_of,
)
from kipp.analysis.orders import sample_orders
from kipp.analysis.results_store import ResultsFileError, ResultsStore
from kipp.analysis.rounds import RoundModel
from kipp.analysis.shared_rounds import OrderTree, play_round_shared
from sim.params import load_params, physics_fingerprint
from sim.referees import registered_referee
from tests.kipp.analysis.sigkill import sigkill_once_stored
from tests.kipp.kipp_referees import ThresholdReferee

PARAMS = load_params()
MODEL = RoundModel(barrels=9)
PLAN = Plan(fast_rounds=40, paired_rounds=6, physics_anchors=300, fast_anchors=1000)
SAMPLED = Plan(fast_rounds=40, paired_rounds=6, fast_anchors=1000, paired_orders=20)
"""The sampled correction: 20 of the 40 orders play paired rounds of their own."""
TOPPED = Plan(fast_rounds=40, paired_rounds=6, fast_anchors=1000, paired_orders=20, half_widths=(0.5, 0.3))
"""The sampled correction, then top-up rounds for the orders whose P(complete) is too wide."""


def fast(params):
    return ThresholdReferee(seed=1, crash_rate=0.04, tilt_budget_deg=60.0, ship=params.ship)


def physics(params):
    """Crashes more often than ``fast``: a known, order-dependent correction."""
    return ThresholdReferee(seed=1, crash_rate=0.07, tilt_budget_deg=45.0, ship=params.ship)


FAST, PHYSICS = "threshold-fast", "threshold-physics"
"""The names the sweeps of these tests give their two referees."""


@contextlib.contextmanager
def stand_ins(fast_factory=fast):
    """Within the block, :data:`FAST` builds ``fast_factory`` and :data:`PHYSICS` :func:`physics`."""
    with registered_referee(FAST, fast_factory), registered_referee(PHYSICS, physics):
        yield


@pytest.fixture(autouse=True)
def _referees():
    with stand_ins():
        yield


class DiesOnce:
    """``fast``, except that the worker process playing its ``after``-th decision SIGKILLs itself,
    once per ``marker`` file (the first process to get there creates it)."""

    decisions = 0
    """Decisions played in this process."""

    def __init__(self, marker: str, after: int, params):
        self.marker, self.after, self.inner = marker, after, fast(params)

    def new_tower(self):
        return self.inner.new_tower()

    def decide(self, *args):
        DiesOnce.decisions += 1
        if DiesOnce.decisions == self.after:
            try:
                open(self.marker, "x").close()
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return self.inner.decide(*args)


def _run(seed=4, plan=PLAN):
    return QualityRun(MODEL, seed, plan, "default", "test", fast=FAST, physics=PHYSICS)


@pytest.fixture(scope="session")
def finished(tmp_path_factory):
    """``finished(plan)``: the results file of the 40 orders' sweep under ``plan`` on 1 worker, played
    once for every test that compares a run with it (read only)."""
    made = {}

    def path(plan: Plan):
        if plan not in made:
            made[plan] = tmp_path_factory.mktemp("finished") / "whole.sqlite"
            run_quality_sweep(_run(plan=plan), sample_orders(40, 9, seed=1), PARAMS, made[plan])
        return made[plan]

    return path


def _totals(path):
    with ResultsStore.read(path, "kipp tune, physics quality") as store:
        return {name: value.tolist() for name, value in store.totals().items()}


@pytest.mark.parametrize("plan", [PLAN, SAMPLED, TOPPED], ids=["paired", "sampled", "topped up"])
def test_one_and_two_workers_store_identical_totals(tmp_path, finished, plan):
    orders = sample_orders(40, 9, seed=1)
    one, two = finished(plan), tmp_path / "two.sqlite"
    run_quality_sweep(_run(plan=plan), orders, PARAMS, two, workers=2)
    assert _totals(one) == _totals(two)
    assert read_quality(one, orders).stacked.mean.tolist() == read_quality(two, orders).stacked.mean.tolist()


@pytest.mark.parametrize("plan_name, kill_at", [("PLAN", 5), ("TOPPED", len(tasks_of(TOPPED)) + 5)],
                         ids=["planned rounds", "top-up rounds"])
def test_sigkilled_sweep_resumes_to_the_uninterrupted_result(tmp_path, finished, plan_name, kill_at):
    """Killed among the planned rounds, or among the top-up rounds (whose stages the resumed
    run must plan again as the killed one did)."""
    plan = globals()[plan_name]
    orders = sample_orders(40, 9, seed=1)
    whole = finished(plan)
    killed = tmp_path / "killed.sqlite"
    script = textwrap.dedent(f"""
        import time
        from kipp.analysis.orders import sample_orders
        from kipp.analysis.difficulty.quality_sweep import run_quality_sweep
        from sim.params import load_params
        from tests.kipp.analysis.difficulty.test_quality_sweep import {plan_name}, _run, fast, stand_ins

        class Slow:
            def __init__(self, params): self.inner = fast(params)
            def new_tower(self): return self.inner.new_tower()
            def decide(self, *args):
                time.sleep(0.0005)
                return self.inner.decide(*args)

        with stand_ins(Slow):
            run_quality_sweep(_run(plan={plan_name}), sample_orders(40, 9, seed=1), load_params(), {str(killed)!r})
    """)
    with sqlite3.connect(whole) as db:
        total = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    returncode = sigkill_once_stored(script, killed, rows=kill_at, timeout_s=120)
    assert returncode == -signal.SIGKILL
    with sqlite3.connect(killed) as db:
        done = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert kill_at <= done < total
    assert run_quality_sweep(_run(plan=plan), orders, PARAMS, killed) == total - done
    assert _totals(killed) == _totals(whole)
    result = read_quality(killed, orders)
    assert result.wall_s > 0 and 0 < result.physics_share < 1
    if plan.half_widths is not None:
        assert result.topup_stages >= 1 and result.fast_rounds.max() > plan.fast_rounds


def _rows(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]


KILL_AFTER = 3000
"""The decision at which a worker dies: each of 2 workers plays about 9,500 of the sweep's 19,000."""


@pytest.mark.xdist_group("worker deaths")  # 2 worker processes each: one test at a time
def test_a_killed_pool_worker_costs_only_its_tasks(tmp_path, finished, capsys):
    """One of 2 local worker processes is SIGKILLed mid-sweep: the pool restarts, the tasks in
    flight are played again, and the file holds the uninterrupted run's rows and totals."""
    orders = sample_orders(40, 9, seed=1)
    marker, out = tmp_path / "died", tmp_path / "two.sqlite"
    with stand_ins(functools.partial(DiesOnce, str(marker), KILL_AFTER)):
        run_quality_sweep(_run(), orders, PARAMS, out, workers=2)
    assert marker.exists()
    assert "a worker process died (signal 9); restarted the pool" in capsys.readouterr().err
    assert _rows(out) == _rows(finished(PLAN))
    assert _totals(out) == _totals(finished(PLAN))


@pytest.mark.xdist_group("worker deaths")
def test_a_killed_dask_worker_costs_only_its_task(tmp_path, finished):
    """A worker of a 2-worker LocalCluster SIGKILLs itself mid-sweep: its nanny starts it again,
    the scheduler gives its task to a worker, and the file holds the uninterrupted run's totals."""
    from distributed import LocalCluster

    orders = sample_orders(40, 9, seed=1)
    marker, out = tmp_path / "died", tmp_path / "dask.sqlite"
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster:
        with stand_ins(functools.partial(DiesOnce, str(marker), KILL_AFTER)):
            run_quality_sweep(_run(), orders, PARAMS, out, workers=2, scheduler=cluster.scheduler_address)
    assert marker.exists()
    assert _rows(out) == _rows(finished(PLAN))
    assert _totals(out) == _totals(finished(PLAN))


def test_a_finished_sweep_tops_up_to_the_same_totals(tmp_path, finished):
    """--half-widths added to a finished sweep's file plays only the top-up rounds, and ends where
    a sweep with the target from the start ends; another target on that file is refused."""
    orders = sample_orders(40, 9, seed=1)
    from_start, later = finished(TOPPED), tmp_path / "later.sqlite"
    planned = run_quality_sweep(_run(plan=SAMPLED), orders, PARAMS, later)
    assert read_quality(later, orders).topup_stages == 0
    topped = run_quality_sweep(_run(plan=TOPPED), orders, PARAMS, later)
    assert planned == len(tasks_of(SAMPLED)) and topped > 0
    assert _totals(later) == _totals(from_start)
    result = read_quality(later, orders)
    assert result.stacked.mean.tolist() == read_quality(from_start, orders).stacked.mean.tolist()
    with ResultsStore.read(later, KIND) as store:  # the summary says which physics and which model
        summary = json.loads(store.meta()["summary"])
    assert summary["physics"] == physics_fingerprint(PARAMS)
    assert [summary["correction"][m]["features"] for m in ("stacked", "completed")] == [
        result.stacked.features_used, result.completed.features_used]
    other = replace(TOPPED, half_widths=(0.4, 0.3))
    with pytest.raises(ResultsFileError, match="aim at half-widths 0.5,0.3, not 0.4,0.3"):
        run_quality_sweep(_run(plan=other), orders, PARAMS, later)
    with ResultsStore.open(later, KIND, _run(plan=TOPPED).options(orders), COLUMNS) as store:
        store.write_meta("physics", "older physics")  # as if the physics code had changed since
    with pytest.raises(ResultsFileError, match="played with physics older physics, not today's"):
        run_quality_sweep(_run(plan=TOPPED), orders, PARAMS, later)


def test_a_results_file_that_names_no_feature_set_reads_with_the_layout_it_was_made_with(tmp_path):
    """Files made before the summary features carried the correction on the layout (or their
    mean) and do not name a feature set: read today, they keep that model and their own top-up
    plan, and a sweep on the layout still writes them so; a sweep on the summary names it."""
    orders = sample_orders(40, 9, seed=1)
    old, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    run_quality_sweep(_run(plan=TOPPED), orders, PARAMS, old)
    run_quality_sweep(_run(plan=replace(TOPPED, correction_features="summary")), orders, PARAMS, new)
    named = []
    for path in (old, new):
        with ResultsStore.read(path, KIND) as store:
            named.append(json.loads(store.meta()["options"]).get("correction_features"))
    assert named == [None, "summary"]
    assert read_quality(old, orders).plan.correction_features == "layout"
    assert read_quality(new, orders).plan.correction_features == "summary"


def test_a_large_sweep_carries_the_correction_on_the_summary_features():
    """kipp tune's plan: the sampled correction tries the summary features (the layout's 25 slopes
    need 520 sampled orders); paired rounds of every order keep the layout, as before."""
    assert Plan.for_orders(34650).correction_features == "summary"
    assert Plan.for_orders(500).correction_features == "layout"
    assert Plan.for_orders(34650, correction_features="layout").correction_features == "layout"


@functools.cache
def _brute_force_truth() -> tuple[np.ndarray, np.ndarray]:
    """Barrels stacked per order under the stand-in physics over 500 rounds of their own, and
    its standard error (the same for every plan below: played once). Its error enters the
    coverage checks; 500 rounds still leave the fast rounds alone covering at most 39% of the
    orders (45% with 1,500 rounds, at a third of the cost), so each check can fail."""
    tree, referee = OrderTree(sample_orders(150, 9, seed=5)), physics(PARAMS)
    bot, config = MODEL.bot(PARAMS), MODEL.config()
    rounds = [play_round_shared(tree, referee, bot, config, PARAMS.ship, 8, k, "holdout").stacked
              for k in range(500)]
    return np.mean(rounds, axis=0), np.std(rounds, axis=0, ddof=1) / np.sqrt(len(rounds))


@pytest.mark.slow
@pytest.mark.xdist_group("brute force truth")  # played once per worker: keep its users on one
@pytest.mark.parametrize("plan", [Plan(60, 12, 600, 2000), Plan(60, 12, fast_anchors=2000, paired_orders=100),
                                  Plan(60, 12, 600, 2000, half_widths=(1.0, 0.14))],
                         ids=["paired", "sampled", "topped up"])
def test_intervals_cover_the_brute_force_truth(tmp_path, plan):
    """The stand-in physics played 500 rounds per order is the truth the estimate must cover."""
    orders = sample_orders(150, 9, seed=5)
    out = tmp_path / "q.sqlite"
    run_quality_sweep(_run(8, plan), orders, PARAMS, out)
    result = read_quality(out, orders)
    if plan.half_widths is not None:  # the top-up rounds were played
        assert (result.fast_rounds > plan.fast_rounds).mean() > 0.2
    truth, truth_se = _brute_force_truth()
    est = result.stacked
    covered = np.abs(est.mean - truth) <= 1.96 * np.sqrt(est.se**2 + truth_se**2)
    assert covered.mean() >= 0.85
    # and the correction matters: the fast part alone would miss
    fast_only = est.mean - est.corr - est.grand_diff
    assert np.mean(np.abs(fast_only - truth) <= 1.96 * np.sqrt(est.se**2 + truth_se**2)) < 0.5
