"""Named player models: documented bundles of a placement policy, a hand, a wild choice and a pass rule.

Every analysis states the model it used (``--player MODEL``); games record each seat's
model. The table below is the one source of truth: ``--help`` texts and the docstring of
:data:`MODELS` are made from it.

The numbers are choices, defended here:

- ``novice`` aims at the centre of the top barrel with a 3 mm hand (a child's, or anyone's
  first game: twice the default error), turns any sailor on a wild roll and never passes.
- ``casual`` is the bot of the first version: centre aim, the parameter set's hand
  (``[placement] sigma_mm``, 1.5 mm by default, or what ``kipp calibrate`` fitted), levels
  the deck on a wild roll, passes in Old Sea Dogs when the worst face could tilt the deck
  past the tower's critical tilt. The default for a bare ``bot``.
- ``skilled`` sets each barrel a little uphill of the coming tilt (the ``balance`` aim)
  with a steady 1 mm hand; levels the deck on a wild roll; passes in Old Sea Dogs on its
  own crash estimate, like ``expert``. (With ``casual``'s rule, which judges a centred
  tower, it passed far too often: against a never-passing twin, fast referee, 4 games x 2
  seatings, -5.25 [-9.07, -1.43] chips per game; with its own estimate, 30 games,
  +0.82 [+0.38, +1.26]. Under physics neither pays yet: the estimate comes from the
  static check, which is pessimistic for balanced towers that physics keeps standing;
  with the physics referee, 60 games x 2 seatings, the skilled pass still costs
  0.95 [0.45, 1.45] chips a game, and casual's 0.87 [0.48, 1.26] over 100 games:
  ``python -m kipp.analysis.pass_payoff``.)
- ``expert`` balances with a 0.5 mm hand, chooses the sailor of a wild roll together with
  the aim, and passes in Old Sea Dogs when its own estimate of the crash probability makes
  the expected two chips of a crash dearer than the certain one of a pass.

>>> bot = make_bot("skilled", "Ann")
>>> bot.aim, bot.sigma_mm, bot.model
('balance', 1.0, 'skilled')
>>> make_bot("pirate", "Ann")
Traceback (most recent call last):
...
kipp.players.models.UnknownModelError: unknown player model 'pirate'; known: novice, casual, skilled, expert
"""

from __future__ import annotations

from dataclasses import dataclass

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

    def describe(self) -> str:
        """One line for ``--help``: what this player does."""
        aim = {"centre": "aims at the centre of the top barrel",
               "balance": "sets each barrel a little uphill of the coming tilt"}[self.aim]
        hand = "the parameter set's hand" if self.sigma_mm is None else f"a {self.sigma_mm:g} mm hand"
        wild = {"leveler": "levels the deck on a wild roll", "random": "turns any sailor on a wild roll",
                "joint": "picks a wild roll's sailor with the aim"}[self.wild]
        passing = {"never": "never passes", "cautious": "passes when the worst face could tip the tower",
                   "risk": "passes when its own crash estimate exceeds 1/2"}[self.passing]
        return f"{self.name}: {aim}, {hand}, {wild}, {passing}"


MODELS: dict[str, PlayerModel] = {m.name: m for m in (
    PlayerModel("novice", aim="centre", sigma_mm=3.0, wild="random", passing="never"),
    PlayerModel("casual", aim="centre", sigma_mm=None, wild="leveler", passing="cautious"),
    PlayerModel("skilled", aim="balance", sigma_mm=1.0, wild="leveler", passing="risk"),
    PlayerModel("expert", aim="balance", sigma_mm=0.5, wild="joint", passing="risk"),
)}
"""The player models by name, weakest first."""

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
