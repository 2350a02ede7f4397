"""Where everything goes in a window of any size.

The window is split into the scene (the ship from the side, left), a strip above it
for the round and the line of barrels, and a panel on the right holding the top-down
inset, the die, the Pass button and the players. Every size is derived from the window
size through one unit ``u`` (1.0 at the reference size 1280 x 800), so the whole picture
scales when the window is resized, and text never drops below 12 px.

:data:`MIN_SIZE` is the smallest window at which everything fits (four players with long
names, the key legend, the end screen's recap, the help card); the app asks the window
manager not to go below it, and a smaller surface is laid out at that size and clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

REFERENCE_SIZE = (1280, 800)
MIN_SIZE = (800, 560)


@dataclass(frozen=True)
class Layout:
    """Pixel rectangles of every part of the window, for a window of ``size``."""

    size: tuple[int, int]
    unit: float
    """Scale factor against the reference window (1280 x 800)."""
    top_bar: pygame.Rect
    scene: pygame.Rect
    panel: pygame.Rect
    inset: pygame.Rect
    die: pygame.Rect
    pass_button: pygame.Rect
    hint: pygame.Rect
    players: pygame.Rect

    def px(self, reference_px: float) -> int:
        """A length given at the reference size, scaled to this window."""
        return max(1, round(reference_px * self.unit))

    def font_px(self, reference_px: float) -> int:
        """A font size given at the reference size; never below 12 px."""
        return max(12, round(reference_px * self.unit))


def compute_layout(size: tuple[int, int]) -> Layout:
    """The layout of a window of ``size`` (width, height) pixels."""
    width, height = max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
    unit = min(width / REFERENCE_SIZE[0], height / REFERENCE_SIZE[1])
    panel_w = max(round(width * 0.34), 260)
    scene_w = width - panel_w
    top_h = max(round(72 * unit), 48)
    pad = max(round(12 * unit), 6)

    top_bar = pygame.Rect(0, 0, scene_w, top_h)
    scene = pygame.Rect(0, top_h, scene_w, height - top_h)
    panel = pygame.Rect(scene_w, 0, panel_w, height)

    inner_w = panel_w - 2 * pad
    inset_side = min(inner_w, round(height * 0.42))
    inset = pygame.Rect(panel.x + (panel_w - inset_side) // 2, pad, inset_side, inset_side)

    die_side = max(round(96 * unit), 56)
    die_top = inset.bottom + pad
    die = pygame.Rect(panel.x + pad, die_top, die_side, die_side)
    button_w = inner_w - die_side - pad
    button_h = max(round(44 * unit), 30)
    pass_button = pygame.Rect(die.right + pad, die_top + die_side - button_h, button_w, button_h)
    hint = pygame.Rect(die.right + pad, die_top, button_w, die_side - button_h - pad // 2)

    players_top = die.bottom + pad
    players = pygame.Rect(panel.x + pad, players_top, inner_w, height - players_top - pad)
    return Layout((width, height), unit, top_bar, scene, panel, inset, die, pass_button, hint, players)
