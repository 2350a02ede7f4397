"""A player that learned: a small aim policy trained on the Gymnasium environment, plain numpy.

The policy reads the table's vector (:mod:`kipp.players.table_view`, the environment's
observation) and returns the environment's action: an aim in units of the reach, and on a
wild roll the sailor whose turn leaves the deck most level (the rulebook's advice, as the
``leveler`` bots choose). The aim is a sum of deck-frame vectors the player can see, each
weighted by a linear function of a few numbers it can see:

    aim = sum over k of (W[k] . s) v[k],   pulled onto the unit disc if outside it

with the vectors v (:data:`VECTORS`) the deck's gradient after the coming turn (x10), its
direction, the gradient now (x10), the tower's lean (the mean of the barrels' centres less the
top centre) and the top barrel's step from the one below (both in reaches), and the numbers s
(:data:`SCALARS`) 1, the share of the line placed, the tilt after the turn (/10 deg) and the
next barrel's size (+1 large, 0 medium, -1 small). Sums of vectors keep the policy the same
in every direction of the deck, so 20 weights say all of it. They were fitted by CMA-ES
(``python -m lab.train_player``) and are shipped as ``kipp/players/data/learned.json``,
with how they were trained.

>>> policy = LearnedAim.load()
>>> policy.weights.shape
(5, 4)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kipp.players.table_view import FACES, FIELD, sailor_value
from kipp.rules.actions import WILD
from sim.params import SCREWS

VECTORS = ("gradient_after", "uphill_after", "gradient_now", "lean", "top_step")
"""The deck-frame vectors whose weighted sum is the aim (see the module docstring)."""
SCALARS = ("one", "placed_share", "tilt_after", "size")
"""The numbers each vector's weight is linear in."""
GRADIENT_SCALE = 10.0
"""Gradients are multiplied by this (one turn of a sailor is a gradient of about 0.03)."""
TILT_SCALE_DEG = 10.0
LEVEL_TIE_DEG = 1e-4
"""Tilts closer than this count as equal when levelling (ties go to red, then yellow, then blue)."""
DEFAULT_PATH = Path(__file__).parent / "data" / "learned.json"
_SIZE_CODE = np.array([1.0, 0.0, -1.0])
"""large, medium, small (the one-hot order of the table's vector)."""


@dataclass(frozen=True)
class LearnedAim:
    """The aim policy: ``weights`` (len(VECTORS), len(SCALARS)); ``training``: how it was fitted."""

    weights: np.ndarray
    training: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        weights = np.asarray(self.weights, dtype=float).reshape(len(VECTORS), len(SCALARS))
        if not np.all(np.isfinite(weights)):
            raise ValueError("the learned policy's weights must be finite")
        object.__setattr__(self, "weights", weights)

    @classmethod
    def from_flat(cls, flat, training: dict | None = None) -> "LearnedAim":
        """The policy of a flat vector of weights (the optimiser's), row by row."""
        return cls(np.asarray(flat, dtype=float), training or {})

    @classmethod
    def load(cls, path: str | Path | None = None) -> "LearnedAim":
        """The policy saved at ``path`` (default: the shipped one)."""
        data = json.loads(Path(path or DEFAULT_PATH).read_text(encoding="utf-8"))
        if data.get("vectors") != list(VECTORS) or data.get("scalars") != list(SCALARS):
            raise ValueError(f"{path or DEFAULT_PATH}: not a policy of these features ({VECTORS}, {SCALARS})")
        return cls(np.array(data["weights"], dtype=float), data.get("training", {}))

    def save(self, path: str | Path) -> None:
        data = {"vectors": list(VECTORS), "scalars": list(SCALARS), "weights": self.weights.round(6).tolist(),
                "training": self.training}
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    # --- playing ----------------------------------------------------------------------------

    def sailor(self, obs: np.ndarray) -> str:
        """The sailor the coming turn turns: the rolled one, or on a wild roll the most levelling."""
        face = obs[FIELD["face"].slice]
        if face.any() and FACES[int(np.argmax(face))] != WILD:
            return FACES[int(np.argmax(face))]
        tilts = obs[FIELD["tilt_after_deg"].slice].astype(float)
        return SCREWS[int(np.flatnonzero(tilts <= tilts.min() + LEVEL_TIE_DEG)[0])]

    def aim(self, obs: np.ndarray, sailor: str) -> tuple[float, float]:
        """The aim (a0, a1), in reaches from the top barrel's centre, for a turn of ``sailor``."""
        vectors, scalars = features(obs, sailor)
        x, y = (self.weights @ scalars) @ vectors
        norm = math.hypot(x, y)
        return (x / norm, y / norm) if norm > 1.0 else (float(x), float(y))

    def action(self, obs: np.ndarray) -> np.ndarray:
        """The environment's action for ``obs`` (float32, in [-1, 1])."""
        sailor = self.sailor(obs)
        return np.array([*self.aim(obs, sailor), sailor_value(sailor)], dtype=np.float32)


def features(obs: np.ndarray, sailor: str) -> tuple[np.ndarray, np.ndarray]:
    """(vectors (len(VECTORS), 2), scalars (len(SCALARS),)) of the table ``obs`` before a turn of ``sailor``."""
    obs = np.asarray(obs, dtype=float)
    after = obs[FIELD["gradient_after"].slice].reshape(3, 2)[SCREWS.index(sailor)]
    slope = math.hypot(*after)
    uphill = after / slope if slope > 1e-12 else np.zeros(2)
    reach = max(float(obs[FIELD["reach_mm"].slice][0]), 1e-6)
    centre = obs[FIELD["aim_centre_mm"].slice]
    tower = obs[FIELD["tower"].slice].reshape(-1, 6)
    barrels = tower[tower[:, :3].sum(axis=1) > 0.5]
    lean = (barrels[:, 3:5].mean(axis=0) - centre) / reach if len(barrels) else np.zeros(2)
    step = (barrels[-1, 3:5] - barrels[-2, 3:5]) / reach if len(barrels) > 1 else np.zeros(2)
    vectors = np.array([GRADIENT_SCALE * after, uphill, GRADIENT_SCALE * obs[FIELD["gradient"].slice], lean, step])
    tilt_after = obs[FIELD["tilt_after_deg"].slice][SCREWS.index(sailor)] / TILT_SCALE_DEG
    line_length = obs[FIELD["placed"].slice][0] + 1 + obs[FIELD["line"].slice].sum()
    scalars = np.array([1.0, obs[FIELD["placed"].slice][0] / line_length, tilt_after,
                        float(_SIZE_CODE @ obs[FIELD["next_barrel"].slice])])
    return vectors, scalars
