"""Measurements of a real set: the TOML format, read and checked into frozen dataclasses.

The format (``calibration/template_measurements.toml`` is a commented template; units
are in the key names, lengths in mm, masses in g, angles in degrees):

- ``[meta]``: free ``description``; ``synthetic = true`` for data made by the model;
  optional ``length_resolution_mm`` / ``mass_resolution_g``, the reading step of the
  calliper and the scale (the uncertainty of a quantity measured only once).
- ``[[screw_rise]]``: ``sailor``, ``turns`` (revolutions from level), ``rise_mm``: how
  far the deck rose at that sailor's screw.
- ``[screws.SAILOR]``: ``x_mm``, ``y_mm``: lists of repeated readings of the screw's
  position from the tower spot (deck frame: x toward the bow, y to port).
- ``[barrels.SIZE]``: ``height_mm``, ``end_diameter_mm``, ``belly_diameter_mm``,
  ``mass_g``: lists of readings (one per barrel, or repeats).
- ``[[slide]]``: ``pair`` (``"barrel-deck"`` or ``"barrel-barrel"``), optional ``size``,
  and either ``tilt_deg`` or ``turns = {red = .., yellow = .., blue = ..}`` at which the
  barrel started to slide.
- ``[[topple]]``: ``order`` (sizes, bottom first, stacked as centred as you can on the
  level deck), ``turns`` (sailors turned in that order), ``revolutions`` per turn
  (default 1.0), and ``fell_after_turn = K`` (1-based) or ``stood = true``.
- ``[[round]]``: a round played by people: ``order`` (the barrel line), ``rolls`` (the
  die faces in order; ``"wild:SAILOR"`` names the sailor chosen on a wild face),
  ``revolutions`` (default 1.0), ``crashed`` (on the last listed roll) or not (then the
  round was completed). Which rolls placed a barrel is the die's rule
  (:func:`sim.die.roll_meaning`: the first turn always places, later a blue roll places nothing).

Every problem raises :class:`MeasurementError` (a ``ValueError``, the measurement files'
kind of :class:`sim.toml_schema.TomlError`, checked by the same rules as the parameter
files) naming the file and the key, e.g.
``m.toml: topple[3].fell_after_turn: must be an integer between 1 and 6, got 9``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from sim.die import WILD, roll_meaning
from sim.params import SCREWS
from sim.toml_schema import TomlError, raising, read_toml
from sim.toml_schema import boolean as _boolean
from sim.toml_schema import known as _known
from sim.toml_schema import number as _number
from sim.toml_schema import required as _required
from sim.toml_schema import table as _table
from sim.toml_schema import tables as _tables

PAIRS = ("barrel-deck", "barrel-barrel")
BARREL_KEYS = ("height_mm", "end_diameter_mm", "belly_diameter_mm", "mass_g")


class MeasurementError(TomlError):
    """A measurement file is unreadable, malformed or inconsistent; the message names the key."""


@dataclass(frozen=True)
class ScrewRise:
    sailor: str
    turns: float
    rise_mm: float


@dataclass(frozen=True)
class SlideTest:
    """A barrel started to slide at ``tilt_deg``, or at the sailor ``turns`` (converted with the ship)."""

    pair: str
    size: str | None
    tilt_deg: float | None
    turns: tuple[float, float, float] | None


@dataclass(frozen=True)
class ToppleExperiment:
    order: tuple[str, ...]
    turns: tuple[str, ...]
    revolutions: float
    fell_after_turn: int | None
    """1-based index of the turn after which the tower fell; None if it stood."""


@dataclass(frozen=True)
class GameRound:
    order: tuple[str, ...]
    rolls: tuple[str, ...]
    """Die faces; a wild face as ``"wild:SAILOR"``."""
    revolutions: float
    crashed: bool

    def turns(self) -> list[tuple[str, bool]]:
        """(sailor turned, barrel placed first) for each roll, by the die's rule (:func:`sim.die.roll_meaning`)."""
        out, placed = [], 0
        for face in self.rolls:
            sailor = face.split(":", 1)[1] if face.startswith(WILD) else face
            places = roll_meaning(WILD if face.startswith(WILD) else face, placed).places_barrel
            placed += places
            out.append((sailor, places))
        return out


@dataclass(frozen=True)
class Measurements:
    description: str
    synthetic: bool
    length_resolution_mm: float | None
    mass_resolution_g: float | None
    screw_rise: tuple[ScrewRise, ...]
    screws: dict[str, dict[str, tuple[float, ...]]]
    barrels: dict[str, dict[str, tuple[float, ...]]]
    slides: tuple[SlideTest, ...]
    topples: tuple[ToppleExperiment, ...]
    rounds: tuple[GameRound, ...]


_TOP = ("meta", "screw_rise", "screws", "barrels", "slide", "topple", "round")


def _readings(key: str, value: Any, *, positive: bool) -> tuple[float, ...]:
    values = value if isinstance(value, list) else [value]
    if not values:
        raise MeasurementError(f"{key}: empty list of readings")
    return tuple(_number(f"{key}[{i}]", v, positive=positive) for i, v in enumerate(values))


def _sailor(key: str, value: Any) -> str:
    if value not in SCREWS:
        raise MeasurementError(f"{key}: unknown sailor {value!r}; expected one of {', '.join(SCREWS)}")
    return value


def _sizes(key: str, value: Any, sizes: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list) or not value:
        raise MeasurementError(f"{key}: expected a non-empty list of barrel sizes, got {value!r}")
    for i, size in enumerate(value):
        if size not in sizes:
            raise MeasurementError(f"{key}[{i}]: unknown barrel size {size!r}; expected one of {', '.join(sizes)}")
    return tuple(value)


def _revolutions(key: str, table: Mapping) -> float:
    value = _number(f"{key}.revolutions", table.get("revolutions", 1.0))
    if value == 0:
        raise MeasurementError(f"{key}.revolutions: must not be 0")
    return value


def _topple(key: str, table: Mapping, sizes: tuple[str, ...]) -> ToppleExperiment:
    _known(key, table, ("order", "turns", "revolutions", "fell_after_turn", "stood", "note"))
    order = _sizes(f"{key}.order", _required(key, table, "order"), sizes)
    turns = _required(key, table, "turns")
    if not isinstance(turns, list) or not turns:
        raise MeasurementError(f"{key}.turns: expected a non-empty list of sailors, got {turns!r}")
    turns = tuple(_sailor(f"{key}.turns[{i}]", t) for i, t in enumerate(turns))
    fell, stood = table.get("fell_after_turn"), table.get("stood")
    if (fell is None) == (stood is None):
        raise MeasurementError(f"{key}: give exactly one of fell_after_turn = K or stood = true")
    if stood is not None and stood is not True:
        raise MeasurementError(f"{key}.stood: must be true (use fell_after_turn for a fall), got {stood!r}")
    if fell is not None and (isinstance(fell, bool) or not isinstance(fell, int) or not 1 <= fell <= len(turns)):
        raise MeasurementError(f"{key}.fell_after_turn: must be an integer between 1 and {len(turns)}, got {fell!r}")
    return ToppleExperiment(order, turns, _revolutions(key, table), fell)


def _round(key: str, table: Mapping, sizes: tuple[str, ...]) -> GameRound:
    _known(key, table, ("order", "rolls", "revolutions", "crashed", "note"))
    order = _sizes(f"{key}.order", _required(key, table, "order"), sizes)
    rolls = _required(key, table, "rolls")
    if not isinstance(rolls, list) or not rolls:
        raise MeasurementError(f"{key}.rolls: expected a non-empty list of die faces, got {rolls!r}")
    for i, face in enumerate(rolls):
        name = face.split(":", 1)[1] if isinstance(face, str) and face.startswith(WILD + ":") else face
        if face == WILD:
            raise MeasurementError(f"{key}.rolls[{i}]: a wild roll must name the sailor turned, e.g. 'wild:red'")
        if name not in SCREWS:
            raise MeasurementError(f"{key}.rolls[{i}]: unknown face {face!r}; "
                                   "expected red, yellow, blue or wild:SAILOR")
    crashed = _required(key, table, "crashed")
    _boolean(f"{key}.crashed", crashed)
    result = GameRound(order, tuple(rolls), _revolutions(key, table), crashed)
    placed = 0
    for k, (_, places) in enumerate(result.turns()):
        placed += places
        if placed > len(order):
            raise MeasurementError(f"{key}.rolls[{k}]: more barrels placed than the {len(order)} in the order")
        if placed == len(order) and k < len(rolls) - 1:
            raise MeasurementError(f"{key}.rolls[{k + 1}]: the round was over after the last barrel's turn")
    if not crashed and placed < len(order):
        raise MeasurementError(f"{key}: not crashed, but only {placed} of {len(order)} barrels were placed")
    return result


def _slide(key: str, table: Mapping, sizes: tuple[str, ...]) -> SlideTest:
    _known(key, table, ("pair", "size", "tilt_deg", "turns", "note"))
    pair = _required(key, table, "pair")
    if pair not in PAIRS:
        raise MeasurementError(f"{key}.pair: must be one of {', '.join(PAIRS)}, got {pair!r}")
    size = table.get("size")
    if size is not None and size not in sizes:
        raise MeasurementError(f"{key}.size: unknown barrel size {size!r}; expected one of {', '.join(sizes)}")
    if ("tilt_deg" in table) == ("turns" in table):
        raise MeasurementError(f"{key}: give exactly one of tilt_deg or turns")
    if "tilt_deg" in table:
        tilt = _number(f"{key}.tilt_deg", table["tilt_deg"], positive=True)
        if tilt >= 60:
            raise MeasurementError(f"{key}.tilt_deg: {tilt} deg is not a sliding angle (must be < 60)")
        return SlideTest(pair, size, tilt, None)
    turns = _table(f"{key}.turns", table["turns"])
    _known(f"{key}.turns", turns, SCREWS)
    return SlideTest(pair, size, None, tuple(_number(f"{key}.turns.{s}", turns.get(s, 0.0)) for s in SCREWS))


def parse_measurements(raw: Mapping, sizes: tuple[str, ...] = ("large", "medium", "small")) -> Measurements:
    """Check raw TOML tables (see the module docstring) and return :class:`Measurements`."""
    with raising(MeasurementError):
        return _parse(raw, sizes)


def _parse(raw: Mapping, sizes: tuple[str, ...]) -> Measurements:
    for name in raw:
        if name not in _TOP:
            raise MeasurementError(f"{name}: unknown section (expected one of: {', '.join(_TOP)})")
    meta = _table("meta", raw.get("meta", {}))
    _known("meta", meta, ("description", "synthetic", "length_resolution_mm", "mass_resolution_g"))
    synthetic = meta.get("synthetic", False)
    _boolean("meta.synthetic", synthetic)
    resolutions = {k: (_number(f"meta.{k}", meta[k], positive=True) if k in meta else None)
                   for k in ("length_resolution_mm", "mass_resolution_g")}

    rises = []
    for i, table in enumerate(_tables("screw_rise", raw.get("screw_rise", []))):
        key = f"screw_rise[{i}]"
        _known(key, table, ("sailor", "turns", "rise_mm"))
        turns = _number(f"{key}.turns", _required(key, table, "turns"))
        if turns == 0:
            raise MeasurementError(f"{key}.turns: must not be 0")
        rises.append(ScrewRise(_sailor(f"{key}.sailor", _required(key, table, "sailor")), turns,
                               _number(f"{key}.rise_mm", _required(key, table, "rise_mm"))))

    screws: dict[str, dict[str, tuple[float, ...]]] = {}
    for name, table in _table("screws", raw.get("screws", {})).items():
        _sailor(f"screws.{name}", name)
        table = _table(f"screws.{name}", table)
        _known(f"screws.{name}", table, ("x_mm", "y_mm"))
        screws[name] = {k: _readings(f"screws.{name}.{k}", _required(f"screws.{name}", table, k), positive=False)
                        for k in ("x_mm", "y_mm")}
    if screws and set(screws) != set(SCREWS):
        missing = ", ".join(s for s in SCREWS if s not in screws)
        raise MeasurementError(f"screws: measure all three screws or none (missing: {missing})")

    barrels: dict[str, dict[str, tuple[float, ...]]] = {}
    for name, table in _table("barrels", raw.get("barrels", {})).items():
        if name not in sizes:
            raise MeasurementError(f"barrels.{name}: unknown barrel size; expected one of {', '.join(sizes)}")
        table = _table(f"barrels.{name}", table)
        _known(f"barrels.{name}", table, BARREL_KEYS)
        barrels[name] = {k: _readings(f"barrels.{name}.{k}", v, positive=True) for k, v in table.items()}

    return Measurements(
        description=str(meta.get("description", "")),
        synthetic=synthetic,
        length_resolution_mm=resolutions["length_resolution_mm"],
        mass_resolution_g=resolutions["mass_resolution_g"],
        screw_rise=tuple(rises),
        screws=screws,
        barrels=barrels,
        slides=tuple(_slide(f"slide[{i}]", t, sizes) for i, t in enumerate(_tables("slide", raw.get("slide", [])))),
        topples=tuple(_topple(f"topple[{i}]", t, sizes)
                      for i, t in enumerate(_tables("topple", raw.get("topple", [])))),
        rounds=tuple(_round(f"round[{i}]", t, sizes) for i, t in enumerate(_tables("round", raw.get("round", [])))),
    )


def load_measurements(path: str | Path, sizes: tuple[str, ...] = ("large", "medium", "small")) -> Measurements:
    """Read and check a measurement file; :class:`MeasurementError` names the file and the key."""
    with raising(MeasurementError, path):
        return parse_measurements(read_toml(path, "measurement file"), sizes)
