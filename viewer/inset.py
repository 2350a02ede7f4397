"""The ship seen from above: sailors, pennants, turn counts and which way the deck leans.

Deck frame (x toward the bow, y to port) drawn with the bow up, so port is on the left:
screen x = centre - y * scale, screen y = centre - x * scale. Each sailor's pennant starts
pointing away from the tower spot (the arrow beside its hole) and turns clockwise, seen
from above, with the sailor: its angle is the fractional part of the turn count, so a
half turn points it the other way (:func:`pennant_direction`). The lean arrow points
downhill (:func:`sim.geometry.downhill_direction`), its length and label give the tilt.
A dashed line marks the vertical plane the side view shows.
"""

from __future__ import annotations

import math
from typing import Mapping

import pygame

from sim.geometry import deck_gradient, downhill_direction, tilt_angle
from sim.params import Params
from sim.tower import BarrelPose
from viewer import palette

VIEW_RADIUS_M = 0.118
"""Deck-frame radius shown by the inset."""


def pennant_direction(params: Params, sailor: str, turns: float) -> float:
    """Direction (rad, deck frame, from the bow toward port) the sailor's pennant points.

    At whole turns it points away from the tower spot; it turns clockwise seen from above
    (toward starboard, negative angles) by 360 degrees per revolution.
    """
    x, y = params.ship.screw_xy(sailor)
    start = math.atan2(y, x)
    return start - 2 * math.pi * (turns % 1.0)


def format_turns(turns: float) -> str:
    """A turn count as players say it: ``2``, ``1.5``, ``0.25``."""
    return f"{round(turns, 2):g}"


class InsetView:
    """Draws the top-down ship into a square rectangle and answers clicks on sailors."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.rect = pygame.Rect(0, 0, 1, 1)

    @property
    def scale(self) -> float:
        return self.rect.width / (2 * VIEW_RADIUS_M)

    def to_screen(self, x_m: float, y_m: float) -> tuple[float, float]:
        """Screen pixel of deck-frame point (x, y), metres."""
        return self.rect.centerx - y_m * self.scale, self.rect.centery - x_m * self.scale

    def sailor_radius_px(self) -> float:
        return max(9.0, 0.0125 * self.scale)

    def sailor_at(self, pos: tuple[int, int]) -> str | None:
        """The sailor whose figure is at screen ``pos`` (generous radius), or None."""
        for name, x, y in self.params.ship.screw_positions_m:
            sx, sy = self.to_screen(x, y)
            if math.hypot(pos[0] - sx, pos[1] - sy) <= 2.0 * self.sailor_radius_px():
                return name
        return None

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, turns: Mapping[str, float], *,
             barrels: tuple[BarrelPose, ...] = (), slice_direction_rad: float = 0.0,
             aim_xy: tuple[float, float] | None = None, choosing: bool = False,
             highlight: str | None = None, pulse: float = 0.0) -> None:
        """Draw the inset for the given turn counts (revolutions; fractions while turning)."""
        self.rect = pygame.Rect(rect)
        u = self.scale
        pygame.draw.rect(surface, palette.SEA_TOP, rect, border_radius=max(4, rect.width // 20))
        pygame.draw.rect(surface, palette.PANEL_EDGE, rect, 2, border_radius=max(4, rect.width // 20))
        self._draw_hull(surface)
        self._draw_slice(surface, slice_direction_rad)
        recess = self.params.ship.recess_diameter_m / 2
        pygame.draw.circle(surface, palette.DECK_DARK, self.to_screen(0, 0), recess * u, max(1, round(u * 0.001)))
        for barrel in barrels:
            spec = self.params.barrel(barrel.size)
            centre = self.to_screen(barrel.x_m, barrel.y_m)
            fill = palette.barrel_rgb(spec.colour)
            pygame.draw.circle(surface, fill, centre, spec.end_diameter_m / 2 * u)
            pygame.draw.circle(surface, palette.shade(fill, 0.55), centre, spec.end_diameter_m / 2 * u, 2)
        if aim_xy is not None:
            pygame.draw.circle(surface, palette.INK, self.to_screen(*aim_xy), max(3.0, 0.003 * u), 2)
        self._draw_lean(surface, turns)
        for index, (name, x, y) in enumerate(self.params.ship.screw_positions_m):
            self._draw_sailor(surface, name, x, y, turns.get(name, 0.0), index,
                              ring=choosing or name == highlight, pulse=pulse)

    def _draw_hull(self, surface: pygame.Surface) -> None:
        half = self.params.ship.deck_half_length_m
        outline = []
        for k in range(33):  # a pointed bow (+x), a rounded stern
            t = -math.pi / 2 + math.pi * k / 32
            y = 0.86 * half * math.cos(t)
            x = (1.18 * half if t > 0 else 0.95 * half) * math.sin(t)
            if t > 0:  # taper toward the bow
                y *= 1.0 - 0.35 * math.sin(t) ** 3
            outline.append((x, y))
        outline += [(x, -y) for x, y in reversed(outline)]
        points = [self.to_screen(x, y) for x, y in outline]
        pygame.draw.polygon(surface, palette.HULL, points)
        inner = [self.to_screen(0.9 * x, 0.86 * y) for x, y in outline]
        pygame.draw.polygon(surface, palette.DECK, inner)
        pygame.draw.polygon(surface, palette.HULL_DARK, points, 2)

    def _draw_slice(self, surface: pygame.Surface, direction: float) -> None:
        reach = VIEW_RADIUS_M * 0.95
        cos_d, sin_d = math.cos(direction), math.sin(direction)
        a = self.to_screen(-reach * cos_d, -reach * sin_d)
        b = self.to_screen(reach * cos_d, reach * sin_d)
        dashes = 18
        for k in range(0, dashes, 2):
            p = (a[0] + (b[0] - a[0]) * k / dashes, a[1] + (b[1] - a[1]) * k / dashes)
            q = (a[0] + (b[0] - a[0]) * (k + 1) / dashes, a[1] + (b[1] - a[1]) * (k + 1) / dashes)
            pygame.draw.line(surface, palette.INK_SOFT, p, q, 1)

    def _draw_lean(self, surface: pygame.Surface, turns: Mapping[str, float]) -> None:
        gradient = deck_gradient(self.params.ship, dict(turns))
        tilt_deg = math.degrees(tilt_angle(gradient))
        direction = downhill_direction(gradient)
        centre = self.to_screen(0.0, 0.0)
        if direction is None or tilt_deg < 0.05:
            label = palette.text("level", max(14, round(self.rect.width / 16)), palette.INK, bold=True)
            surface.blit(label, label.get_rect(midtop=(centre[0], centre[1] + 0.03 * self.scale)))
            return
        length = min(VIEW_RADIUS_M * 0.8, 0.02 + 0.012 * tilt_deg)
        tip_m = (length * math.cos(direction), length * math.sin(direction))
        tip = self.to_screen(*tip_m)
        width = max(3, round(self.scale * 0.003))
        pygame.draw.line(surface, palette.KABOOM, centre, tip, width)
        ux, uy = (tip[0] - centre[0]), (tip[1] - centre[1])
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        head = width * 3.5
        pygame.draw.polygon(surface, palette.KABOOM, [
            (tip[0] + ux * head, tip[1] + uy * head),
            (tip[0] - uy * head * 0.7, tip[1] + ux * head * 0.7),
            (tip[0] + uy * head * 0.7, tip[1] - ux * head * 0.7)])
        label = palette.text(f"{tilt_deg:.1f}\u00b0", max(14, round(self.rect.width / 14)), palette.KABOOM, bold=True)
        where = (tip[0] + ux * (head + label.get_width() * 0.7), tip[1] + uy * (head + label.get_height() * 0.9))
        box = label.get_rect(center=where).clamp(self.rect)
        pygame.draw.rect(surface, palette.PANEL, box.inflate(6, 2), border_radius=4)
        surface.blit(label, box)

    def _draw_sailor(self, surface: pygame.Surface, name: str, x: float, y: float, turns: float,
                     index: int, *, ring: bool, pulse: float) -> None:
        centre = self.to_screen(x, y)
        radius = self.sailor_radius_px()
        cap = palette.SAILOR_CAPS[name]
        if ring:
            glow = radius * (1.55 + 0.15 * math.sin(pulse * 2 * math.pi))
            pygame.draw.circle(surface, palette.HIGHLIGHT, centre, glow, max(2, round(radius * 0.25)))
        direction = pennant_direction(self.params, name, turns)
        dx, dy = -math.sin(direction), -math.cos(direction)  # deck direction -> screen
        base = (centre[0] + dx * radius * 0.6, centre[1] + dy * radius * 0.6)
        tip = (centre[0] + dx * radius * 2.3, centre[1] + dy * radius * 2.3)
        side = (-dy * radius * 0.55, dx * radius * 0.55)
        flag = [base, tip, (base[0] + dx * radius * 0.5 + side[0], base[1] + dy * radius * 0.5 + side[1])]
        pygame.draw.polygon(surface, cap, flag)
        pygame.draw.polygon(surface, palette.INK, flag, 1)
        pygame.draw.circle(surface, cap, centre, radius)
        pygame.draw.circle(surface, palette.INK, centre, radius, 2)
        count = palette.text(format_turns(turns), max(14, round(radius * 1.5)), palette.INK, bold=True)
        outward = math.atan2(y, x)
        ox, oy = -math.sin(outward), -math.cos(outward)
        where = (centre[0] - ox * radius * 2.2, centre[1] - oy * radius * 2.2)
        box = count.get_rect(center=where)
        pygame.draw.rect(surface, palette.PANEL, box.inflate(8, 2), border_radius=6)
        surface.blit(count, box)
        ink = palette.INK if name == "yellow" else (255, 255, 255)
        key = palette.text(str(index + 1), max(12, round(radius * 1.1)), ink, bold=True)
        surface.blit(key, key.get_rect(center=centre))

