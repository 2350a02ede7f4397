"""Test referees: the :class:`sim.tower.Referee` protocol without physics.

- :class:`ScriptedReferee`: the test says what happens at each call of ``decide``.
- :class:`ThresholdReferee`: deterministic and fast, with a plausible shape: a miss of
  the top barrel by more than ``max_miss_mm``, or a deck tilt beyond
  ``tilt_budget_deg / barrels on deck``, crashes; so does a seeded hash with probability
  ``crash_rate`` per call, so that every rule gets exercised.

:func:`standing_in` registers a factory under the referees' names for a ``with`` block.
"""

from __future__ import annotations

import contextlib
import math
import zlib
from dataclasses import replace
from typing import Iterator

from sim.geometry import deck_gradient, tilt_angle
from sim.params import load_params
from sim.referees import BUILT_IN, registered_referee
from sim.tower import BarrelPose, Decision, Placement, TowerState, Turn

_HEIGHT_M = 0.03


def _placed(tower: TowerState, placement: Placement) -> TowerState:
    z = _HEIGHT_M * (len(tower.barrels) + 0.5)
    pose = BarrelPose(placement.size, placement.x_m, placement.y_m, z)
    return replace(tower, barrels=tower.barrels + (pose,))


class ScriptedReferee:
    """Outcomes from a script: per ``decide`` call ``None`` (stands), ``"place"`` or ``"turn"``
    (crash in that phase). After the script runs out everything stands."""

    def __init__(self, script=()):
        self.script = list(script)
        self.calls: list[tuple[TowerState, Placement | None, Turn | None]] = []

    def new_tower(self) -> TowerState:
        return TowerState()

    def decide(self, tower, placement, turn):
        self.calls.append((tower, placement, turn))
        outcome = self.script.pop(0) if self.script else None
        if placement is not None:
            tower = _placed(tower, placement)
            if outcome == "place":
                return Decision(True, tower, "place", "scripted")
        if turn is not None:
            tower = tower.with_turn(turn.sailor, turn.revolutions)
            if outcome == "turn":
                return Decision(True, tower, "turn", "scripted")
        return Decision(False, tower)


class ThresholdReferee:
    """A fast deterministic stand-in for physics (see the module docstring)."""

    def __init__(self, seed: int = 0, crash_rate: float = 0.03, tilt_budget_deg: float = 40.0,
                 max_miss_mm: float = 4.0, ship=None):
        self.seed = seed
        self.crash_rate = crash_rate
        self.tilt_budget_deg = tilt_budget_deg
        self.max_miss_mm = max_miss_mm
        self.ship = ship if ship is not None else load_params().ship

    def new_tower(self) -> TowerState:
        return TowerState()

    def _unlucky(self, *key) -> bool:
        return zlib.crc32(repr((self.seed,) + key).encode()) / 2**32 < self.crash_rate

    def decide(self, tower, placement, turn):
        if placement is not None:
            top_x, top_y = tower.top_xy()
            miss_mm = 1000 * math.hypot(placement.x_m - top_x, placement.y_m - top_y)
            tower = _placed(tower, placement)
            if (tower.barrels[1:] and miss_mm > self.max_miss_mm) or self._unlucky(tower, "place"):
                return Decision(True, tower, "place", f"missed by {miss_mm:.1f} mm")
        if turn is not None:
            tower = tower.with_turn(turn.sailor, turn.revolutions)
            tilt = math.degrees(tilt_angle(deck_gradient(self.ship, tower.turns_by_sailor())))
            if tilt > self.tilt_budget_deg / max(1, len(tower.barrels)) or self._unlucky(tower, "turn"):
                return Decision(True, tower, "turn", f"tilt {tilt:.2f} deg")
        return Decision(False, tower)


@contextlib.contextmanager
def standing_in(factory, names: tuple[str, ...] = tuple(BUILT_IN)) -> Iterator[None]:
    """Within the block, each of ``names`` (default: every built-in referee's) builds
    ``factory(params)`` (:func:`sim.referees.registered_referee`): a command that names physics
    plays the stand-in; afterwards the names build what they built before."""
    with contextlib.ExitStack() as stack:
        for name in names:
            stack.enter_context(registered_referee(name, factory))
        yield
