"""One round of a given barrel line, played to its end by a bot: the unit the analyses play
(``kipp tune``, ``kipp sensitivity``, ``kipp design``, the skill ceiling).

A round starts from a fresh :class:`~kipp.rules.state.GameState` (one player) with a forced
``Shuffle(order)`` and runs until the round ends, completed or crashed; the rules are the
game's own. The player is a bot of a named model (:mod:`kipp.players.models`), its placement
error ``sigma_mm`` and wild policy optionally overridden. Common random numbers: round ``k``
draws its die rolls, placement errors and wild choices from three separate streams of
:func:`round_streams` ``(seed, k)``, which depend on nothing but the root seed and ``k``;
so the k-th round of every order sees the same i-th roll and the same i-th placement
error, and two orders differ only by their barrels. :func:`round_line` draws a line for round
``k`` where the analysis does not fix one.

>>> first = [rng.integers(1000) for rng in round_streams(7, 3)]
>>> first == [rng.integers(1000) for rng in round_streams(7, 3)]
True
>>> first == [rng.integers(1000) for rng in round_streams(7, 4)]
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from kipp.analysis.orders import barrel_set
from kipp.players.bots import Bot
from kipp.players.models import DEFAULT_MODEL, make_bot
from kipp.rules.actions import PlaceAnywhere, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.play import sample_chance
from kipp.rules.state import CHANCE, GameState
from sim.params import Params, load_params
from sim.seeds import stream
from sim.tower import Referee


@dataclass(frozen=True)
class RoundResult:
    completed: bool
    stacked: int
    """Barrels standing when the round ended (all of them if completed)."""


@dataclass(frozen=True)
class RoundModel:
    """The stated player model and variant under which an order's difficulty is measured."""

    barrels: int = 12
    half_turn: bool = False
    sigma_mm: float | None = None
    """Placement error per axis, mm; None: the player model's."""
    wild: str | None = None
    """Wild-roll policy; None: the player model's."""
    player: str = DEFAULT_MODEL
    """The player model (:mod:`kipp.players.models`)."""

    def config(self) -> GameConfig:
        return GameConfig(players=("Sailor",), barrels=self.barrels, half_turn=self.half_turn)

    def bot(self, params: Params | None = None) -> Bot:
        """The bot of the player model, with this model's sigma and wild policy where they are given."""
        bot = make_bot(self.player, "Sailor", params if params is not None else load_params())
        changes = {k: v for k, v in (("sigma_mm", self.sigma_mm), ("wild", self.wild)) if v is not None}
        return replace(bot, **changes) if changes else bot


def round_streams(seed: int, k: int, family: str = "round") -> tuple[np.random.Generator, np.random.Generator,
                                                                    np.random.Generator]:
    """(die, placement, wild) generators of round ``k`` under the root ``seed``; ``family`` names
    a set of rounds independent of the others (``round``: a sweep's; ``anchor``, ``holdout``)."""
    return stream(seed, family, k, "die"), stream(seed, family, k, "place"), stream(seed, family, k, "wild")


def round_line(seed: int, k: int, barrels: int) -> tuple[str, ...]:
    """The barrel line of round ``k`` for ``barrels`` barrels (the same in every arm of an analysis):
    a uniform shuffle of the round's barrels, so every distinct line is equally likely."""
    return tuple(stream(seed, "sensitivity line", k, barrels).permutation(barrel_set(barrels)))


def next_action(state: GameState, bot: Bot, die_rng: np.random.Generator, place_rng: np.random.Generator,
                wild_rng: np.random.Generator):
    """The next action of a round in ``state``: the die's, or the bot's (placement errors and
    wild choices on streams of their own, so that one does not shift the other between orders)."""
    if state.current_player() == CHANCE:
        return sample_chance(state, die_rng)
    first = state.legal_actions()[0]
    return bot.place(first, place_rng, state) if isinstance(first, PlaceAnywhere) else bot.act(state, wild_rng)


def play_round(order: tuple[str, ...], referee: Referee, bot: Bot, config: GameConfig,
               seed: int, k: int, family: str = "round") -> RoundResult:
    """Play round ``k`` of ``family`` (its random streams) of the barrel line ``order`` to its end."""
    die_rng, place_rng, wild_rng = round_streams(seed, k, family)
    state = GameState(config, referee, bot.params.ship)
    state.apply_action(Shuffle(order))
    while state.chance_kind() != "shuffle" and not state.is_terminal():
        state.apply_action(next_action(state, bot, die_rng, place_rng, wild_rng))
    end = state.last_round_end()
    return RoundResult(bool(end["completed"]), int(end["stacked"]))


