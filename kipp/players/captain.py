"""The ``captain``: one small policy for the aim, a wild roll's sailor and Old Sea Dogs' pass, trained in self-play.

The policy reads what a player at the table knows (:class:`kipp.players.table_view.TableView`'s
vector, and the player's own balance judgement, :class:`kipp.players.balance.BalanceJudge`) and
never a referee. It has three parts, each linear in a few numbers the player can see:

- **aim**: the ``learned`` player's form (:mod:`kipp.players.learned`): a sum of deck-frame
  vectors, each weighted by a linear function of a few scalars, ``aim_weights`` (6 x 4), with
  one vector more than the ``learned`` player's: ``balance``, the balance judgement's aim
  (:meth:`kipp.players.balance.BalanceJudge.aim`, the ``skilled`` and ``expert`` players' aim) for
  the coming turn, from the top barrel's centre in reaches. Weight 1 on it alone is their aim,
  the ``learned`` weights alone the ``learned`` player's.
- **sailor on a wild roll**: the sailor s with the lowest score

      tilt_after(s) / 10 deg + wild[0] * p(s) + wild[1] * 10 * (lean . gradient_after(s))
                             + wild[2] * next_tilt(s) / 10 deg

  with p(s) the player's own estimate that turning s crashes (at placement: set at the aim for
  s, then turned; after placing: the tower as it stands, turned), the deck's rise along the
  tower's lean after the turn (negative when the turn lifts the side the tower leans to), and
  the tilt the *next* player's turn leaves, averaged over the three sailors they may turn (the
  deck's gradient is linear in the turn counts). With ``wild`` zero this is the ``leveler``, the
  rulebook's advice; a negative ``wild[2]`` hands the next player a deck that tips further. It is chosen
  before placing (the aim is for that sailor) and again after, on the tower as it landed.
- **pass** (Old Sea Dogs): pass when the player's own crash estimate p of the coming turn (the
  die's faces averaged, each at this policy's aim and sailor) satisfies

      logit(p) - logit(pass_threshold(N, c)) > pass[0] + pass[1] * lead + pass[2] * supply + pass[3] * share

  with ``lead`` the chips ahead of the richest other player (/3), ``supply`` the share of the
  game's chips still in the supply and ``share`` the share of the round's line placed. With
  ``pass`` zero this is the ``risk`` rule of :func:`kipp.players.bots.pass_threshold`.

The weights are fitted by CMA-ES in paired games against copies of the policy and the other
player models (``python -m lab.train_selfplay``: the aim as a blend of the balance aim and the
whole ``learned`` aim, two numbers, with the three wild weights; the pass's four only with
``--pass-generations N``, so the shipped pass is the ``risk`` rule) and shipped
as ``kipp/players/data/captain.json`` with how they were trained. How it plays against each model,
how many rounds a table of captains completes and where its pass pays, on the physics referee:
``lab/data/captain_study.json`` (``python -m lab.captain_study``).

>>> policy = CaptainPolicy.load()
>>> policy.aim_weights.shape, policy.wild.shape, policy.passing.shape
((6, 4), (3,), (4,))
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kipp.players.learned import SCALARS, TILT_SCALE_DEG, LearnedAim, features
from kipp.players.learned import VECTORS as LEARNED_VECTORS
from kipp.players.table_view import FIELD
from sim.params import SCREWS

DEFAULT_PATH = Path(__file__).parent / "data" / "captain.json"
VECTORS = (*LEARNED_VECTORS, "balance")
"""The deck-frame vectors whose weighted sum is the aim: the ``learned`` player's and the balance aim."""
WILD_TERMS = ("crash_estimate", "rise_along_lean", "next_tilt")
"""The wild score's learned terms (after the tilt, whose weight is 1)."""
PASS_TERMS = ("offset", "lead", "supply", "placed_share")
"""The pass rule's learned terms (see the module docstring)."""
DIMENSIONS = len(VECTORS) * len(SCALARS) + len(WILD_TERMS) + len(PASS_TERMS)
"""Weights in all (the optimiser's vector: aim row by row, then wild, then pass)."""
LEAD_SCALE_CHIPS = 3.0
PROBABILITY_FLOOR = 1e-3
"""Crash estimates are kept within [floor, 1 - floor] before their logit."""


def logit(p: float) -> float:
    p = min(max(p, PROBABILITY_FLOOR), 1.0 - PROBABILITY_FLOOR)
    return math.log(p / (1.0 - p))


@dataclass(frozen=True)
class CaptainPolicy:
    """The captain's weights: ``aim_weights`` (len(VECTORS), len(SCALARS)), ``wild`` (len(WILD_TERMS),),
    ``passing`` (len(PASS_TERMS),); ``training``: how they were fitted."""

    aim_weights: np.ndarray
    wild: np.ndarray
    passing: np.ndarray
    training: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for name, shape in (("aim_weights", (len(VECTORS), len(SCALARS))), ("wild", (len(WILD_TERMS),)),
                            ("passing", (len(PASS_TERMS),))):
            value = np.asarray(getattr(self, name), dtype=float).reshape(shape)
            if not np.all(np.isfinite(value)):
                raise ValueError(f"the captain's {name} must be finite")
            object.__setattr__(self, name, value)

    # --- the optimiser's vector and the file -----------------------------------------------

    @classmethod
    def from_flat(cls, flat, training: dict | None = None) -> "CaptainPolicy":
        flat = np.asarray(flat, dtype=float)
        if flat.shape != (DIMENSIONS,):
            raise ValueError(f"the captain has {DIMENSIONS} weights, got {flat.shape}")
        n_aim = len(VECTORS) * len(SCALARS)
        return cls(flat[:n_aim], flat[n_aim:n_aim + len(WILD_TERMS)], flat[n_aim + len(WILD_TERMS):], training or {})

    def flat(self) -> np.ndarray:
        return np.concatenate([self.aim_weights.ravel(), self.wild, self.passing])

    @classmethod
    def starting_point(cls, balance_share: float = 0.5, aim: LearnedAim | None = None) -> "CaptainPolicy":
        """The policy training starts from: ``balance_share`` of the balance aim and the rest of the
        ``learned`` aim (their weighted mean), the leveler, the ``risk`` pass."""
        aim = aim if aim is not None else LearnedAim.load()
        weights = np.zeros((len(VECTORS), len(SCALARS)))
        weights[:len(LEARNED_VECTORS)] = (1.0 - balance_share) * aim.weights
        weights[len(LEARNED_VECTORS), 0] = balance_share
        return cls(weights, np.zeros(len(WILD_TERMS)), np.zeros(len(PASS_TERMS)))

    @classmethod
    def load(cls, path: str | Path | None = None) -> "CaptainPolicy":
        """The policy saved at ``path`` (default: the shipped one)."""
        data = json.loads(Path(path or DEFAULT_PATH).read_text(encoding="utf-8"))
        if (data.get("vectors"), data.get("scalars"), data.get("wild_terms"), data.get("pass_terms")) != (
                list(VECTORS), list(SCALARS), list(WILD_TERMS), list(PASS_TERMS)):
            raise ValueError(f"{path or DEFAULT_PATH}: not a captain policy of these features")
        return cls(np.array(data["aim_weights"]), np.array(data["wild"]), np.array(data["passing"]),
                   data.get("training", {}))

    def save(self, path: str | Path) -> None:
        data = {"vectors": list(VECTORS), "scalars": list(SCALARS), "wild_terms": list(WILD_TERMS),
                "pass_terms": list(PASS_TERMS), "aim_weights": self.aim_weights.tolist(),
                "wild": self.wild.tolist(), "passing": self.passing.tolist(), "training": self.training}
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

    # --- playing ----------------------------------------------------------------------------

    def aim(self, obs: np.ndarray, sailor: str, balance: tuple[float, float]) -> tuple[float, float]:
        """The aim (a0, a1), in reaches from the top barrel's centre, before a turn of ``sailor``, given
        the balance judgement's aim ``balance`` for that turn (in the same units)."""
        vectors, scalars = features(obs, sailor)
        vectors = np.vstack([vectors, np.asarray(balance, dtype=float)])
        x, y = (self.aim_weights @ scalars) @ vectors
        norm = math.hypot(x, y)
        return (x / norm, y / norm) if norm > 1.0 else (float(x), float(y))

    def wild_scores(self, obs: np.ndarray, crash_estimates) -> np.ndarray:
        """The wild score of red, yellow and blue (lowest is turned), given the crash estimate of each."""
        tilts = obs[FIELD["tilt_after_deg"].slice].astype(float) / TILT_SCALE_DEG
        now = obs[FIELD["gradient"].slice].astype(float)
        after = obs[FIELD["gradient_after"].slice].astype(float).reshape(3, 2)
        rises, next_tilts = [], []
        for i, sailor in enumerate(SCREWS):
            vectors, _ = features(obs, sailor)
            rises.append(float(vectors[0] @ vectors[3]))  # 10 x gradient after . lean
            two_turns = after[i] + after - now  # after this turn and then each sailor's
            next_tilts.append(float(np.degrees(np.arctan(np.hypot(two_turns[:, 0], two_turns[:, 1]))).mean()))
        return (tilts + self.wild[0] * np.asarray(crash_estimates, dtype=float) + self.wild[1] * np.array(rises)
                + self.wild[2] * np.array(next_tilts) / TILT_SCALE_DEG)

    def needs_crash_estimates(self) -> bool:
        """Whether the wild score reads the crash estimates (they cost three static checks)."""
        return self.wild[0] != 0.0

    def passes(self, crash_estimate: float, threshold: float, *, lead_chips: float, supply_share: float,
               placed_share: float) -> bool:
        """The pass rule (module docstring): ``threshold`` is :func:`kipp.players.bots.pass_threshold`'s."""
        t = self.passing
        bar = t[0] + t[1] * lead_chips / LEAD_SCALE_CHIPS + t[2] * supply_share + t[3] * placed_share
        return bool(logit(crash_estimate) - logit(threshold) > bar)
