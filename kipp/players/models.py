"""Named player models: documented bundles of a placement policy, a hand, a wild choice and a pass rule.

Every analysis states the model it used (``--player MODEL``); games record each seat's
model. The table below is the one source of truth: ``--help`` texts and the docstring of
:data:`MODELS` are made from it.

The numbers are choices:

- ``novice`` aims at the centre of the top barrel with a 3 mm hand (a child's, or anyone's
  first game: twice the default error), turns any sailor on a wild roll and never passes.
- ``casual`` is the bot of the first version: centre aim, the parameter set's hand
  (``[placement] sigma_mm``, or what ``kipp calibrate`` fitted), levels the deck on a wild
  roll. The default for a bare ``bot``. In Old Sea Dogs it passes on its own crash estimate,
  like ``skilled``.
- ``skilled`` sets each barrel a little uphill of the coming tilt (the ``balance`` aim)
  with a steady 1 mm hand; levels the deck on a wild roll; passes in Old Sea Dogs on its
  own crash estimate, like ``expert``, counting that the next player must then play the
  same tower (:func:`kipp.players.bots.pass_threshold`); ``casual``'s rule, which judges a
  centred tower, would pass far too often for it.
- ``expert`` balances with a 0.5 mm hand, chooses the sailor of a wild roll together with
  the aim, and passes as ``skilled`` does.
- ``learned`` aims by a policy fitted on the Gymnasium environment (:mod:`kipp.env`) rather
  than by a judgement written by hand: 20 weights of :class:`kipp.players.learned.LearnedAim`,
  trained by CMA-ES on practice rounds with a 1 mm hand (``python -m lab.train_player``), and
  plays with that 1 mm hand, so against ``skilled`` only the aim differs. It levels the deck
  on a wild roll and passes on its own crash estimate, judged at its own aim.
- ``captain``, for experienced families: plays to win chips, not only to build tall towers. It
  has the expert's steady 0.5 mm hand and one policy for all three of its choices
  (:mod:`kipp.players.captain`): where to set the barrel (a learned mix of the ``learned``
  player's aim and the ``skilled`` and ``expert`` players' judgement), which sailor to turn on a
  wild roll (thinking of the deck it hands the next player too), and when to pass in Old Sea Dogs
  (its own crash estimate against a bar it learned). The weights were trained by CMA-ES in paired
  games against copies of itself and the other models (``python -m lab.train_selfplay``); how it
  does against each of them, on physics, is recorded by ``python -m lab.captain_study`` in
  ``lab/data/captain_study.json``.

What each pass rule gains against a never-passing twin: ``python -m lab.pass_payoff --model
MODEL --games 300 --referee physics --seed 1`` (points of wins and chips a game, with 95%
intervals). How often each model completes standard rounds: ``kipp compare --player MODEL
--referee physics --games 100 --seed 3``.

- ``lookahead`` is not a person, and not in :data:`MODELS` (no command seats it, since it must be
  handed the referee): :class:`kipp.players.lookahead.LookaheadBot` tries candidate aims on the
  referee before it lets go, then errs by its hand (0.5 or 1 mm). It bounds what skill can do
  (:mod:`kipp.analysis.skill_ceiling`).

>>> bot = make_bot("skilled", "Ann")
>>> bot.aim, bot.sigma_mm, bot.model
('balance', 1.0, 'skilled')
>>> make_bot("pirate", "Ann")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kipp.players.models.UnknownModelError: unknown player model 'pirate'; known: novice, casual, ..., captain
"""

from __future__ import annotations

from dataclasses import dataclass

from kipp.language import N_
from kipp.players.bots import Bot
from sim.params import Params, load_params


class UnknownModelError(ValueError):
    """A player model name that is not in :data:`MODELS`."""


@dataclass(frozen=True)
class PlayerModel:
    """One named way of playing (see :class:`kipp.players.bots.Bot` for what each field does)."""

    name: str
    aim: str
    sigma_mm: float | None
    """Placement error per axis, mm; None: the parameter set's ``[placement] sigma_mm``."""
    wild: str
    passing: str
    family_words: str = ""
    """What it is like to play against, in words a family uses (the start screen shows it):
    English, marked with :func:`~kipp.language.N_`; the screen translates it with its
    :class:`~kipp.language.Language`. It says how the model plays, never how strong it is
    beyond the order of :data:`MODELS`."""

    def describe(self) -> str:
        """One line for ``--help``: what this player does."""
        aim = {"centre": "aims at the centre of the top barrel",
               "balance": "sets each barrel a little uphill of the coming tilt",
               "learned": "aims by a policy trained on the Gymnasium environment",
               "captain": ("aims by a blend of the balance judgement and the learned aim, "
                           "fitted in games against itself")}[self.aim]
        hand = "the parameter set's hand" if self.sigma_mm is None else f"a {self.sigma_mm:g} mm hand"
        wild = {"leveler": "levels the deck on a wild roll", "random": "turns any sailor on a wild roll",
                "joint": "picks a wild roll's sailor with the aim",
                "captain": "turns the wild roll's sailor it judges least likely to crash"}[self.wild]
        passing = {"never": "never passes", "cautious": "passes when the worst face could tip the tower",
                   "risk": "passes when its own crash estimate exceeds N/(2N+1) at N players",
                   "captain": "passes by its policy's bar (the risk rule with the shipped weights)"}[self.passing]
        return f"{self.name}: {aim}, {hand}, {wild}, {passing}"


MODELS: dict[str, PlayerModel] = {m.name: m for m in (
    PlayerModel("novice", aim="centre", sigma_mm=3.0, wild="random", passing="never",
                family_words=N_("Plays like a child at their first game: aims at the middle of the top barrel "
                                "with a shaky hand, and never passes.")),
    PlayerModel("casual", aim="centre", sigma_mm=None, wild="leveler", passing="risk",
                family_words=N_("Plays like a relaxed grown-up: aims at the middle of the top barrel, and when "
                                "it may pick the sailor, it keeps the ship level.")),
    PlayerModel("skilled", aim="balance", sigma_mm=1.0, wild="leveler", passing="risk",
                family_words=N_("Plays like a careful grown-up: with a steady hand, sets each barrel a little "
                                "toward the high side, because the ship is about to tilt.")),
    PlayerModel("expert", aim="balance", sigma_mm=0.5, wild="joint", passing="risk",
                family_words=N_("Plays like a very careful grown-up: the steadiest hand, and on a wild roll it "
                                "picks the sailor and the spot for its barrel together.")),
    PlayerModel("learned", aim="learned", sigma_mm=1.0, wild="leveler", passing="risk",
                family_words=N_("A computer player that taught itself where to set the barrels by practising, "
                                "with a steady hand.")),
    PlayerModel("captain", aim="captain", sigma_mm=0.5, wild="captain", passing="captain",
                family_words=N_("Taught itself by playing against itself and the bots. The steadiest hand; on "
                                "a wild roll it turns the sailor it judges least likely to topple the tower.")),
)}
"""The player models by name: those written by hand weakest first, then the one that learned."""

DEFAULT_MODEL = "casual"
"""The model of a bot whose model is not named (a bare ``bot``)."""


def model(name: str) -> PlayerModel:
    """The player model called ``name``; :class:`UnknownModelError` lists the known ones."""
    try:
        return MODELS[name]
    except KeyError:
        raise UnknownModelError(f"unknown player model {name!r}; known: {', '.join(MODELS)}") from None


def make_bot(name_of_model: str, player: str = "bot", params: Params | None = None) -> Bot:
    """A :class:`~kipp.players.bots.Bot` called ``player`` that plays the model ``name_of_model``."""
    m = model(name_of_model)
    return Bot(player, sigma_mm=m.sigma_mm, wild=m.wild, passing=m.passing, aim=m.aim, model=m.name,
               params=params if params is not None else load_params())


def models_help() -> str:
    """The models, one per line, for ``--help`` texts."""
    return "; ".join(m.describe() for m in MODELS.values())
