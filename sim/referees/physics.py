"""The physics referee (``--referee physics``): a cheap compound pass, its crashes confirmed at the loop's setting.

A decision (a placement, a turn, or both, in up to two phases: :mod:`sim.referees.loop`) ends
in a **crash** when

1.  **The cheap pass crashes it** (:class:`CompoundReferee`: every phase at the coarser solver
    setting :data:`DEFAULT_SOLVER`, interfaces whose static margin stays above
    :data:`DEFAULT_LOCK_MARGIN_DEG` locked as rigid compounds); a "stands" of the cheap pass
    is the decision. The cheap pass crashes a decision in any of these ways:

    - **a fall seen in the world**, by one of its three tests
      (:meth:`sim.world.TowerWorld.find_fall`, checked once per 60 Hz frame): a barrel has
      turned more than ``crash.max_relative_tilt_deg`` against its support (the barrel below,
      or the deck); or its bottom-face centre has lifted more than ``crash.max_lift_mm`` off
      its support's top face; or that centre lies beyond the edge of the face (slid off the
      barrel below, or off the deck);
    - **the statics guard**: the tower at rest at the end of a phase (certain to stand, or at
      the settle deadline) has the gravity line of some stack outside its contact lens by more
      than :func:`sim.referees.loop.statics_tolerance_m`; it fell off the slice, where the 2D
      world cannot show it (``Decision.fallen.in_slice`` False);
    - **the certain-to-fall shortcut** (:func:`sim.rigid_turn.certain_to_fall`): a turn after
      which, the tower unmoved, some gravity line lies more than
      :data:`sim.rigid_turn.FALL_MARGIN_RAD` outside its contact lens is not simulated and
      crashes at once.

    (With ``rigid_turns``, a turn the tower rides for certain,
    :func:`sim.rigid_turn.certain_to_stand`, is not simulated either: it stands, the tower
    handed on unmoved.)

2.  **And the confirm run crashes it too** (:class:`ConfirmReferee`): the decision simulated
    again from the same inputs at the reference solver setting (``params.solver``), interfaces
    whose static margin stays above :data:`CONFIRM_LOCK_MARGIN_DEG` locked in turns only, with
    no shortcut, so that it ends in a crash only by the world's three tests or the statics
    guard. Its decision is returned.

A solver that diverges raises :class:`sim.world.PhysicsError`; that is not a crash.

Cheap settings err almost only one way (an unconverged chain is softer, so they crash towers
the converged solver keeps standing), which is why a cheap "stands" is kept and a cheap crash
is confirmed. The confirm run decides as the early-exit loop
(:class:`~sim.referees.loop.LoopReferee`) does, and that one agrees with the converged plain
loop on all but a few benchmark situations (``--agree`` below counts them).

The compound phases. Each phase is run in a :class:`~sim.referees.compound_world.CompoundWorld`.
Before a phase, the static margin of every interface
(:func:`sim.static_check.interface_margins_one`, radians) is taken at the deck's slope along the
slice at the start and at the end of the phase (both ways along the slice where the deck is or
passes level), with the barrel to be placed resting on top in a place phase. An interface whose
smallest margin exceeds the lock margin cannot open during the phase: the barrels across it
become one rigid body. The barrel dropped in a place phase is always a body of its own, and so
is the bottom barrel (the deck is kinematic). Fewer bodies in the chain need fewer iterations
and allow a coarser step for the same verdicts. Early exits, fall detection and the tower handed
on are those of :class:`~sim.referees.loop.DecisionRun`; the tower stays per barrel.

Deterministic: the plan depends only on the inputs, and the world is built fresh.

What measures it: its verdicts and speed against the plain loop on the benchmark situations,
``python -m lab.compound_speed plain early confirm:480:20:0.5 --agree --timed 20``; the rigid
turns' effect on verdicts, phases and rounds, ``python -m lab.rigid_turns --rounds 150 --players
casual,skilled,expert``; its cost per decision and per round, ``kipp bench`` (the site's
Performance page renders the committed record).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

from sim.geometry import Gradient, deck_gradient, slope_along
from sim.params import Params, load_params
from sim.referees.compound_world import CompoundWorld
from sim.referees.loop import DecisionRun, run_to_decision, slice_placements
from sim.rigid_turn import certain_to_fall, certain_to_stand
from sim.slice_contact import Faces, Lean
from sim.static_check import SizeTable, interface_margins_one
from sim.tower import BarrelPose, Decision, Placement, TowerState, Turn

DEFAULT_SOLVER = (480, 20)
"""(steps per second, iterations) of the compound phases."""
DEFAULT_LOCK_MARGIN_DEG = 0.5
"""An interface is locked in the cheap pass when its static margin stays above this (degrees).
Locking trades the chain's convergence against its stiffness (``python -m lab.compound_speed``
counts the verdicts each margin flips)."""


CONFIRM_LOCK_MARGIN_DEG = 3.0
"""An interface is locked in a turn of the confirm run (:class:`ConfirmReferee`, at the
reference solver setting) when its static margin stays above this (degrees): chosen so that the
physics referee decides the benchmark situations as the loop does, verdict and phase
(``python -m lab.rigid_turns``)."""


def lock_plan(params: Params, table: SizeTable, barrels: Sequence[BarrelPose], direction_rad: float,
              slopes: Sequence[float], lock_margin_rad: float) -> list[bool]:
    """Per barrel (bottom first): lock its interface with the barrel below?

    ``barrels`` in the deck frame (m); ``direction_rad`` the slice direction (radians from the
    bow); ``slopes`` the deck's slopes dz/ds along the slice the phase passes between (the
    smallest margin over them, and over both directions if the deck is or passes level, counts).
    """
    n = len(barrels)
    if n < 2:
        return [False] * n
    cases = []
    for slope in slopes:
        cases.append(((slope * math.cos(direction_rad), slope * math.sin(direction_rad)), direction_rad))
    if min(slopes) <= 0.0 <= max(slopes):
        cases += [((0.0, 0.0), direction_rad), ((0.0, 0.0), direction_rad + math.pi)]
    contact = math.radians(params.fast.recess_wall_contact_deg)
    smallest = [math.inf] * n
    for gradient, direction in cases:
        for k, margin in enumerate(interface_margins_one(params, table, barrels, gradient, direction, contact)):
            smallest[k] = min(smallest[k], margin)
    return [k > 0 and smallest[k] > lock_margin_rad for k in range(n)]


class CompoundDecisionRun(DecisionRun):
    """A :class:`~sim.referees.loop.DecisionRun` whose phases run in compound worlds.

    ``params`` carry the compound solver setting already; ``lock_margin_rad`` as in
    :func:`lock_plan`.
    """

    def __init__(self, params: Params, tower: TowerState, placement: Placement | None, turn: Turn | None,
                 *, lock_margin_rad: float, table: SizeTable, rigid_turns: bool = False) -> None:
        self.lock_margin_rad = lock_margin_rad
        self.table = table
        self.rigid_turns = rigid_turns
        self.plans: list[list[bool]] = []
        """The lock plan of each phase run so far (for tests and measurements)."""
        super().__init__(params, tower, placement, turn)

    def _decided_by_statics(self, before: Gradient, after: Gradient, direction: float,
                            leans: Sequence[Lean]) -> bool:
        """A turn rigid statics settles is not simulated (:mod:`sim.rigid_turn`). A tower certain
        to fall crashes at once: :class:`PhysicsReferee` has the loop decide every crash of this
        pass again, in the plane it falls in, so this only saves the simulation of a crash the
        loop decides anyway. With ``rigid_turns``, a tower certain to stand rides the turn
        unmoved (without the simulated turn's creep)."""
        barrels = self._tower.barrels
        lean = certain_to_fall(leans)
        if lean is not None:
            self._fall_at_start(lean, direction)
            return True
        if self.rigid_turns and certain_to_stand(self.params, barrels, before, after, self._turn.revolutions):
            self._stand_rigidly(direction)
            return True
        return False

    def _build_world(self, tower: TowerState, direction: float, deck_slope: float | None,
                     faces: Sequence[Faces], *, placed: tuple | None = None,
                     end_slope: float | None = None) -> CompoundWorld:
        params = self.params
        if deck_slope is None:
            deck_slope = slope_along(deck_gradient(params.ship, tower.turns_by_sailor()), direction)
        barrels = list(tower.barrels)
        if placed is not None:
            spec, x, y = placed
            barrels.append(BarrelPose(spec.name, x, y, tower.top_height_m(params) + spec.height_m / 2))
        slopes = [deck_slope] if end_slope is None else [deck_slope, end_slope]
        plan = self._plan(barrels, direction, slopes, placing=placed is not None)[:len(tower.barrels)]
        self.plans.append(plan)
        world = CompoundWorld(params, deck_slope)
        world.add_tower(slice_placements(params, tower, direction, faces), plan)
        return world

    def _plan(self, barrels: Sequence[BarrelPose], direction: float, slopes: Sequence[float], *,
              placing: bool) -> list[bool]:
        """The phase's lock plan (:func:`lock_plan`) for ``barrels`` (the dropped one last in a place
        phase, ``placing``)."""
        return lock_plan(self.params, self.table, barrels, direction, slopes, self.lock_margin_rad)


class ConfirmDecisionRun(CompoundDecisionRun):
    """A crash confirmed: every phase simulated at the reference solver setting (``params``),
    interfaces locked (:func:`lock_plan`) in turns only, and no turn settled by statics, so
    every crash it returns was seen in the 2D world."""

    def _decided_by_statics(self, before: Gradient, after: Gradient, direction: float,
                            leans: Sequence[Lean]) -> bool:
        return False

    def _plan(self, barrels: Sequence[BarrelPose], direction: float, slopes: Sequence[float], *,
              placing: bool) -> list[bool]:
        if placing:  # a dropped barrel jolts the tower: locking here moves the phase of some decisions
            return [False] * len(barrels)
        return super()._plan(barrels, direction, slopes, placing=False)


class CompoundReferee:
    """The cheap pass: the loop with compounds and a coarser solver; implements :class:`sim.tower.Referee`.

    ``params`` are the reference physics (its ``[solver]`` is replaced by ``solver`` =
    (steps per second, iterations) inside the compound phases); ``lock_margin_deg`` as in
    :func:`lock_plan`; ``rigid_turns`` as in :meth:`CompoundDecisionRun._decided_by_statics`.
    """

    name = "compound"
    run_class = CompoundDecisionRun

    def __init__(self, params: Params | None = None, *, solver: tuple[int, int] = DEFAULT_SOLVER,
                 lock_margin_deg: float = DEFAULT_LOCK_MARGIN_DEG, rigid_turns: bool = False) -> None:
        self.params = params if params is not None else load_params()
        self.rigid_turns = rigid_turns
        rate, iterations = solver
        self.run_params = replace(self.params, solver=replace(self.params.solver, steps_per_second=rate,
                                                              iterations=iterations))
        self.lock_margin_rad = math.radians(lock_margin_deg)
        self.table = SizeTable.from_params(self.params)

    def new_tower(self) -> TowerState:
        """An empty deck with all sailors level."""
        return TowerState()

    def start(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> CompoundDecisionRun:
        """Begin a decision to be advanced frame by frame."""
        return self.run_class(self.run_params, tower, placement, turn, lock_margin_rad=self.lock_margin_rad,
                              table=self.table, rigid_turns=self.rigid_turns)

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        """As :meth:`sim.referees.loop.LoopReferee.decide`."""
        return run_to_decision(self.start(tower, placement, turn))


class ConfirmReferee(CompoundReferee):
    """How :class:`PhysicsReferee` decides a crash of its cheap pass again: :class:`ConfirmDecisionRun`
    at the reference solver setting (``params.solver``), interfaces whose static margin stays above
    ``lock_margin_deg`` locked in turns. Implements :class:`sim.tower.Referee`."""

    name = "confirm"
    run_class = ConfirmDecisionRun

    def __init__(self, params: Params | None = None, *, lock_margin_deg: float = CONFIRM_LOCK_MARGIN_DEG) -> None:
        params = params if params is not None else load_params()
        super().__init__(params, solver=(params.solver.steps_per_second, params.solver.iterations),
                         lock_margin_deg=lock_margin_deg)


class PhysicsReferee:
    """The physics referee ``--referee physics`` builds: a cheap compound run, crashes confirmed exactly.

    Every decision is first made by a :class:`CompoundReferee` at the cheap setting
    (``cheap`` = (steps per second, iterations), ``lock_margin_deg``). Measured against the
    converged plain loop, cheap settings err almost only one way: they crash towers the
    converged solver keeps standing (an unconverged chain is softer). So a "stands" of the
    cheap run is the decision; a crash is re-decided by ``exact`` (default: a
    :class:`ConfirmReferee` with ``params``, which decides as the early-exit
    :class:`~sim.referees.loop.LoopReferee` does, and that agrees with the plain loop) and the
    exact decision is returned. ``rigid_turns`` lets the cheap run hand on a tower certain to
    stand through a turn unmoved, without simulating the turn (the crash criterion: the module's docstring).
    Implements :class:`sim.tower.Referee`; deterministic because both parts are.
    ``exact_calls``/``decisions`` count what this instance did.
    """

    name = "physics"

    def __init__(self, params: Params | None = None, *, cheap: tuple[int, int] = DEFAULT_SOLVER,
                 lock_margin_deg: float = DEFAULT_LOCK_MARGIN_DEG, rigid_turns: bool = True, exact=None) -> None:
        self.params = params if params is not None else load_params()
        self.cheap = CompoundReferee(self.params, solver=cheap, lock_margin_deg=lock_margin_deg,
                                     rigid_turns=rigid_turns)
        self.exact = exact if exact is not None else ConfirmReferee(self.params)
        self.exact_calls = 0
        self.decisions = 0

    def new_tower(self) -> TowerState:
        """An empty deck with all sailors level."""
        return TowerState()

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        """The cheap decision if it stands, else the exact one."""
        self.decisions += 1
        decision = self.cheap.decide(tower, placement, turn)
        if not decision.crashed:
            return decision
        self.exact_calls += 1
        return self.exact.decide(tower, placement, turn)
