"""``kipp tune``'s default sweep: every order's difficulty at physics quality, for little physics.

The estimator is :mod:`kipp.analysis.difficulty.quality_estimate`'s; this module plays its rounds and keeps
its sums. The plan (how many rounds of each kind, and ``kipp tune``'s defaults) is
:mod:`kipp.analysis.difficulty.quality_plan`'s; each kind of task is a small class of
:mod:`kipp.analysis.difficulty.quality_tasks`. Four kinds of task, each one round (or one block of rounds):

- a *fast round* ``k``: every order plays round ``k`` with the fast referee;
- a *paired round* ``k``: every order plays round ``k`` with the fast and the physics referee;
- an *anchor block*: anchor rounds ``j``, each a uniformly drawn order in a round of its own
  (streams ``("anchor", j, ...)``), with the fast referee, and the first ones with physics too;
- with :attr:`Plan.paired_orders` (the sampled correction), a *sample block* instead of the
  paired rounds: sampled orders, the one at position ``i`` of the sample playing rounds
  ``i * paired_rounds + k`` of its own (streams ``("paired", ...)``) with both referees;
- with :attr:`Plan.half_widths`, *top-up rounds* once the others are done: stage by stage, the
  orders whose intervals are still wider than the target play more fast rounds, as many as
  their variance so far says they need (:func:`kipp.analysis.difficulty.quality_estimate.rounds_needed`).
  Top-up round ``j`` of a stage is round ``paired_rounds + j`` (the next of the order's fast
  rounds) of the orders that need it, played with a panel of :data:`TOPUP_PANEL` orders drawn
  at random for it (stream ``("topup panel", stage, j)``). A stage's needs depend only on the
  totals of the stages before it, which are complete before it starts, so a resumed sweep
  plans the same stages. The target is not one of the file's options (it is kept in its meta
  table from the first top-up on): a finished sweep can be topped up later.

Rounds of all orders are played once per shared prefix (:mod:`kipp.analysis.shared_rounds`).
Each finished task adds its integer sums to the results file's totals in one transaction
with its row (named by the task's label, ``"fast 12"``, ``"topup 1 5"``: a rerun skips the labels
already there), so the file stays the same size, a SIGKILL loses at most the tasks in flight,
and 1 worker, N workers and a Dask cluster store identical totals. The task rows keep each
task's CPU time and the physics referee's share of it; the ``meta`` table records the wall
time of every session that worked on the file, and its ``summary`` the plan, the costs, the
physics it was played with (:func:`sim.params.physics_fingerprint`) and the correction's model
(written again by every run, so rerunning a finished sweep brings it to today's estimator).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from kipp.analysis.difficulty.quality_estimate import Estimate, Totals, estimate, rounds_needed
from kipp.analysis.difficulty.quality_plan import (
    METRICS,
    TOPUP_MOST,
    Plan,
    QualityRun,
    correction_design,
    plan_of,
    sampled_orders,
)
from kipp.analysis.difficulty.quality_tasks import QualityTask, TaskDone, TaskSetting, TopupRound, play_task, tasks_of
from kipp.analysis.difficulty.ranking import Difficulty, ranking_verdict
from kipp.analysis.executor import Execution, progress_words
from kipp.analysis.orders import order_text
from kipp.analysis.results_store import ResultsFileError, ResultsStore
from kipp.analysis.resumable import Stored, run_remaining
from kipp.analysis.shared_rounds import order_codes
from kipp.language import N_, SOURCE_LANGUAGE, Language
from kipp.language.columns import column_width
from sim.params import Params, physics_fingerprint
from sim.seeds import stream

KIND = "kipp tune, physics quality"
COLUMNS = [("task", "TEXT"), ("cpu_s", "REAL"), ("physics_cpu_s", "REAL"), ("session", "INTEGER"),
           ("elapsed_s", "REAL")]
"""One row per finished task: what it was, its CPU seconds and the physics referee's part
of them, and the session (a run of the command on this file) with the wall seconds since
that session began when the task was stored."""
ESTIMATOR = "physics quality (kipp.analysis.multifidelity)"
"""How the ``summary`` of a results file names the estimator (:mod:`kipp.analysis.difficulty.quality_estimate`):
a label every file of this kind carries alike, not a module path to import."""
TOPUP_PANEL = 256
"""Orders drawn at random to play along in a top-up round: their mean stands in for the
round's mean over all orders (its noise adds about 1/256 of an order's to each deviation)."""
TOPUP_STAGES = 12
"""Top-up stages at most (each aims at the target with the variance seen so far, times 1.1;
after the first few only the orders whose variance grew past that play, a few rounds each), enough
that an order whose variance grows in a late stage still reaches the target. A file that stopped
at a lower limit with orders still wide reads as unfinished: the same command plays the stages left."""
def topup_panel(seed: int, n: int, stage: int, j: int) -> np.ndarray:
    """The orders (indices of ``n``, sorted) that play along in top-up round ``j`` of ``stage``."""
    return np.sort(stream(seed, "topup panel", stage, j).choice(n, min(TOPUP_PANEL, n), replace=False))


@dataclass(frozen=True)
class TopupStage:
    """One stage of top-up rounds: every order's fast rounds before it and after it."""

    stage: int
    before: np.ndarray
    after: np.ndarray

    def orders_of(self, j: int) -> np.ndarray:
        """The orders that play top-up round ``j`` (their ``j``-th fast round, from 0)."""
        return np.flatnonzero((self.before <= j) & (j < self.after))

    def rounds(self) -> list[int]:
        """The top-up rounds some order plays in this stage."""
        counts = np.bincount(self.before, minlength=int(self.after.max()) + 1)[:int(self.after.max()) + 1]
        ends = np.bincount(self.after, minlength=len(counts))[:len(counts)]
        playing = np.cumsum(counts - ends)  # orders with before <= j < after, for every j
        return [int(j) for j in np.flatnonzero(playing[:-1] > 0)]

    def task(self, j: int, seed: int, n: int, first_fast_round: int) -> TopupRound:
        """Top-up round ``j`` as a task: the orders that play it (whose fast rounds begin at round
        ``first_fast_round``) and its panel."""
        return TopupRound(self.stage, j, first_fast_round + j, self.orders_of(j), topup_panel(seed, n, self.stage, j),
                          n)


def plan_topup(stored: dict[str, np.ndarray], n: int, plan: Plan, seed: int, x: np.ndarray,
               stage: int) -> TopupStage:
    """Stage ``stage`` of the top-up (see the module docstring), from the totals of the planned
    rounds and of the stages before it (``stored``: the results file's totals)."""
    totals = _metrics_totals(stored, n, plan, seed, stage - 1)
    before = totals["stacked"].fast_rounds_per_order()
    after = before
    for m, half_width in zip(METRICS, plan.half_widths):
        after = np.maximum(after, rounds_needed(estimate(totals[m], x), before, half_width,
                                                TOPUP_MOST * plan.fast_rounds))
    return TopupStage(stage, before, after)


def topup_stages(stored: Callable[[], dict[str, np.ndarray]], n: int, plan: Plan, seed: int, x: np.ndarray):
    """The top-up stages with rounds to play, in turn; ``stored()`` gives the results file's
    totals as they are when the next stage is planned (the stages before it complete)."""
    if plan.half_widths is None:
        return
    for number in range(1, TOPUP_STAGES + 1):
        stage = plan_topup(stored(), n, plan, seed, x, number)
        if not stage.rounds():
            return
        yield stage


def run_quality_sweep(run: QualityRun, orders: list[tuple[str, ...]], params: Params, out: str | Path, *,
                      workers: int = 1, scheduler: str | None = None, progress: bool = False) -> int:
    """Run the tasks not yet in ``out`` with the referees ``run.fast`` and ``run.physics``; return
    how many this call ran.

    Raises :class:`~kipp.analysis.results_store.ResultsFileError` for a file of other options.
    """
    began = time.monotonic()
    codes, length = order_codes(orders), len(orders[0])
    with ResultsStore.open(out, KIND, run.options(orders), COLUMNS) as store:
        run = replace(run, plan=_topup_target(store, run.plan, out))
        physics_id = _physics_stamp(store, params, out)
        done = {label for _key, label, *_ in store.rows()}
        session = int(store.meta().get("sessions", "0")) + 1
        store.write_meta("sessions", str(session))
        recorder = _Recorder(session, began)
        setting = TaskSetting(run, params, codes, length)
        execution = Execution(workers, scheduler, progress)
        played = run_remaining(store, tasks_of(run.plan), play_task, lambda task: recorder.job(task, setting),
                               recorder.stored, execution, done=done, key=lambda task: task.label, unit="task",
                               desc=N_("rounds of all orders"))
        ran = len(played) + _run_topup(setting, orders, store, done, recorder, execution)
        rows = list(store.rows())
        totals = _metrics_totals(store.totals(), len(orders), run.plan, run.seed, TOPUP_STAGES)
        fast_rounds = totals["stacked"].fast_rounds_per_order()
        estimates = {m: estimate(t, correction_design(run.plan, orders)) for m, t in totals.items()}
        store.write_meta("summary", json.dumps({
            "estimator": ESTIMATOR, "orders": len(orders),
            **asdict(run.plan), "tasks": len(rows), "wall_s": _wall_s(rows), "cpu_s": sum(r[2] for r in rows),
            "physics_share": sum(r[3] for r in rows) / max(1e-9, sum(r[2] for r in rows)),
            "topup_order_rounds": int(fast_rounds.sum() - run.plan.fast_rounds * len(orders)),
            "topup_orders": int((fast_rounds > run.plan.fast_rounds).sum()),
            "physics": physics_id,
            "correction": {m: {"features": e.features_used, "tau2": e.tau2, "tau2_estimate": e.tau2_estimate,
                               "explained": None if math.isnan(e.features_explain) else e.features_explain}
                           for m, e in estimates.items()}}))
        return ran


def _topup_target(store: ResultsStore, plan: Plan, out: str | Path) -> Plan:
    """``plan`` with the file's top-up target where it has one (and the plan none); a new target
    is written to the file. Two different targets cannot share one file's top-up rounds."""
    stored = store.meta().get("half_widths")
    stored = tuple(json.loads(stored)) if stored is not None else None
    if stored is not None and plan.half_widths is not None and stored != plan.half_widths:
        raise ResultsFileError(f"{out}: its top-up rounds aim at half-widths {stored[0]:g},{stored[1]:g}, not "
                               f"{plan.half_widths[0]:g},{plan.half_widths[1]:g}; use another --out")
    if stored is None and plan.half_widths is not None:
        store.write_meta("half_widths", json.dumps(list(plan.half_widths)))
    return replace(plan, half_widths=plan.half_widths or stored)


def _physics_stamp(store: ResultsStore, params: Params, out: str | Path) -> str:
    """The physics the file's rounds are played with (:func:`sim.params.physics_fingerprint`,
    which :data:`sim.params.PHYSICS_REVISION` moves with the physics code), written on the
    file's first session; a later session under other physics is refused, as its rounds could
    not be added to the earlier ones."""
    current, stored = physics_fingerprint(params), store.meta().get("physics")
    if stored is not None and stored != current:
        raise ResultsFileError(f"{out}: its rounds were played with physics {stored}, not today's {current} "
                               "(the physics code or its parameters changed); use another --out")
    if stored is None:
        store.write_meta("physics", current)
    return current


class _Recorder:
    """What the results file stores of each finished task, as it comes back: one row (its label,
    CPU seconds, the physics referee's part of them, the session and the wall seconds since the
    session began) and, in the same transaction, the totals it adds."""

    def __init__(self, session: int, began: float) -> None:
        self.session, self.began = session, began
        self.pending: dict[str, QualityTask] = {}

    def job(self, task: QualityTask, setting: TaskSetting) -> tuple[QualityTask, TaskSetting]:
        """The worker call's arguments for ``task``, made as the executor asks for them (the task
        is kept until its result comes back)."""
        self.pending[task.label] = task
        return task, setting

    def stored(self, done: TaskDone, units: Callable[[QualityTask], int] = lambda task: 1) -> Stored:
        """The row and totals of the finished task ``done``; ``units(task)``: how far it moves the progress bar."""
        task = self.pending.pop(done.label)
        row = (None, done.label, done.cpu_s, done.physics_cpu_s, self.session, time.monotonic() - self.began)
        return Stored([row], units=units(task), totals=task.totals(done.outcome))


def _run_topup(setting: TaskSetting, orders, store: ResultsStore, done: set[str], recorder: _Recorder,
               execution: Execution) -> int:
    """Play the top-up stages still to play (see the module docstring); return the rounds played.
    A top-up round is played on its orders only: its setting's orders are theirs."""
    run, n = setting.run, len(orders)
    table = np.frombuffer(setting.codes, dtype=np.int8).reshape(n, setting.length)
    ran = 0
    for stage in topup_stages(store.totals, n, run.plan, run.seed, correction_design(run.plan, orders)):
        def job(j: int, stage: TopupStage = stage) -> tuple[QualityTask, TaskSetting]:
            task = stage.task(j, run.seed, n, run.plan.paired_rounds)
            return recorder.job(task, replace(setting, codes=table[task.union()].tobytes()))

        # the bar counts order-rounds: the first top-up rounds have the most orders
        played = run_remaining(store, stage.rounds(), play_task, job,
                               lambda result: recorder.stored(result, lambda task: len(task.subset)), execution,
                               done=done, key=lambda j, stage=stage: TopupRound.label_of(stage.stage, j),
                               size=lambda j, stage=stage: len(stage.orders_of(j)), unit="order-round",
                               desc=progress_words(execution.progress, N_("top-up stage {stage}")).format(
                                   stage=stage.stage))
        ran += len(played)
    return ran


def _wall_s(rows) -> float:
    """Wall seconds over the sessions that stored ``rows``: each one's last store."""
    return sum(max(r[5] for r in rows if r[4] == s) for s in {r[4] for r in rows}) if rows else 0.0


@dataclass(frozen=True)
class QualityResult:
    """A physics-quality sweep's estimates and what they cost."""

    lines: list[str]
    stacked: Estimate
    completed: Estimate
    plan: Plan
    wall_s: float
    """Wall seconds over every session that worked on the file."""
    cpu_s: float
    physics_share: float
    """The physics referee's share of the CPU time."""
    fast_rounds: np.ndarray
    """Per order: fast rounds played, top-up rounds included."""
    topup_stages: int
    """Top-up stages played (0: none)."""

    def p_interval(self) -> tuple[np.ndarray, np.ndarray]:
        return self.completed.interval(0.0, 1.0)

    def stacked_interval(self) -> tuple[np.ndarray, np.ndarray]:
        return self.stacked.interval(0.0, len(self.lines[0]))


def read_quality(out: str | Path, orders: list[tuple[str, ...]]) -> QualityResult:
    """The estimates of a finished sweep of ``orders`` (in that order) from its results file."""
    with ResultsStore.read(out, KIND) as store:
        meta = store.meta()
        options = json.loads(meta["options"])
        plan = plan_of(options, json.loads(meta["half_widths"]) if "half_widths" in meta else None)
        totals = store.totals()
        rows = list(store.rows())
    n = len(orders)
    x = correction_design(plan, orders)
    planned = len(tasks_of(plan))
    if len(rows) < planned:
        raise ValueError(f"{out}: {len(rows)} of {planned} tasks done; rerun to finish")
    stages = list(topup_stages(lambda: totals, n, plan, options["seed"], x))
    expected = planned + sum(len(stage.rounds()) for stage in stages)
    if len(rows) != expected:
        raise ValueError(f"{out}: {len(rows)} of {expected} tasks done (top-up rounds included); rerun to finish")
    all_totals = _metrics_totals(totals, n, plan, options["seed"], TOPUP_STAGES)
    estimates = {m: estimate(t, x) for m, t in all_totals.items()}
    wall = _wall_s(rows)
    cpu = sum(r[2] for r in rows)
    physics = sum(r[3] for r in rows)
    return QualityResult([order_text(o) for o in orders], estimates["stacked"], estimates["completed"], plan,
                         wall, cpu, physics / cpu if cpu else float("nan"),
                         all_totals["stacked"].fast_rounds_per_order(), len(stages))


def _metrics_totals(stored: dict[str, np.ndarray], n: int, plan: Plan, seed: int, stages: int) -> dict[str, Totals]:
    """:func:`_metric_totals` of every metric, by name."""
    return {m: _metric_totals(stored, n, plan, seed, m, stages) for m in METRICS}


def _metric_totals(stored: dict[str, np.ndarray], n: int, plan: Plan, seed: int, m: str, stages: int) -> Totals:
    """The :class:`Totals` of metric ``m`` from a results file's totals, with top-up stages 1 to
    ``stages`` (those that are there)."""
    t = Totals.empty(n)
    t.fast_rounds = int(stored[f"{m}:fast_rounds"][0])
    t.rel_sum, t.rel_sq = stored[f"{m}:rel_sum"], stored[f"{m}:rel_sq"]
    if plan.paired_orders:
        t.sampled(sampled_orders(seed, n, plan.paired_orders), plan.paired_rounds)
        t.sample_sum, t.sample_sq = stored[f"{m}:sample_sum"], stored[f"{m}:sample_sq"]
    else:
        t.paired_rounds = int(stored[f"{m}:paired_rounds"][0])
        t.corr_sum, t.corr_sq = stored[f"{m}:corr_sum"], stored[f"{m}:corr_sq"]
        t.paired_round_devs = [stored[f"{m}:paired_dev:{k}"] for k in range(plan.paired_rounds)]
    (t.fast_anchors, t.fast_anchor_sum, t.fast_anchor_sq, t.physics_anchors, t.diff_anchor_sum,
     t.diff_anchor_sq) = (int(v) for v in stored[f"{m}:anchors"])
    for stage in range(1, stages + 1):
        if f"topup{stage}:rounds" not in stored:
            break
        t.add_topup_totals(stored[f"topup{stage}:rounds"], stored[f"{m}:topup{stage}:sum"],
                           stored[f"{m}:topup{stage}:sq"], min(TOPUP_PANEL, n))
    return t


def summaries(result: QualityResult) -> list[Difficulty]:
    """Every order's :class:`~kipp.analysis.difficulty.ranking.Difficulty` from the estimate, its values clipped to
    what a round can give (the unbiased estimate of an order near a bound can fall outside it)."""
    from kipp.analysis.orders import mean_position, parse_order

    p_low, p_high = result.p_interval()
    s_low, s_high = result.stacked_interval()
    return [Difficulty(line, float(p), float(pl), float(ph), float(s), float(sl), float(sh),
                           mean_position(parse_order(line)))
            for line, p, pl, ph, s, sl, sh in zip(result.lines, np.clip(result.completed.mean, 0, 1), p_low, p_high,
                                                  np.clip(result.stacked.mean, 0, len(result.lines[0])), s_low, s_high)]


QUALITY_HEADINGS = ((N_("rank"), 5, ">"), (N_("order"), 12, "<"), (N_("P(complete) [95%]"), 24, "<"),
                    (N_("barrels stacked [95%]"), 24, "<"), (N_("L pos"), 5, ">"))
"""The columns of :func:`format_quality`'s tables: heading, width in English, alignment."""


def _correction_words(plan, result: QualityResult, language: Language) -> str:
    """How the sampled correction reached the other orders, per metric (for the report's first line)."""
    _ = language.gettext
    features = plan.correction_features
    said = []
    for name, est in ((N_("barrels stacked"), result.stacked), (N_("P(complete)"), result.completed)):
        if est.features_used:
            how = _("the orders' {features} features ({share} of the order effect, out of sample)").format(
                features=features, share=f"{est.features_explain:.0%}")
        elif est.features_explain == 0:
            how = _("their mean (the {features} features did not predict it)").format(features=features)
        else:
            how = _("their mean (too few orders to try the {features} features)").format(features=features)
        said.append(f"{_(name)}: {how}")
    return "; ".join(said)


def format_quality(result: QualityResult, top: int = 10, language: Language | None = None) -> str:
    """The terminal report: what was estimated and at what cost, then the hardest and easiest orders, in
    ``language`` (default English; the tables' numbers as Python writes them, those in sentences as the
    language does)."""
    language = language or Language(SOURCE_LANGUAGE)
    _, number = language.gettext, language.decimal
    plan, n = result.plan, len(result.lines)
    rows = sorted(summaries(result), key=lambda s: (s.p_complete, s.mean_stacked, s.line))
    p_half = (np.array([s.p_high for s in rows]) - np.array([s.p_low for s in rows])) / 2
    s_half = (np.array([s.stacked_high for s in rows]) - np.array([s.stacked_low for s in rows])) / 2
    if plan.paired_orders:
        design = _("Every order played {fast} fast rounds; {orders} orders drawn at random each played {paired} "
                   "rounds of their own with both referees (the level, and the correction, carried to the other "
                   "orders by {models}); {anchors} fast anchor rounds.").format(
                       fast=plan.fast_rounds, orders=number(plan.paired_orders), paired=plan.paired_rounds,
                       models=_correction_words(plan, result, language), anchors=number(plan.fast_anchors))
    else:
        design = _("Every order played {fast} fast rounds and {paired} rounds with both referees; {physics} physics "
                   "and {anchors} fast anchor rounds fix the level.").format(
                       fast=plan.fast_rounds, paired=plan.paired_rounds, physics=number(plan.physics_anchors),
                       anchors=number(plan.fast_anchors))
    if plan.half_widths is not None:
        extra = result.fast_rounds - plan.fast_rounds
        aim = {"level": "95%", "barrels": number(float(plan.half_widths[0])), "p": number(float(plan.half_widths[1]))}
        design += " " + (_("Then, aiming at {level} half-widths of {barrels} barrels stacked and {p} on P(complete), "
                           "{orders} orders played {rounds} more fast rounds in {stages} top-up stage(s) (up to "
                           "{most} fast rounds for one order).").format(
                             orders=number(int((extra > 0).sum())), rounds=number(int(extra.sum())),
                             stages=result.topup_stages, most=int(result.fast_rounds.max()), **aim)
                         if extra.any() else
                         _("Then, aiming at {level} half-widths of {barrels} barrels stacked and {p} on P(complete), "
                           "no order needed more fast rounds (or could get there with them).").format(**aim))
    widths = [column_width(width, heading, _(heading)) for heading, width, _align in QUALITY_HEADINGS]
    pad = [width - default for width, (_heading, default, _align) in zip(widths, QUALITY_HEADINGS)]
    head = [
        _("Estimator: physics quality. {design}").format(design=design),
        _("Physics share of the CPU time: {share} ({cpu} CPU s, {wall} s wall). Physics minus fast, all orders: "
          "{completed} P(complete), {stacked} barrels.").format(
              share=f"{result.physics_share:.0%}", cpu=number(result.cpu_s, 0), wall=number(result.wall_s, 0),
              completed=number(result.completed.grand_diff, 3, sign=True),
              stacked=number(result.stacked.grand_diff, 2, sign=True)),
        _("{level} interval half-widths over the orders (median / largest): P(complete) {p_median} / {p_largest}, "
          "barrels stacked {stacked_median} / {stacked_largest}.").format(
              level="95%", p_median=number(float(np.median(p_half)), 3), p_largest=number(float(p_half.max()), 3),
              stacked_median=number(float(np.median(s_half)), 3), stacked_largest=number(float(s_half.max()), 3))
        + (" " + _("Orders wider than the target: {stacked} on barrels stacked, {completed} on P(complete).").format(
               stacked=number(int((s_half > plan.half_widths[0]).sum())),
               completed=number(int((p_half > plan.half_widths[1]).sum()))) if plan.half_widths is not None else ""),
        "",
    ]
    header = "  ".join(f"{_(heading):{align}{width}}" for (heading, _width, align), width in zip(QUALITY_HEADINGS,
                                                                                                   widths))

    def lines(items):
        for rank, s in items:
            yield (f"{rank:>{widths[0]}}  {s.line:<{widths[1]}}  {s.p_complete:6.3f} [{s.p_low:.3f}, {s.p_high:.3f}]"
                   f"{'':<{2 + pad[2]}}  {s.mean_stacked:6.2f} [{s.stacked_low:.2f}, {s.stacked_high:.2f}]"
                   f"{'':<{4 + pad[3]}}  {s.large_position:{widths[4]}.2f}")

    if n <= 2 * top:
        body = [_("All {count} orders, hardest first (lowest P(complete), ties: fewest barrels stacked):").format(
                    count=n), header, *lines(enumerate(rows, start=1))]
    else:
        body = [_("Hardest {top} of {count} orders (lowest P(complete), ties: fewest barrels stacked):").format(
                    top=top, count=n), header, *lines(enumerate(rows[:top], start=1)), "",
                _("Easiest {top} (easiest last):").format(top=top), header,
                *lines(enumerate(rows[-top:], start=n - top + 1))]

    return "\n".join(head + body + ["", *ranking_verdict(rows, top, language), "",
                                     _("L pos = mean position of the large barrels (1 = bottom).")])
