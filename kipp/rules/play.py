"""Play whole games headless: bots decide, a referee judges, seeded chance.

One root seed makes a game reproducible: the streams ``die``, ``shuffle`` and ``bot i`` of
:mod:`sim.seeds` are independent, so a bot's placement errors do not depend on how often
the die was rolled (common random numbers across variants).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from kipp.rules.actions import Action, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import CHANCE, GameState
from sim.params import Params
from sim.seeds import stream
from sim.tower import Referee

Observer = Callable[[GameState, Action], None]


def sample_chance(state: GameState, rng: np.random.Generator) -> Action:
    """Draw the outcome of ``state``'s chance node (without listing all 34,650 lines).

    The die: a uniformly random face; the shuffle: a uniformly random permutation of the
    barrels, matching :meth:`GameState.chance_outcomes`.
    """
    kind = state.chance_kind()
    if kind is None:
        raise ValueError(f"not a chance node: {state}")
    if kind == "roll":
        faces = state.config.faces
        return Roll(faces[int(rng.integers(len(faces)))])
    barrels = state.config.barrel_set()
    return Shuffle(tuple(barrels[i] for i in rng.permutation(len(barrels))))


FRESH_SEEDS = 1_000_000
"""A fresh seed is one of this many (six digits: short enough to note down and type)."""


def fresh_seed() -> int:
    """A new root seed from the operating system's entropy (:class:`numpy.random.SeedSequence`),
    0 .. :data:`FRESH_SEEDS` - 1: fresh luck for a game nobody asked to repeat."""
    return int(np.random.SeedSequence().entropy % FRESH_SEEDS)


def game_streams(seed: int, n_players: int) -> tuple[np.random.Generator, np.random.Generator,
                                                      list[np.random.Generator]]:
    """The (die, shuffle, per-bot) generators of a game from its root seed."""
    return stream(seed, "die"), stream(seed, "shuffle"), [stream(seed, "bot", i) for i in range(n_players)]


def play_game(config: GameConfig, referee: Referee, bots: Sequence, seed: int, *,
              params: Params | None = None, observer: Observer | None = None) -> GameState:
    """Play a whole game and return its terminal state (events in ``state.events()``).

    ``bots[i]`` plays player ``i`` (anything with ``act(state, rng) -> Action``).
    ``observer(state, action)`` is called after each action is applied.
    """
    if len(bots) != config.n_players:
        raise ValueError(f"{config.n_players} players need {config.n_players} bots, got {len(bots)}")
    die_rng, shuffle_rng, bot_rngs = game_streams(seed, config.n_players)
    state = GameState(config, referee, params.ship if params is not None else None)
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state, die_rng if state.chance_kind() == "roll" else shuffle_rng)
        else:
            action = bots[player].act(state, bot_rngs[player])
        state.apply_action(action, player=None if player == CHANCE else player)
        if observer is not None:
            observer(state, action)
    return state
