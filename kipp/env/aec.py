"""The whole game as a PettingZoo AEC environment: every seat an agent, the die's chance dealt inside.

``pip install "kipp-kipp-ahoi[env]"``; then::

    from kipp.env import aec
    env = aec.env(players=3, sea_dogs=True)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

The environment is :class:`KippKippAhoiAEC` (its docstring is the spec).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kipp.env.render import RENDER_FPS
from kipp.players.bots import placed_by_hand
from kipp.players.table_view import SIZE, TableView, bounds
from kipp.rules.actions import ChooseSailor, Pass, Place, PlaceAnywhere, Play
from kipp.rules.config import MAX_PLAYERS, GameConfig
from kipp.rules.play import game_streams, sample_chance
from kipp.rules.replay import params_fingerprint
from kipp.rules.state import CHANCE, GameState
from kipp.rules.transcript import json_line, with_header
from sim.params import SCREWS, Params, load_params
from sim.referees import make_referee

CHOICES = ("place", "play", "pass", *SCREWS)
"""The discrete part of an action, by index: set the barrel (at the action's aim), play or pass
(Old Sea Dogs, before the roll), turn the red, yellow or blue sailor (after placing on a wild roll)."""
CHOICE = {name: i for i, name in enumerate(CHOICES)}
NAME = "kipp_kipp_ahoi_v0"


def agent_name(seat: int) -> str:
    """The agent of seat ``seat`` (0 starts the first round): ``player_0`` ..."""
    return f"player_{seat}"


class ChoiceAndAim(spaces.Box):
    """An action: ``[choice, aim_x, aim_y]``, float32 in ``[0, 5] x [-1, 1] x [-1, 1]``.

    ``choice`` is the index of one of :data:`CHOICES` (a whole number; the environment rounds it);
    the aim is read when the choice is ``place``. A Box, so that the aim stays continuous, whose
    :meth:`sample` honours an action mask as a ``Discrete`` space does: with ``mask`` (int8, one
    entry per choice) the choice is drawn among the legal ones, the aim uniformly.
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(np.array([0.0, -1.0, -1.0], np.float32), np.array([len(CHOICES) - 1, 1.0, 1.0], np.float32),
                         dtype=np.float32, seed=seed)

    def sample(self, mask: np.ndarray | None = None, probability: None = None) -> np.ndarray:
        if probability is not None:
            raise gymnasium.error.Error("ChoiceAndAim.sample takes a mask, not a probability")
        legal = np.arange(len(CHOICES)) if mask is None else np.flatnonzero(np.asarray(mask))
        if len(legal) == 0:
            raise ValueError("the action mask allows no choice")
        choice = legal[int(self.np_random.integers(len(legal)))]
        aim = self.np_random.uniform(-1.0, 1.0, 2)
        return np.array([choice, *aim], np.float32)


class KippKippAhoiAEC(AECEnv):
    """
    ## Description

    HABA's *Kipp, Kipp, Ahoi!* for 2-4 players, each an agent (``player_0`` starts the first
    round), after the conventions of PettingZoo's classic turn-based games: one agent acts at a
    time (``agent_selection``), the die and the barrel line are dealt inside from the game's
    seed, and the game's rules (:class:`kipp.rules.state.GameState`) decide what may be done.
    The tower is judged by a referee (``fast`` or ``physics``, as in ``kipp game``).

    Each step is one decision of the game: at a placement the agent sets the barrel (its aim,
    plus its hand's Gaussian error); after placing on a wild roll it turns a sailor (the same
    agent acts again); in Old Sea Dogs, before the roll, it plays or passes when the rules let it.
    Blue rolls after a round's first barrel need no decision and happen in between.

    ## Action Space

    :class:`ChoiceAndAim`: ``Box([0, -1, -1], [5, 1, 1], (3,), float32)``:

    | Num | Action                                                                         |
    |-----|--------------------------------------------------------------------------------|
    | 0   | the choice, an index of :data:`CHOICES`: 0 place, 1 play, 2 pass, 3 red, 4 yellow, 5 blue |
    | 1   | aim along x (toward the bow), in units of the reach (read with choice 0)       |
    | 2   | aim along y (to port), in units of the reach (read with choice 0)              |

    The aim is the Gymnasium environment's (:class:`kipp.env.environment.KippKippAhoiEnv`): an
    offset from the top barrel's centre in units of the reach, pulled onto the unit disc. A choice
    the action mask does not allow raises ``ValueError``.

    ## Observation Space

    ``Dict({"observation": Box(low, high, (141,), float32), "action_mask": Box(0, 1, (6,), int8)})``:
    the observation is the table as the agent sees it (:data:`kipp.players.table_view.FIELDS`,
    chips counted from the agent's seat); the mask marks the choices allowed now (all zero for an
    agent whose turn it is not, and once the game is over).

    ## Rewards

    Chips: after every step each agent's reward is the change in its chips (+2 for completing a
    round's tower, +1 when another completes it, +1 for a chip passed to it, -1 for a crash, -2 in
    Old Sea Dogs, -1 for passing). Over a game an agent's rewards add up to its final chips less 3.

    ## Starting State and Episode End

    ``reset(seed=...)`` draws the game's root seed from a generator of ``seed``; the die, the
    shuffles and every seat's hand draw from the streams of that root seed (``kipp game --seed
    ROOT``), so the seed and the actions fix the game. The game ends after three rounds: every
    agent is terminated (no truncation: every round ends).

    ## Arguments

    | Parameter     | Type                   | Default  | Description                                       |
    |---------------|------------------------|----------|---------------------------------------------------|
    | `players`     | int                    | 2        | agents at the table, 2-4                          |
    | `barrels`     | int                    | 12       | 12, or 9 (younger sailors)                        |
    | `half_turn`   | bool                   | False    | sailors turn half a revolution (younger sailors)  |
    | `sea_dogs`    | bool                   | False    | Old Sea Dogs: passing, a crash costs 2 chips      |
    | `referee`     | str                    | `"fast"` | `"fast"` or `"physics"` (or `"hybrid"`)           |
    | `params`      | Params or path         | defaults | the parameter set                                 |
    | `sigma_mm`    | float, list or None    | None     | each seat's hand, mm per axis (None: the set's)   |
    | `render_mode` | str or None            | None     | `"rgb_array"` (640 x 400 x 3) or `"human"`        |

    :meth:`transcript` hands out the game so far in the replay format of ``kipp game --json``;
    a whole game's passes ``kipp replay FILE --check``.
    """

    metadata = {"name": NAME, "render_modes": ["human", "rgb_array"], "render_fps": RENDER_FPS,
                "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, *, players: int = 2, barrels: int = 12,
                 half_turn: bool = False, sea_dogs: bool = False, referee: str = "fast",
                 params: Params | str | Path | None = None, sigma_mm: float | Sequence[float] | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if not 2 <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be 2 to {MAX_PLAYERS}, got {players!r}")
        self.render_mode = render_mode
        self.params = params if isinstance(params, Params) else load_params(params)
        self.referee_name = referee
        self.referee = make_referee(referee, self.params)
        self.possible_agents = [agent_name(i) for i in range(players)]
        self.config = GameConfig(players=tuple(self.possible_agents), barrels=barrels, half_turn=half_turn,
                                 sea_dogs=sea_dogs)
        default = self.params.placement.sigma_m * 1e3
        hands = [default if sigma_mm is None else sigma_mm] * players if sigma_mm is None or np.isscalar(sigma_mm) \
            else list(sigma_mm)
        if len(hands) != players or not all(np.isfinite(h) and h >= 0 for h in hands):
            raise ValueError(f"sigma_mm must be one finite value >= 0 or one per seat, got {sigma_mm!r}")
        self.sigma_mm = [float(h) for h in hands]
        self.view = TableView(self.params)
        low, high = bounds()
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, (SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (len(CHOICES),), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: ChoiceAndAim() for a in self.possible_agents}
        self.state_: GameState | None = None
        self.root_seed: int | None = None
        self._np_random: np.random.Generator | None = None
        self._renderer = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> GameState:
        """The game as it stands (a :class:`kipp.rules.state.GameState`; do not change it)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    # --- the AEC interface ----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.root_seed = int(self._np_random.integers(2**63))
        self._die, self._shuffle, self._hands = game_streams(self.root_seed, self.config.n_players)
        self.state_ = GameState(self.config, self.referee, self.params.ship)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._deal()
        self.infos = {a: self._info() for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        return {"observation": self.view.observe(self.game, seat), "action_mask": self._mask(seat)}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state, seat = self.game, self.possible_agents.index(agent)
        before = list(state.chips)
        state.apply_action(self._action(seat, action), player=seat)
        self._deal()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: float(state.chips[i] - before[i]) for i, a in enumerate(self.possible_agents)}
        self.infos = {a: self._info() for a in self.agents}
        if state.is_terminal():
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[(seat + 1) % self.config.n_players]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; make the env with render_mode='rgb_array' "
                                  "or 'human'")
            return None
        if self._renderer is None:
            from kipp.env.render import TableRenderer

            self._renderer = TableRenderer(self.params, human=self.render_mode == "human")
        return self._renderer.draw(self.game, self._caption())

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    # --- beyond PettingZoo -----------------------------------------------------------------

    def transcript(self) -> str:
        """The game so far as JSON lines, the replay format of ``kipp game --json``.

        Written to a file, a whole game's transcript passes ``kipp replay FILE --check``; the
        header records the root seed, the parameter set's fingerprint, the referee and each
        seat's player model (null: an agent).
        """
        header = {"seed": self.root_seed, "params": params_fingerprint(self.params), "referee": self.referee_name,
                  "models": [None] * self.config.n_players}
        return "".join(json_line(e) + "\n" for e in with_header(self.game.events(), **header))

    def legal_choices(self) -> list[str]:
        """The names of the choices the selected agent may make now."""
        return [CHOICES[i] for i in np.flatnonzero(self._mask(self.possible_agents.index(self.agent_selection)))]

    # --- inside --------------------------------------------------------------------------------

    def _deal(self) -> None:
        """Deal chance (shuffles and rolls) up to the next decision or the game's end."""
        state = self.game
        while state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, self._die if state.chance_kind() == "roll" else self._shuffle))

    def _mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(len(CHOICES), np.int8)
        state = self.game
        if state.is_terminal() or state.current_player() != seat:
            return mask
        first = state.legal_actions()[0]
        if isinstance(first, PlaceAnywhere):
            mask[CHOICE["place"]] = 1
        elif isinstance(first, Play):
            mask[[CHOICE["play"], CHOICE["pass"]]] = 1
        elif isinstance(first, ChooseSailor):
            mask[[CHOICE[s] for s in SCREWS]] = 1
        return mask

    def _action(self, seat: int, action):
        """The rules' action of the agent at ``seat`` for ``action`` ([choice, aim_x, aim_y])."""
        a = np.asarray(action, dtype=np.float64).reshape(3)
        if not np.all(np.isfinite(a)):
            raise ValueError(f"an action must be finite, got {action!r}")
        choice = int(np.rint(a[0]))
        legal = self._mask(seat)
        if not (0 <= choice < len(CHOICES) and legal[choice]):
            raise ValueError(f"choice {a[0]!r} is not allowed now; allowed: "
                             f"{', '.join(f'{i} {CHOICES[i]}' for i in np.flatnonzero(legal))}")
        name = CHOICES[choice]
        if name == "place":
            state = self.game
            where = state.legal_actions()[0]
            aim = np.clip(a[1:], -1.0, 1.0)
            x, y = self.view.aim_m(state, float(aim[0]), float(aim[1]))
            place: Place = placed_by_hand((x * 1e3, y * 1e3), self.sigma_mm[seat], self._hands[seat], where.limit_mm)
            return place
        if name == "play":
            return Play()
        if name == "pass":
            return Pass()
        return ChooseSailor(name)

    def _info(self) -> dict:
        state = self.game
        return {"chips": list(state.chips), "round": state.round, "placed": state.placed}

    def _caption(self) -> str:
        state = self.game
        chips = ", ".join(f"{name} {c}" for name, c in zip(state.config.players, state.chips))
        face = f", rolled {state.face}" if state.face else ""
        return f"Round {state.round}, barrel {state.placed}/{len(state.line)}{face}; chips: {chips}"


def raw_env(**options) -> KippKippAhoiAEC:
    """The environment itself (PettingZoo's ``raw_env``)."""
    return KippKippAhoiAEC(**options)


def env(**options) -> AECEnv:
    """The environment in PettingZoo's order-enforcing wrapper (``reset`` before ``step``, and so on)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**options))
