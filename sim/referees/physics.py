"""The physics referee (``--referee physics``): a cheap compound pass, its crashes confirmed at the loop's setting.

:class:`PhysicsReferee` decides every situation with :class:`CompoundReferee`, the cheap pass:
locked interfaces as rigid compounds, at a coarser solver setting; a crash of the cheap pass is
decided again by :class:`ConfirmReferee`: a compound run at the reference loop's solver setting
(:class:`~sim.referees.loop.LoopReferee`), locked only in turns, which decides as the loop does.

Each phase of a decision (see :mod:`sim.referees.loop`) is run in a
:class:`~sim.referees.compound_world.CompoundWorld`. Before a phase, the static margin of every
interface (:func:`sim.static_check.interface_margins_one`, radians) is taken at the
deck's slope along the slice at the start and at the end of the phase (both ways along
the slice where the deck is or passes level), with the barrel to be placed resting on
top in a place phase. An interface whose smallest margin exceeds ``lock_margin_rad``
cannot open during the phase: the barrels across it become one rigid body. The barrel
dropped in a place phase is always a body of its own, and so is the bottom barrel (the
deck is kinematic).

The phase then runs with the solver setting ``solver`` (steps per second, iterations)
instead of ``params.solver``: fewer bodies in the chain need fewer iterations and allow
a coarser step for the same verdicts (measured against the converged plain loop,
``lab/compound_speed.py``). Early exits, fall detection and the tower handed on
are those of :class:`~sim.referees.loop.DecisionRun`; the tower stays per barrel.

Deterministic: the plan depends only on the inputs, and the world is built fresh.

Measured on the 500 benchmark situations against the converged plain loop (the default
``[solver]``, 960 Hz x 60; ``python -m lab.compound_speed plain early confirm:480:20:0.5
--agree --timed 20``): the cheap run alone (480 x 20, lock 0.5 deg) crashes towers the loop
keeps standing, whence :class:`PhysicsReferee`, whose verdicts differ from the loop's on 2
of 500 (both stand where the loop crashes; confirming after a 480 x 30 cheap run: 4). On the
set with leaning towers of physics revision 3 (lens contacts, :mod:`sim.slice_contact`; 257 of
its 500 situations from skilled/expert games): 4 of 500, all four standing where the loop
crashes; on the 1,723 decisions of 40 skilled/expert games, 2 (11 of 1,955 before the lens
contacts). Timed
in the same run on 20 twelve-barrel turns: median 9.9 ms against 87.5 ms for the loop's early
exits and 354 ms for the plain loop (p90 114 ms: a crash is decided twice); the loop has since
saved 6% by stepping Chipmunk directly (:meth:`sim.world.TowerWorld.steps`). (Measured at
1920 x 80 before the default changed: with no locks the compound path agreed on 500/500, a 3
deg lock at 1920 x 80 flipped 2, the cheap run alone 22.)

Turns rigid statics settles (:mod:`sim.rigid_turn`). The cheap pass does not simulate a turn
after which some gravity line lies more than 0.5 deg outside its contact: it crashes at once,
and the confirm run decides that crash as it decides every crash of the cheap pass, in the 2D
world. With ``rigid_turns`` (the default) the cheap pass also skips the turns a tower rides
for certain (3 deg of margin all along, plus the deck's acceleration), handing the tower on
unmoved: 63-64% of the turns of casual and skilled play. ``python -m lab.rigid_turns --rounds
150 --players casual,skilled,expert`` (seed 7, with the loop confirming crashes): the same
verdict and phase on all 500 benchmark situations (496 as the plain loop's, as without),
standing towers handed on up to 0.024 mm (median 0.002 mm) from the simulated ones, all 450
rounds ended the same, 1.33x, 1.29x and 1.28x the whole rounds per CPU second.

Crashes confirmed at the loop's setting (:class:`ConfirmReferee`). The loop re-deciding the
cheap pass's crashes took 43-48% of a round's CPU once rigid turns skipped most standing turns
(80 casual rounds, 60 skilled, seed 2; a timer on every phase; the cheap pass 46% (47%), its
simulated turns 19% (22%)). The confirm run steps the loop's 960 Hz x 60 iterations, but the
interfaces whose static margin stays above 3 deg along the slice through a turn are locked
(:func:`lock_plan`); place phases, where the dropped barrel jolts the tower, stay unlocked
(locking them too changed the phase of 4-6 of the 500 benchmark situations). Against revision 3
(the loop confirming; measured 2026-12-03): the same verdict and phase on all 500 benchmark
situations, and of 150 rounds per player model (seed 7) the same barrels stacked and outcome in
150/150/149 casual/skilled/expert rounds, and 149/149/150 with half turns.
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
"""An interface is locked when its static margin stays above this (degrees). At 480 x 20,
locking more converges the shorter chain better: 22 flips at 0.5 deg, 48 at 1, 95 at 3 (and
at 0 deg, 10 of 16 flips stand where the loop crashes: too stiff)."""


CONFIRM_LOCK_MARGIN_DEG = 3.0
"""An interface is locked in a turn of the confirm run (:class:`ConfirmReferee`, at the
reference solver setting) when its static margin stays above this (degrees): with it the
physics referee decided the 500 benchmark situations as with the loop, verdict and phase."""


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
        unmoved (the simulated turn's creep, up to 0.024 mm on the benchmark situations, is gone)."""
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
        if placing:  # a dropped barrel jolts the tower: locking here moved the phase of 4-6 of 500
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
    stand through a turn unmoved, without simulating the turn (see the module's docstring).
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
