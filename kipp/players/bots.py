"""Bots: players that choose actions from what a person at the table can see.

A :class:`Bot` places with a Gaussian error, picks the sailor on a wild roll by a named
policy and, in the Old Sea Dogs variant, decides whether to pass. It looks only at the
game state (turn counts, the tower's barrels, the line, chips) and at the ship's
geometry and barrel catalogue; it never asks the referee. All randomness comes from the
``numpy.random.Generator`` passed to :meth:`Bot.act`.

>>> import numpy as np
>>> from sim.params import load_params
>>> bot = Bot("Ann", params=load_params())
>>> bot.choose_sailor({"red": 1.0, "yellow": 0.0, "blue": 0.0}, 1.0)
'yellow'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from kipp.rules.actions import WILD, Action, ChooseSailor, Pass, Place, PlaceAnywhere, Play
from sim import geometry
from sim.params import SCREWS, Params, load_params

WILD_POLICIES = ("leveler", "random")
PASS_POLICIES = ("never", "cautious")


def deck_tilt_deg(params: Params, turns: dict[str, float]) -> float:
    """Tilt of the deck for the given sailor turn counts (revolutions), degrees.

    :func:`sim.geometry.deck_tilt_deg` (cached) for the parameter set's ship: the same
    number the transcript's ``turn.tilt_deg`` reports, before rounding.
    """
    return geometry.deck_tilt_deg(params.ship, turns)


def critical_tilt_deg(params: Params, sizes: Sequence[str]) -> float:
    """A static estimate of the deck tilt that topples a centred stack of ``sizes`` (bottom first), degrees.

    For every interface (deck/bottom barrel, and each barrel on the one below) the stack
    above it tips when the gravity line through its centre of mass leaves the contact
    disc: tan(theta) = r / h, with r the smaller end radius of the two touching faces and
    h the height of that centre of mass above the interface. The minimum over interfaces.
    It ignores placement offsets, sliding and dynamics: a judgement, not the referee.
    """
    if not sizes:
        return 90.0
    specs = [params.barrel(size) for size in sizes]
    bottoms = np.cumsum([0.0] + [s.height_m for s in specs[:-1]])
    centres = bottoms + np.array([s.height_m / 2 for s in specs])
    masses = np.array([s.mass_kg for s in specs])
    worst = 90.0
    for i, spec in enumerate(specs):
        radius = spec.end_diameter_m / 2
        if i > 0:
            radius = min(radius, specs[i - 1].end_diameter_m / 2)
        com = float(np.dot(masses[i:], centres[i:]) / masses[i:].sum()) - bottoms[i]
        worst = min(worst, math.degrees(math.atan2(radius, com)))
    return worst


@dataclass(frozen=True)
class Bot:
    """A computer player.

    - ``sigma_mm``: placement skill, the standard deviation of the Gaussian error per
      axis (deck frame, mm) around the aim, the centre of the top barrel; by default the
      parameter set's ``placement.sigma_mm`` (1.5 mm, or what ``kipp calibrate`` fitted to
      recorded games). Offsets are rounded to whole micrometres so that transcripts show
      them exactly.
    - ``wild``: ``leveler`` turns the sailor that leaves the deck most level (the
      rulebook's advice; ties go to red, then yellow, then blue); ``random`` picks one
      uniformly.
    - ``passing`` (Old Sea Dogs): ``never``; or ``cautious``: pass when the worst die
      face could tilt the deck at least ``caution`` times the tower's critical tilt
      (:func:`critical_tilt_deg` of the tower plus the next barrel), i.e. when a crash
      looks likely enough that one certain chip beats risking two.
    """

    name: str = "bot"
    sigma_mm: float | None = None
    wild: str = "leveler"
    passing: str = "never"
    caution: float = 1.0
    params: Params = field(default_factory=load_params, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.sigma_mm is None:
            object.__setattr__(self, "sigma_mm", self.params.placement.sigma_m * 1000)
        if self.wild not in WILD_POLICIES:
            raise ValueError(f"unknown wild policy {self.wild!r}; expected one of {', '.join(WILD_POLICIES)}")
        if self.passing not in PASS_POLICIES:
            raise ValueError(f"unknown pass policy {self.passing!r}; expected one of {', '.join(PASS_POLICIES)}")
        if not (math.isfinite(self.sigma_mm) and self.sigma_mm >= 0):
            raise ValueError(f"sigma_mm must be finite and >= 0, got {self.sigma_mm!r}")

    def act(self, state, rng: np.random.Generator) -> Action:
        """The bot's action at a decision node of ``state`` (a :class:`kipp.rules.state.GameState`)."""
        legal = state.legal_actions()
        if not legal or state.is_chance_node():
            raise ValueError(f"{self.name} has nothing to decide in {state}")
        first = legal[0]
        if isinstance(first, PlaceAnywhere):
            return self.place(first, rng)
        if isinstance(first, ChooseSailor):
            if self.wild == "random":
                return ChooseSailor(SCREWS[int(rng.integers(len(SCREWS)))])
            return ChooseSailor(self.choose_sailor(state.turns_by_sailor(), state.config.fraction))
        if isinstance(first, Play):
            return Pass() if self.wants_to_pass(state) else Play()
        raise ValueError(f"{self.name} does not know the actions {legal!r}")

    def place(self, where: PlaceAnywhere, rng: np.random.Generator) -> Place:
        """Aim at the top barrel's centre with Gaussian error; micrometre resolution."""
        error = rng.normal(0.0, self.sigma_mm, size=2) if self.sigma_mm > 0 else np.zeros(2)
        x, y = (float(np.clip(round(aim + e, 3), -where.limit_mm, where.limit_mm)) + 0.0
                for aim, e in zip(where.top_mm, error))
        return Place(x, y)

    def choose_sailor(self, turns: dict[str, float], fraction: float) -> str:
        """The leveler's choice: the sailor whose turn leaves the least tilt (ties: SCREWS order)."""
        def tilt_after(sailor: str) -> float:
            after = dict(turns)
            after[sailor] = after.get(sailor, 0.0) + fraction
            return round(deck_tilt_deg(self.params, after), 9)  # exact symmetric ties stay ties
        return min(SCREWS, key=tilt_after)

    def wants_to_pass(self, state) -> bool:
        """The pass policy (see the class docstring); only asked when passing is allowed."""
        if self.passing == "never":
            return False
        turns = state.turns_by_sailor()
        fraction = state.config.fraction
        faces = [face for face in state.config.faces if face != WILD]
        if not faces:
            return False
        worst = max(deck_tilt_deg(self.params, {**turns, face: turns[face] + fraction}) for face in faces)
        sizes = [barrel.size for barrel in state.tower.barrels]
        if state.next_barrel() is not None:
            sizes.append(state.next_barrel())
        return worst >= self.caution * critical_tilt_deg(self.params, sizes)
