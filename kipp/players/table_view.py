"""What a player at the table knows, as one flat vector, and a player's aim as three numbers.

The Gymnasium environment (:mod:`kipp.env`) hands this vector to a learner as its
observation, and the ``learned`` player model reads the same vector from a game state, so
a policy trained on the environment plays as a bot without Gymnasium. Neither looks at a
referee: the vector holds the tower as it stands, the sailors and the deck, the die, the
barrels to come and the chips.

Frames and units: the deck frame of :mod:`sim.tower` (x toward the bow, y to port, z along
the deck normal from its top surface), lengths in millimetres, tilts in degrees, deck
gradients dimensionless (dz/dx, dz/dy: the deck rises toward +gradient). Every entry is
clipped to its field's bounds (:data:`FIELDS`), so the vector always lies in the box they
make. Seats are counted from the observing player: chips[0] are theirs, then clockwise.

The aim (:func:`aim_xy_m`): components (a0, a1) in [-1, 1] are a deck-frame offset from the
top barrel's centre in units of the **reach**, the balance judgement's safe range
(:meth:`kipp.players.balance.BalanceJudge.reach_m`: 0.75 of the smaller end radius of the
barrel to set and the top barrel, so the barrel always lands on the one below); an offset
outside the unit disc is pulled onto its rim. The sailor on a wild roll
(:func:`sailor_of`): the third component's thirds, [-1, -1/3) red, [-1/3, 1/3) yellow,
[1/3, 1] blue.

>>> from kipp.rules.config import GameConfig
>>> from kipp.rules.state import GameState
>>> from kipp.rules.actions import Shuffle, Roll
>>> from sim.params import load_params
>>> from sim.tower import Decision, TowerState
>>> class Steady:  # a referee under which nothing falls
...     def new_tower(self): return TowerState()
...     def decide(self, tower, placement, turn): return Decision(False, tower)
>>> state = GameState(GameConfig(players=("Ann", "Ben")), Steady())
>>> state.apply_action(Shuffle(("small",) * 4 + ("medium",) * 4 + ("large",) * 4))
>>> state.apply_action(Roll("red"))
>>> view = TableView(load_params())
>>> obs = view.observe(state, seat=0)
>>> obs.shape, obs.dtype.name
((141,), 'float32')
>>> [float(v) for v in obs[FIELD["face"].slice]], [float(v) for v in obs[FIELD["next_barrel"].slice]]
([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0])
>>> sailor_of(0.9), sailor_value("red")
('blue', -0.6666666666666666)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kipp.players.balance import BalanceJudge
from kipp.rules.actions import PLACE_LIMIT_MM, WILD, Play
from kipp.rules.config import BARREL_COUNTS, DEFAULT_SIZES, MAX_PLAYERS
from sim.params import SCREWS, Params

MAX_BARRELS = max(BARREL_COUNTS)
"""Tower and line slots: the largest game's barrels."""
FACES = (*SCREWS, WILD)
"""The die's faces in the order of the ``face`` field."""
MAX_TURNS = 48.0
"""Largest turn count a sailor's field shows, revolutions (at 3 mm a turn, a deck far steeper
than any tower stands)."""
MAX_GRADIENT = 4.0
"""Largest |deck gradient| component shown (76 degrees)."""
MAX_CHIPS = 25.0
"""All the chips of a game."""
MAX_REACH_MM = 50.0


@dataclass(frozen=True)
class Field:
    """One named part of the vector: ``size`` entries from ``start``, each within [low, high] ``unit``."""

    name: str
    start: int
    size: int
    low: float
    high: float
    unit: str
    doc: str

    @property
    def slice(self) -> slice:
        return slice(self.start, self.start + self.size)


def _fields(*specs: tuple[str, int, float, float, str, str]) -> tuple[Field, ...]:
    out, start = [], 0
    for name, size, low, high, unit, doc in specs:
        out.append(Field(name, start, size, low, high, unit, doc))
        start += size
    return tuple(out)


_LIMIT = PLACE_LIMIT_MM
FIELDS: tuple[Field, ...] = _fields(
    ("tower", MAX_BARRELS * 6, -_LIMIT, _LIMIT, "1 / mm",
     "per barrel slot, bottom first: size one-hot (large, medium, small), then the centre's x, y, z in mm; "
     "zeros past the top"),
    ("turns", 3, 0.0, MAX_TURNS, "revolutions", "turns of the red, yellow and blue sailors this round"),
    ("gradient", 2, -MAX_GRADIENT, MAX_GRADIENT, "1", "the deck's gradient now (dz/dx, dz/dy)"),
    ("tilt_deg", 1, 0.0, 90.0, "deg", "the deck's tilt now"),
    ("gradient_after", 6, -MAX_GRADIENT, MAX_GRADIENT, "1",
     "the gradient after a turn (the variant's fraction) of red, of yellow, of blue: (x, y) each"),
    ("tilt_after_deg", 3, 0.0, 90.0, "deg", "the tilt after a turn of red, of yellow, of blue"),
    ("face", 4, 0.0, 1.0, "1", "the rolled face, one-hot (red, yellow, blue, wild); zeros before the roll"),
    ("pass_decision", 1, 0.0, 1.0, "1", "1 when the decision is Old Sea Dogs' play-or-pass, 0 at a placement"),
    ("aim_centre_mm", 2, -_LIMIT, _LIMIT, "mm", "the top barrel's centre (x, y): where the aim (0, 0) points"),
    ("reach_mm", 1, 0.0, MAX_REACH_MM, "mm", "the aim's safe range for the next barrel (0 when none is left)"),
    ("next_barrel", 3, 0.0, 1.0, "1", "the next barrel's size, one-hot (large, medium, small)"),
    ("line", MAX_BARRELS * 3, 0.0, 1.0, "1", "the barrels after the next, in order, one-hot each; zeros past the end"),
    ("chips", MAX_PLAYERS, 0.0, MAX_CHIPS, "chips", "chips of the observing player, then of the next seats "
     "clockwise; zeros for empty seats"),
    ("supply", 1, 0.0, MAX_CHIPS, "chips", "chips left in the supply"),
    ("round", 1, 1.0, 3.0, "1", "the round, 1-3"),
    ("placed", 1, 0.0, float(MAX_BARRELS), "barrels", "barrels put on the ship this round"),
)
"""The vector's layout, in order."""
FIELD: dict[str, Field] = {f.name: f for f in FIELDS}
SIZE = FIELDS[-1].start + FIELDS[-1].size
"""Entries in the vector (141)."""


def bounds() -> tuple[np.ndarray, np.ndarray]:
    """(low, high) float32 vectors of every entry; the tower's size one-hots are within [0, 1]."""
    low, high = np.empty(SIZE, np.float32), np.empty(SIZE, np.float32)
    for f in FIELDS:
        low[f.slice], high[f.slice] = f.low, f.high
    tower = FIELD["tower"]
    one_hot = (np.arange(tower.size) % 6) < 3
    low[tower.start:tower.start + tower.size][one_hot] = 0.0
    high[tower.start:tower.start + tower.size][one_hot] = 1.0
    return low, high


_LOW, _HIGH = bounds()


def _one_hot(value: str | None, names: tuple[str, ...]) -> list[float]:
    return [1.0 if value == name else 0.0 for name in names]


class TableView:
    """Reads game states of one parameter set into the vector of :data:`FIELDS`."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.judge = BalanceJudge(params)
        self._sizes = tuple(DEFAULT_SIZES)

    def observe(self, state, seat: int) -> np.ndarray:
        """The vector (float32, :data:`SIZE` entries) of ``state`` (a :class:`kipp.rules.state.GameState`) as
        the player at ``seat`` sees it."""
        judge, tower = self.judge, state.tower
        out = np.zeros(SIZE, np.float64)

        def put(name: str, values) -> None:
            f = FIELD[name]
            values = np.asarray(values, dtype=float).ravel()
            out[f.start:f.start + len(values)] = values

        put("tower", [[*_one_hot(b.size, self._sizes), b.x_m * 1e3, b.y_m * 1e3, b.z_m * 1e3]
                      for b in tower.barrels[:MAX_BARRELS]])
        turns = tower.turns_by_sailor()
        put("turns", [turns[s] for s in SCREWS])
        now = judge.gradient(turns)
        after = [judge.gradient_after(tower, s, state.config.fraction) for s in SCREWS]
        put("gradient", now)
        put("tilt_deg", _tilt_deg(now))
        put("gradient_after", after)
        put("tilt_after_deg", [_tilt_deg(g) for g in after])
        put("face", _one_hot(state.face, FACES))
        legal = state.legal_actions() if state.current_player() == seat else []
        put("pass_decision", [1.0 if legal and isinstance(legal[0], Play) else 0.0])
        put("aim_centre_mm", [v * 1e3 for v in tower.top_xy()])
        size = state.next_barrel()
        if size is not None:
            put("reach_mm", [judge.reach_m(tower, size) * 1e3])
            put("next_barrel", _one_hot(size, self._sizes))
        put("line", [_one_hot(s, self._sizes) for s in state.line[state.placed + 1:]])
        n = state.config.n_players
        put("chips", [state.chips[(seat + k) % n] for k in range(n)])
        put("supply", [state.supply])
        put("round", [state.round])
        put("placed", [state.placed])
        return np.clip(out, _LOW, _HIGH).astype(np.float32)

    def aim_m(self, state, a0: float, a1: float) -> tuple[float, float]:
        """Deck-frame aim (m) of the action components (a0, a1) for the next barrel of ``state``
        (:func:`aim_xy_m` from the top barrel's centre, in reaches of that barrel and the top one)."""
        tower = state.tower
        return aim_xy_m(tower.top_xy(), self.judge.reach_m(tower, state.next_barrel()), a0, a1)


def _tilt_deg(gradient) -> float:
    return math.degrees(math.atan(math.hypot(gradient[0], gradient[1])))


def aim_xy_m(centre_m: tuple[float, float], reach_m: float, a0: float, a1: float) -> tuple[float, float]:
    """Deck-frame aim (m) of the action components (a0, a1): ``centre_m`` plus ``reach_m`` times
    (a0, a1), pulled onto the unit disc's rim if outside it."""
    norm = math.hypot(a0, a1)
    scale = reach_m / norm if norm > 1.0 else reach_m
    return centre_m[0] + scale * a0, centre_m[1] + scale * a1


def sailor_of(value: float) -> str:
    """The sailor the third action component names: [-1, -1/3) red, [-1/3, 1/3) yellow, [1/3, 1] blue."""
    return SCREWS[min(2, max(0, math.floor((float(value) + 1.0) * 1.5)))]


def sailor_value(sailor: str) -> float:
    """The middle of ``sailor``'s third of [-1, 1] (the inverse of :func:`sailor_of`)."""
    return -2.0 / 3.0 + SCREWS.index(sailor) * 2.0 / 3.0
