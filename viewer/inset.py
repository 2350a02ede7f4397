"""The ship seen from above: sailors, pennants, turn counts and which way the deck leans.

Deck frame (x toward the bow, y to port) drawn with the bow up, so port is on the left:
screen x = centre - y * scale, screen y = centre - x * scale. Each sailor's pennant starts
pointing away from the tower spot (the arrow beside its hole) and turns clockwise, seen
from above, with the sailor: its angle is the fractional part of the turn count, so a
half turn points it the other way (:func:`pennant_direction`). The lean arrow points
downhill (:func:`sim.geometry.downhill_direction`), its length and label give the tilt;
the label is put where it hides no sailor, pennant or count and stays inside the inset
(:meth:`InsetView.label_spot`). A dashed line marks the vertical plane the side view
shows, with the side view's end markers: an arrowhead at the end shown on the right, a
disc at the end shown on the left (:func:`viewer.scene.draw_end_marker`).
"""

from __future__ import annotations

import math
from typing import Mapping

import pygame

from kipp.language import Language
from sim.geometry import deck_gradient, downhill_direction, tilt_angle
from sim.params import Params
from sim.tower import BarrelPose
from viewer import palette
from viewer.scene import draw_end_marker
from viewer.symbols import draw_symbol
from viewer.words import ENGLISH

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


def format_turns(turns: float, language: Language = ENGLISH) -> str:
    """A turn count as players say it, in ``language``: ``2``, ``1.5``, ``0.25`` (German ``1,5``)."""
    return language.decimal(round(turns, 2))


class InsetView:
    """Draws the top-down ship into a square rectangle and answers clicks on sailors."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.tilt_label_rect: pygame.Rect | None = None
        """Where the tilt label was drawn last."""
        self.slice_ends: tuple[tuple[float, float], tuple[float, float]] | None = None
        """Screen points of the (left, right) markers of the slice line drawn last."""
        self.language = ENGLISH
        """The language of the numbers and words drawn last (turn counts, the tilt label)."""

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
             highlight: str | None = None, pulse: float = 0.0, view_rad: float | None = None,
             hint_xy: tuple[float, float] | None = None, hint_sailor: str | None = None,
             language: Language = ENGLISH) -> None:
        """Draw the inset for the given turn counts (revolutions; fractions while turning).

        ``view_rad``: where the side view's right-hand end points (default: along the slice);
        ``hint_xy``: the balance hint's aim (deck frame, m), ``hint_sailor``: the sailor it suggests;
        ``language``: the words and numbers of the tilt label ("level", "2.6°") and the turn counts."""
        self.rect = pygame.Rect(rect)
        self.language = language
        u = self.scale
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip) if clip else rect)  # barrels falling overboard leave the picture
        pygame.draw.rect(surface, palette.SEA_TOP, rect, border_radius=max(4, rect.width // 20))
        pygame.draw.rect(surface, palette.PANEL_EDGE, rect, 2, border_radius=max(4, rect.width // 20))
        self._draw_hull(surface)
        self._draw_slice(surface, slice_direction_rad if view_rad is None else view_rad)
        recess = self.params.ship.recess_diameter_m / 2
        pygame.draw.circle(surface, palette.DECK_DARK, self.to_screen(0, 0), recess * u, max(1, round(u * 0.001)))
        for barrel in barrels:
            spec = self.params.barrel(barrel.size)
            centre = self.to_screen(barrel.x_m, barrel.y_m)
            fill = palette.barrel_rgb(spec.colour)
            pygame.draw.circle(surface, fill, centre, spec.end_diameter_m / 2 * u)
            pygame.draw.circle(surface, palette.shade(fill, 0.55), centre, spec.end_diameter_m / 2 * u, 2)
        if hint_xy is not None:
            self._draw_hint(surface, self.to_screen(*hint_xy))
        if aim_xy is not None:
            pygame.draw.circle(surface, palette.INK, self.to_screen(*aim_xy), max(3.0, 0.003 * u), 2)
        label = self._draw_lean(surface, turns, language)
        for index, (name, x, y) in enumerate(self.params.ship.screw_positions_m):
            if name == hint_sailor:
                pygame.draw.circle(surface, palette.HINT, self.to_screen(x, y), self.sailor_radius_px() * 1.9,
                                   max(2, round(self.sailor_radius_px() * 0.2)))
            self._draw_sailor(surface, name, x, y, turns.get(name, 0.0), index,
                              ring=choosing or name == highlight, pulse=pulse)
        self._draw_ends(surface)
        if label is not None:
            surface_label, anchor, outward = label
            box = self.label_spot(surface_label.get_size(), anchor, outward, turns)
            pygame.draw.rect(surface, palette.PANEL, box.inflate(6, 2), border_radius=4)
            surface.blit(surface_label, box)
            self.tilt_label_rect = box
        surface.set_clip(clip)

    def _draw_hint(self, surface: pygame.Surface, centre: tuple[float, float]) -> None:
        """The balance hint's aim: a purple cross in a ring."""
        r = max(5.0, 0.005 * self.scale)
        width = max(2, round(r / 3))
        pygame.draw.circle(surface, palette.HINT, centre, r, width)
        for dx, dy in ((1, 0), (0, 1)):
            pygame.draw.line(surface, palette.HINT, (centre[0] - dx * r * 1.5, centre[1] - dy * r * 1.5),
                             (centre[0] + dx * r * 1.5, centre[1] + dy * r * 1.5), width)

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
        reach = VIEW_RADIUS_M * 0.9
        cos_d, sin_d = math.cos(direction), math.sin(direction)
        a = self.to_screen(-reach * cos_d, -reach * sin_d)
        b = self.to_screen(reach * cos_d, reach * sin_d)
        dashes = 18
        width = max(1, round(self.scale * 0.0006))
        for k in range(0, dashes, 2):
            p = (a[0] + (b[0] - a[0]) * k / dashes, a[1] + (b[1] - a[1]) * k / dashes)
            q = (a[0] + (b[0] - a[0]) * (k + 1) / dashes, a[1] + (b[1] - a[1]) * (k + 1) / dashes)
            pygame.draw.line(surface, palette.INK, p, q, width)
        self.slice_ends = (a, b)

    def _draw_ends(self, surface: pygame.Surface) -> None:
        """The side view's end markers at the ends of the slice line (over everything else)."""
        if self.slice_ends is None:
            return
        a, b = self.slice_ends
        norm = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        out = ((b[0] - a[0]) / norm, (b[1] - a[1]) / norm)
        size = max(12.0, self.rect.width / 14)
        draw_end_marker(surface, "right", b, size, out)
        draw_end_marker(surface, "left", a, size, (-out[0], -out[1]))

    def obstacles(self, turns: Mapping[str, float]) -> list[pygame.Rect]:
        """What the tilt label must not cover: each sailor's cap, pennant and count, the end markers."""
        rects = []
        radius = self.sailor_radius_px()
        for name, x, y in self.params.ship.screw_positions_m:
            centre = self.to_screen(x, y)
            rects.append(pygame.Rect(0, 0, 2.6 * radius, 2.6 * radius))
            rects[-1].center = (round(centre[0]), round(centre[1]))
            direction = pennant_direction(self.params, name, turns.get(name, 0.0))
            dx, dy = -math.sin(direction), -math.cos(direction)
            tip = (centre[0] + dx * radius * 2.4, centre[1] + dy * radius * 2.4)
            rects.append(pygame.Rect(min(centre[0], tip[0]) - radius * 0.6, min(centre[1], tip[1]) - radius * 0.6,
                                     abs(tip[0] - centre[0]) + radius * 1.2, abs(tip[1] - centre[1]) + radius * 1.2))
            rects.append(self._count_rect(name, x, y, turns.get(name, 0.0)))
        if self.slice_ends is not None:
            size = max(12.0, self.rect.width / 14)
            for end in self.slice_ends:
                rects.append(pygame.Rect(end[0] - size / 2, end[1] - size / 2, size, size))
        return rects

    def label_spot(self, size: tuple[int, int], anchor: tuple[float, float], outward: tuple[float, float],
                   turns: Mapping[str, float]) -> pygame.Rect:
        """A place for a label of ``size`` near ``anchor`` (the arrow's tip, pointing ``outward``):
        beyond the tip if free, else beside it or on the near side, always inside the inset
        and, if at all possible, over no sailor, pennant, count or end marker."""
        bounds = self.rect.inflate(-8, -6)
        w, h = size
        ux, uy = outward
        reach = 0.5 * math.hypot(w, h) + 8
        spots = [(anchor[0] + ux * reach, anchor[1] + uy * reach)]
        for side in (1, -1):
            spots.append((anchor[0] - uy * side * reach, anchor[1] + ux * side * reach))
        for k in range(12):  # then all round the tip, further out
            angle = 2 * math.pi * k / 12
            spots.append((anchor[0] + math.cos(angle) * reach * 1.6, anchor[1] + math.sin(angle) * reach * 1.6))
        centre = self.to_screen(0.0, 0.0)
        spots.append((centre[0] - ux * reach, centre[1] - uy * reach))
        blocked = self.obstacles(turns)
        best, best_cover = None, None
        for spot in spots:
            box = pygame.Rect(0, 0, w, h)
            box.center = (round(spot[0]), round(spot[1]))
            box = box.clamp(bounds)
            cover = sum(_overlap(box.inflate(6, 2), r) for r in blocked)
            if cover == 0:
                return box
            if best_cover is None or cover < best_cover:
                best, best_cover = box, cover
        return best

    def _draw_lean(self, surface: pygame.Surface, turns: Mapping[str, float], language: Language = ENGLISH):
        """The downhill arrow; returns its label, where it points from and which way (drawn last)."""
        gradient = deck_gradient(self.params.ship, dict(turns))
        tilt_deg = math.degrees(tilt_angle(gradient))
        direction = downhill_direction(gradient)
        centre = self.to_screen(0.0, 0.0)
        if direction is None or tilt_deg < 0.05:
            label = palette.text(language.gettext("level"), max(14, round(self.rect.width / 16)), palette.INK,
                                 bold=True)
            return label, (centre[0], centre[1] + 0.02 * self.scale), (0.0, 1.0)
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
        label = palette.text(f"{language.decimal(tilt_deg, 1)}\u00b0", max(14, round(self.rect.width / 14)),
                             palette.KABOOM, bold=True)
        return label, (tip[0] + ux * head, tip[1] + uy * head), (ux, uy)

    def _count_label(self, turns: float) -> pygame.Surface:
        return palette.text(format_turns(turns, self.language), max(14, round(self.sailor_radius_px() * 1.5)),
                            palette.INK, bold=True)

    def _count_rect(self, name: str, x: float, y: float, turns: float) -> pygame.Rect:
        """The box of a sailor's turn count: toward the tower spot from its cap."""
        centre = self.to_screen(x, y)
        outward = math.atan2(y, x)
        ox, oy = -math.sin(outward), -math.cos(outward)
        radius = self.sailor_radius_px()
        box = self._count_label(turns).get_rect(center=(centre[0] - ox * radius * 2.2, centre[1] - oy * radius * 2.2))
        return box.inflate(8, 2)

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
        count = self._count_label(turns)
        box = self._count_rect(name, x, y, turns)
        pygame.draw.rect(surface, palette.PANEL, box, border_radius=6)
        surface.blit(count, count.get_rect(center=box.center))
        ink = palette.INK if name == "yellow" else (255, 255, 255)
        key = palette.text(str(index + 1), max(12, round(radius * 1.1)), ink, bold=True)
        surface.blit(key, key.get_rect(center=centre))
        draw_symbol(surface, name, (centre[0] + radius * 0.85, centre[1] + radius * 0.85), radius * 0.5)



def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    clipped = a.clip(b)
    return clipped.width * clipped.height
