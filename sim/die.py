"""The toy's colour die: its faces, and what a roll asks of the ship (DESIGN.md section 4).

Two red faces, two yellow, one blue and one wild (:data:`FACES`). A roll names the sailors who
may turn (its own; any of the three on a wild roll, the player choosing after placing) and
whether a barrel goes on the ship first: every face places one, except blue once the round's
first barrel is on (blue then turns with no barrel; a round's first turn always places).

This is the one place the roll's meaning is written. The game asks it through
:meth:`kipp.rules.state.GameState.roll_meaning`; calibration, which stands on ``sim`` alone,
reads the measured rounds of a real set with :func:`roll_meaning` (so the die lives beside the
ship's screws, :data:`sim.params.SCREWS`, rather than above calibration in ``kipp.rules``).

>>> roll_meaning("blue", placed=0)
RollMeaning(places_barrel=True, sailors=('blue',))
>>> roll_meaning("blue", placed=3)
RollMeaning(places_barrel=False, sailors=('blue',))
>>> roll_meaning(WILD, placed=3).sailors
('red', 'yellow', 'blue')
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.params import SCREWS

WILD = "wild"
"""The face that lets the player choose the sailor."""
FACES = ("red", "red", "yellow", "yellow", "blue", WILD)
"""The colour die: two red, two yellow, one blue, one wild face."""
PLACES_NOTHING_ONCE_STARTED = "blue"
"""The face that turns its sailor without a barrel once the round's first barrel is on."""


@dataclass(frozen=True)
class RollMeaning:
    """What a roll of one face asks for now."""

    places_barrel: bool
    """Is a barrel put on the ship before the sailor turns?"""
    sailors: tuple[str, ...]
    """The sailors who may turn: the face's own, or all three (:data:`SCREWS` order) on a wild roll."""


def roll_meaning(face: str, placed: int) -> RollMeaning:
    """What a roll of ``face`` asks for when ``placed`` barrels of the round are on the ship
    (``ValueError`` for a face that is neither a sailor's colour nor :data:`WILD`)."""
    if face == WILD:
        return RollMeaning(True, SCREWS)
    if face not in SCREWS:
        raise ValueError(f"unknown die face {face!r}; expected red, yellow, blue or {WILD}")
    return RollMeaning(face != PLACES_NOTHING_ONCE_STARTED or placed == 0, (face,))
