"""What the game on screen is doing (:class:`Mode`) and what it asks a person to do (:class:`Prompt`).

Both are string enums: a mode or a prompt compares equal to its value ("idle", "roll"), which is
how tests and a debugger read them.
"""

from __future__ import annotations

import enum


class Mode(enum.StrEnum):
    """What :class:`viewer.controller.GameController` animates this frame (one ``_update_*`` each)."""

    IDLE = "idle"
    """Nothing animates: a pause counts down, a bot or a person is to act."""
    ROLLING = "rolling"
    """The die tumbles (:class:`viewer.die_roll.DieRoll`)."""
    GLIDING = "gliding"
    """A bot's barrel glides to its aim."""
    LOWERING = "lowering"
    """The aimed barrel is lowered onto the tower."""
    DECIDING = "deciding"
    """The referee's physics runs, one 60 Hz frame per drawn frame."""
    AFTERMATH = "aftermath"
    """A crash: the barrels are left falling before the game goes on."""


class Prompt(enum.StrEnum):
    """What a person is being asked to do now (:meth:`viewer.controller.GameController.prompt`)."""

    ROLL = "roll"
    PLAY_OR_PASS = "play_or_pass"
    """Old Sea Dogs: roll, or pay a chip to pass."""
    PLACE = "place"
    """Aim the hanging barrel and let it go."""
    SAILOR = "sailor"
    """A wild roll, after placing: pick the sailor to turn."""
    NEW_GAME = "new_game"
    """The game is over and its end screen is up."""
