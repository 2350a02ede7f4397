"""The parameter set: one source of truth for every physical constant of the model.

Parameters live in TOML files whose keys carry their units (``*_mm``, ``*_deg``,
``*_g``, ``*_s``); :func:`load_params` reads the defaults shipped with this package,
overlays a user's file (which names only what it changes) and returns frozen
dataclasses in SI units (metres, kilograms, seconds, radians).

A bad file raises :class:`ParamsError` (a ``ValueError``) whose message names the key
and the problem, e.g. ``barrels.small.mass_g: must be > 0, got -5.3``.

>>> params = load_params()
>>> params.barrel("large").height_m
0.036
>>> round(params.solver.dt_s * 480, 12)
1.0
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

SCREWS = ("red", "yellow", "blue")
"""The three sailors, named by cap colour."""

PROFILES = ("smooth", "constant")


class ParamsError(ValueError):
    """A parameter file is unreadable or a value in it is impossible."""


@dataclass(frozen=True)
class BarrelSpec:
    """One barrel size of the catalogue.

    The side view is a convex polygon: flat ends of ``end_diameter_m`` bulging to
    ``belly_diameter_m`` at mid-height. A box is a barrel with both diameters equal.
    """

    name: str
    colour: str
    count: int
    height_m: float
    end_diameter_m: float
    belly_diameter_m: float
    mass_kg: float


@dataclass(frozen=True)
class ShipParams:
    """Ship geometry in the deck frame (x bow, y port, z up; origin at the tower spot)."""

    screw_positions_m: tuple[tuple[str, float, float], ...]
    """(sailor, x, y) of each screw, metres."""
    thread_pitch_m: float
    """Deck rise at a screw per full revolution of its sailor, metres."""
    deck_half_length_m: float
    deck_thickness_m: float
    recess_diameter_m: float
    recess_depth_m: float

    def screw_xy(self, sailor: str) -> tuple[float, float]:
        """Position (x, y) of a sailor's screw in the deck frame, metres."""
        for name, x, y in self.screw_positions_m:
            if name == sailor:
                return x, y
        raise ParamsError(f"unknown sailor {sailor!r}; expected one of {', '.join(SCREWS)}")


@dataclass(frozen=True)
class TurnParams:
    """How a sailor is turned: ``rate_rev_per_s`` revolutions per second, velocity profile."""

    rate_rev_per_s: float
    profile: str


@dataclass(frozen=True)
class SolverParams:
    """Physics stepping: a fixed step of ``dt_s`` seconds, solver iterations, slop (m), and
    pymunk's ``collision_bias`` (fraction of an overlap beyond the slop left after 1 s) and
    ``damping`` (fraction of every velocity kept after 1 s; 1 = none)."""

    steps_per_second: int
    iterations: int
    collision_slop_m: float
    gravity_m_s2: float
    collision_bias: float = (1.0 - 0.1) ** 60
    """pymunk's default: 10% of an overlap corrected per 1/60 s."""
    damping: float = 1.0

    @property
    def dt_s(self) -> float:
        """The fixed physics step, seconds."""
        return 1.0 / self.steps_per_second


@dataclass(frozen=True)
class SettleParams:
    """How long the world runs after a placement or a turn (seconds).

    The plain loop runs ``max_time_s`` after each phase. The referee stops early once
    the tower is certain to stand: for ``window_s`` with the deck at rest, the barrels'
    kinetic energy stayed below ``energy_fraction`` of the smallest potential barrier
    against toppling (:mod:`sim.energy`). Rest judged by speed or pose thresholds does not
    work here: a tall tower keeps rocking by a few hundredths of a degree on the
    solver's compliant contacts long after it has found its place.
    """

    drop_height_m: float
    max_time_s: float
    window_s: float
    energy_fraction: float


@dataclass(frozen=True)
class CrashParams:
    """When a barrel no longer rests on its support (DESIGN.md 3.4)."""

    max_relative_tilt_rad: float
    max_lift_m: float


@dataclass(frozen=True)
class FastParams:
    """The fast referee's dynamic margins and the hybrid's band (:mod:`sim.fast_referee`), degrees.

    A turn crashes when the static margin (how much more deck tilt the tower would stand,
    :mod:`sim.static_check`) is below ``turn_margin_deg + turn_margin_deg_per_m * height
    + turn_margin_s2 * acceleration`` (tower height in metres; the turn's deck acceleration
    in the slice, deg/s^2, see :meth:`sim.fast_referee.FastReferee.turn_acceleration_deg_s2`);
    a placement when it is below ``place_margin_deg``. The
    hybrid referee asks physics when a margin is within ``hybrid_band_deg`` of its
    threshold. ``recess_wall_contact_deg``: the bottom barrel pivots on the recess wall's
    top edge when it would touch it after turning less than this.

    Creep (fitted to physics, :mod:`calibration.creep_fit`): after each standing decision
    on a tilted deck, every barrel above the bottom one moves downhill by
    ``creep_lean_rad`` (radians) times its height above the bottom barrel's centre, and
    the barrel just placed ends ``creep_placed_mm`` (millimetres) downhill of its aim.
    """

    turn_margin_deg: float
    turn_margin_deg_per_m: float
    turn_margin_s2: float
    place_margin_deg: float
    hybrid_band_deg: float
    recess_wall_contact_deg: float
    creep_lean_rad: float
    creep_placed_mm: float


@dataclass(frozen=True)
class PlacementParams:
    """How precisely barrels are put on the tower: Gaussian error per deck axis, metres."""

    sigma_m: float


@dataclass(frozen=True)
class Params:
    """The whole parameter set, SI units."""

    ship: ShipParams
    turn: TurnParams
    barrels: tuple[BarrelSpec, ...]
    mu: float
    """Coefficient of friction for every touching pair (wood on wood)."""
    placement: PlacementParams
    solver: SolverParams
    settle: SettleParams
    crash: CrashParams
    fast: FastParams
    """The fast and hybrid referees' margins (fitted to physics, :mod:`calibration.margin_fit`)."""

    def barrel(self, name: str) -> BarrelSpec:
        """The catalogue entry of a barrel size (``large``, ``medium``, ``small``)."""
        for spec in self.barrels:
            if spec.name == name:
                return spec
        names = ", ".join(b.name for b in self.barrels)
        raise ParamsError(f"unknown barrel size {name!r}; expected one of {names}")


# --- the schema: TOML key -> (type, check) ------------------------------------------

_POSITIVE = "positive"
_NON_NEGATIVE = "non-negative"
_ANY = "any"
_FRACTION = "fraction"
"""In (0, 1]."""

_SCHEMA: dict[str, Any] = {
    "ship": {
        "thread_pitch_mm": (float, _POSITIVE),
        "deck_half_length_mm": (float, _POSITIVE),
        "deck_thickness_mm": (float, _POSITIVE),
        "recess_diameter_mm": (float, _POSITIVE),
        "recess_depth_mm": (float, _NON_NEGATIVE),
        "screws": {name: {"x_mm": (float, _ANY), "y_mm": (float, _ANY)} for name in SCREWS},
    },
    "turn": {"rate_rev_per_s": (float, _POSITIVE), "profile": (str, PROFILES)},
    "barrels": "barrels",
    "placement": {"sigma_mm": (float, _NON_NEGATIVE)},
    "friction": {"mu": (float, _POSITIVE)},
    "solver": {
        "steps_per_second": (int, _POSITIVE),
        "iterations": (int, _POSITIVE),
        "collision_slop_mm": (float, _NON_NEGATIVE),
        "gravity_m_s2": (float, _POSITIVE),
        "collision_bias": (float, _FRACTION),
        "damping": (float, _FRACTION),
    },
    "settle": {
        "drop_height_mm": (float, _NON_NEGATIVE),
        "max_time_s": (float, _POSITIVE),
        "window_s": (float, _POSITIVE),
        "energy_fraction": (float, _POSITIVE),
    },
    "crash": {"max_relative_tilt_deg": (float, _POSITIVE), "max_lift_mm": (float, _POSITIVE)},
    "fast": {
        "turn_margin_deg": (float, _ANY),
        "turn_margin_deg_per_m": (float, _ANY),
        "turn_margin_s2": (float, _ANY),
        "place_margin_deg": (float, _ANY),
        "hybrid_band_deg": (float, _NON_NEGATIVE),
        "recess_wall_contact_deg": (float, _NON_NEGATIVE),
        "creep_lean_rad": (float, _ANY),
        "creep_placed_mm": (float, _ANY),
    },
}

_BARREL_SCHEMA = {
    "colour": (str, _ANY),
    "count": (int, _POSITIVE),
    "height_mm": (float, _POSITIVE),
    "end_diameter_mm": (float, _POSITIVE),
    "belly_diameter_mm": (float, _POSITIVE),
    "mass_g": (float, _POSITIVE),
}


def physics_fingerprint(params: Params) -> str:
    """A short hash of everything the physics referee uses (the fast referee's margins left
    out): labels made by physics under another fingerprint are stale."""
    text = repr([getattr(params, f.name) for f in fields(params) if f.name != "fast"])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _check_value(key: str, value: Any, kind: type, check: Any) -> Any:
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParamsError(f"{key}: expected a number, got {value!r}")
        value = float(value)
        if not math.isfinite(value):
            raise ParamsError(f"{key}: must be a finite number, got {value!r}")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParamsError(f"{key}: expected an integer, got {value!r}")
    elif not isinstance(value, kind):
        raise ParamsError(f"{key}: expected a {kind.__name__}, got {value!r}")
    if check == _POSITIVE and not value > 0:
        raise ParamsError(f"{key}: must be > 0, got {value!r}")
    if check == _NON_NEGATIVE and not value >= 0:
        raise ParamsError(f"{key}: must be >= 0, got {value!r}")
    if check == _FRACTION and not 0 < value <= 1:
        raise ParamsError(f"{key}: must be > 0 and <= 1, got {value!r}")
    if isinstance(check, tuple) and value not in check:
        raise ParamsError(f"{key}: must be one of {', '.join(check)}, got {value!r}")
    return value


def _merge(base: dict, override: Mapping, schema: Any, prefix: str) -> dict:
    """Overlay ``override`` on ``base`` (both raw TOML tables), validating every key."""
    merged = dict(base)
    for key, value in override.items():
        path = f"{prefix}{key}"
        if schema == "barrels":
            sub_schema: Any = _BARREL_SCHEMA
        elif isinstance(schema, dict) and key in schema:
            sub_schema = schema[key]
        else:
            expected = ", ".join(sorted(schema)) if isinstance(schema, dict) else ""
            raise ParamsError(f"{path}: unknown key (expected one of: {expected})")
        if isinstance(sub_schema, (dict, str)):
            if not isinstance(value, Mapping):
                raise ParamsError(f"{path}: expected a table, got {value!r}")
            merged[key] = _merge(base.get(key, {}), value, sub_schema, path + ".")
        else:
            merged[key] = _check_value(path, value, *sub_schema)
    return merged


def _require(table: Mapping, key: str, prefix: str) -> Any:
    if key not in table:
        raise ParamsError(f"{prefix}{key}: missing")
    return table[key]


def _barrel(name: str, raw: Mapping) -> BarrelSpec:
    prefix = f"barrels.{name}."
    values = {key: _require(raw, key, prefix) for key in _BARREL_SCHEMA}
    if values["belly_diameter_mm"] < values["end_diameter_mm"]:
        raise ParamsError(
            f"{prefix}belly_diameter_mm: must be >= end_diameter_mm "
            f"({values['belly_diameter_mm']} < {values['end_diameter_mm']})"
        )
    return BarrelSpec(
        name=name,
        colour=values["colour"],
        count=values["count"],
        height_m=values["height_mm"] / 1000,
        end_diameter_m=values["end_diameter_mm"] / 1000,
        belly_diameter_m=values["belly_diameter_mm"] / 1000,
        mass_kg=values["mass_g"] / 1000,
    )


def _contains_origin(points: list[tuple[float, float]]) -> bool:
    """Is the tower spot (0, 0) strictly inside the triangle of the three screws?"""
    signs = []
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        signs.append(x1 * y2 - x2 * y1)  # cross product of consecutive corners about the origin
    return all(s > 0 for s in signs) or all(s < 0 for s in signs)


def _build(raw: Mapping) -> Params:
    ship = raw["ship"]
    screws = [(name, ship["screws"][name]["x_mm"] / 1000, ship["screws"][name]["y_mm"] / 1000)
              for name in SCREWS]
    if not _contains_origin([(x, y) for _, x, y in screws]):
        raise ParamsError("ship.screws: the triangle of the three screws must contain the tower spot (0, 0)")
    if not ship["recess_diameter_mm"] < 2 * ship["deck_half_length_mm"]:
        raise ParamsError("ship.recess_diameter_mm: must be smaller than the deck (2 x deck_half_length_mm)")
    barrels = tuple(_barrel(name, table) for name, table in raw["barrels"].items())
    if not barrels:
        raise ParamsError("barrels: the catalogue is empty")
    settle, crash, solver = raw["settle"], raw["crash"], raw["solver"]
    return Params(
        ship=ShipParams(
            screw_positions_m=tuple(screws),
            thread_pitch_m=ship["thread_pitch_mm"] / 1000,
            deck_half_length_m=ship["deck_half_length_mm"] / 1000,
            deck_thickness_m=ship["deck_thickness_mm"] / 1000,
            recess_diameter_m=ship["recess_diameter_mm"] / 1000,
            recess_depth_m=ship["recess_depth_mm"] / 1000,
        ),
        turn=TurnParams(rate_rev_per_s=raw["turn"]["rate_rev_per_s"], profile=raw["turn"]["profile"]),
        barrels=barrels,
        mu=raw["friction"]["mu"],
        placement=PlacementParams(sigma_m=raw["placement"]["sigma_mm"] / 1000),
        solver=SolverParams(
            steps_per_second=solver["steps_per_second"],
            iterations=solver["iterations"],
            collision_slop_m=solver["collision_slop_mm"] / 1000,
            gravity_m_s2=solver["gravity_m_s2"],
            collision_bias=solver["collision_bias"],
            damping=solver["damping"],
        ),
        settle=SettleParams(
            drop_height_m=settle["drop_height_mm"] / 1000,
            max_time_s=settle["max_time_s"],
            window_s=settle["window_s"],
            energy_fraction=settle["energy_fraction"],
        ),
        crash=CrashParams(
            max_relative_tilt_rad=math.radians(crash["max_relative_tilt_deg"]),
            max_lift_m=crash["max_lift_mm"] / 1000,
        ),
        fast=FastParams(**raw["fast"]),
    )


def _read_toml(text: str, source: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ParamsError(f"{source} ({error})") from None


def default_params_text() -> str:
    """The TOML text of the shipped defaults."""
    return resources.files("sim").joinpath("default_params.toml").read_text(encoding="utf-8")


def load_params(path: str | Path | None = None, *, overrides: Mapping | None = None) -> Params:
    """Load the defaults, overlay the TOML file at ``path`` and then ``overrides`` (raw TOML tables).

    Raises :class:`ParamsError` naming the key and the problem for anything invalid.
    """
    raw = _merge({}, _read_toml(default_params_text(), "default parameters: not valid TOML"), _SCHEMA, "")
    if path is None:
        return _build(_merge(raw, overrides or {}, _SCHEMA, ""))
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ParamsError(f"{path}: cannot read parameter file ({error.strerror})") from None
    try:
        raw = _merge(raw, _read_toml(text, "not valid TOML"), _SCHEMA, "")
        return _build(_merge(raw, overrides or {}, _SCHEMA, ""))
    except ParamsError as error:
        raise ParamsError(f"{path}: {error}") from None
