"""Where the viewer's actions come from in a replay: a recorded transcript.

The events of ``kipp game --json`` name every action (shuffles, rolls, passes,
placements, sailors chosen on a wild roll); :mod:`kipp.replay` knows how to read an
action off an event, and this module only walks the events in step with the viewer's
game state, skipping outcome events (turns, crashes, awards) which the state recomputes.
"""

from __future__ import annotations

from kipp.actions import Action, Play, Roll
from kipp.replay import _action_for  # the transcript's event -> action mapping, kept in one place
from kipp.state import GameState


class ReplayScript:
    """The recorded actions of a transcript, handed out as the game reaches them."""

    def __init__(self, events: list[dict]) -> None:
        self.events = events
        self.cursor = 1  # events[0] is game_start

    def next_action(self, state: GameState) -> Action | None:
        """The recorded action at ``state`` (None when the record has no more actions)."""
        while self.cursor < len(self.events):
            action = _action_for(self.events[self.cursor], state)
            if action is None:
                self.cursor += 1
                continue
            if isinstance(action, Roll) and state.pass_allowed():
                return Play()  # a roll where passing was allowed: the player chose to play
            self.cursor += 1
            return action
        return None
