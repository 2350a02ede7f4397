"""The hybrid referee: the fast referee where its margin is clear, physics where it is not.

Every decision is first assessed by :class:`~sim.referees.fast.FastReferee`. If each phase
it decides (the placement, and the turn unless the placement already crashed) has a
static margin farther than ``params.fast.hybrid_band_deg`` from its threshold, the fast
decision stands; otherwise :class:`~sim.referees.physics.PhysicsReferee` decides the whole
situation. The band comes from the measured agreement with physics on the benchmark
situations (:mod:`lab.margin_fit`); ``kipp bench`` measures how often the hybrid agrees with
physics there and how many game decisions it sends to pymunk (the site's Performance page
renders the committed record).

The tower carried forward is the fast referee's (upright, with physics' mean creep,
:meth:`~sim.referees.fast.FastReferee.creep`) after a fast decision and the simulated one
after a physics decision; both referees accept either. Decisions are deterministic: both
parts are.

>>> from sim.tower import Placement, Situation, Turn
>>> referee = HybridReferee()
>>> decision = referee.decide(referee.new_tower(), Placement("large", 0.0, 0.0), Turn("red", 1.0))
>>> decision.crashed, referee.physics_calls
(False, 0)
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.params import Params, load_params
from sim.referees.fast import FastReferee
from sim.tower import Decision, Placement, Situation, TowerState, Turn


class HybridReferee:
    """Fast where clear, physics in the band; implements :class:`sim.tower.Referee`.

    ``physics_calls`` and ``decisions`` count what this instance has done.
    """

    name = "hybrid"

    def __init__(self, params: Params | None = None, *, physics=None) -> None:
        self.params = params if params is not None else load_params()
        self.fast = FastReferee(self.params)
        self.band_deg = self.params.fast.hybrid_band_deg
        self._physics = physics
        self.physics_calls = 0
        self.decisions = 0

    @property
    def physics(self):
        """The physics referee (created on first use, so pymunk loads only when needed)."""
        if self._physics is None:
            from sim.referees.physics import PhysicsReferee

            self._physics = PhysicsReferee(self.params)
        return self._physics

    def new_tower(self) -> TowerState:
        """An empty deck with all sailors level."""
        return TowerState()

    def in_band(self, closest_deg: float | np.ndarray) -> bool | np.ndarray:
        """Whether physics decides: the fast referee's closest approach of a decided phase to its
        threshold (deg; :meth:`FastReferee.assess`, :meth:`Assessment.closest_deg
        <sim.referees.fast.Assessment.closest_deg>`) is inside the band. Element-wise for arrays."""
        return closest_deg < self.band_deg

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        """The fast decision if its margin is clear of the band, else the physics one."""
        self.decisions += 1
        decision, gap_deg = self.fast.assess(tower, placement, turn)
        if not self.in_band(gap_deg):
            return decision
        self.physics_calls += 1
        return self.physics.decide(tower, placement, turn)

    def decide_batch(self, situations: Sequence[Situation]) -> list[Decision]:
        """:meth:`decide` for each situation: one vectorised fast pass, physics for those in the band."""
        assessment = self.fast.assess_batch(situations)
        to_physics = self.in_band(assessment.closest_deg())
        decisions = self.fast.verdicts(assessment)
        self.decisions += len(situations)
        for i, situation in enumerate(situations):
            if to_physics[i]:
                self.physics_calls += 1
                decisions[i] = self.physics.decide(*situation)
        return decisions
