"""Where the viewer's actions come from in a replay: a recorded transcript.

The events of ``kipp game --json`` name every action (shuffles, rolls, passes,
placements, sailors chosen on a wild roll); :func:`kipp.rules.replay.action_for` reads an
action off an event, and this module only walks the events in step with the viewer's
game state, skipping outcome events (turns, crashes, awards) which the state recomputes.
"""

from __future__ import annotations

from kipp.rules.actions import Action, Play
from kipp.rules.replay import action_for
from kipp.rules.state import GameState


class ReplayScript:
    """The recorded actions of a transcript, handed out as the game reaches them."""

    def __init__(self, events: list[dict]) -> None:
        self.events = events
        self.cursor = 1  # events[0] is game_start

    def next_action(self, state: GameState) -> Action | None:
        """The recorded action at ``state`` (None when the record has no more actions)."""
        while self.cursor < len(self.events):
            action = action_for(self.events[self.cursor], state)
            if not isinstance(action, Play):  # a Play is implied by a roll, which comes next
                self.cursor += 1
            if action is not None:
                return action
        return None
