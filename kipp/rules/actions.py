"""The actions of a game: small immutable values whose ``repr`` round-trips.

Chance outcomes and player decisions are both actions (as in OpenSpiel); the state says
who acts next (:meth:`kipp.rules.state.GameState.current_player`).

- :class:`Shuffle` (chance, at the start of each round): the new line of barrels, bottom
  barrel first, as sizes.
- :class:`Roll` (chance): the face the colour die shows (``red``, ``yellow``, ``blue``,
  ``wild``).
- :class:`Play` / :class:`Pass` (player, Old Sea Dogs only, before rolling, once the
  round's first barrel stands): take the turn, or pass it by returning one chip.
- :class:`Place` (player): put the next barrel of the line with its centre at the
  deck-frame point (``x_mm``, ``y_mm``): millimetres from the tower spot, x toward the
  bow, y to port. A continuous action: see :class:`PlaceAnywhere`.
- :class:`ChooseSailor` (player, after placing on a wild roll): the sailor to turn.

>>> Place(1.5, -0.25)
Place(1.5, -0.25)
>>> parse_action(repr(Shuffle(("large", "small"))))
Shuffle(('large', 'small'))
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import Union

from sim.die import WILD  # noqa: F401 - the name the actions of a roll use, re-exported

PLACE_LIMIT_MM = 500.0
"""Largest |coordinate| of a placement, mm: far off any deck, so a placement the referee
must judge (a barrel put beside the ship falls) but no absurd number for the physics."""


@dataclass(frozen=True)
class Shuffle:
    """Chance: the round's new line of barrels (sizes, bottom of the tower first)."""

    order: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))

    def __repr__(self) -> str:
        return f"Shuffle({self.order!r})"


@dataclass(frozen=True)
class Roll:
    """Chance: the die shows ``face``."""

    face: str

    def __repr__(self) -> str:
        return f"Roll({self.face!r})"


@dataclass(frozen=True)
class Play:
    """Old Sea Dogs: do not pass; roll the die."""

    def __repr__(self) -> str:
        return "Play()"


@dataclass(frozen=True)
class Pass:
    """Old Sea Dogs: pass the turn by returning one chip to the supply."""

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True)
class Place:
    """Place the next barrel with its centre at deck-frame (x_mm, y_mm), millimetres."""

    x_mm: float
    y_mm: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "x_mm", float(self.x_mm))
        object.__setattr__(self, "y_mm", float(self.y_mm))

    def __repr__(self) -> str:
        return f"Place({self.x_mm!r}, {self.y_mm!r})"

    @property
    def xy_m(self) -> tuple[float, float]:
        """The position in metres (the referee's unit)."""
        return self.x_mm / 1000.0, self.y_mm / 1000.0


@dataclass(frozen=True)
class ChooseSailor:
    """After placing on a wild roll: turn ``sailor`` (``red``, ``yellow`` or ``blue``)."""

    sailor: str

    def __repr__(self) -> str:
        return f"ChooseSailor({self.sailor!r})"


def place_within(place: Place, limit_mm: float = PLACE_LIMIT_MM) -> bool:
    """Are both coordinates of ``place`` finite and within ``limit_mm`` of the tower spot?"""
    return all(math.isfinite(v) and abs(v) <= limit_mm for v in (place.x_mm, place.y_mm))


@dataclass(frozen=True)
class PlaceAnywhere:
    """What :meth:`~kipp.rules.state.GameState.legal_actions` lists when a barrel is to be placed.

    Placement is continuous: every :class:`Place` whose coordinates are finite and within
    ``limit_mm`` of the tower spot is legal; whether the barrel stays up is the referee's
    business. ``size`` is the barrel to place, ``top_mm`` the deck-frame centre of the
    current top barrel (the tower spot on an empty deck), the natural aim.
    """

    size: str
    top_mm: tuple[float, float]
    limit_mm: float = PLACE_LIMIT_MM

    def contains(self, action: object) -> bool:
        """Is ``action`` a legal placement?"""
        return isinstance(action, Place) and place_within(action, self.limit_mm)

    def __repr__(self) -> str:
        return f"PlaceAnywhere({self.size!r}, top_mm={self.top_mm!r})"


Action = Union[Shuffle, Roll, Play, Pass, Place, ChooseSailor]

_CLASSES = {cls.__name__: cls for cls in (Shuffle, Roll, Play, Pass, Place, ChooseSailor)}


def parse_action(text: str) -> Action:
    """The action whose ``repr`` is ``text`` (safe: literals only, no ``eval``).

    Raises ``ValueError`` for anything else.
    """
    try:
        node = ast.parse(text.strip(), mode="eval").body
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _CLASSES and not node.keywords):
            raise ValueError
        args = [ast.literal_eval(arg) for arg in node.args]
        return _CLASSES[node.func.id](*args)
    except (SyntaxError, ValueError, TypeError):
        raise ValueError(f"not an action: {text!r}") from None
