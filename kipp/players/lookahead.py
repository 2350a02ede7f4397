"""The ``lookahead`` player: not a person, a bound on what skill can do.

Every other player judges balance by eye (:mod:`kipp.players.balance`, the static check) and
never asks the referee. This one does, through one explicit seam: the referee is **handed to
the bot** (:attr:`LookaheadBot.referee`, any :class:`sim.tower.Referee`; this module imports no
referee, and ``tests/test_layering.py`` lets only this module of ``kipp.players`` call
``decide``). Before letting go of a barrel it asks the referee about a handful of candidate
aims, all of them legal and on the barrel below (the balance aim, the top barrel's centre, and
a compass of 16 points at half and the whole of :func:`kipp.players.balance.BalanceJudge.reach_m`,
the barrel below's safe range; within the rules' placement limit), each placed and then turned
by the rolled sailor (on a wild roll, each sailor in turn). Among the aims that stand it takes
the one with the widest margin: the farthest from any candidate that crashes (of the same
sailor; ties: the earlier candidate, the balance aim first). Then its hand still errs: the
execution error (``sigma_mm``, Gaussian per axis) is added to that aim, as for every bot. On a
wild roll, once the barrel is placed, it asks again which sailors' turns the tower as it now
stands survives, and turns the one of those the balance judge likes best.

When no candidate stands (for any allowed sailor), no skill saves the turn: the bot records it
as a turn *without a surviving aim* and sets the barrel at the balance aim. Every question and
its answer go to :attr:`LookaheadBot.journal` when one is handed in (a list), for the analyses
(:mod:`kipp.analysis.skill_ceiling`).

The referee's verdict depends only on its arguments (the tower, the placement, the turn), so
asking does not change the game: a round with the lookahead bot is as replayable from its seed
as any other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from kipp.players.bots import Bot
from kipp.rules.actions import PLACE_LIMIT_MM, ChooseSailor, Place, PlaceAnywhere
from sim.params import SCREWS
from sim.tower import Placement, Referee, TowerState, Turn


@dataclass(frozen=True)
class Foresight:
    """One decision of the lookahead bot: what it asked and what stood."""

    kind: str
    """``place`` (an aim, with the coming turn) or ``sailor`` (which sailor to turn after a wild placement)."""
    asked: int
    """Questions put to the referee."""
    standing: int
    """How many of them stood (0: no aim or sailor survives: luck)."""


@dataclass(frozen=True)
class Plan:
    """The chosen aim (deck frame, metres) and sailor, and the aim's margin (metres to the
    nearest crashing candidate; inf when none crashes, nan when none stands)."""

    x_m: float
    y_m: float
    sailor: str | None
    margin_m: float


@dataclass(frozen=True)
class LookaheadBot(Bot):
    """A :class:`~kipp.players.bots.Bot` that asks ``referee`` before it places (module docstring)."""

    referee: Referee | None = field(default=None, repr=False, compare=False)
    journal: list | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.referee is None:
            raise ValueError("the lookahead player asks the referee: hand it one (referee=...)")
        if self.aim != "balance":
            raise ValueError("the lookahead player starts from the balance aim (aim='balance')")

    def _note(self, kind: str, asked: int, standing: int) -> None:
        if self.journal is not None:
            self.journal.append(Foresight(kind, asked, standing))

    def candidates(self, tower: TowerState, size: str, sailors: list[str], fraction: float) -> np.ndarray:
        """The candidate aims (K, 2), deck frame, metres: the balance aim, then the top barrel's
        centre and the compass; all within the barrel below's reach and the rules' limit."""
        if not tower.barrels:  # the recess centres the first barrel
            return np.zeros((1, 2))
        aim = self.judge.aim(tower, size, sailors, fraction)
        compass, _ = self.judge.candidate_aims(tower, size, ())
        aims = np.vstack([[aim.x_m, aim.y_m], compass])
        inside = np.all(np.abs(aims) * 1000 <= PLACE_LIMIT_MM, axis=1)
        return aims[inside]

    def plan(self, tower: TowerState, size: str, sailors: list[str], fraction: float) -> Plan:
        """Ask the referee about every candidate aim with each sailor's turn; the standing aim
        with the widest margin (see the module docstring)."""
        aims = self.candidates(tower, size, sailors, fraction)
        best: tuple[float, int, int] | None = None  # (margin, -sailor index, -aim index): larger is better
        standing_total = 0
        for s, sailor in enumerate(sailors):
            crashed = np.array([self.referee.decide(tower, Placement(size, float(x), float(y)),
                                                    Turn(sailor, fraction)).crashed for x, y in aims])
            standing_total += int((~crashed).sum())
            for k in np.flatnonzero(~crashed):
                gaps = np.hypot(*(aims[crashed] - aims[k]).T) if crashed.any() else np.array([math.inf])
                key = (float(gaps.min()), -s, -int(k))
                if best is None or key > best:
                    best = key
        self._note("place", len(aims) * len(sailors), standing_total)
        if best is None:  # nothing stands: luck; the balance aim, and hope
            aim = self.judge.aim(tower, size, sailors, fraction)  # on an empty deck: the tower spot
            return Plan(aim.x_m, aim.y_m, aim.sailor, math.nan)
        margin, s, k = best
        return Plan(float(aims[-k, 0]), float(aims[-k, 1]), sailors[-s], margin)

    def place(self, where: PlaceAnywhere, rng: np.random.Generator, state=None) -> Place:
        """The planned aim plus the execution error (without a state: the top barrel's centre)."""
        if state is None:
            return self.execute(where.top_mm, where, rng)
        sailors = list(state.roll_meaning(state.face).sailors)
        plan = self.plan(state.tower, state.next_barrel(), sailors, state.config.fraction)
        return self.execute((plan.x_m * 1000, plan.y_m * 1000), where, rng)

    def act(self, state, rng: np.random.Generator):
        first = state.legal_actions()[0]
        if isinstance(first, ChooseSailor):
            return ChooseSailor(self.choose_standing_sailor(state))
        return super().act(state, rng)

    def choose_standing_sailor(self, state) -> str:
        """After a wild placement: a sailor whose turn the tower as it stands survives (the
        balance judge's favourite among them); the judge's favourite if none does."""
        fraction = state.config.fraction
        standing = [s for s in SCREWS if not self.referee.decide(state.tower, None, Turn(s, fraction)).crashed]
        self._note("sailor", len(SCREWS), len(standing))
        return self.judge.best_sailor(state.tower, standing or list(SCREWS), fraction)
