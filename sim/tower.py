"""The tower as a value: what a referee takes and returns, and the referee protocol.

Pure data, no physics engine, so that the rules core, the viewer and the analyses can
hold, compare, serialise and hand back tower states without importing pymunk.

Frames: barrel positions are in the deck frame (x toward the bow, y to port, along the
deck surface; origin at the tower spot), heights along the deck normal from the deck's
top surface, metres. A barrel's ``tilt_rad`` is its rotation relative to the deck within
the current 2D slice (counter-clockwise seen with the slice direction pointing right).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol, runtime_checkable

from sim.params import SCREWS, Params


@dataclass(frozen=True)
class BarrelPose:
    """Where one barrel of the tower is, in the deck frame (metres, radians)."""

    size: str
    x_m: float
    y_m: float
    z_m: float
    """Height of the barrel's centre above the deck's top surface."""
    tilt_rad: float = 0.0


@dataclass(frozen=True)
class TowerState:
    """Sailor turn counts plus the barrels on deck, bottom first.

    ``slice_direction_rad`` is the horizontal direction (from the bow toward port) of the
    vertical plane the 2D physics ran in last: the deck's downhill direction after the last
    turn that left it tilted, or the direction the tower would tip where it was near tipping
    (DESIGN.md 3.2, :func:`sim.slice_contact.fall_slice`).
    """

    turns: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Revolutions turned by the red, yellow and blue sailors."""
    slice_direction_rad: float = 0.0
    barrels: tuple[BarrelPose, ...] = field(default_factory=tuple)

    def turns_by_sailor(self) -> dict[str, float]:
        """Turn counts keyed by sailor name (revolutions)."""
        return dict(zip(SCREWS, self.turns))

    def top_height_m(self, params: Params) -> float:
        """Height of the top barrel's top face above the deck surface, metres (0 if empty),
        with its size's height from ``params``."""
        if not self.barrels:
            return 0.0
        top = self.barrels[-1]
        return top.z_m + params.barrel(top.size).height_m / 2

    def top_xy(self) -> tuple[float, float]:
        """Deck-frame (x, y) of the top barrel's centre, metres; the tower spot if empty."""
        if not self.barrels:
            return 0.0, 0.0
        top = self.barrels[-1]
        return top.x_m, top.y_m

    def with_turn(self, sailor: str, revolutions: float) -> "TowerState":
        """The same tower after ``sailor`` turned ``revolutions`` more (barrels untouched)."""
        turns = list(self.turns)
        turns[SCREWS.index(sailor)] += revolutions
        return TowerState(tuple(turns), self.slice_direction_rad, self.barrels)

    def to_dict(self) -> dict:
        """A JSON-ready dict (floats exactly round-trip through ``repr``)."""
        return {
            "turns": list(self.turns),
            "slice_direction_rad": self.slice_direction_rad,
            "barrels": [[b.size, b.x_m, b.y_m, b.z_m, b.tilt_rad] for b in self.barrels],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "TowerState":
        """Inverse of :meth:`to_dict`."""
        return cls(
            turns=tuple(float(t) for t in data["turns"]),
            slice_direction_rad=float(data["slice_direction_rad"]),
            barrels=tuple(BarrelPose(str(s), float(x), float(y), float(z), float(t))
                          for s, x, y, z, t in data["barrels"]),
        )


@dataclass(frozen=True)
class Placement:
    """Put a barrel of ``size`` with its centre at deck-frame (x_m, y_m), metres."""

    size: str
    x_m: float
    y_m: float


@dataclass(frozen=True)
class Turn:
    """Turn ``sailor`` by ``revolutions`` (1.0 a full turn, 0.5 the younger-sailor half turn)."""

    sailor: str
    revolutions: float

    def __post_init__(self) -> None:
        if self.sailor not in SCREWS:
            raise ValueError(f"unknown sailor {self.sailor!r}; expected one of {', '.join(SCREWS)}")
        if not math.isfinite(self.revolutions):
            raise ValueError(f"revolutions must be finite, got {self.revolutions!r}")


@dataclass(frozen=True)
class FallenStack:
    """What fell in a crash: barrel ``lowest`` (0 is the bottom barrel) and every barrel above
    it, toward the horizontal ``direction_rad`` of the deck frame (radians from the bow toward
    port). ``in_slice`` says whether the 2D world simulated the fall (False: a closed form
    decided it, and the world's poses do not show it)."""

    lowest: int
    direction_rad: float
    in_slice: bool = True


@dataclass(frozen=True)
class Decision:
    """A referee's verdict on a placement and/or a turn.

    ``phase`` is ``"place"`` or ``"turn"`` when the tower crashed during that phase, else
    ``None``. ``tower`` is the tower after the decision (on a crash: the poses at the
    moment the fall was detected). ``simulated_s`` is the physical time simulated.
    ``fallen`` says what fell, when the referee knows (the physics referee does).
    """

    crashed: bool
    tower: TowerState
    phase: str | None = None
    reason: str = ""
    simulated_s: float = 0.0
    fallen: FallenStack | None = None


class Situation(NamedTuple):
    """A decision to make: the tower as it is, the barrel to place (or None), the sailor to
    turn (or None). The one situation type of the project: what
    :meth:`Referee.decide` takes (``referee.decide(*situation)``), what the batched
    referees take in lists, and what the benchmarks are made of. A tuple, so it unpacks."""

    tower: TowerState
    placement: Placement | None
    turn: Turn | None


@runtime_checkable
class Referee(Protocol):
    """Decides physical outcomes for the rules engine.

    ``decide(tower, placement, turn)`` places the barrel (if any), lets it settle, then
    turns the sailor (if any) and lets the tower settle; it stops at the first crash.
    Implementations must be deterministic: the same inputs give the same Decision.
    """

    def new_tower(self) -> TowerState: ...

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision: ...
