"""The colour die drawn: a tumbling roll (:class:`viewer.die_roll.DieRoll`) in its square.

Colour faces are painted in the sailor's cap colour and carry the sailor's symbol
(:mod:`viewer.symbols`), so they are told apart without colour too; the wild face is a
wheel of the three cap colours.
"""

from __future__ import annotations

import math

import pygame

from kipp.rules.actions import WILD
from viewer import palette
from viewer.die_roll import DieRoll
from viewer.symbols import SAILOR_SYMBOLS, draw_symbol


class DieView:
    """Draws a :class:`DieRoll`; keeps the painted faces (painting is the costly part of a frame's die)."""

    def __init__(self) -> None:
        self._painted: dict[tuple[str | None, int], pygame.Surface] = {}
        """Painted faces by (face, side px)."""

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, roll: DieRoll, *, inviting: bool = False,
             pulse: float = 0.0) -> None:
        """Draw ``roll`` in ``rect``; ``inviting`` pulses a ring to ask for a roll."""
        side = rect.width
        progress = roll.progress
        angle = 0.0
        offset = 0.0
        if roll.rolling:
            angle = 540.0 * (1 - progress) ** 2  # spins fast, then settles flat
            offset = -abs(math.sin(progress * math.pi * 3)) * side * 0.18 * (1 - progress)
        if inviting:
            grow = 4 + 3 * math.sin(pulse * 2 * math.pi)
            pygame.draw.rect(surface, palette.HIGHLIGHT, rect.inflate(grow * 2, grow * 2), 4,
                             border_radius=side // 5)
        face_surface = self._face_surface(roll.shown, side)
        if angle:
            face_surface = pygame.transform.rotate(face_surface, angle)
        surface.blit(face_surface, face_surface.get_rect(center=(rect.centerx, rect.centery + offset)))

    def _face_surface(self, face: str | None, side: int) -> pygame.Surface:
        """The painted ``face`` at ``side`` pixels (not to be drawn on: it is shared between frames)."""
        key = (face, side)
        painted = self._painted.get(key)
        if painted is None:
            if any(s != side for _, s in self._painted):
                self._painted.clear()  # the window was resized: the old sizes are done with
            painted = self._painted[key] = pygame.Surface((side, side), pygame.SRCALPHA)
            paint_face(painted, face)
        return painted


def paint_face(surface: pygame.Surface, face: str | None) -> None:
    side = surface.get_width()
    body = surface.get_rect().inflate(-4, -4)
    radius = side // 6
    pygame.draw.rect(surface, (60, 50, 40), body.move(2, 3), border_radius=radius)  # shadow
    colour = palette.SAILOR_CAPS.get(face or "", (250, 248, 240))
    pygame.draw.rect(surface, colour, body, border_radius=radius)
    pygame.draw.rect(surface, palette.shade(colour, 1.35), body.inflate(-side // 5, -side // 5), 3,
                     border_radius=radius // 2)
    if face == WILD:
        _paint_wild(surface, body)
    elif face in SAILOR_SYMBOLS:
        draw_symbol(surface, face, body.center, body.width * 0.3)
    elif face is None:
        mark = palette.text("?", side // 2, palette.INK_SOFT, bold=True)
        surface.blit(mark, mark.get_rect(center=body.center))
    pygame.draw.rect(surface, palette.INK, body, 2, border_radius=radius)


def _paint_wild(surface: pygame.Surface, body: pygame.Rect) -> None:
    """The wild face: a wheel of three sectors in the cap colours, any sailor may turn."""
    centre = body.center
    radius = body.width * 0.36
    for k, name in enumerate(("red", "yellow", "blue")):
        start = math.radians(90 + 120 * k)
        points = [centre] + [(centre[0] + radius * math.cos(start + math.radians(120) * j / 12),
                              centre[1] - radius * math.sin(start + math.radians(120) * j / 12))
                             for j in range(13)]
        pygame.draw.polygon(surface, palette.SAILOR_CAPS[name], points)
    pygame.draw.circle(surface, palette.INK, centre, radius, 2)
    pygame.draw.circle(surface, (250, 248, 240), centre, radius * 0.28)
    pygame.draw.circle(surface, palette.INK, centre, radius * 0.28, 2)
