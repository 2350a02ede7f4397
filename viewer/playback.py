"""How a replay plays in the window: going or paused, one recorded action at a time while paused,
at 1x, 2x or 4x (game frames per drawn frame). The keys are :data:`viewer.keys.REPLAY_KEYS`."""

from __future__ import annotations

from viewer.controller import GameController
from viewer.keys import Act, Press
from viewer.modes import Mode

SPEEDS = (1, 2, 4)
"""Replay speeds: game frames per drawn frame."""


class Playback:
    """A replay's pause, step and speed."""

    def __init__(self) -> None:
        self.paused = False
        self.speed = 1
        self.step_from: int | None = None
        """While a step is under way: the length of the game's history when it began."""

    @property
    def holding(self) -> bool:
        """Paused, with no step under way: the game does not move."""
        return self.paused and self.step_from is None

    def restart(self) -> None:
        """A new game of the replay: going, no step under way (the speed stays)."""
        self.paused, self.step_from = False, None

    def act(self, press: Press, history: int) -> None:
        """A replay key (``history``: the length of the game's history now)."""
        match press.act:
            case Act.PAUSE:
                self.paused = not self.paused
                self.step_from = None
            case Act.STEP if self.paused:
                self.step_from = history
            case Act.FASTER:
                self.speed = SPEEDS[min(SPEEDS.index(self.speed) + 1, len(SPEEDS) - 1)]
            case Act.SLOWER:
                self.speed = SPEEDS[max(SPEEDS.index(self.speed) - 1, 0)]
            case Act.SPEED:
                self.speed = press.value

    def advance(self, c: GameController) -> bool:
        """This drawn frame's game frames of ``c``; False if it is held (nothing ran)."""
        if self.holding:
            return False
        for _ in range(self.speed):
            c.update()
            if (self.step_from is not None and len(c.state.history()) > self.step_from and c.mode is Mode.IDLE
                    and c.view_settled()):  # a step ends with the view turned, never squeezed half-way
                self.step_from = None  # one recorded action done: paused again
                break
        return True
