"""The game as a single-agent Gymnasium environment: one learner's seat, bots in the others."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kipp.env.render import RENDER_FPS
from kipp.players.bots import placed_by_hand
from kipp.players.models import DEFAULT_MODEL, make_bot
from kipp.players.table_view import SIZE, TableView, bounds, sailor_of
from kipp.rules.actions import ChooseSailor, Pass, Place, PlaceAnywhere, Play
from kipp.rules.config import GameConfig
from kipp.rules.play import game_streams, sample_chance
from kipp.rules.replay import params_fingerprint
from kipp.rules.state import CHANCE, GameState
from kipp.rules.transcript import json_line, with_header
from sim.params import Params, load_params
from sim.referees import make_referee

LEARNER = "Learner"
"""The learner's name at the table (and in transcripts)."""


class Episode(Enum):
    """What an episode is: a whole ``game`` (three rounds) or its first ``round``."""

    GAME = "game"
    ROUND = "round"


class Passing(Enum):
    """How the learner passes in Old Sea Dogs: ``never``, or by its ``action`` (see the env's docstring)."""

    NEVER = "never"
    ACTION = "action"


class KippKippAhoiEnv(gym.Env):
    """
    ## Description

    HABA's *Kipp, Kipp, Ahoi!* (DESIGN.md section 4): players roll a coloured die, stack the
    next barrel of a shuffled line on a ship standing on three sailor screws, then turn the
    rolled sailor, which tilts the deck. The tower is judged by a referee (``fast``: the
    static check with a dynamic margin fitted to the physics; ``physics``: the pymunk
    world). The learner sits at ``seat``; the other seats are bots of the player models
    ``opponents`` (:mod:`kipp.players.models`). Each step is one decision of the learner; the
    die, the shuffles, the opponents' turns and the turns that need no decision (a blue roll
    after the round's first barrel) happen in between.

    ## Action Space

    `Box(-1, 1, (3,), float32)`, read at a placement:

    | Num | Action                                                                 |
    |-----|------------------------------------------------------------------------|
    | 0   | aim along x (toward the bow), in units of the reach                    |
    | 1   | aim along y (to port), in units of the reach                           |
    | 2   | the sailor on a wild roll: [-1, -1/3) red, [-1/3, 1/3) yellow, [1/3, 1] blue |

    The aim is an offset from the top barrel's centre (on an empty deck, the tower spot) in
    units of the **reach**, the safe range of the barrel below: 0.75 of the smaller end radius
    of the barrel to set and the top barrel (`observation["reach_mm"]`), so (1, 0) sets the
    barrel that far toward the bow and the barrel still lands on the one below. An aim outside
    the unit disc is pulled onto its rim. The learner's hand then adds a Gaussian error of
    `sigma_mm` per axis (default: the parameter set's, 1.5 mm) and rounds to whole micrometres,
    as the bots' hands do. Component 2 is ignored unless the roll was wild.

    **Old Sea Dogs' pass** (`sea_dogs=True`): with `passing="never"` (the default) the learner
    always plays. With `passing="action"`, when the learner may pass (a chip in hand, the
    previous player did not pass) there is a step *before the roll*, flagged by
    `observation["pass_decision"] = 1`: the learner passes when component 2 is > 0 and plays
    otherwise (components 0 and 1 are ignored at that step).

    ## Observation Space

    `Box(low, high, (141,), float32)`: what a player at the table knows, in the layout of
    :data:`kipp.players.table_view.FIELDS` (deck frame: x toward the bow, y to port, z along
    the deck normal; every entry clipped to its bounds):

    | Num     | Observation                                                            | Unit   | Min  | Max |
    |---------|------------------------------------------------------------------------|--------|------|-----|
    | 0-71    | tower: 12 slots bottom first, each a size one-hot (L, M, S; 0-1) then x, y, z | 1, mm | -500 | 500 |
    | 72-74   | turns of the red, yellow, blue sailors this round                      | rev    | 0    | 48  |
    | 75-76   | deck gradient now (dz/dx, dz/dy)                                       | 1      | -4   | 4   |
    | 77      | deck tilt now                                                          | deg    | 0    | 90  |
    | 78-83   | deck gradient after a turn of red, of yellow, of blue                  | 1      | -4   | 4   |
    | 84-86   | deck tilt after a turn of red, of yellow, of blue                      | deg    | 0    | 90  |
    | 87-90   | rolled face one-hot (red, yellow, blue, wild); zeros before the roll   | 1      | 0    | 1   |
    | 91      | 1 at Old Sea Dogs' play-or-pass step, 0 at a placement                 | 1      | 0    | 1   |
    | 92-93   | top barrel's centre (x, y): where the aim (0, 0) points                | mm     | -500 | 500 |
    | 94      | reach: the aim's unit for the next barrel                              | mm     | 0    | 50  |
    | 95-97   | next barrel's size one-hot                                             | 1      | 0    | 1   |
    | 98-133  | the line after the next barrel: 12 slots of size one-hots              | 1      | 0    | 1   |
    | 134-137 | chips: the learner's, then the next seats' clockwise (0 for no seat)   | chips  | 0    | 25  |
    | 138     | chips in the supply                                                    | chips  | 0    | 25  |
    | 139     | round (1-3)                                                            | 1      | 1    | 3   |
    | 140     | barrels put on the ship this round                                     | 1      | 0    | 12  |

    ## Rewards

    The learner's chips won and lost since the previous step: +2 for completing a round's
    tower, +1 when another player completes it, +1 for a chip passed by the previous player
    (Old Sea Dogs), -1 for a crash (-2 in Old Sea Dogs; never more than the learner holds), -1
    for passing. Over an episode the rewards add up to the learner's final chips minus those
    at the first step.

    ## Starting State

    A new game (3 chips each, the rest in the supply), its first line shuffled, played up to
    the learner's first decision. The die, the shuffles, the opponents' hands and the
    learner's hand draw from independent streams of a root seed taken from `self.np_random`
    (the streams of `kipp game --seed ROOT`), so `reset(seed=...)` and the actions fix the
    episode. A game in which the learner would get no decision at all (the others end the
    episode before its first turn: in practice only with `episode="round"`, when an earlier seat
    crashes) is skipped for the next game of the same generator.

    ## Episode End

    1. Termination: the game is over after three rounds (`episode="game"`), or the first
       round ended with a completed tower or a crash (`episode="round"`).
    2. Truncation: none; every round ends (each turn either adds a barrel or turns a sailor,
       and a deck turned far enough throws any tower).

    ## Arguments

    | Parameter     | Type                  | Default     | Description                                           |
    |---------------|-----------------------|-------------|-------------------------------------------------------|
    | `players`     | int                   | 2           | seats at the table (1 for practice, up to 4)          |
    | `seat`        | int                   | 0           | the learner's seat (0 starts the first round)         |
    | `opponents`   | str or list of str    | `"casual"`  | the player model of every other seat, or one per seat |
    | `barrels`     | int                   | 12          | 12, or 9 (younger sailors)                            |
    | `half_turn`   | bool                  | False       | sailors turn half a revolution (younger sailors)      |
    | `sea_dogs`    | bool                  | False       | Old Sea Dogs: passing, a crash costs 2 chips          |
    | `passing`     | str                   | `"never"`   | `"never"` or `"action"`: how the learner passes       |
    | `referee`     | str                   | `"fast"`    | `"fast"` or `"physics"` (or `"hybrid"`)               |
    | `params`      | Params or path        | defaults    | the parameter set (a TOML file as `--params` takes)   |
    | `episode`     | str                   | `"game"`    | `"game"` or `"round"`                                 |
    | `sigma_mm`    | float or None         | None        | the learner's hand, mm per axis (None: the set's)     |
    | `render_mode` | str or None           | None        | `"rgb_array"` (640 x 400 x 3) or `"human"` (a window) |

    :meth:`transcript` hands out the episode so far in the replay format of `kipp game
    --json`; a whole game's passes `kipp replay FILE --check`.

    ```python
    >>> import gymnasium as gym
    >>> import kipp.env
    >>> env = gym.make("kipp/KippKippAhoi-v0", opponents="skilled")
    >>> obs, info = env.reset(seed=7)
    >>> obs.shape, info["chips"]
    ((141,), [3, 3])
    >>> obs, reward, terminated, truncated, info = env.step(np.zeros(3, dtype=np.float32))
    >>> float(reward), terminated, info["placed"] >= 1
    (0.0, False, True)

    ```
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": RENDER_FPS}

    def __init__(self, render_mode: str | None = None, *, players: int = 2, seat: int = 0,
                 opponents: str | Sequence[str] = DEFAULT_MODEL, barrels: int = 12, half_turn: bool = False,
                 sea_dogs: bool = False, passing: str | Passing = Passing.NEVER, referee: str = "fast",
                 params: Params | str | Path | None = None, episode: str | Episode = Episode.GAME,
                 sigma_mm: float | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.render_mode = render_mode
        self.params = params if isinstance(params, Params) else load_params(params)
        self.referee_name = referee
        self.referee = make_referee(referee, self.params)
        self.config = GameConfig(players=tuple(f"Bot {i}" if i != seat else LEARNER for i in range(players)),
                                 barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, got {seat!r}")
        self.seat = seat
        others = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, got {len(others)}: {others!r}")
        self.models: list[str | None] = others[:seat] + [None] + others[seat:]
        self.bots = {i: make_bot(m, self.config.players[i], self.params) for i, m in enumerate(self.models)
                     if m is not None}
        self.passing = Passing(passing)
        self.episode = Episode(episode)
        self.sigma_mm = self.params.placement.sigma_m * 1e3 if sigma_mm is None else float(sigma_mm)
        if not (np.isfinite(self.sigma_mm) and self.sigma_mm >= 0):
            raise ValueError(f"sigma_mm must be finite and >= 0, got {sigma_mm!r}")
        self.view = TableView(self.params)
        self.action_space = spaces.Box(-1.0, 1.0, (3,), np.float32)
        low, high = bounds()
        self.observation_space = spaces.Box(low, high, (SIZE,), np.float32)
        self.state: GameState | None = None
        self.root_seed: int | None = None
        self._renderer = None

    # --- the Gymnasium interface -------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        while True:
            self.root_seed = int(self.np_random.integers(2**63))
            self._die, self._shuffle, self._hands = game_streams(self.root_seed, self.config.n_players)
            self.state = GameState(self.config, self.referee, self.params.ship)
            self._advance()
            if not self._over():
                break
        self._chips = self.state.chips[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        if self.state is None or self._over():
            raise RuntimeError("call reset() before step(), and again once an episode has ended")
        a = np.clip(np.asarray(action, dtype=np.float64).reshape(3), -1.0, 1.0)
        state = self.state
        first = state.legal_actions()[0]
        if isinstance(first, Play):
            state.apply_action(Pass() if a[2] > 0.0 else Play(), player=self.seat)
        else:
            state.apply_action(self._place(first, a[0], a[1]), player=self.seat)
            if state.current_player() == self.seat and isinstance(state.legal_actions()[0], ChooseSailor):
                state.apply_action(ChooseSailor(sailor_of(a[2])), player=self.seat)
        self._advance()
        chips = state.chips[self.seat]
        reward, self._chips = float(chips - self._chips), chips
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over(), False, self._info()

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; make the env with render_mode='rgb_array' "
                            "or 'human'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        if self._renderer is None:
            from kipp.env.render import TableRenderer

            self._renderer = TableRenderer(self.params, human=self.render_mode == "human")
        return self._renderer.draw(self.state, self._caption())

    def close(self) -> None:
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    # --- beyond Gymnasium ---------------------------------------------------------------

    def transcript(self) -> str:
        """The episode so far as JSON lines, the replay format of ``kipp game --json``.

        Written to a file, a whole game's transcript passes ``kipp replay FILE --check`` (and
        ``kipp replay FILE`` shows it); the header records the root seed, the parameter set's
        fingerprint, the referee and each seat's player model (null for the learner).
        """
        if self.state is None:
            raise RuntimeError("call reset() before transcript()")
        header = {"seed": self.root_seed, "params": params_fingerprint(self.params), "referee": self.referee_name,
                  "models": list(self.models)}
        return "".join(json_line(e) + "\n" for e in with_header(self.state.events(), **header))

    # --- inside ----------------------------------------------------------------------------

    def _place(self, where: PlaceAnywhere, a0: float, a1: float) -> Place:
        """The learner's placement: the aim of (a0, a1) plus the hand's error, in whole micrometres."""
        x, y = self.view.aim_m(self.state, a0, a1)
        return placed_by_hand((x * 1e3, y * 1e3), self.sigma_mm, self._hands[self.seat], where.limit_mm)

    def _learner_decides(self) -> bool:
        state = self.state
        if state.current_player() != self.seat:
            return False
        return not (isinstance(state.legal_actions()[0], Play) and self.passing is Passing.NEVER)

    def _over(self) -> bool:
        state = self.state
        return state.is_terminal() or (self.episode is Episode.ROUND and state.round > 1)

    def _advance(self) -> None:
        """Play chance, the opponents and the learner's non-decisions up to its next decision or the end."""
        state = self.state
        while not self._over() and not self._learner_decides():
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, self._die if state.chance_kind() == "roll" else self._shuffle))
            elif player == self.seat:
                state.apply_action(Play(), player=player)  # Old Sea Dogs with passing="never"
            else:
                state.apply_action(self.bots[player].act(state, self._hands[player]), player=player)

    def _observation(self) -> np.ndarray:
        return self.view.observe(self.state, self.seat)

    def _info(self) -> dict:
        state = self.state
        return {"chips": list(state.chips), "round": state.round, "placed": state.placed,
                "round_end": state.last_round_end(), "root_seed": self.root_seed}

    def _caption(self) -> str:
        state = self.state
        chips = ", ".join(f"{name} {c}" for name, c in zip(state.config.players, state.chips))
        face = f", rolled {state.face}" if state.face else ""
        return f"Round {state.round}, barrel {state.placed}/{len(state.line)}{face}; chips: {chips}"
