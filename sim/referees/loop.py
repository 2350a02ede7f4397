"""The reference loop of the physics referee: pymunk decides, frame by frame, whether the tower stands.

A decision runs in up to two phases, each in a fresh :class:`~sim.world.TowerWorld`
built from the tower state (so a decision depends only on its inputs and is
bit-identical across processes), whose contacts start carrying the static load
(:meth:`~sim.world.TowerWorld.take_up_load`: a standing tower rebuilt stands still, it
does not re-settle):

1. ``place``: the barrel is released from rest 1 mm above the top of the tower and the
   world runs for ``settle.max_time_s``.
2. ``turn``: the deck's slope in the slice moves from its old to its new value along the
   turn profile; then the world runs for ``settle.max_time_s`` more.

Each phase runs in the vertical plane along the deck's downhill direction after the turn (the
current slice for a placement, or if the deck ends level), unless the tower it ends with is
near tipping: then in the plane of its weakest interface's tipping direction
(:func:`sim.slice_contact.fall_slice`), so that a tower leaning off the old slice falls in the
2D world, where it is simulated and can be watched. Each interface's faces are the chords of
its two discs at the across-slice position of the gravity line above it
(:func:`sim.slice_contact.slice_faces`): their overlap is the contact lens's extent along the
slice there, so a stack tips in 2D where rigid statics says it must.

The tower has crashed if a fall (:meth:`~sim.world.TowerWorld.find_fall`) is seen in
any frame (checked once per 60 Hz frame, 16 steps at the default 960 Hz), or if the tower
the phase would hand on has a gravity line outside a contact lens by more than
:func:`statics_tolerance_m` (a guard for what the 2D world cannot show: a stack falling off
the slice; reported with ``Decision.fallen.in_slice`` False). That is the **plain
loop** (``plain=True``), the reference. By default the referee stops a phase early
when its outcome is certain: at the first fall, or once the tower is certain to stand
(its kinetic energy far below the smallest barrier against toppling, :mod:`sim.energy`).
In both, a standing phase hands on the tower as it stood at that moment of certainty:
the player turns the sailor once the barrel has come to rest (and the poses handed on do
not depend on how long a wait ran past that moment).

>>> from sim.tower import Placement, Turn
>>> referee = LoopReferee()
>>> tower = referee.new_tower()
>>> decision = referee.decide(tower, Placement("large", 0.0, 0.0), Turn("red", 1.0))
>>> decision.crashed, len(decision.tower.barrels), decision.tower.turns
(False, 1, (1.0, 0.0, 0.0))
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Sequence

from sim.energy import barrier_bound, kinetic_energy, smallest_barrier
from sim.geometry import deck_gradient, downhill_direction, from_slice, into_recess, slope_along, to_slice
from sim.params import Params, load_params
from sim.slice_contact import Faces, Lean, fall_slice, slice_faces, tower_leans, unsupported
from sim.tower import BarrelPose, Decision, FallenStack, Placement, TowerState, Turn
from sim.turn_profile import turn_duration_s
from sim.world import BarrelPlacement, Fall, TowerWorld

FRAME_HZ = 60
"""Falls and rest are checked once per frame of this rate."""


def statics_tolerance_m(params: Params) -> float:
    """How far (m) a tower at rest may have a gravity line outside a contact lens before it has
    fallen (:meth:`DecisionRun._stand_or_fall`): half the solver's collision slop (0.1 mm by
    default). Contacts rest up to the slop inside each other, so the 2D world places a pivot
    to within that; half of it is where a tower the world keeps standing can still be exactly
    on its edge."""
    return params.solver.collision_slop_m / 2


def build_world(params: Params, tower: TowerState, slice_direction_rad: float,
                deck_slope: float | None = None, faces: Sequence[Faces] | None = None) -> TowerWorld:
    """A world holding ``tower`` in the slice along ``slice_direction_rad`` (radians from the bow).

    The deck's slope is that of the tower's turn counts along the slice unless
    ``deck_slope`` is given. A barrel's in-slice tilt is projected onto the new slice. Each
    barrel's end faces are ``faces`` (one per barrel), by default those of
    :func:`sim.slice_contact.slice_faces` on the tower's own deck.
    """
    gradient = deck_gradient(params.ship, tower.turns_by_sailor())
    if deck_slope is None:
        deck_slope = slope_along(gradient, slice_direction_rad)
    if faces is None:
        faces = slice_faces(params, tower.barrels, tower_leans(params, tower.barrels, gradient), slice_direction_rad)
    world = TowerWorld(params, deck_slope)
    for p in slice_placements(params, tower, slice_direction_rad, faces):
        world.add_barrel(p.spec, p.s_m, p.z_m, p.tilt_rad, p.cross_offset_m, p.faces)
    return world


def slice_placements(params: Params, tower: TowerState, slice_direction_rad: float,
                     faces: Sequence[Faces]) -> list[BarrelPlacement]:
    """The tower's barrels as the slice along ``slice_direction_rad`` holds them: along and across
    it (m), the in-slice tilt projected onto it, each barrel's ``faces``."""
    tilt_scale = math.cos(slice_direction_rad - tower.slice_direction_rad)
    placements = []
    for barrel, barrel_faces in zip(tower.barrels, faces):
        along, across = to_slice(barrel.x_m, barrel.y_m, slice_direction_rad)
        placements.append(BarrelPlacement(params.barrel(barrel.size), along, barrel.z_m,
                                          barrel.tilt_rad * tilt_scale, across, barrel_faces))
    return placements


def rigid_in_slice(tower: TowerState, slice_direction_rad: float) -> TowerState:
    """``tower`` unmoved in the deck frame, as a phase in the slice along ``slice_direction_rad``
    hands it on when nothing moved: each barrel's in-slice tilt projected onto the new slice
    (as :func:`slice_placements` lays it in)."""
    tilt_scale = math.cos(slice_direction_rad - tower.slice_direction_rad)
    barrels = tuple(replace(barrel, tilt_rad=barrel.tilt_rad * tilt_scale) for barrel in tower.barrels)
    return TowerState(turns=tower.turns, slice_direction_rad=slice_direction_rad, barrels=barrels)


def tower_from_world(world: TowerWorld, turns: tuple[float, float, float],
                     slice_direction_rad: float) -> TowerState:
    """Read the barrels' poses back into a deck-frame :class:`TowerState`."""
    barrels = []
    for barrel, (along, z, tilt), across in zip(world.barrels, world.poses(), world.cross_offsets_m()):
        barrels.append(BarrelPose(barrel.spec.name, *from_slice(along, across, slice_direction_rad), z, tilt))
    return TowerState(turns=turns, slice_direction_rad=slice_direction_rad, barrels=tuple(barrels))


class DecisionRun:
    """One decision in progress, advanced frame by frame (the viewer draws ``world``).

    :meth:`advance_frame` returns ``None`` while undecided, then the :class:`Decision`.
    ``phase`` ("place" or "turn") and ``slice_direction_rad`` (radians from the bow toward
    port) describe the current ``world``, which is rebuilt between the two phases.
    """

    def __init__(self, params: Params, tower: TowerState, placement: Placement | None,
                 turn: Turn | None, *, plain: bool = False) -> None:
        self.params = params
        self.plain = plain
        self._fall: Fall | None = None
        self._fallen: TowerState | None = None
        self._guard: Lean | None = None
        """The interface exact statics felled at the end of a phase, if it came to that."""
        self.steps_per_frame = max(1, round(params.solver.steps_per_second / FRAME_HZ))
        self._tower = tower
        self._turn = turn
        self._simulated_s = 0.0
        self.decision: Decision | None = None
        if placement is not None:
            self._start_place(placement)
        elif turn is not None:
            self._start_turn()
        else:
            self.decision = Decision(crashed=False, tower=tower, reason="nothing to do")

    # --- phases -------------------------------------------------------------------

    def _start_place(self, placement: Placement) -> None:
        spec = self.params.barrel(placement.size)
        self.phase = "place"
        x, y = placement.x_m, placement.y_m
        if not self._tower.barrels:
            x, y = into_recess(self.params.ship, spec.end_diameter_m, x, y)
        tower = self._tower
        placed = BarrelPose(spec.name, x, y, tower.top_height_m(self.params) + spec.height_m / 2)
        self._gradient = deck_gradient(self.params.ship, tower.turns_by_sailor())
        direction, faces, _ = self._slice_of(tower.barrels + (placed,), tower.slice_direction_rad)
        self.world = self._build_world(tower, direction, None, faces[:-1], placed=(spec, x, y))
        self.world.drop_barrel(spec, *to_slice(x, y, direction), faces=faces[-1])
        self.world.take_up_load()
        self.slice_direction_rad = direction
        self._deadline_s = self.params.settle.max_time_s
        self._calm_since: float | None = None
        self._standing: TowerState | None = None

    def _start_turn(self) -> None:
        turn = self._turn
        ship = self.params.ship
        before = deck_gradient(ship, self._tower.turns_by_sailor())
        after_tower = self._tower.with_turn(turn.sailor, turn.revolutions)
        after = deck_gradient(ship, after_tower.turns_by_sailor())
        downhill = downhill_direction(after)
        self.phase = "turn"
        self._tower = after_tower
        self._gradient = after
        direction, faces, leans = self._slice_of(after_tower.barrels,
                                          after_tower.slice_direction_rad if downhill is None else downhill)
        self.slice_direction_rad = direction
        if self._decided_by_statics(before, after, direction, leans):
            return
        end_slope = slope_along(after, direction)
        self.world = self._build_world(after_tower, direction, slope_along(before, direction), faces,
                                       end_slope=end_slope)
        self.world.take_up_load()
        duration = turn_duration_s(turn.revolutions, self.params.turn.rate_rev_per_s)
        self.world.start_deck_motion(end_slope, duration, self.params.turn.profile)
        self._deadline_s = duration + self.params.settle.max_time_s
        self._calm_since = None
        self._standing = None

    def _decided_by_statics(self, before: tuple[float, float], after: tuple[float, float], direction: float,
                            leans: Sequence[Lean]) -> bool:
        """A hook for faster runs (:mod:`sim.referees.physics`): decide the turn at its start,
        setting ``decision``, and say so. The loop simulates every turn: False. ``before`` and
        ``after`` are the deck's gradients, ``direction`` the turn's slice (radians), ``leans``
        the tower's interfaces on the deck after the turn (:func:`sim.slice_contact.tower_leans`)."""
        return False

    def _stand_rigidly(self, direction: float) -> None:
        """Decide the turn: the tower rides it unmoved in the deck frame (:func:`rigid_in_slice`)."""
        self._standing = rigid_in_slice(self._tower, direction)
        self.decision = Decision(crashed=False, tower=self._standing, reason="stands", simulated_s=self._simulated_s)

    def _fall_at_start(self, lean: Lean, direction: float) -> None:
        """Decide the turn: the tower, unmoved, falls off the slice at ``lean`` (as the guard of
        :meth:`_stand_or_fall` decides at the end of a phase)."""
        fall = self._fall_off_slice(rigid_in_slice(self._tower, direction), lean)
        self.decision = Decision(crashed=True, tower=self._fallen, phase="turn", reason=fall.reason,
                                 simulated_s=self._simulated_s, fallen=self._fallen_stack(fall))

    def _slice_of(self, barrels: tuple[BarrelPose, ...],
                  fallback_rad: float) -> tuple[float, list[Faces], list[Lean]]:
        """The slice direction of a phase whose tower will be ``barrels`` on the phase's final
        deck (:func:`sim.slice_contact.fall_slice`: where it would tip, if it is near tipping,
        else ``fallback_rad``), every barrel's end faces in that slice, and the interfaces'
        leans on that deck it was chosen by."""
        leans = tower_leans(self.params, barrels, self._gradient)
        direction = fall_slice(leans, fallback_rad)
        return direction, slice_faces(self.params, barrels, leans, direction), leans

    def _build_world(self, tower: TowerState, direction: float, deck_slope: float | None,
                     faces: Sequence[Faces], *, placed: tuple | None = None,
                     end_slope: float | None = None) -> TowerWorld:
        """The world of a phase (:func:`build_world`). A hook for faster runs
        (:mod:`sim.referees.physics`): ``placed`` is the (spec, x m, y m) of the barrel the
        place phase will drop, ``end_slope`` the deck's slope along the slice after the turn."""
        return build_world(self.params, tower, direction, deck_slope, faces)

    # --- stepping -----------------------------------------------------------------

    def advance_frame(self) -> Decision | None:
        """Run one frame of physics; return the decision once it is made."""
        if self.decision is not None:
            return self.decision
        world = self.world
        world.steps(self.steps_per_frame)
        if self._fall is None:  # once fallen (plain loop) barrels may fall freely off the deck
            world.check_sane()
            self._fall = world.find_fall()
            if self._fall is not None:
                self._fallen = tower_from_world(world, self._tower.turns, self.slice_direction_rad)
            elif self._standing is None and self._certain_to_stand():
                self._stand_or_fall(tower_from_world(world, self._tower.turns, self.slice_direction_rad))
            if self._fall is not None and not self.plain:
                return self._finish(self._fall)
        certain = self._standing is not None and not self.plain
        if certain or world.time_s >= self._deadline_s - 1e-12:
            if self._fall is None and self._standing is None:  # the deadline came before certainty
                self._stand_or_fall(tower_from_world(world, self._tower.turns, self.slice_direction_rad))
            if self.phase == "place" and self._turn is not None and self._fall is None:
                self._simulated_s += world.time_s
                self._tower = self._standing_tower()
                self._start_turn()
                return None
            return self._finish(self._fall)
        return None

    def _stand_or_fall(self, tower: TowerState) -> None:
        """The tower at rest at the end of a phase stands, unless exact statics says it cannot
        (:func:`sim.slice_contact.unsupported`, beyond :func:`statics_tolerance_m`): then it has
        fallen off the slice, where the 2D world could not show it."""
        lean = unsupported(tower_leans(self.params, tower.barrels, self._gradient), statics_tolerance_m(self.params))
        if lean is None:
            self._standing = tower
            return
        self._fall = self._fall_off_slice(tower, lean)

    def _fall_off_slice(self, tower: TowerState, lean: Lean) -> Fall:
        """The fall exact statics decided: the stack above ``lean.interface`` of ``tower``, whose
        gravity line leaves its contact there, fell off the slice (the tower's poses do not show it)."""
        spec = self.params.barrel(tower.barrels[lean.interface].size)
        self._guard = lean
        self._fallen = tower
        return Fall(lean.interface, f"barrel {lean.interface + 1} ({spec.name}) and those above fell off "
                                    f"the slice: their gravity line is {-lean.inside_m * 1000:.1f} mm "
                                    f"outside the contact under them")

    def _fallen_stack(self, fall: Fall | None) -> FallenStack | None:
        """What fell, and which way in the deck frame (None if nothing did)."""
        if fall is None:
            return None
        if self._guard is not None:
            return FallenStack(fall.index, self._guard.direction_rad, in_slice=False)
        ahead = self.world.fall_side(fall.index) > 0
        return FallenStack(fall.index, self.slice_direction_rad + (0.0 if ahead else math.pi))

    def _standing_tower(self) -> TowerState:
        """The tower as it stood when it was first certain to stand, else as it is now.

        Both the plain loop and the early exit hand this state on (to the turn, or in the
        decision), so the moment a phase stops never changes what comes after it.
        """
        if self._standing is not None:
            return self._standing
        return tower_from_world(self.world, self._tower.turns, self.slice_direction_rad)

    def _certain_to_stand(self) -> bool:
        """Has the tower's kinetic energy stayed far below its smallest barrier against
        toppling for a whole settle window, with the deck at rest?"""
        world, settle = self.world, self.params.settle
        calm = False
        if not world.deck_moving:
            energy, fraction = kinetic_energy(world), settle.energy_fraction
            # the cheap bound first: no barrier exceeds the top barrel's (see sim.energy)
            calm = energy < fraction * barrier_bound(world) and energy < fraction * smallest_barrier(world)
        if not calm:
            self._calm_since = None
            return False
        if self._calm_since is None:
            self._calm_since = world.time_s
        return world.time_s - self._calm_since >= settle.window_s - 1e-12

    def _finish(self, fall: Fall | None) -> Decision:
        self._simulated_s += self.world.time_s
        crashed = fall is not None
        if not crashed:
            tower = self._standing_tower()
        elif self.plain or self._guard is not None:  # the poses when the fall was seen
            tower = self._fallen
        else:
            tower = tower_from_world(self.world, self._tower.turns, self.slice_direction_rad)
        self.decision = Decision(crashed=crashed, tower=tower, phase=self.phase if crashed else None,
                                 reason=fall.reason if crashed else "stands",
                                 simulated_s=self._simulated_s, fallen=self._fallen_stack(fall))
        return self.decision


class LoopReferee:
    """The reference loop: every decision simulated with pymunk, frame by frame (the viewer animates it).

    Implements :class:`sim.tower.Referee`. ``params`` defaults to the shipped set;
    ``plain=True`` gives the fixed-length reference loop (same decisions, slower). The fast
    path that games use, :class:`sim.referees.physics.PhysicsReferee`, is built on this
    one (``--referee physics``, :mod:`sim.referees`).
    """

    name = "loop"

    def __init__(self, params: Params | None = None, *, plain: bool = False) -> None:
        self.params = params if params is not None else load_params()
        self.plain = plain
        """Run the fixed-length reference loop, without early exits."""

    def new_tower(self) -> TowerState:
        """An empty deck with all sailors level."""
        return TowerState()

    def start(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> DecisionRun:
        """Begin a decision to be advanced frame by frame (for the viewer)."""
        return DecisionRun(self.params, tower, placement, turn, plain=self.plain)

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        """Place (if any), settle, turn (if any), settle: stands or crashed, and the new tower."""
        return run_to_decision(self.start(tower, placement, turn))


def run_to_decision(run: DecisionRun) -> Decision:
    """Advance ``run`` frame by frame until it has decided."""
    decision = run.decision
    while decision is None:
        decision = run.advance_frame()
    return decision
