"""A barrel drawn as a barrel: the physics outline filled with wood, staves and hoops.

The outline is the very polygon the physics uses (:func:`sim.barrel_shape.outline`), so
what is drawn is what collides. Staves are curves following the bulge; two dark hoops
sit a third of the way from each end; a light streak on one side gives it roundness.
The centre of the barrel stays plain fill colour (tests look for it there).
"""

from __future__ import annotations

import math
from typing import Callable

import pygame

from sim.barrel_shape import outline
from sim.params import BarrelSpec
from viewer.palette import barrel_rgb, shade

ToScreen = Callable[[float, float], tuple[float, float]]
"""Maps world metres (x right, y up) to screen pixels."""

_STAVES = (-0.72, -0.38, 0.38, 0.72)
"""Stave lines, as fractions of the half-width (none through the centre)."""
_HOOPS = (-0.62, 0.62)
"""Hoop heights, as fractions of the half-height."""


def _half_width(spec: BarrelSpec, fraction: float) -> float:
    end = spec.end_diameter_m / 2
    bulge = (spec.belly_diameter_m - spec.end_diameter_m) / 2
    return end + bulge * (1.0 - fraction * fraction)


def draw_barrel(surface: pygame.Surface, spec: BarrelSpec, x_m: float, y_m: float, angle_rad: float,
                to_screen: ToScreen, *, faded: bool = False) -> pygame.Rect:
    """Draw the barrel at world pose (x m, y m, angle rad); returns the bounding rect drawn."""
    fill = barrel_rgb(spec.colour)
    if faded:
        fill = shade(fill, 1.45)
    dark, light = shade(fill, 0.55), shade(fill, 1.3)
    c, s = math.cos(angle_rad), math.sin(angle_rad)

    def local(px: float, py: float) -> tuple[float, float]:
        return to_screen(x_m + px * c - py * s, y_m + px * s + py * c)

    half_h = spec.height_m / 2
    points = [local(px, py) for px, py in outline(spec)]
    rect = pygame.draw.polygon(surface, fill, points)
    heights = (-1.0, -0.5, 0.0, 0.5, 1.0)
    # a light streak on the left-hand side (in the barrel's frame) for roundness
    streak = [local(-0.55 * _half_width(spec, f), f * half_h * 0.92) for f in heights]
    streak += [local(-0.25 * _half_width(spec, f), f * half_h * 0.92) for f in reversed(heights)]
    pygame.draw.polygon(surface, light, streak)
    thin = max(1, round(abs(to_screen(0.0, 0.0)[0] - to_screen(0.0004, 0.0)[0])))
    for fraction in _STAVES:
        curve = [local(fraction * _half_width(spec, f), f * half_h) for f in heights]
        pygame.draw.lines(surface, shade(fill, 0.75), False, curve, thin)
    for fraction in _HOOPS:
        half_w = _half_width(spec, fraction)
        a, b = local(-half_w, fraction * half_h), local(half_w, fraction * half_h)
        pygame.draw.line(surface, dark, a, b, max(2, thin * 2))
    pygame.draw.polygon(surface, dark, points, max(1, thin))
    return rect
