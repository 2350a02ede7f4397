"""The plan of a physics-quality sweep: how many rounds of each kind, and what fixes its totals.

:class:`Plan` counts the rounds (:mod:`kipp.analysis.difficulty.quality_sweep` describes each kind) and
:meth:`Plan.for_orders` gives ``kipp tune``'s defaults for a sweep of N orders, with the
measurements behind them; :class:`QualityRun` is everything that determines a sweep's totals
(the options stored in, and checked against, its results file).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass

import numpy as np

from kipp.analysis.difficulty.features import CORRECTION_FEATURES
from kipp.analysis.orders import order_index
from kipp.analysis.rounds import RoundModel
from sim.seeds import stream

METRICS = ("stacked", "completed")
"""The outcomes of a round the sweep estimates: barrels stacked, and completed (0 or 1)."""
TOPUP_MOST = 8
"""An order plays at most this many times the planned fast rounds."""
SAMPLED_FROM = 1000
"""Sweeps of more orders than this sample some of them for the correction by default
(:meth:`Plan.for_orders`). Shared by all orders, a paired round in which the referees part early
moves every order with that prefix at once, so a few shared rounds under-sample the model's
round-to-round variance; a sample of orders, each with paired rounds of its own, does not. Up to
this many orders every order plays the paired rounds (the nine-barrel sweeps' records,
``notebooks/results/sweeps.json``, show what the sampled plan costs there)."""
SAMPLED_ORDERS, SAMPLED_ROUNDS = 200, 80
"""The default sample of such sweeps: orders, and rounds each. The correction's order effect is
small, so its bound shrinks with fewer orders played longer at the same physics: few orders
with many rounds each beat many orders with few (each sweep's record,
``notebooks/results/sweeps.json``, ``correction``, holds the order effect it found)."""
TOPPED_FAST_ROUNDS = 200
"""Planned fast rounds per order by default when the top-up follows (it gives more to the orders
that need them), instead of :attr:`Plan.fast_rounds`' 300."""
FAST_ANCHORS_PER_PHYSICS = 10
"""Fast anchor rounds per physics anchor round, by default."""


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
    correction_features: str = "layout"
    """The orders' features the correction's model may use
    (:data:`kipp.analysis.difficulty.features.CORRECTION_FEATURES`): ``layout`` (which size sits at each
    position, and the neighbour counts: 25 slopes with twelve barrels, used by the pooled correction
    from 20 orders per column on and tried by the sampled one from 20 sampled orders per column on),
    or ``summary`` (where the large and medium barrels sit on average, and the bottom barrel's size:
    tried by the sampled correction from 100 sampled orders on, :meth:`for_orders`' choice for it).
    A results file names it only when it is not ``layout``, so the files made before it existed read
    and resume as they were."""
    half_widths: tuple[float, float] | None = None
    """None: the planned rounds only. (barrels, P): then top-up rounds until every order's 95%
    half-width is at most ``barrels`` barrels stacked and ``P`` on P(complete), as far as fast
    rounds can get it there (not past the correction's own part, nor :data:`TOPUP_MOST` times the
    planned fast rounds)."""

    @classmethod
    def for_orders(cls, n_orders: int, *, fast_rounds: int | None = None, paired_rounds: int | None = None,
                   paired_orders: int | None = None, physics_anchors: int = 2000,
                   half_widths: tuple[float, float] | None = None,
                   correction_features: str | None = None) -> "Plan":
        """The plan ``kipp tune`` runs for a sweep of ``n_orders`` orders, each count None taking its
        default: the sampled correction (:data:`SAMPLED_ORDERS` orders x :data:`SAMPLED_ROUNDS`
        rounds) above :data:`SAMPLED_FROM` orders, else paired rounds of every order (``paired_orders``
        0, 12 rounds); :data:`TOPPED_FAST_ROUNDS` fast rounds with ``half_widths``, else 300; and
        :data:`FAST_ANCHORS_PER_PHYSICS` fast anchors per physics anchor; the ``summary`` features for the
        sampled correction (the layout's 25 slopes need 520 sampled orders), else the ``layout``.

        >>> Plan.for_orders(34650).paired_orders, Plan.for_orders(34650).paired_rounds
        (200, 80)
        >>> Plan.for_orders(500) == Plan()
        True
        """
        if paired_orders is None:
            paired_orders = SAMPLED_ORDERS if n_orders > SAMPLED_FROM else 0
        if paired_rounds is None:
            paired_rounds = SAMPLED_ROUNDS if paired_orders else cls.paired_rounds
        if fast_rounds is None:
            fast_rounds = TOPPED_FAST_ROUNDS if half_widths else cls.fast_rounds
        if correction_features is None:
            correction_features = "summary" if paired_orders else cls.correction_features
        return cls(fast_rounds=fast_rounds, paired_rounds=paired_rounds, physics_anchors=physics_anchors,
                   fast_anchors=FAST_ANCHORS_PER_PHYSICS * physics_anchors, paired_orders=paired_orders,
                   half_widths=half_widths, correction_features=correction_features)

    def __post_init__(self) -> None:
        anchors = self.fast_anchors if self.paired_orders else min(self.physics_anchors, self.fast_anchors)
        if self.fast_rounds < 2 or self.paired_rounds < 2 or anchors < 2 or self.paired_orders == 1:
            raise ValueError(f"every kind of round needs at least 2 rounds (and a sample 2 orders): {self}")
        if self.correction_features not in CORRECTION_FEATURES:
            raise ValueError(f"correction_features: one of {', '.join(CORRECTION_FEATURES)}, "
                             f"got {self.correction_features!r}")
        if self.half_widths is not None:
            object.__setattr__(self, "half_widths", tuple(float(h) for h in self.half_widths))
            if len(self.half_widths) != 2 or min(self.half_widths) <= 0:
                raise ValueError(f"half_widths: two positive numbers (barrels, P), got {self.half_widths}")


UNNAMED_AT = {"paired_orders": 0, "correction_features": "layout"}
"""Plan fields a results file's options leave out at these values, as the files made before the
field existed did (so those files resume)."""


def plan_of(options: dict, half_widths: tuple[float, float] | None) -> Plan:
    """The :class:`Plan` a results file's ``options`` (:meth:`QualityRun.options`) were made with."""
    return Plan(**{k: options.get(k, default) for k, default in asdict(Plan()).items()
                   if k != "half_widths"}, half_widths=half_widths)


def correction_design(plan: Plan, orders: list[tuple[str, ...]]) -> np.ndarray:
    """The features (intercept first) the plan's correction may use, for ``orders``."""
    return CORRECTION_FEATURES[plan.correction_features](orders)


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
        plan = {k: v for k, v in asdict(self.plan).items()
                if k != "half_widths" and (k not in UNNAMED_AT or v != UNNAMED_AT[k])}
        return {**asdict(self.model), **plan, "seed": self.seed, "params": self.params_id,
                "orders": self.orders_spec, "orders_digest": digest, "fast": self.fast, "physics": self.physics}


def physics_anchors(plan: Plan) -> int:
    """Anchor rounds played by both referees (none with the sampled correction)."""
    return 0 if plan.paired_orders else plan.physics_anchors


def sampled_orders(seed: int, n: int, m: int) -> np.ndarray:
    """The indices of the sampled correction's ``m`` of ``n`` orders (sorted; stream ``("paired", "order sample")``)."""
    return np.sort(stream(seed, "paired", "order sample").choice(n, m, replace=False))
