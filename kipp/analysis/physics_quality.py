"""``kipp tune``'s default sweep: every order's difficulty at physics quality, for little physics.

The estimator is :mod:`kipp.analysis.multifidelity`'s; this module plays its rounds and keeps
its sums. Four kinds of task, each one round (or one block of rounds):

- a *fast round* ``k``: every order plays round ``k`` with the fast referee;
- a *paired round* ``k``: every order plays round ``k`` with the fast and the physics referee;
- an *anchor block*: anchor rounds ``j``, each a uniformly drawn order in a round of its own
  (streams ``("anchor", j, ...)``), with the fast referee, and the first ones with physics too;
- with :attr:`Plan.paired_orders` (the sampled correction), a *sample block* instead of the
  paired rounds: sampled orders, the one at position ``i`` of the sample playing rounds
  ``i * paired_rounds + k`` of its own (streams ``("paired", ...)``) with both referees.

Rounds of all orders are played once per shared prefix (:mod:`kipp.analysis.shared_rounds`).
Each finished task adds its integer sums to the results file's totals in one transaction
with its row, so the file stays the same size, a SIGKILL loses at most the tasks in flight,
and 1 worker, N workers and a Dask cluster store identical totals. The task rows keep each
task's CPU time and the physics referee's share of it; the ``meta`` table records the wall
time of every session that worked on the file.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from kipp.analysis.difficulty import RefereeSpec, RoundModel, cached_referee, play_round
from kipp.analysis.multifidelity import Estimate, Totals, estimate
from kipp.analysis.order_features import features
from kipp.analysis.orders import order_index, order_text
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.shared_rounds import order_codes, order_tree, play_round_shared
from kipp.analysis.sweep import run_with_progress

if TYPE_CHECKING:
    from kipp.analysis.tune import Difficulty
from sim.params import Params
from sim.seeds import stream

KIND = "kipp tune, physics quality"
COLUMNS = [("task", "TEXT"), ("cpu_s", "REAL"), ("physics_cpu_s", "REAL"), ("session", "INTEGER"),
           ("elapsed_s", "REAL")]
"""One row per finished task: what it was, its CPU seconds and the physics referee's part
of them, and the session (a run of the command on this file) with the wall seconds since
that session began when the task was stored."""
METRICS = ("stacked", "completed")
ANCHOR_BLOCK = 250
"""Anchor rounds per anchor task."""
SAMPLE_BLOCK = 25
"""Sampled orders per sample task."""
PAIRED_KEY, ANCHOR_KEY = 1_000_000, 2_000_000
"""Task keys: fast round k is k, paired round k (or sample block k) is PAIRED_KEY + k, anchor
block b ANCHOR_KEY + b."""


@dataclass(frozen=True)
class Plan:
    """How many rounds of each kind (see the module docstring)."""

    fast_rounds: int = 300
    """Fast rounds every order plays."""
    paired_rounds: int = 12
    """Rounds every order plays with both referees (the physics correction)."""
    physics_anchors: int = 2000
    """Anchor rounds played by both referees (the mean physics-minus-fast difference)."""
    fast_anchors: int = 20000
    """Anchor rounds played by the fast referee only (the mean under the fast referee)."""
    paired_orders: int = 0
    """0: every order plays the paired rounds (rounds shared by all orders). N: the sampled
    correction instead: N orders drawn at random each play ``paired_rounds`` rounds of their
    own with both referees, and ``physics_anchors`` is not used (the sample fixes the level).
    For sweeps whose physics rounds of all orders cost too much (long towers share few
    prefixes cut short by a crash)."""

    def __post_init__(self) -> None:
        anchors = self.fast_anchors if self.paired_orders else min(self.physics_anchors, self.fast_anchors)
        if self.fast_rounds < 2 or self.paired_rounds < 2 or anchors < 2 or self.paired_orders == 1:
            raise ValueError(f"every kind of round needs at least 2 rounds (and a sample 2 orders): {self}")


@dataclass(frozen=True)
class QualityRun:
    """Everything that determines the sweep's totals (stored in, and checked against, the file)."""

    model: RoundModel
    seed: int
    plan: Plan
    params_id: str
    orders_spec: str
    fast: str = "fast"
    physics: str = "physics"

    def options(self, orders: list[tuple[str, ...]]) -> dict:
        digest = hashlib.sha256(",".join(str(order_index(o)) for o in orders).encode()).hexdigest()[:16]
        plan = {k: v for k, v in asdict(self.plan).items() if k != "paired_orders" or v}
        return {**asdict(self.model), **plan, "seed": self.seed, "params": self.params_id,
                "orders": self.orders_spec, "orders_digest": digest, "fast": self.fast, "physics": self.physics}


def physics_anchors(plan: Plan) -> int:
    """Anchor rounds played by both referees (none with the sampled correction)."""
    return 0 if plan.paired_orders else plan.physics_anchors


def sampled_orders(seed: int, n: int, m: int) -> np.ndarray:
    """The indices of the sampled correction's ``m`` of ``n`` orders (sorted; stream ``("paired", "order sample")``)."""
    return np.sort(stream(seed, "paired", "order sample").choice(n, m, replace=False))


def tasks_of(plan: Plan) -> list[tuple[int, str, int]]:
    """Every task as (key, kind, index): paired rounds (or sample blocks) spread evenly among
    the fast rounds and anchor blocks (so the progress bar's rate, and its ETA, stay steady)."""
    cheap = [(k, "fast", k) for k in range(plan.paired_rounds, plan.paired_rounds + plan.fast_rounds)]
    blocks = -(-(physics_anchors(plan) + plan.fast_anchors) // ANCHOR_BLOCK)
    cheap += [(ANCHOR_KEY + b, "anchors", b) for b in range(blocks)]
    if plan.paired_orders:
        dear = [(PAIRED_KEY + b, "sample", b) for b in range(-(-plan.paired_orders // SAMPLE_BLOCK))]
    else:
        dear = [(PAIRED_KEY + k, "paired", k) for k in range(plan.paired_rounds)]
    out: list[tuple[int, str, int]] = []
    step = len(cheap) / len(dear)
    for i, task in enumerate(dear):
        out += cheap[round(i * step):round((i + 1) * step)]
        out.append(task)
    return out


def quality_task(run: QualityRun, fast: RefereeSpec, physics: RefereeSpec, params: Params, codes: bytes,
                 length: int, kind: str, index: int) -> dict:
    """One task (see the module docstring): the outcomes it played, and its CPU seconds."""
    start = time.process_time()
    tree = order_tree(codes, length)
    bot, config = run.model.bot(params), run.model.config()
    fast_ref = cached_referee(fast, params)
    physics_s = 0.0
    out: dict = {"kind": kind, "index": index}
    if kind in ("fast", "paired"):
        shared = play_round_shared(tree, fast_ref, bot, config, params.ship, run.seed, index)
        out["fast"] = {"stacked": shared.stacked, "completed": shared.completed}
        if kind == "paired":
            t0 = time.process_time()
            shared = play_round_shared(tree, cached_referee(physics, params), bot, config, params.ship,
                                       run.seed, index)
            physics_s = time.process_time() - t0
            out["physics"] = {"stacked": shared.stacked, "completed": shared.completed}
    elif kind == "sample":
        plan = run.plan
        picked = sampled_orders(run.seed, len(tree), plan.paired_orders)
        positions = range(index * SAMPLE_BLOCK, min((index + 1) * SAMPLE_BLOCK, plan.paired_orders))
        physics_ref = cached_referee(physics, params)
        played = {"fast": [], "physics": []}
        for i in positions:
            order = tree.orders[int(picked[i])]
            ks = range(i * plan.paired_rounds, (i + 1) * plan.paired_rounds)
            played["fast"].append([play_round(order, fast_ref, bot, config, run.seed, k, "paired") for k in ks])
            t0 = time.process_time()
            played["physics"].append([play_round(order, physics_ref, bot, config, run.seed, k, "paired")
                                      for k in ks])
            physics_s += time.process_time() - t0
        out["first"], out["size"] = positions.start, plan.paired_orders
        for referee, rounds in played.items():  # (rounds x positions)
            out[referee] = {"stacked": [[r.stacked for r in column] for column in zip(*rounds)],
                            "completed": [[int(r.completed) for r in column] for column in zip(*rounds)]}
    else:
        plan = run.plan
        first = index * ANCHOR_BLOCK
        js = range(first, min(first + ANCHOR_BLOCK, physics_anchors(plan) + plan.fast_anchors))
        fast_y = {m: [] for m in METRICS}
        diff = {m: [] for m in METRICS}
        for j in js:
            order = tree.orders[int(stream(run.seed, "anchor", j, "order sample").integers(len(tree)))]
            f = play_round(order, fast_ref, bot, config, run.seed, j, "anchor")
            if j < physics_anchors(plan):
                t0 = time.process_time()
                p = play_round(order, cached_referee(physics, params), bot, config, run.seed, j, "anchor")
                physics_s += time.process_time() - t0
                diff["stacked"].append(p.stacked - f.stacked)
                diff["completed"].append(int(p.completed) - int(f.completed))
            else:
                fast_y["stacked"].append(f.stacked)
                fast_y["completed"].append(int(f.completed))
        out["fast_anchors"], out["diff_anchors"] = fast_y, diff
    out["cpu_s"] = time.process_time() - start
    out["physics_cpu_s"] = physics_s
    return out


def _totals_of(result: dict) -> dict[str, np.ndarray]:
    """The integer totals a task adds (names ``metric:part``), from its outcomes."""
    add: dict[str, np.ndarray] = {}
    for m in METRICS:
        t = Totals.empty(0)
        if result["kind"] == "fast":
            y = np.asarray(result["fast"][m], dtype=np.int64)
            t = Totals.empty(y.size)
            t.add_fast(y)
            add |= {f"{m}:rel_sum": t.rel_sum, f"{m}:rel_sq": t.rel_sq, f"{m}:fast_rounds": [1]}
        elif result["kind"] == "paired":
            p, f = (np.asarray(result[r][m], dtype=np.int64) for r in ("physics", "fast"))
            t = Totals.empty(p.size)
            t.add_paired(p, f)
            add |= {f"{m}:corr_sum": t.corr_sum, f"{m}:corr_sq": t.corr_sq, f"{m}:paired_rounds": [1],
                    f"{m}:paired_dev:{result['index']}": t.paired_round_devs[0]}
        elif result["kind"] == "sample":
            p, f = (np.asarray(result[r][m], dtype=np.int64) for r in ("physics", "fast"))
            t = Totals.empty(0).sampled(np.arange(result["size"]), p.shape[0])
            t.add_sample(np.arange(result["first"], result["first"] + p.shape[1]), p, f)
            add |= {f"{m}:sample_sum": t.sample_sum, f"{m}:sample_sq": t.sample_sq}
        else:
            t.add_fast_anchors(result["fast_anchors"][m])
            t.add_physics_anchors(result["diff_anchors"][m])
            add[f"{m}:anchors"] = [t.fast_anchors, t.fast_anchor_sum, t.fast_anchor_sq,
                                   t.physics_anchors, t.diff_anchor_sum, t.diff_anchor_sq]
    return {name: np.asarray(value, dtype=np.int64) for name, value in add.items()}


def run_quality_sweep(run: QualityRun, orders: list[tuple[str, ...]], params: Params, out: str | Path, *,
                      fast: RefereeSpec | None = None, physics: RefereeSpec | None = None, workers: int = 1,
                      scheduler: str | None = None, progress: bool = False) -> int:
    """Run the tasks not yet in ``out``; return how many this call ran.

    ``fast`` and ``physics`` default to ``run.fast`` and ``run.physics`` (tests hand in factories).
    Raises :class:`~kipp.analysis.results_store.ResultsFileError` for a file of other options.
    """
    fast = fast if fast is not None else run.fast
    physics = physics if physics is not None else run.physics
    began = time.monotonic()
    codes, length = order_codes(orders), len(orders[0])
    with ResultsStore.open(out, KIND, run.options(orders), COLUMNS) as store:
        done = store.done_keys()
        session = int(store.meta().get("sessions", "0")) + 1
        store.write_meta("sessions", str(session))
        todo = [task for task in tasks_of(run.plan) if task[0] not in done]
        keys = {(kind, index): key for key, kind, index in todo}
        jobs = ((run, fast, physics, params, codes, length, kind, index) for _key, kind, index in todo)

        def record(result: dict) -> int:
            key = keys[(result["kind"], result["index"])]
            row = (key, f"{result['kind']} {result['index']}", result["cpu_s"], result["physics_cpu_s"], session,
                   time.monotonic() - began)
            store.add([row], totals=_totals_of(result))
            return 1

        if todo:
            run_with_progress(quality_task, jobs, record, workers=workers, scheduler=scheduler, progress=progress,
                              total=len(tasks_of(run.plan)), initial=len(done), unit="task",
                              desc="rounds of all orders")
        rows = list(store.rows())
        store.write_meta("summary", json.dumps({
            "estimator": "physics quality (kipp.analysis.multifidelity)", "orders": len(orders),
            **asdict(run.plan), "tasks": len(rows), "wall_s": _wall_s(rows), "cpu_s": sum(r[2] for r in rows),
            "physics_share": sum(r[3] for r in rows) / max(1e-9, sum(r[2] for r in rows))}))
        return len(todo)


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

    def p_interval(self) -> tuple[np.ndarray, np.ndarray]:
        return self.completed.interval(0.0, 1.0)

    def stacked_interval(self) -> tuple[np.ndarray, np.ndarray]:
        return self.stacked.interval(0.0, len(self.lines[0]))


def read_quality(out: str | Path, orders: list[tuple[str, ...]]) -> QualityResult:
    """The estimates of a finished sweep of ``orders`` (in that order) from its results file."""
    with ResultsStore.read(out, KIND) as store:
        options = json.loads(store.meta()["options"])
        plan = Plan(**{k: options.get(k, default) for k, default in asdict(Plan()).items()})
        totals = store.totals()
        rows = list(store.rows())
    n = len(orders)
    x = features(orders)
    estimates = {}
    for m in METRICS:
        t = Totals.empty(n)
        t.fast_rounds = int(totals[f"{m}:fast_rounds"][0])
        t.rel_sum, t.rel_sq = totals[f"{m}:rel_sum"], totals[f"{m}:rel_sq"]
        if plan.paired_orders:
            t.sampled(sampled_orders(options["seed"], n, plan.paired_orders), plan.paired_rounds)
            t.sample_sum, t.sample_sq = totals[f"{m}:sample_sum"], totals[f"{m}:sample_sq"]
        else:
            t.paired_rounds = int(totals[f"{m}:paired_rounds"][0])
            t.corr_sum, t.corr_sq = totals[f"{m}:corr_sum"], totals[f"{m}:corr_sq"]
            t.paired_round_devs = [totals[f"{m}:paired_dev:{k}"] for k in range(plan.paired_rounds)]
        (t.fast_anchors, t.fast_anchor_sum, t.fast_anchor_sq, t.physics_anchors, t.diff_anchor_sum,
         t.diff_anchor_sq) = (int(v) for v in totals[f"{m}:anchors"])
        estimates[m] = estimate(t, x)
    if len(rows) != len(tasks_of(plan)):
        raise ValueError(f"{out}: {len(rows)} of {len(tasks_of(plan))} tasks done; rerun to finish")
    wall = _wall_s(rows)
    cpu = sum(r[2] for r in rows)
    physics = sum(r[3] for r in rows)
    return QualityResult([order_text(o) for o in orders], estimates["stacked"], estimates["completed"], plan,
                         wall, cpu, physics / cpu if cpu else float("nan"))


def summaries(result: QualityResult) -> list[Difficulty]:
    """Every order's :class:`~kipp.analysis.tune.Difficulty` from the estimate, its values clipped to
    what a round can give (the unbiased estimate of an order near a bound can fall outside it)."""
    from kipp.analysis.orders import mean_position, parse_order
    from kipp.analysis.tune import Difficulty

    p_low, p_high = result.p_interval()
    s_low, s_high = result.stacked_interval()
    return [Difficulty(line, float(p), float(pl), float(ph), float(s), float(sl), float(sh),
                           mean_position(parse_order(line)))
            for line, p, pl, ph, s, sl, sh in zip(result.lines, np.clip(result.completed.mean, 0, 1), p_low, p_high,
                                                  np.clip(result.stacked.mean, 0, len(result.lines[0])), s_low, s_high)]


def format_quality(result: QualityResult, top: int = 10) -> str:
    """The terminal report: what was estimated and at what cost, then the hardest and easiest orders."""
    plan, n = result.plan, len(result.lines)
    rows = sorted(summaries(result), key=lambda s: (s.p_complete, s.mean_stacked, s.line))
    p_half = (np.array([s.p_high for s in rows]) - np.array([s.p_low for s in rows])) / 2
    s_half = (np.array([s.stacked_high for s in rows]) - np.array([s.stacked_low for s in rows])) / 2
    if plan.paired_orders:
        design = (f"Every order played {plan.fast_rounds} fast rounds; {plan.paired_orders:,} orders drawn at random "
                  f"each played {plan.paired_rounds} rounds of their own with both referees (the correction, pooled "
                  f"by the orders' features, and the level); {plan.fast_anchors:,} fast anchor rounds.")
    else:
        design = (f"Every order played {plan.fast_rounds} fast rounds and {plan.paired_rounds} rounds with both "
                  f"referees; {plan.physics_anchors:,} physics and {plan.fast_anchors:,} fast anchor rounds fix "
                  f"the level.")
    head = [
        f"Estimator: physics quality. {design}",
        f"Physics share of the CPU time: {result.physics_share:.0%} ({result.cpu_s:,.0f} CPU s, "
        f"{result.wall_s:,.0f} s wall). Physics minus fast, all orders: {result.completed.grand_diff:+.3f} "
        f"P(complete), {result.stacked.grand_diff:+.2f} barrels.",
        f"95% interval half-widths over the orders (median / largest): P(complete) {np.median(p_half):.3f} / "
        f"{p_half.max():.3f}, barrels stacked {np.median(s_half):.3f} / {s_half.max():.3f}.",
        "",
    ]
    header = f"{'rank':>5}  {'order':<12}  {'P(complete) [95%]':<24}  {'barrels stacked [95%]':<24}  {'L pos':>5}"

    def lines(items):
        for rank, s in items:
            yield (f"{rank:>5}  {s.line:<12}  {s.p_complete:6.3f} [{s.p_low:.3f}, {s.p_high:.3f}]{'':<2}  "
                   f"{s.mean_stacked:6.2f} [{s.stacked_low:.2f}, {s.stacked_high:.2f}]{'':<4}  {s.large_position:5.2f}")

    if n <= 2 * top:
        body = [f"All {n} orders, hardest first (lowest P(complete), ties: fewest barrels stacked):", header,
                *lines(enumerate(rows, start=1))]
    else:
        body = [f"Hardest {top} of {n} orders (lowest P(complete), ties: fewest barrels stacked):", header,
                *lines(enumerate(rows[:top], start=1)), "", f"Easiest {top} (easiest last):", header,
                *lines(enumerate(rows[-top:], start=n - top + 1))]
    return "\n".join(head + body + ["", "L pos = mean position of the large barrels (1 = bottom)."])
