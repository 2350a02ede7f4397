"""A shape for each sailor, so that the die's face and the sailor's cap match without colour.

The red sailor is a triangle, the yellow one a star, the blue one a diamond: three
silhouettes a child tells apart at a glance, drawn on the die's colour faces and beside
the number on each cap of the top view. Colour stays the main cue; the shape is there for
the one player in six or so at a family table who sees red and green alike.
"""

from __future__ import annotations

import math

import pygame

from viewer import palette

SAILOR_SYMBOLS = {"red": "triangle", "yellow": "star", "blue": "diamond"}
"""The shape of each sailor's symbol, by cap colour."""

SYMBOL_FILL = (250, 248, 240)
"""Symbols are cream with an ink outline: seen on every cap colour."""


def symbol_points(sailor: str, centre: tuple[float, float], radius: float) -> list[tuple[float, float]]:
    """The outline of ``sailor``'s symbol around ``centre`` (screen px), inside a circle of ``radius`` px."""
    cx, cy = centre
    shape = SAILOR_SYMBOLS[sailor]
    if shape == "triangle":
        corners = [(0.0, -1.0), (0.866, 0.5), (-0.866, 0.5)]
        return [(cx + radius * x, cy + radius * 1.1 * y + radius * 0.1) for x, y in corners]
    if shape == "star":
        points = []
        for k in range(10):
            r = radius if k % 2 == 0 else radius * 0.45
            angle = math.radians(-90 + 36 * k)
            points.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
        return points
    return [(cx, cy - radius), (cx + radius * 0.8, cy), (cx, cy + radius), (cx - radius * 0.8, cy)]


def draw_symbol(surface: pygame.Surface, sailor: str, centre: tuple[float, float], radius: float) -> None:
    """Draw ``sailor``'s symbol (cream, ink outline) centred on ``centre``, ``radius`` px."""
    points = symbol_points(sailor, centre, radius)
    pygame.draw.polygon(surface, SYMBOL_FILL, points)
    pygame.draw.polygon(surface, palette.INK, points, max(1, round(radius / 8)))
