"""Bots: players that choose actions from what a person at the table can see.

A :class:`Bot` aims each barrel by a placement policy and adds a Gaussian error, picks the
sailor on a wild roll by a named policy and, in the Old Sea Dogs variant, decides whether
to pass. It looks only at the game state (turn counts, the tower's barrels, the line, the
rolled face, chips) and at the ship's geometry and barrel catalogue, and judges balance
with the static check (:mod:`kipp.players.balance`); it never asks the referee. All
randomness comes from the ``numpy.random.Generator`` passed to :meth:`Bot.act`. Named
bundles of these choices are the player models of :mod:`kipp.players.models`.

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

from kipp.players.balance import BalanceJudge
from kipp.players.captain import CaptainPolicy
from kipp.players.learned import LearnedAim
from kipp.players.table_view import TableView
from kipp.rules.actions import Action, ChooseSailor, Pass, Place, PlaceAnywhere, Play
from sim import geometry
from sim.params import SCREWS, Params, load_params

AIM_POLICIES = ("centre", "balance", "learned", "captain")
WILD_POLICIES = ("leveler", "random", "joint", "captain")
PASS_POLICIES = ("never", "cautious", "risk", "captain")


def pass_threshold(players: int, crash_chips: int) -> float:
    """The crash probability above which the ``risk`` rule passes, with ``players`` at the table
    and a crash costing ``crash_chips`` (``GameConfig.crash_penalty``: 2 in Old Sea Dogs).

    Counted in chips against the average of the other players (N of them at the table, so
    N - 1 others). Playing costs c = ``crash_chips`` with the crash probability p.
    Passing costs one chip for certain; the next player, who may not pass, then plays the
    same tower: with probability q they crash and lose c, c / (N - 1) on the passer's side
    of the average, else they gain the passed chip, 1 / (N - 1) against the passer. The bot
    judges their turn by its own (q = p: the same tower, the same die). Passing is the
    better bet when -1 + ((c + 1) p - 1) / (N - 1) > -c p, that is when p > N / (cN + 1):
    with c = 2, 0.4 for two players, 0.44 for four, tending to 1/2 (the passer's own chips
    alone) as the table grows. With one player nobody follows: 1/c.
    """
    if players < 2:
        return 1 / crash_chips
    return players / (crash_chips * players + 1)


def deck_tilt_deg(params: Params, turns: dict[str, float]) -> float:
    """Tilt of the deck for the given sailor turn counts (revolutions), degrees.

    :func:`sim.geometry.deck_tilt_deg` (cached) for the parameter set's ship: the same
    number the transcript's ``turn.tilt_deg`` reports, before rounding.
    """
    return geometry.deck_tilt_deg(params.ship, turns)


def leveling_sailor(params: Params, turns: dict[str, float], fraction: float) -> str:
    """The leveler's sailor on a wild roll (the rulebook's advice): the one whose turn of
    ``fraction`` revolutions leaves the deck least tilted at the sailor turn counts ``turns``
    (degrees compared to 1e-9, so exact symmetric ties stay ties; ties go to red, then yellow,
    then blue)."""
    def tilt_after(sailor: str) -> float:
        after = dict(turns)
        after[sailor] = after.get(sailor, 0.0) + fraction
        return round(deck_tilt_deg(params, after), 9)
    return min(SCREWS, key=tilt_after)


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


def placed_by_hand(aim_mm: Sequence[float], sigma_mm: float, rng: np.random.Generator, limit_mm: float) -> Place:
    """A hand's placement: deck-frame ``aim_mm`` plus a Gaussian error of ``sigma_mm`` per axis drawn from
    ``rng`` (nothing drawn for a steady hand, 0), rounded to whole micrometres (so transcripts show it
    exactly) and kept within ``limit_mm`` of the tower spot."""
    error = rng.normal(0.0, sigma_mm, size=2) if sigma_mm > 0 else np.zeros(2)
    x, y = np.clip(np.round(np.asarray(aim_mm, dtype=float) + error, 3), -limit_mm, limit_mm)
    return Place(float(x) + 0.0, float(y) + 0.0)


@dataclass(frozen=True)
class PassJudgement:
    """A bot's view of one play-or-pass decision (:meth:`Bot.pass_judgement`)."""

    estimate: float
    """The bot's own probability that the coming turn crashes (:meth:`Bot.crash_probability`)."""
    threshold: float
    """The ``risk`` rule passes above this (:func:`pass_threshold`)."""
    verdicts: dict[str, bool]
    """Pass rule name -> does it pass: ``risk``, and with the captain aim ``captain``."""


@dataclass(frozen=True)
class Bot:
    """A computer player.

    - ``aim``: where the bot aims each barrel. ``centre``: the centre of the top barrel.
      ``balance``: the aim that keeps the tower best balanced through the decision about
      to happen, the placement at today's tilt and the rolled sailor's turn
      (:meth:`kipp.players.balance.BalanceJudge.aim`): a little uphill of the coming tilt.
      ``learned``: the aim of a policy trained on the Gymnasium environment (the field
      ``learned``, a :class:`kipp.players.learned.LearnedAim`; by default the shipped one) from
      the table as the environment shows it (:class:`kipp.players.table_view.TableView`); it
      was trained to level the deck on a wild roll, so it goes with the ``leveler``.
      ``captain``: the aim of the self-play policy (the field ``captain``, a
      :class:`kipp.players.captain.CaptainPolicy`; by default the shipped one), which goes with
      its own wild choice (``wild="captain"``).
    - ``sigma_mm``: placement skill, the standard deviation of the Gaussian error per
      axis (deck frame, mm) added after the aim; by default the parameter set's
      ``placement.sigma_mm`` (1.5 mm, or what ``kipp calibrate`` fitted to recorded
      games). Offsets are rounded to whole micrometres so that transcripts show them
      exactly.
    - ``wild``: ``leveler`` turns the sailor that leaves the deck most level (the
      rulebook's advice; ties go to red, then yellow, then blue); ``random`` picks one
      uniformly; ``joint`` (with the ``balance`` aim) chooses the sailor together with the
      aim, and after placing turns the sailor that leaves the tower as it stands best
      balanced; ``captain`` (with the ``captain`` aim) the sailor of the captain's wild score,
      chosen before placing for the aim and again after, on the tower as it landed.
    - ``passing`` (Old Sea Dogs): ``never``; ``cautious``: pass when the worst die face
      could tilt the deck at least ``caution`` times the tower's critical tilt
      (:func:`critical_tilt_deg` of the tower plus the next barrel); ``risk``: pass when
      the bot's own estimate of its crash probability p this turn (the die's faces
      averaged, each by :meth:`~kipp.players.balance.BalanceJudge.crash_probability`: its
      placement error propagated through the static check, the turn crashing where the
      static margin after it is below ``turn_allowance_deg``) is above
      :func:`pass_threshold`: passing costs one chip, but the next player must then play
      the same tower, so the pass pays from p = N / (2N + 1) with N players (0.4 for two). ``captain`` (with
      the ``captain`` aim): the same estimate, at the captain's own aim and sailor, against the
      bar its policy learned (:meth:`kipp.players.captain.CaptainPolicy.passes`).
    - ``turn_allowance_deg``: what the bot has learnt at the table about turns: a turn
      crashes when the static margin after it is below this (degrees). 0.25: a turning tower
      needs a little tilt to spare (the fast referee's fitted turn margin grows with the
      tower's height too). Chosen from a grid of allowances as the one whose crash estimates
      best match the physics referee's crash rate for the skilled bot
      (``python -m lab.pass_calibration --model skilled --rounds 600 --referee physics``, which
      prints each allowance's Brier score and mean estimate against the crash rate); a player's
      experience, learnt once, not a question to the referee in play.
    - ``model``: the name of the player model this bot plays (:mod:`kipp.players.models`),
      recorded in transcripts; None for a bot built by hand.
    """

    name: str = "bot"
    sigma_mm: float | None = None
    wild: str = "leveler"
    passing: str = "never"
    caution: float = 1.0
    aim: str = "centre"
    turn_allowance_deg: float = 0.25
    model: str | None = None
    params: Params = field(default_factory=load_params, repr=False, compare=False)
    judge: BalanceJudge | None = field(default=None, repr=False, compare=False)
    learned: LearnedAim | None = field(default=None, repr=False, compare=False)
    view: TableView | None = field(default=None, repr=False, compare=False)
    captain: CaptainPolicy | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.sigma_mm is None:
            object.__setattr__(self, "sigma_mm", self.params.placement.sigma_m * 1000)
        for what, value, known in (("aim", self.aim, AIM_POLICIES), ("wild", self.wild, WILD_POLICIES),
                                   ("pass", self.passing, PASS_POLICIES)):
            if value not in known:
                raise ValueError(f"unknown {what} policy {value!r}; expected one of {', '.join(known)}")
        if self.wild == "joint" and self.aim != "balance":
            raise ValueError("the joint wild choice needs the balance aim (it chooses the sailor with the aim)")
        if self.aim == "learned" and self.wild != "leveler":
            raise ValueError("the learned aim needs the leveler's wild choice (it was trained to level the deck)")
        if not (math.isfinite(self.sigma_mm) and self.sigma_mm >= 0):
            raise ValueError(f"sigma_mm must be finite and >= 0, got {self.sigma_mm!r}")
        if (self.aim == "captain") != (self.wild == "captain"):
            raise ValueError("the captain aim and the captain wild choice go together (it aims for its sailor)")
        if self.passing == "captain" and self.aim != "captain":
            raise ValueError("the captain pass needs the captain aim (its bar was learned with that aim)")
        if self.aim == "captain" and self.captain is None:
            object.__setattr__(self, "captain", CaptainPolicy.load())
        if self.aim == "learned" and self.learned is None:
            object.__setattr__(self, "learned", LearnedAim.load())
        if self.aim in ("captain", "learned"):  # both aim through the table's view and its judge
            if self.view is None:
                object.__setattr__(self, "view", TableView(self.params))
            if self.judge is None:
                object.__setattr__(self, "judge", self.view.judge)
        if self.judge is None and (self.aim == "balance" or self.passing == "risk"):
            object.__setattr__(self, "judge", BalanceJudge(self.params))

    def act(self, state, rng: np.random.Generator) -> Action:
        """The bot's action at a decision node of ``state`` (a :class:`kipp.rules.state.GameState`)."""
        legal = state.legal_actions()
        if not legal or state.is_chance_node():
            raise ValueError(f"{self.name} has nothing to decide in {state}")
        first = legal[0]
        if isinstance(first, PlaceAnywhere):
            return self.place(first, rng, state)
        if isinstance(first, ChooseSailor):
            if self.wild == "random":
                return ChooseSailor(SCREWS[int(rng.integers(len(SCREWS)))])
            if self.wild == "joint":
                return ChooseSailor(self.judge.best_sailor(state.tower, SCREWS, state.config.fraction))
            if self.wild == "captain":
                return ChooseSailor(self.captain_sailor(state, placed=True))
            return ChooseSailor(self.choose_sailor(state.turns_by_sailor(), state.config.fraction))
        if isinstance(first, Play):
            return Pass() if self.wants_to_pass(state) else Play()
        raise ValueError(f"{self.name} does not know the actions {legal!r}")

    def place(self, where: PlaceAnywhere, rng: np.random.Generator, state=None) -> Place:
        """The aim (``centre``, or ``balance`` or ``learned`` given the ``state``) plus Gaussian error;
        micrometre resolution."""
        aim_mm = where.top_mm
        if self.aim != "centre" and state is not None:
            aims = {"balance": self.balance_aim_m, "learned": self.learned_aim_m, "captain": self.captain_aim_m}
            x, y = aims[self.aim](state)
            aim_mm = (x * 1000, y * 1000)
        return self.execute(aim_mm, where, rng)

    def execute(self, aim_mm: tuple[float, float], where: PlaceAnywhere, rng: np.random.Generator) -> Place:
        """The placement this bot's hand (``sigma_mm``) makes when it aims at ``aim_mm`` (deck frame, mm):
        :func:`placed_by_hand` within the rules' limit."""
        return placed_by_hand(aim_mm, self.sigma_mm, rng, where.limit_mm)

    def coming_sailors(self, state) -> list[str]:
        """The sailors the bot may turn after this placement: the rolled one, or on a wild roll
        the one its wild policy will choose (all three for ``joint`` and ``random``)."""
        return self._sailors_of(state.roll_meaning(state.face).sailors, state)

    def _sailors_of(self, sailors: tuple[str, ...], state, placed: bool = False) -> list[str]:
        """Of the ``sailors`` a roll lets turn, those the bot may turn: a wild roll's choice is
        its wild policy's (the leveler's or the captain's one sailor, the captain's judged before the
        barrel is set or, ``placed``, after; all three for ``joint`` and ``random``)."""
        if len(sailors) > 1 and self.wild == "leveler":
            return [self.choose_sailor(state.turns_by_sailor(), state.config.fraction)]
        if len(sailors) > 1 and self.wild == "captain":
            return [self.captain_sailor(state, placed=placed)]
        return list(sailors)

    def balance_aim_m(self, state) -> tuple[float, float]:
        """Deck-frame aim (m) of the ``balance`` policy for the barrel about to be placed in ``state``.

        With ``random`` on a wild roll the bot cannot know the sailor, so it aims for the
        best worst case over the three; with ``joint`` for the best pair."""
        sailors = self.coming_sailors(state)
        size = state.next_barrel()
        fraction = state.config.fraction
        if self.wild == "random" and len(sailors) > 1:
            aim = min((self.judge.aim(state.tower, size, [s], fraction) for s in sailors), key=lambda a: a.margin_rad)
        else:
            aim = self.judge.aim(state.tower, size, sailors, fraction)
        return aim.x_m, aim.y_m

    def learned_aim_m(self, state, sailor: str | None = None) -> tuple[float, float]:
        """Deck-frame aim (m) of the ``learned`` policy for the next barrel of ``state``, before a turn of
        ``sailor`` (default: the one the bot expects to turn, :meth:`coming_sailors`)."""
        obs = self.view.observe(state, state.player)
        return self.view.aim_m(state, *self.learned.aim(obs, sailor if sailor is not None else
                                                        self.coming_sailors(state)[0]))

    def captain_aim_m(self, state, sailor: str | None = None) -> tuple[float, float]:
        """Deck-frame aim (m) of the ``captain`` policy for the next barrel of ``state``, before a turn of
        ``sailor`` (default: the one it expects to turn, :meth:`coming_sailors`)."""
        sailor = sailor if sailor is not None else self.coming_sailors(state)[0]
        obs = self.view.observe(state, state.player)
        return self.view.aim_m(state, *self.captain.aim(obs, sailor, self.balance_in_reaches(state, sailor)))

    def balance_in_reaches(self, state, sailor: str) -> tuple[float, float]:
        """The balance judgement's aim for the next barrel before a turn of ``sailor``, as an offset from
        the top barrel's centre in reaches (the captain's ``balance`` vector)."""
        tower, size = state.tower, state.next_barrel()
        aim = self.judge.aim(tower, size, [sailor], state.config.fraction)
        x, y = aim.x_m, aim.y_m
        cx, cy = tower.top_xy()
        reach = self.judge.reach_m(tower, size)
        return ((x - cx) / reach, (y - cy) / reach) if tower.barrels and reach > 0 else (0.0, 0.0)

    def captain_sailor(self, state, placed: bool) -> str:
        """The ``captain`` wild choice: the lowest wild score (ties: SCREWS order), before the barrel is
        set (``placed`` False: each sailor's estimate at the aim for it) or after."""
        obs = self.view.observe(state, state.player)
        estimates = np.zeros(len(SCREWS))
        if self.captain.needs_crash_estimates():
            tower, fraction, sigma_m = state.tower, state.config.fraction, self.sigma_mm / 1000
            size = None if placed else state.next_barrel()
            for i, sailor in enumerate(SCREWS):
                aim = None
                if size is not None:
                    aim = self.view.aim_m(state, *self.captain.aim(obs, sailor, self.balance_in_reaches(state, sailor)))
                estimates[i] = self.judge.crash_probability(tower, size, aim, sailor, fraction, sigma_m,
                                                            self.turn_allowance_deg)
        return SCREWS[int(np.argmin(self.captain.wild_scores(obs, estimates)))]

    def choose_sailor(self, turns: dict[str, float], fraction: float) -> str:
        """The leveler's choice (:func:`leveling_sailor`)."""
        return leveling_sailor(self.params, turns, fraction)

    def wants_to_pass(self, state) -> bool:
        """The pass policy (see the class docstring); only asked when passing is allowed."""
        if self.passing == "never":
            return False
        if self.passing in ("risk", "captain"):
            return self.estimate_passes(state)[self.passing]
        turns = state.turns_by_sailor()
        fraction = state.config.fraction
        forced = [m.sailors[0] for m in map(state.roll_meaning, state.config.faces) if len(m.sailors) == 1]
        if not forced:
            return False
        worst = max(deck_tilt_deg(self.params, {**turns, sailor: turns[sailor] + fraction}) for sailor in forced)
        sizes = [barrel.size for barrel in state.tower.barrels]
        if state.next_barrel() is not None:
            sizes.append(state.next_barrel())
        return worst >= self.caution * critical_tilt_deg(self.params, sizes)

    def estimate_passes(self, state) -> dict[str, bool]:
        """What the ``risk`` rule and, with the captain aim, the ``captain`` rule decide at ``state``'s
        play-or-pass decision, from one crash estimate (:meth:`crash_probability`)."""
        return self.pass_judgement(state).verdicts

    def pass_judgement(self, state) -> "PassJudgement":
        """The crash estimate at ``state``'s play-or-pass decision, the ``risk`` rule's threshold and what
        each rule decides (:meth:`estimate_passes`)."""
        config = state.config
        p, threshold = self.crash_probability(state), pass_threshold(len(config.players), config.crash_penalty)
        verdicts = {"risk": p > threshold}
        if self.captain is not None:
            others = [c for i, c in enumerate(state.chips) if i != state.player]
            verdicts["captain"] = self.captain.passes(
                p, threshold, lead_chips=state.chips[state.player] - max(others, default=0),
                supply_share=state.supply / config.total_chips, placed_share=state.placed / len(state.line))
        return PassJudgement(p, threshold, verdicts)

    def crash_probability(self, state) -> float:
        """The bot's own estimate that the coming turn crashes, before the die is rolled.

        Each face of the die in turn: the barrel (none on a blue roll after the first turn
        of a round) set at the bot's aim for that face, its placement error propagated
        through the static check, then the face's sailor turned (on a wild roll the bot's
        choice); faces weighted as the die shows them.
        """
        judge, tower, fraction = self.judge, state.tower, state.config.fraction
        size = state.next_barrel()
        total = 0.0
        for face in state.config.faces:
            meaning = state.roll_meaning(face)
            places = size is not None and meaning.places_barrel
            sailors = self._sailors_of(meaning.sailors, state, placed=not places)
            if places and self.aim in ("learned", "captain"):
                sailor = sailors[0]
                x, y = (self.learned_aim_m if self.aim == "learned" else self.captain_aim_m)(state, sailor)
            elif places and self.aim == "balance":
                aim = judge.aim(tower, size, sailors, fraction)
                x, y, sailor = aim.x_m, aim.y_m, aim.sailor
            elif places:
                (x, y), sailor = tower.top_xy(), sailors[0]
            else:
                x, y, sailor = 0.0, 0.0, sailors[0]
            total += judge.crash_probability(tower, size if places else None, (x, y), sailor, fraction,
                                             self.sigma_mm / 1000, self.turn_allowance_deg)
        return total / len(state.config.faces)
