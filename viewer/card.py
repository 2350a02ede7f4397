"""A card: a screen over the game (the start screen, the how-to-play card, a yes/no question).

The app keeps a stack of cards (:attr:`viewer.app.ViewerApp.cards`); the top one takes the keys and
the clicks and is drawn over the dimmed game, and the game waits while any is up. A card answers a
key or a click with an :class:`~viewer.keys.Act` (or None: nothing to answer yet); the app takes it
off the stack and does what the answer says (:meth:`viewer.app.ViewerApp.answer`).
"""

from __future__ import annotations

from typing import Protocol

import pygame

from viewer.frame import FrameView
from viewer.keys import Act
from viewer.layout import Layout


class Card(Protocol):
    """What the app asks of a card."""

    def key(self, key: int, char: str = "", mod: int = 0) -> Act | None:
        """A key press (pygame key code, the character typed, the modifier keys held)."""

    def click(self, pos: tuple[int, int], layout: Layout) -> Act | None:
        """A left click at window pixel ``pos`` (``layout``: the window's, this frame)."""

    def draw(self, surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
        """The card over the game (the app has dimmed it)."""
