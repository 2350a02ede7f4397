"""The parameter set: one source of truth for every physical constant of the model.

Parameters live in TOML files whose keys carry their units (``*_mm``, ``*_deg``,
``*_g``, ``*_s``); :func:`load_params` reads the defaults shipped with this package,
overlays a user's file (which names only what it changes) and returns frozen
dataclasses in SI units (metres, kilograms, seconds, radians).

A bad file raises :class:`ParamsError` (a ``ValueError``, the parameter files' kind of
:class:`sim.toml_schema.TomlError`) whose message names the file, the key and the problem,
e.g. ``my.toml: barrels.small.mass_g: must be > 0, got -5.3``. Values outside a plausible
range (see the schema below) and sets that would make one physics decision take more
than :data:`MAX_DECISION_STEPS` steps are refused the same way. :func:`params_toml`
writes a resolved set back as TOML.

>>> params = load_params()
>>> params.barrel("large").height_m
0.036
>>> round(params.solver.dt_s * 960, 12)
1.0
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from sim.toml_schema import (
    NON_NEGATIVE,
    POSITIVE,
    EachTable,
    Number,
    OneOf,
    Text,
    TomlError,
    dump_toml,
    loads_toml,
    merge,
    raising,
    read_toml,
    required,
)

SCREWS = ("red", "yellow", "blue")
"""The three sailors, named by cap colour."""

PROFILES = ("smooth", "constant")


class ParamsError(TomlError):
    """A parameter file is unreadable or a value in it is impossible (a ``ValueError``)."""


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
    """When a barrel no longer rests on its support: turned more than ``max_relative_tilt_rad``
    against the barrel (or deck) below it, or its bottom face's centre lifted more than
    ``max_lift_m`` off that support's top face."""

    max_relative_tilt_rad: float
    max_lift_m: float


@dataclass(frozen=True)
class FastParams:
    """The fast referee's dynamic margins and the hybrid's band (:mod:`sim.referees.fast`), degrees.

    A turn crashes when the static margin (how much more deck tilt the tower would stand,
    :mod:`sim.static_check`) is below ``turn_margin_deg + turn_margin_deg_per_m * height
    + turn_margin_s2 * acceleration`` (tower height in metres; the turn's deck acceleration
    in the slice, deg/s^2, see :meth:`sim.referees.fast.FastReferee.turn_acceleration_deg_s2`);
    a placement when it is below ``place_margin_deg``. The
    hybrid referee asks physics when a margin is within ``hybrid_band_deg`` of its
    threshold. ``recess_wall_contact_deg``: the bottom barrel pivots on the recess wall's
    top edge when it would touch it after turning less than this.

    Creep (fitted to physics, :mod:`lab.creep_fit`): after each standing decision
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
    """The fast and hybrid referees' margins (fitted to physics, :mod:`lab.margin_fit`)."""

    def barrel(self, name: str) -> BarrelSpec:
        """The catalogue entry of a barrel size (``large``, ``medium``, ``small``)."""
        for spec in self.barrels:
            if spec.name == name:
                return spec
        names = ", ".join(b.name for b in self.barrels)
        raise ParamsError(f"unknown barrel size {name!r}; expected one of {names}")


# --- the schema: TOML key -> spec (sim.toml_schema) -------------------------------------
#
# Every value must be of its type and sign (the plain "must be > 0" rules), and within a
# plausible range for a wooden toy and a solver that still decides in bounded time. The
# ranges are wide on purpose (a calibrated or experimental set must fit), and refuse what
# would break or hang the physics:
#
# - ship: thread pitch 0.1-20 mm per turn, deck half-length 20-500 mm, deck 1-100 mm
#   thick, recess 1-200 mm wide and 0-20 mm deep, screws within 1 m of the tower spot;
# - turn: 0.05-20 revolutions per second (slower turns take minutes of simulated time);
# - barrels: 1-20 of a size, 5-200 mm tall and wide, 0.5-1000 g;
# - placement error 0-20 mm; friction mu 0.01-2;
# - solver: 60-20000 steps per second (below 60 the solver diverges at once; at least one
#   step per 60 Hz frame), 1-1000 iterations, collision slop 0-1 mm, gravity 0.1-100 m/s^2,
#   collision bias and damping in (0, 1];
# - settle: drop height 0-50 mm, settle time 0.05-30 s, window 0.001-10 s (and shorter
#   than the settle time), energy fraction 0-1 (above 1 "calm" would include energies
#   that topple the tower);
# - crash: relative tilt 1-89 deg, lift 0.1-100 mm;
# - fast: margins within +-90 deg, +-1000 deg/m, +-100 deg per deg/s^2; band and wall
#   contact 0-90 deg; creep within +-0.1 rad and +-10 mm.
#
# Besides, a physics decision (place, settle, one full turn, settle) may take at most
# MAX_DECISION_STEPS solver steps and MAX_DECISION_WORK steps x iterations.

MAX_DECISION_STEPS = 200_000
"""Solver steps one physics decision may take: place and settle (``settle.max_time_s``),
then a full turn (``1 / turn.rate_rev_per_s``) and settle again, at ``solver.steps_per_second``.
The defaults need 4,800; 200,000 steps of a 12-barrel tower take about 10 s of CPU here."""

MAX_DECISION_WORK = 10_000_000
"""Solver steps times ``solver.iterations`` one decision may take (the defaults: 288,000; the
cost of a step grows with the iterations, about 10 + 0.8 x iterations microseconds for 12
barrels here, so this also keeps a decision to about 10 s)."""

_SCHEMA: dict[str, Any] = {
    "ship": {
        "thread_pitch_mm": Number(POSITIVE, 0.1, 20.0),
        "deck_half_length_mm": Number(POSITIVE, 20.0, 500.0),
        "deck_thickness_mm": Number(POSITIVE, 1.0, 100.0),
        "recess_diameter_mm": Number(POSITIVE, 1.0, 200.0),
        "recess_depth_mm": Number(NON_NEGATIVE, 0.0, 20.0),
        "screws": {name: {"x_mm": Number(None, -1000.0, 1000.0), "y_mm": Number(None, -1000.0, 1000.0)}
                   for name in SCREWS},
    },
    "turn": {"rate_rev_per_s": Number(POSITIVE, 0.05, 20.0, why="a slower turn takes minutes to simulate"),
             "profile": OneOf(PROFILES)},
    "barrels": EachTable({
        "colour": Text(),
        "count": Number(POSITIVE, 1, 20, integer=True),
        "height_mm": Number(POSITIVE, 5.0, 200.0),
        "end_diameter_mm": Number(POSITIVE, 5.0, 200.0),
        "belly_diameter_mm": Number(POSITIVE, 5.0, 200.0),
        "mass_g": Number(POSITIVE, 0.5, 1000.0),
    }),
    "placement": {"sigma_mm": Number(NON_NEGATIVE, 0.0, 20.0)},
    "friction": {"mu": Number(POSITIVE, 0.01, 2.0)},
    "solver": {
        "steps_per_second": Number(POSITIVE, 60, 20_000, integer=True,
                                   why="fewer make the solver diverge; more take too long"),
        "iterations": Number(POSITIVE, 1, 1000, integer=True),
        "collision_slop_mm": Number(NON_NEGATIVE, 0.0, 1.0),
        "gravity_m_s2": Number(POSITIVE, 0.1, 100.0),
        "collision_bias": Number(POSITIVE, 0.0, 1.0),
        "damping": Number(POSITIVE, 0.0, 1.0),
    },
    "settle": {
        "drop_height_mm": Number(NON_NEGATIVE, 0.0, 50.0),
        "max_time_s": Number(POSITIVE, 0.05, 30.0),
        "window_s": Number(POSITIVE, 0.001, 10.0),
        "energy_fraction": Number(POSITIVE, 0.0, 1.0),
    },
    "crash": {"max_relative_tilt_deg": Number(POSITIVE, 1.0, 89.0), "max_lift_mm": Number(POSITIVE, 0.1, 100.0)},
    "fast": {
        "turn_margin_deg": Number(None, -90.0, 90.0),
        "turn_margin_deg_per_m": Number(None, -1000.0, 1000.0),
        "turn_margin_s2": Number(None, -100.0, 100.0),
        "place_margin_deg": Number(None, -90.0, 90.0),
        "hybrid_band_deg": Number(NON_NEGATIVE, 0.0, 90.0),
        "recess_wall_contact_deg": Number(NON_NEGATIVE, 0.0, 90.0),
        "creep_lean_rad": Number(None, -0.1, 0.1),
        "creep_placed_mm": Number(None, -10.0, 10.0),
    },
}

_BARREL_KEYS = tuple(_SCHEMA["barrels"].schema)


def key_range(key: str) -> tuple[float, float]:
    """The range the schema allows for the numeric parameter at the dotted ``key`` (e.g.
    ``ship.thread_pitch_mm``, ``barrels.large.mass_g``), ``-inf``/``inf`` where it sets none;
    ``KeyError`` for a key that is not a number of the parameter file.

    >>> key_range("ship.thread_pitch_mm")
    (0.1, 20.0)
    """
    node: Any = _SCHEMA
    for part in key.split("."):
        if isinstance(node, EachTable):
            node = node.schema  # any table name (a barrel size) stands for itself
            continue
        if not isinstance(node, dict) or part not in node:
            raise KeyError(key)
        node = node[part]
    if not isinstance(node, Number):
        raise KeyError(key)
    return (-math.inf if node.low is None else float(node.low)), (math.inf if node.high is None else float(node.high))


PHYSICS_REVISION = 4
"""The physics referee's code, as it decides: raise it with any change to what a decision
returns for the same parameters (2: towers fall across the slice; 3: every interface's
contact in the slice is the lens's chord under the gravity line, and a tower near tipping is
sliced where it tips, :mod:`sim.slice_contact`; 4: a tower certain to stand rides a turn
unmoved, :mod:`sim.rigid_turn`, and a crash is confirmed with interfaces locked in turns,
:class:`sim.referees.physics.ConfirmReferee`)."""


def params_fingerprint(params: Params) -> str:
    """A short hash of the whole parameter set: what a recording (``game_start.params``) and a
    results file (its options' ``params``) name the set they were made under by; another set,
    however small the change, has another fingerprint."""
    return hashlib.sha256(repr(params).encode()).hexdigest()[:16]


def physics_fingerprint(params: Params) -> str:
    """A short hash of everything the physics referee uses (the fast referee's margins left
    out) and of :data:`PHYSICS_REVISION`: labels made by physics under another fingerprint
    are stale."""
    text = repr([PHYSICS_REVISION] + [getattr(params, f.name) for f in fields(params) if f.name != "fast"])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def decision_steps(params: Params, revolutions: float = 1.0) -> int:
    """The most solver steps one physics decision can take: a placement settling for
    ``settle.max_time_s``, then a turn of ``revolutions`` and ``settle.max_time_s`` more."""
    seconds = 2 * params.settle.max_time_s + abs(revolutions) / params.turn.rate_rev_per_s
    return math.ceil(seconds * params.solver.steps_per_second)


def _barrel(name: str, raw: Mapping) -> BarrelSpec:
    prefix = f"barrels.{name}"
    values = {key: required(prefix, raw, key) for key in _BARREL_KEYS}
    if values["belly_diameter_mm"] < values["end_diameter_mm"]:
        raise ParamsError(
            f"{prefix}.belly_diameter_mm: must be >= end_diameter_mm "
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


def _check_together(params: Params) -> None:
    """The rules that tie several values together (each value alone is in its range)."""
    ship = params.ship
    widest = max(params.barrels, key=lambda b: b.end_diameter_m)
    if ship.recess_diameter_m < widest.end_diameter_m:
        raise ParamsError(f"ship.recess_diameter_mm: must be >= the widest barrel end (barrels.{widest.name}."
                          f"end_diameter_mm = {widest.end_diameter_m * 1000:g}), got {ship.recess_diameter_m * 1000:g}")
    if not ship.recess_depth_m < ship.deck_thickness_m:
        raise ParamsError(f"ship.recess_depth_mm: must be less than deck_thickness_mm "
                          f"({ship.recess_depth_m * 1000:g} >= {ship.deck_thickness_m * 1000:g})")
    lowest = min(params.barrels, key=lambda b: b.height_m)
    if not ship.recess_depth_m < lowest.height_m / 2:
        raise ParamsError(f"ship.recess_depth_mm: must be less than half the lowest barrel (barrels.{lowest.name}."
                          f"height_mm = {lowest.height_m * 1000:g}), got {ship.recess_depth_m * 1000:g}")
    settle = params.settle
    if not settle.window_s < settle.max_time_s:
        raise ParamsError(f"settle.window_s: must be shorter than settle.max_time_s "
                          f"({settle.window_s:g} >= {settle.max_time_s:g})")
    steps = decision_steps(params)
    work = steps * params.solver.iterations
    if steps > MAX_DECISION_STEPS or work > MAX_DECISION_WORK:
        raise ParamsError(
            f"solver.steps_per_second, solver.iterations, settle.max_time_s, turn.rate_rev_per_s: "
            f"a physics decision would take up to {steps:,} steps x {params.solver.iterations} iterations; "
            f"the limits are {MAX_DECISION_STEPS:,} steps and {MAX_DECISION_WORK:,} steps x iterations "
            "(fewer steps per second or iterations, a shorter settle time or a faster turn)")


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
    params = Params(
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
    _check_together(params)
    return params


def default_params_text() -> str:
    """The TOML text of the shipped defaults."""
    return resources.files("sim").joinpath("default_params.toml").read_text(encoding="utf-8")


def resolve_tables(path: str | Path | None = None, *, overrides: Mapping | None = None) -> dict:
    """The raw TOML tables (units in the key names) of the defaults overlaid with the file
    at ``path`` and then ``overrides``, every key checked; :class:`ParamsError` otherwise.

    Only the values are checked here; :func:`load_params` also checks how they fit together.
    """
    with raising(ParamsError, "default parameters"):
        raw = merge({}, loads_toml(default_params_text()), _SCHEMA)
    with raising(ParamsError, path):
        if path is not None:
            raw = merge(raw, read_toml(path, "parameter file"), _SCHEMA)
        return merge(raw, overrides or {}, _SCHEMA)


def load_params(path: str | Path | None = None, *, overrides: Mapping | None = None) -> Params:
    """Load the defaults, overlay the TOML file at ``path`` and then ``overrides`` (raw TOML tables).

    Raises :class:`ParamsError` naming the file, the key and the problem for anything invalid.
    """
    raw = resolve_tables(path, overrides=overrides)
    with raising(ParamsError, path):
        return _build(raw)


def params_toml(path: str | Path | None = None, *, overrides: Mapping | None = None) -> str:
    """The whole resolved parameter set as TOML (every key, units in the names): the text
    loads back (:func:`load_params`) to the same :class:`Params`."""
    raw = resolve_tables(path, overrides=overrides)
    with raising(ParamsError, path):
        _build(raw)
    header = "# Kipp, Kipp, Ahoi! parameters: the defaults"
    header += f" overlaid with {path}\n" if path is not None else "\n"
    header += "# Units are in the key names (mm, g, deg, s); every key is listed.\n\n"
    return header + dump_toml(raw)
