"""The fast referee: the static check of the whole tower plus a fitted dynamic margin.

A decision, like the physics referee's (:mod:`sim.referees.loop`), has up to two phases:

1. ``place``: the barrel is put with its centre at the placement's (x, y) (the first
   barrel clamped into the deck's round recess, as physics does), its bottom on the top
   face of the tower (on the recess floor for the first). It crashes when the static
   margin (:func:`sim.static_check.static_margins`) at the deck's current gradient is below
   ``params.fast.place_margin_deg``.
2. ``turn``: the sailor turns; the tower crashes when the static margin at the new
   gradient is below ``turn_margin_deg + turn_margin_deg_per_m * height + turn_margin_s2
   * acceleration`` (height of the tower's top above the deck, metres; the deck's
   acceleration scale in the slice, :meth:`FastReferee.turn_acceleration_deg_s2`). The
   margin stands for the screw turn's motion: a 1 s smooth turn topples a 12-stack
   0.5-0.7 deg before the quasi-static angle (DESIGN.md 3, :mod:`sim.turn_profile`), and a
   half turn, over in half the time, shakes the tower twice as hard per degree. Its
   values are fitted against the physics referee on the benchmark situations by
   :mod:`lab.margin_fit` (see there).

The tower moves forward as physics moves it on average: heights are the stacked heights,
barrels stay upright, and offsets stay where they were placed except for the creep of a
standing decision on a tilted deck (:meth:`FastReferee.creep`: the tower leans a little
further downhill, the placed barrel ends a little downhill of its aim; fitted to physics
by :mod:`lab.creep_fit`). The turn counts and the slice direction (the downhill
direction after the turn, kept when the deck ends level) are updated as physics updates
them. Decisions are deterministic.

:meth:`FastReferee.assess_batch` and :meth:`FastReferee.decide_batch` decide a batch of
situations with one vectorised static check per phase.

>>> from sim.tower import Placement, Turn
>>> referee = FastReferee()
>>> decision = referee.decide(referee.new_tower(), Placement("large", 0.0, 0.0), Turn("red", 1.0))
>>> decision.crashed, len(decision.tower.barrels), decision.tower.turns
(False, 1, (1.0, 0.0, 0.0))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from sim.geometry import downhill_direction, into_recess, is_level, slope_along
from sim.params import Params, load_params
from sim.static_check import SizeTable, pack, static_margin_one, static_margins
from sim.tower import BarrelPose, Decision, Placement, Situation, TowerState, Turn
from sim.turn_profile import turn_duration_s


@dataclass(frozen=True)
class Assessment:
    """The fast referee's view of a batch of situations (degrees; NaN where a phase is absent).

    A phase crashes when its ``*_margin_deg`` is below its ``*_threshold_deg``; ``*_interface``
    is the critical interface (0: the deck under the bottom barrel, k: under barrel k).
    """

    place_margin_deg: np.ndarray
    place_threshold_deg: np.ndarray
    place_interface: np.ndarray
    turn_margin_deg: np.ndarray
    turn_threshold_deg: np.ndarray
    turn_interface: np.ndarray
    placed: list[TowerState]
    """Each tower after the placement (the input tower without one)."""
    turned: list[TowerState]
    """Each tower after the placement and the turn."""

    @property
    def place_crashed(self) -> np.ndarray:
        return self.place_margin_deg < self.place_threshold_deg  # NaN compares False

    @property
    def turn_crashed(self) -> np.ndarray:
        return ~self.place_crashed & (self.turn_margin_deg < self.turn_threshold_deg)

    @property
    def crashed(self) -> np.ndarray:
        return self.place_crashed | self.turn_crashed

    def closest_deg(self) -> np.ndarray:
        """Per situation: the smallest |margin - threshold| over the phases that are decided."""
        place = np.abs(self.place_margin_deg - self.place_threshold_deg)
        turn = np.where(self.place_crashed, np.nan, np.abs(self.turn_margin_deg - self.turn_threshold_deg))
        closest = np.fmin(place, turn)
        return np.where(np.isnan(closest), np.inf, closest)


class FastReferee:
    """Static check plus dynamic margin; implements :class:`sim.tower.Referee`.

    ``params`` defaults to the shipped set; ``params.fast`` holds the margins.
    """

    name = "fast"

    def __init__(self, params: Params | None = None) -> None:
        self.params = params if params is not None else load_params()
        self.table = SizeTable.from_params(self.params)
        self._wall_rad = math.radians(self.params.fast.recess_wall_contact_deg)
        ship = self.params.ship
        screws = np.array([[1.0, x, y] for _, x, y in ship.screw_positions_m])
        rows = np.linalg.inv(screws)[1:] * ship.thread_pitch_m  # heights -> (gx, gy)
        self._gradient_rows = [tuple(float(v) for v in row) for row in rows]

    def gradient(self, turns: tuple[float, float, float]) -> tuple[float, float]:
        """Deck gradient (dz/dx, dz/dy) for turn counts (red, yellow, blue): :func:`sim.geometry.deck_gradient`
        without a linear solve per call."""
        (a0, a1, a2), (b0, b1, b2) = self._gradient_rows
        r, y, b = turns
        gradient = a0 * r + a1 * y + a2 * b, b0 * r + b1 * y + b2 * b
        return (0.0, 0.0) if is_level(gradient) else gradient  # equal turns leave ~1e-18 of noise

    def new_tower(self) -> TowerState:
        """An empty deck with all sailors level."""
        return TowerState()

    # --- moving the tower forward ------------------------------------------------------

    def place(self, tower: TowerState, placement: Placement) -> TowerState:
        """The tower with the barrel put at the placement, upright, on the top face."""
        spec = self.params.barrel(placement.size)
        x, y = placement.x_m, placement.y_m
        ship = self.params.ship
        if tower.barrels:
            base = tower.top_height_m(self.params)
        else:  # into the round recess, as physics does
            x, y = into_recess(ship, spec.end_diameter_m, x, y)
            base = -ship.recess_depth_m
        pose = BarrelPose(placement.size, x, y, base + spec.height_m / 2, 0.0)
        return TowerState(tower.turns, tower.slice_direction_rad, tower.barrels + (pose,))

    def creep(self, tower: TowerState, placed: bool) -> TowerState:
        """``tower``, as it stands after a decision, moved by physics' mean creep.

        Along the deck's downhill direction: every barrel above the bottom one by
        ``creep_lean_rad`` times its height above the bottom barrel's centre, or, for the
        barrel just placed (``placed``) on top of others, by ``creep_placed_mm`` from its
        aim point. Nothing moves on a level deck, and the bottom barrel never does.
        """
        fast = self.params.fast
        gx, gy = self.gradient(tower.turns)
        slope = math.hypot(gx, gy)
        if slope == 0.0 or len(tower.barrels) < 2:
            return tower
        dx, dy = -gx / slope, -gy / slope
        base = tower.barrels[0].z_m
        top = len(tower.barrels) - 1
        moved = [tower.barrels[0]]
        for k in range(1, top + 1):
            pose = tower.barrels[k]
            shift = fast.creep_placed_mm / 1000 if placed and k == top else fast.creep_lean_rad * (pose.z_m - base)
            moved.append(BarrelPose(pose.size, pose.x_m + shift * dx, pose.y_m + shift * dy, pose.z_m, pose.tilt_rad))
        return TowerState(tower.turns, tower.slice_direction_rad, tuple(moved))

    def turn(self, tower: TowerState, turn: Turn) -> TowerState:
        """The tower after the turn: counts updated, slice along the new downhill direction."""
        after = tower.with_turn(turn.sailor, turn.revolutions)
        direction = downhill_direction(self.gradient(after.turns))
        if direction is None:
            direction = tower.slice_direction_rad
        return TowerState(after.turns, direction, after.barrels)

    # --- deciding ------------------------------------------------------------------

    def margins_deg(self, towers: Sequence[TowerState]) -> tuple[np.ndarray, np.ndarray]:
        """Static margin (deg) of each tower at its own deck gradient, and the critical interface."""
        gradients = [self.gradient(t.turns) for t in towers]
        batch = pack(self.table, [t.barrels for t in towers], gradients,
                     [t.slice_direction_rad for t in towers])
        margin, interface = static_margins(self.params, self.table, batch, self._wall_rad)
        return np.degrees(margin), interface

    def turn_acceleration_deg_s2(self, before: TowerState, after: TowerState) -> float:
        """The deck's acceleration scale in the slice during a turn, deg/s^2: the change of
        its angle in the slice after the turn (signed) over the turn's duration squared."""
        direction = after.slice_direction_rad
        change = (math.atan(slope_along(self.gradient(after.turns), direction))
                  - math.atan(slope_along(self.gradient(before.turns), direction)))
        revolutions = sum(abs(a - b) for a, b in zip(after.turns, before.turns))
        duration = turn_duration_s(revolutions, self.params.turn.rate_rev_per_s)
        return math.degrees(change) / duration ** 2 if duration > 0 else 0.0

    def turn_threshold_deg(self, befores: Sequence[TowerState], afters: Sequence[TowerState]) -> np.ndarray:
        """The dynamic margin each turn needs (tower before and after it), degrees."""
        return np.array([self._turn_threshold_one(b, a) for b, a in zip(befores, afters)])

    def _turn_threshold_one(self, before: TowerState, after: TowerState) -> float:
        fast = self.params.fast
        return (fast.turn_margin_deg + fast.turn_margin_deg_per_m * after.top_height_m(self.params)
                + fast.turn_margin_s2 * self.turn_acceleration_deg_s2(before, after))

    def assess_batch(self, situations: Sequence[Situation]) -> Assessment:
        """Margins and thresholds of both phases for each situation, one static check per phase."""
        count = len(situations)
        placed = [self.place(t, p) if p is not None else t for t, p, _ in situations]
        place_margin = np.full(count, np.nan)
        place_interface = np.full(count, -1)
        with_place = [i for i, (_, p, _) in enumerate(situations) if p is not None]
        if with_place:
            margin, interface = self.margins_deg([placed[i] for i in with_place])
            place_margin[with_place], place_interface[with_place] = margin, interface
        turned = [self.turn(t, s[2]) if s[2] is not None else t for t, s in zip(placed, situations)]
        turn_margin = np.full(count, np.nan)
        turn_interface = np.full(count, -1)
        turn_threshold = np.full(count, np.nan)
        with_turn = [i for i, s in enumerate(situations) if s[2] is not None]
        if with_turn:
            towers = [turned[i] for i in with_turn]
            margin, interface = self.margins_deg(towers)
            turn_margin[with_turn], turn_interface[with_turn] = margin, interface
            turn_threshold[with_turn] = self.turn_threshold_deg([placed[i] for i in with_turn], towers)
        place_threshold = np.full(count, self.params.fast.place_margin_deg)
        return Assessment(place_margin, place_threshold, place_interface, turn_margin, turn_threshold,
                          turn_interface, placed, turned)

    def decide_batch(self, situations: Sequence[Situation]) -> list[Decision]:
        """:meth:`decide` for each situation, vectorised; the same decisions as one by one."""
        return self.verdicts(self.assess_batch(situations))

    def verdicts(self, a: Assessment) -> list[Decision]:
        """The decisions of an :meth:`assess_batch` result, one per situation."""
        return [self._verdict(a.placed[i], a.turned[i],
                              _phase(a.place_margin_deg[i], a.place_threshold_deg[i], a.place_interface[i]),
                              _phase(a.turn_margin_deg[i], a.turn_threshold_deg[i], a.turn_interface[i]))
                for i in range(len(a.placed))]

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        """Place (if any) and turn (if any): stands or crashed, and the new tower."""
        return self.assess(tower, placement, turn)[0]

    def assess(self, tower: TowerState, placement: Placement | None,
               turn: Turn | None) -> tuple[Decision, float]:
        """The decision and how close (deg) the decided phases came to their thresholds
        (inf if nothing was decided): one situation in plain Python, no numpy overhead."""
        placed = self.place(tower, placement) if placement is not None else tower
        place = turned = None
        if placement is not None:
            margin, interface = self._margin_one(placed)
            place = (margin, self.params.fast.place_margin_deg, interface)
        after = placed
        if turn is not None and not (place is not None and place[0] < place[1]):
            after = self.turn(placed, turn)
            margin, interface = self._margin_one(after)
            turned = (margin, self._turn_threshold_one(placed, after), interface)
        gap = min((abs(ph[0] - ph[1]) for ph in (place, turned) if ph is not None), default=math.inf)
        return self._verdict(placed, after, place, turned), gap

    def _verdict(self, placed: TowerState, turned: TowerState, place: tuple[float, float, int] | None,
                 turn: tuple[float, float, int] | None) -> Decision:
        """The decision from the (margin, threshold, interface) of the phases decided (None: absent);
        a tower that stands after a decision is handed on with the creep (:meth:`creep`)."""
        if place is not None and place[0] < place[1]:
            return Decision(True, placed, "place", _reason("placing", *place))
        if turn is not None and turn[0] < turn[1]:
            return Decision(True, turned, "turn", _reason("turning", *turn))
        if place is None and turn is None:
            return Decision(False, turned, reason="nothing to do")
        margin = min(ph[0] - ph[1] for ph in (place, turn) if ph is not None)
        return Decision(False, self.creep(turned, place is not None),
                        reason=f"static margin {margin:+.2f} deg beyond the dynamic margin")

    def _margin_one(self, tower: TowerState) -> tuple[float, int]:
        gradient = self.gradient(tower.turns)
        margin, interface = static_margin_one(self.params, self.table, tower.barrels, gradient,
                                              tower.slice_direction_rad, self._wall_rad)
        return math.degrees(margin), interface


def _phase(margin: float, threshold: float, interface: int) -> tuple[float, float, int] | None:
    return None if math.isnan(margin) else (float(margin), float(threshold), int(interface))


def _reason(phase: str, margin: float, threshold: float, interface: int) -> str:
    where = "the deck" if interface == 0 else f"barrel {interface}"
    return (f"{phase}: barrel {interface + 1} on {where} has a static margin of {margin:+.2f} deg, "
            f"below the {threshold:.2f} deg needed")
