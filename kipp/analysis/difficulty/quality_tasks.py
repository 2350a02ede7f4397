"""The tasks of a physics-quality sweep, one small class per kind (the kinds are described in
:mod:`kipp.analysis.difficulty.quality_sweep`).

A task plays its rounds in a worker (:meth:`QualityTask.play`) and, back in the sweep's
process, says what it adds to the results file's integer totals (:meth:`QualityTask.totals`,
names ``metric:part``). The base class keeps the bookkeeping: the label that names the task in
the results file (a row per finished task: a resumed sweep skips the labels already there),
the task's CPU seconds and the physics referee's part of them, and the totals' integer type.
A kind implements two hooks: :meth:`~QualityTask._play` (its rounds, timing the physics
referee's calls with the :class:`PhysicsClock` it is handed) and :meth:`~QualityTask._totals`.

>>> plan = Plan(fast_rounds=4, paired_rounds=2, physics_anchors=100, fast_anchors=500)
>>> [task.label for task in tasks_of(plan)]
['fast 2', 'fast 3', 'fast 4', 'fast 5', 'paired 0', 'anchors 0', 'anchors 1', 'anchors 2', 'paired 1']
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import ClassVar, Iterator

import numpy as np

from kipp.analysis.difficulty.quality_estimate import Totals
from kipp.analysis.difficulty.quality_plan import METRICS, Plan, QualityRun, physics_anchors, sampled_orders
from kipp.analysis.rounds import play_round
from kipp.analysis.shared_rounds import OrderTree, order_tree, play_round_shared
from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from sim.params import Params
from sim.referees import shared_referee
from sim.seeds import stream
from sim.tower import Referee

ANCHOR_BLOCK = 250
"""Anchor rounds per anchor task."""
SAMPLE_BLOCK = 25
"""Sampled orders per sample task."""


@dataclass(frozen=True)
class TaskSetting:
    """What every task of a sweep plays with: the run (its two referees by name), the parameters
    and the orders (``codes``, ``length``: :func:`kipp.analysis.shared_rounds.order_codes` of them)."""

    run: QualityRun
    params: Params
    codes: bytes
    length: int

    def tree(self) -> OrderTree:
        return order_tree(self.codes, self.length)

    def bot(self) -> Bot:
        return self.run.model.bot(self.params)

    def config(self) -> GameConfig:
        return self.run.model.config()

    def fast_referee(self) -> Referee:
        return shared_referee(self.run.fast, self.params)

    def physics_referee(self) -> Referee:
        return shared_referee(self.run.physics, self.params)


@dataclass(frozen=True)
class Played:
    """Outcomes of rounds played with one referee: barrels stacked and completed (0 or 1), per
    order (or rounds x orders)."""

    stacked: np.ndarray | list
    completed: np.ndarray | list

    def of(self, metric: str) -> np.ndarray:
        """The outcomes of ``metric`` (one of :data:`~kipp.analysis.difficulty.quality_plan.METRICS`) as int64."""
        return np.asarray(getattr(self, metric), dtype=np.int64)


class PhysicsClock:
    """The CPU seconds a task spends in the physics referee."""

    def __init__(self) -> None:
        self.seconds = 0.0

    @contextlib.contextmanager
    def timing(self) -> Iterator[None]:
        start = time.process_time()
        try:
            yield
        finally:
            self.seconds += time.process_time() - start


@dataclass(frozen=True)
class TaskDone:
    """A finished task: its label, what it played (the kind's outcome), its CPU seconds and the
    physics referee's part of them."""

    label: str
    outcome: object
    cpu_s: float
    physics_cpu_s: float


class QualityTask:
    """One task of a sweep (see the module docstring); subclasses are small frozen dataclasses."""

    kind: ClassVar[str]
    """The first word of the task's label."""

    @property
    def label(self) -> str:
        """The task's name in the results file, ``"KIND INDEX ..."`` (unique within a sweep)."""
        return self.label_of(*self._identity())

    @classmethod
    def label_of(cls, *identity) -> str:
        """The label of the task of this kind with the identity ``identity`` (its index or indices)."""
        return " ".join([cls.kind, *map(str, identity)])

    def play(self, setting: TaskSetting) -> TaskDone:
        """Play the task's rounds (in a worker)."""
        start, clock = time.process_time(), PhysicsClock()
        outcome = self._play(setting, clock)
        return TaskDone(self.label, outcome, time.process_time() - start, clock.seconds)

    def totals(self, outcome) -> dict[str, np.ndarray]:
        """What the task's ``outcome`` adds to the results file's totals, by name."""
        return {name: np.asarray(value, dtype=np.int64) for name, value in self._totals(outcome).items()}

    def _identity(self) -> tuple:
        raise NotImplementedError

    def _play(self, setting: TaskSetting, clock: PhysicsClock):
        raise NotImplementedError

    def _totals(self, outcome) -> dict:
        raise NotImplementedError


def play_task(task: QualityTask, setting: TaskSetting) -> TaskDone:
    """A sweep's worker function: ``task.play(setting)``."""
    return task.play(setting)


def _shared(setting: TaskSetting, referee: Referee, k: int) -> Played:
    shared = play_round_shared(setting.tree(), referee, setting.bot(), setting.config(), setting.params.ship,
                               setting.run.seed, k)
    return Played(shared.stacked, shared.completed)


@dataclass(frozen=True)
class FastRound(QualityTask):
    """Fast round ``k``: every order plays it with the fast referee."""

    k: int
    kind: ClassVar[str] = "fast"

    def _identity(self) -> tuple:
        return (self.k,)

    def _play(self, setting: TaskSetting, clock: PhysicsClock) -> Played:
        return _shared(setting, setting.fast_referee(), self.k)

    def _totals(self, fast: Played) -> dict:
        add = {}
        for m in METRICS:
            y = fast.of(m)
            t = Totals.empty(y.size)
            t.add_fast(y)
            add |= {f"{m}:rel_sum": t.rel_sum, f"{m}:rel_sq": t.rel_sq, f"{m}:fast_rounds": [1]}
        return add


@dataclass(frozen=True)
class PairedOutcome:
    """One round (or block) played by both referees."""

    fast: Played
    physics: Played


@dataclass(frozen=True)
class PairedRound(QualityTask):
    """Paired round ``k``: every order plays it with the fast and the physics referee."""

    k: int
    kind: ClassVar[str] = "paired"

    def _identity(self) -> tuple:
        return (self.k,)

    def _play(self, setting: TaskSetting, clock: PhysicsClock) -> PairedOutcome:
        fast = _shared(setting, setting.fast_referee(), self.k)
        with clock.timing():
            physics = _shared(setting, setting.physics_referee(), self.k)
        return PairedOutcome(fast, physics)

    def _totals(self, played: PairedOutcome) -> dict:
        add = {}
        for m in METRICS:
            p, f = played.physics.of(m), played.fast.of(m)
            t = Totals.empty(p.size)
            t.add_paired(p, f)
            add |= {f"{m}:corr_sum": t.corr_sum, f"{m}:corr_sq": t.corr_sq, f"{m}:paired_rounds": [1],
                    f"{m}:paired_dev:{self.k}": t.paired_round_devs[0]}
        return add


@dataclass(frozen=True)
class SampleBlock(QualityTask):
    """Sample block ``block`` of the sampled correction: the sampled orders at positions
    ``block * SAMPLE_BLOCK ...`` of the sample of ``orders``, each playing ``rounds`` rounds of
    its own (position ``i``: rounds ``i * rounds + k`` of the family ``"paired"``) with both referees."""

    block: int
    orders: int
    rounds: int
    kind: ClassVar[str] = "sample"

    def _identity(self) -> tuple:
        return (self.block,)

    def positions(self) -> range:
        """The positions in the sample that this block plays."""
        return range(self.block * SAMPLE_BLOCK, min((self.block + 1) * SAMPLE_BLOCK, self.orders))

    def _play(self, setting: TaskSetting, clock: PhysicsClock) -> PairedOutcome:
        tree, bot, config, seed = setting.tree(), setting.bot(), setting.config(), setting.run.seed
        picked = sampled_orders(seed, len(tree), self.orders)
        fast_ref, physics_ref = setting.fast_referee(), setting.physics_referee()
        played = {"fast": [], "physics": []}
        for i in self.positions():
            order = tree.orders[int(picked[i])]
            ks = range(i * self.rounds, (i + 1) * self.rounds)
            played["fast"].append([play_round(order, fast_ref, bot, config, seed, k, "paired") for k in ks])
            with clock.timing():
                played["physics"].append([play_round(order, physics_ref, bot, config, seed, k, "paired")
                                          for k in ks])
        fast, physics = (Played([[r.stacked for r in column] for column in zip(*rounds)],  # rounds x positions
                                [[int(r.completed) for r in column] for column in zip(*rounds)])
                         for rounds in (played["fast"], played["physics"]))
        return PairedOutcome(fast, physics)

    def _totals(self, played: PairedOutcome) -> dict:
        add = {}
        for m in METRICS:
            p, f = played.physics.of(m), played.fast.of(m)
            t = Totals.empty(0).sampled(np.arange(self.orders), p.shape[0])
            t.add_sample(np.arange(self.positions().start, self.positions().start + p.shape[1]), p, f)
            add |= {f"{m}:sample_sum": t.sample_sum, f"{m}:sample_sq": t.sample_sq}
        return add


@dataclass(frozen=True)
class AnchorOutcome:
    """An anchor block's rounds: the fast referee's outcomes of the fast-only rounds, and the
    physics-minus-fast differences of the rounds both referees played."""

    fast: Played
    difference: Played


@dataclass(frozen=True)
class AnchorBlock(QualityTask):
    """Anchor block ``block``: anchor rounds ``j`` (``block * ANCHOR_BLOCK ...``, fewer than
    ``rounds``), each a uniformly drawn order in a round of its own (streams ``("anchor", j, ...)``)
    with the fast referee, the first ``with_physics`` of them with physics too."""

    block: int
    rounds: int
    with_physics: int
    kind: ClassVar[str] = "anchors"

    def _identity(self) -> tuple:
        return (self.block,)

    def _play(self, setting: TaskSetting, clock: PhysicsClock) -> AnchorOutcome:
        tree, bot, config, seed = setting.tree(), setting.bot(), setting.config(), setting.run.seed
        fast_ref = setting.fast_referee()
        fast_y = {m: [] for m in METRICS}
        diff = {m: [] for m in METRICS}
        first = self.block * ANCHOR_BLOCK
        for j in range(first, min(first + ANCHOR_BLOCK, self.rounds)):
            order = tree.orders[int(stream(seed, "anchor", j, "order sample").integers(len(tree)))]
            f = play_round(order, fast_ref, bot, config, seed, j, "anchor")
            if j < self.with_physics:
                with clock.timing():
                    p = play_round(order, setting.physics_referee(), bot, config, seed, j, "anchor")
                diff["stacked"].append(p.stacked - f.stacked)
                diff["completed"].append(int(p.completed) - int(f.completed))
            else:
                fast_y["stacked"].append(f.stacked)
                fast_y["completed"].append(int(f.completed))
        return AnchorOutcome(Played(**fast_y), Played(**diff))

    def _totals(self, played: AnchorOutcome) -> dict:
        add = {}
        for m in METRICS:
            t = Totals.empty(0)
            t.add_fast_anchors(played.fast.of(m))
            t.add_physics_anchors(played.difference.of(m))
            add[f"{m}:anchors"] = [t.fast_anchors, t.fast_anchor_sum, t.fast_anchor_sq,
                                   t.physics_anchors, t.diff_anchor_sum, t.diff_anchor_sq]
        return add


@dataclass(frozen=True, eq=False)
class TopupRound(QualityTask):
    """Top-up round ``j`` of stage ``stage``: round ``fast_rounds_before + j`` (the next of their
    fast rounds) of the orders ``subset`` that need it, with the ``panel`` drawn to play along
    (both indices of the sweep's ``n`` orders, sorted). It is played on the orders
    :meth:`union` only: the setting's orders are theirs."""

    stage: int
    j: int
    round_index: int
    subset: np.ndarray
    panel: np.ndarray
    n: int
    kind: ClassVar[str] = "topup"

    def _identity(self) -> tuple:
        return (self.stage, self.j)

    def union(self) -> np.ndarray:
        """The orders played, sorted: the subset and the panel."""
        return np.union1d(self.subset, self.panel)

    def _play(self, setting: TaskSetting, clock: PhysicsClock) -> Played:
        return _shared(setting, setting.fast_referee(), self.round_index)

    def _totals(self, fast: Played) -> dict:
        union = self.union()
        at_subset, at_panel = np.searchsorted(union, self.subset), np.searchsorted(union, self.panel)
        add = {}
        for m in METRICS:
            y = fast.of(m)
            t = Totals.empty(self.n)
            t.add_topup(self.subset, y[at_subset], y[at_panel])
            add |= {f"{m}:topup{self.stage}:sum": t.topup_sum, f"{m}:topup{self.stage}:sq": t.topup_sq,
                    f"topup{self.stage}:rounds": t.topup_rounds}
        return add


def tasks_of(plan: Plan) -> list[QualityTask]:
    """Every planned task: paired rounds (or sample blocks) spread evenly among the fast rounds
    and anchor blocks (so the progress bar's rate, and its ETA, stay steady)."""
    cheap: list[QualityTask] = [FastRound(k) for k in range(plan.paired_rounds, plan.paired_rounds + plan.fast_rounds)]
    anchors = physics_anchors(plan) + plan.fast_anchors
    cheap += [AnchorBlock(b, anchors, physics_anchors(plan)) for b in range(-(-anchors // ANCHOR_BLOCK))]
    if plan.paired_orders:
        dear: list[QualityTask] = [SampleBlock(b, plan.paired_orders, plan.paired_rounds)
                                   for b in range(-(-plan.paired_orders // SAMPLE_BLOCK))]
    else:
        dear = [PairedRound(k) for k in range(plan.paired_rounds)]
    out: list[QualityTask] = []
    step = len(cheap) / len(dear)
    for i, task in enumerate(dear):
        out += cheap[round(i * step):round((i + 1) * step)]
        out.append(task)
    return out
