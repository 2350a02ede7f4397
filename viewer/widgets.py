"""Two pieces every card and the panel share: a glowing button and the veil that dims the game behind a card."""

from __future__ import annotations

import math

import pygame

from viewer import palette
from viewer.layout import Layout


def draw_button(surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, pulse: float) -> None:
    glow = palette.shade(palette.BUTTON, 1.0 + 0.15 * (1 + math.sin(pulse * 2 * math.pi)) / 2)
    pygame.draw.rect(surface, glow, rect, border_radius=layout.px(10))
    pygame.draw.rect(surface, palette.shade(palette.BUTTON, 0.6), rect, 2, border_radius=layout.px(10))
    text = palette.fit(label, layout.font_px(26), rect.width - layout.px(12), palette.BUTTON_TEXT, bold=True)
    surface.blit(text, text.get_rect(center=rect.center))


_VEILS: dict[tuple[int, int], pygame.Surface] = {}


def veil(size: tuple[int, int]) -> pygame.Surface:
    """The translucent dimming over the whole window behind every card, made once per window size."""
    veil = _VEILS.get(size)
    if veil is None:
        _VEILS.clear()  # a resized window never needs the old size again
        veil = _VEILS[size] = pygame.Surface(size, pygame.SRCALPHA)
        veil.fill((20, 30, 50, 150))
    return veil
