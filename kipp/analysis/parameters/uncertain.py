"""The toy's uncertain parameters and their plausible ranges: the arms of ``kipp sensitivity``.

No real set has been measured, so every default of ``sim/default_params.toml`` is an
assumption. Each :class:`Uncertain` names a parameter (or a group that one measurement
fixes: all barrel heights, say), its plausible range, and how an owner of a real set would
measure it. Ranges are either absolute (the thread pitch lies between 2.5 and 5 mm per turn
whatever the file says), a shift of the parameter set's value (barrel heights +-2 mm), or a
factor on it (masses +-20%). The player model's placement error is a property of the
players, not of the set; it is listed too, as a factor on the model's hand.

An arm is the parameter set (``--params`` or the defaults) with one parameter at one end of
its range: :func:`arm_params` builds it through :func:`sim.params.load_params`, so an arm the
rules of the parameter file refuse is refused with the same message.

>>> [u.name for u in UNCERTAIN][:3]
['thread pitch', 'friction', 'barrel heights']
>>> arm_overrides(UNCERTAIN[0], Side.HIGH, resolve_tables())
{'ship': {'thread_pitch_mm': 5.0}}
>>> round(arm_params(UNCERTAIN[7], Side.LOW, None).ship.screw_xy("red")[0], 4)
0.06
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kipp.language import N_, SOURCE_LANGUAGE, Language
from sim.params import SCREWS, Params, load_params, resolve_tables


class Spread(enum.Enum):
    """How a range is given: the values themselves, a shift of the set's value, a factor on it,
    or (the screws) the radius of the circle the three screws stand on."""

    ABSOLUTE = "absolute"
    SHIFT = "shift"
    FACTOR = "factor"
    SCREW_RADIUS = "screw radius"


class Side(enum.Enum):
    """Which end of a parameter's range an arm plays (or the parameter set's own value)."""

    LOW = "low"
    DEFAULT = "default"
    HIGH = "high"


PLACEMENT_ERROR = "placement error"
"""The one uncertain quantity of the players, not of the set (a factor on the model's hand)."""


@dataclass(frozen=True)
class Uncertain:
    """One uncertain parameter (or group of parameters one measurement fixes) and its range."""

    name: str
    """Plain words, as the table shows them."""
    keys: tuple[str, ...]
    """The parameter file's keys it moves (dotted, e.g. ``ship.thread_pitch_mm``); none for the placement error."""
    spread: Spread
    low: float
    high: float
    """The range's ends: values (ABSOLUTE, SCREW_RADIUS, mm for the radius), a shift (SHIFT, in the keys'
    unit), or factors (FACTOR)."""
    unit: str
    """The unit of :attr:`low` and :attr:`high` as shown ('' for factors and plain numbers)."""
    how_to_measure: str
    """How an owner of a real set measures it (the headline's advice; English, marked with ``N_``)."""

    def range_text(self, language: Language | None = None) -> str:
        """The range in words (``0.3 to 0.6``, ``-2 to +2 mm``, ``x0.8 to x1.2``), in ``language``
        (default English)."""
        language = language or Language(SOURCE_LANGUAGE)
        number = language.decimal
        if self.spread is Spread.FACTOR:
            low, high = f"x{number(self.low)}", f"x{number(self.high)}"
        else:
            shift = self.spread is Spread.SHIFT
            low, high = number(self.low, sign=shift), number(self.high, sign=shift)
        unit = language.gettext(self.unit) if self.unit else ""
        return language.gettext("{low} to {high} {unit}").format(low=low, high=high, unit=unit).rstrip()


_SIZES = ("large", "medium", "small")

UNCERTAIN: tuple[Uncertain, ...] = (
    Uncertain("thread pitch", ("ship.thread_pitch_mm",), Spread.ABSOLUTE, 2.5, 5.0, N_("mm/turn"),
              N_("turn one sailor ten full turns and measure how far the deck rises at its screw (a ruler "
              "against the hull), divided by ten")),
    Uncertain("friction", ("friction.mu",), Spread.ABSOLUTE, 0.3, 0.6, "",
              N_("stand one barrel on another on a board and tilt the board until the upper one slides: "
              "mu = tan(angle)")),
    Uncertain("barrel heights", tuple(f"barrels.{s}.height_mm" for s in _SIZES), Spread.SHIFT, -2.0, 2.0, "mm",
              N_("calipers on a few barrels of each size")),
    Uncertain("barrel end diameters", tuple(f"barrels.{s}.end_diameter_mm" for s in _SIZES), Spread.SHIFT,
              -2.0, 2.0, "mm", N_("calipers across the flat ends")),
    Uncertain("large barrels' mass", ("barrels.large.mass_g",), Spread.FACTOR, 0.8, 1.2, "",
              N_("a kitchen scale (0.1 g) on the four large barrels together")),
    Uncertain("medium barrels' mass", ("barrels.medium.mass_g",), Spread.FACTOR, 0.8, 1.2, "",
              N_("a kitchen scale on the four medium barrels together")),
    Uncertain("small barrels' mass", ("barrels.small.mass_g",), Spread.FACTOR, 0.8, 1.2, "",
              N_("a kitchen scale on the four small barrels together")),
    Uncertain("screw circle radius", tuple(f"ship.screws.{s}.{axis}_mm" for s in SCREWS for axis in "xy"),
              Spread.SCREW_RADIUS, 60.0, 85.0, "mm",
              N_("the distance from the tower spot's centre to each sailor's screw axis")),
    Uncertain("turn rate", ("turn.rate_rev_per_s",), Spread.ABSOLUTE, 0.5, 2.0, N_("rev/s"),
              N_("film a few players turning a sailor and count frames per revolution")),
    Uncertain(PLACEMENT_ERROR, (), Spread.FACTOR, 0.5, 1.5, "",
              N_("the players, not the set: film placements from above and measure the miss")),
)
"""The plausible ranges of ``kipp sensitivity`` (the issue's: pitch 2.5-5 mm per turn, friction
0.3-0.6, barrel heights and end diameters +-2 mm, masses +-20%, screws 60-85 mm from the tower
spot, turns at 0.5-2 revolutions per second, the players' placement error x0.5 to x1.5)."""


def by_name(name: str) -> Uncertain:
    """The uncertain parameter called ``name``; ``KeyError`` names the known ones."""
    for u in UNCERTAIN:
        if u.name == name:
            return u
    raise KeyError(f"unknown uncertain parameter {name!r}; known: {', '.join(u.name for u in UNCERTAIN)}")


def lookup(raw: dict, key: str) -> Any:
    """The value at the dotted ``key`` of raw parameter tables; ``KeyError`` if there is none."""
    node: Any = raw
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise KeyError(key)
        node = node[part]
    return node


def nested(values: dict[str, float]) -> dict:
    """Raw parameter tables from dotted keys: ``{"ship.thread_pitch_mm": 3}`` -> ``{"ship": {...: 3}}``."""
    out: dict = {}
    for key, value in values.items():
        *path, last = key.split(".")
        node = out
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def arm_overrides(u: Uncertain, side: Side, raw: dict) -> dict:
    """The raw tables that put ``u`` at ``side`` of its range, from the set's resolved tables ``raw``
    (empty for the default side and for the placement error, which is the bot's, not the file's)."""
    if side is Side.DEFAULT or not u.keys:
        return {}
    end = u.low if side is Side.LOW else u.high
    if u.spread is Spread.ABSOLUTE:
        return nested({key: end for key in u.keys})
    if u.spread is Spread.SHIFT:
        return nested({key: lookup(raw, key) + end for key in u.keys})
    if u.spread is Spread.FACTOR:
        return nested({key: lookup(raw, key) * end for key in u.keys})
    values = {}
    for sailor in SCREWS:  # SCREW_RADIUS: each screw moved along its own ray from the tower spot
        x, y = lookup(raw, f"ship.screws.{sailor}.x_mm"), lookup(raw, f"ship.screws.{sailor}.y_mm")
        scale = end / math.hypot(x, y)
        values[f"ship.screws.{sailor}.x_mm"], values[f"ship.screws.{sailor}.y_mm"] = x * scale, y * scale
    return nested(values)


def arm_value(u: Uncertain, side: Side, raw: dict, model_sigma_mm: float) -> float:
    """The value ``u`` takes at ``side`` (its first key's, or the screw radius, or the hand in mm)."""
    if u.name == PLACEMENT_ERROR:
        return model_sigma_mm * (1.0 if side is Side.DEFAULT else u.low if side is Side.LOW else u.high)
    if u.spread is Spread.SCREW_RADIUS:
        screws = arm_overrides(u, side, raw) or raw
        red = screws["ship"]["screws"]["red"]
        return math.hypot(red["x_mm"], red["y_mm"])
    changed = arm_overrides(u, side, raw)
    return float(lookup(changed or raw, u.keys[0]))


def arm_params(u: Uncertain, side: Side, path: str | Path | None) -> Params:
    """The parameter set of ``path`` (None: the defaults) with ``u`` at ``side`` of its range;
    :class:`sim.params.ParamsError` if the rules of the parameter file refuse it."""
    return load_params(path, overrides=arm_overrides(u, side, resolve_tables(path)))
