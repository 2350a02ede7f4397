"""The ship from the side: sky, sea, hull, deck, sailors and the barrel tower.

What is drawn is the 2D slice the physics runs in (DESIGN.md 3.2): world x along the
slice, y up, metres, origin at the tower spot on the deck's top surface. Everything on
the ship is read from a :class:`sim.world.TowerWorld` -- the deck body's angle and shapes,
each barrel's body -- so the picture is the referee's own state, frame by frame.

The sea level is fixed; the hull hangs under the deck and tilts with it. Barrels that
leave the deck fall behind the front wave and disappear into the sea.

The slice is seen from the view direction of :mod:`viewer.orientation`: squeezed by
``Camera.squash`` while the view turns, mirrored when that is negative, so the right end
is the one the top view shows on its right. Both ends are named (bow, port, ...) with the markers the top view puts at
the ends of its slice line (:func:`draw_end_marker`); sailors behind the slice plane are
drawn behind the tower, paler and taller (as seen from a little above), those in front
of it in front.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from kipp.language import Language
from sim.barrel_shape import outline
from sim.params import Params
from sim.world import CM_PER_M, TowerWorld
from viewer import palette
from viewer.barrel_art import draw_barrel
from viewer.geometry import SEA_LEVEL_M, Hanging, tower_top_m
from viewer.orientation import end_name
from viewer.words import ENGLISH

HULL_DEPTH_M = 0.040
"""Hull depth below the deck's underside."""
VIEW_HALF_WIDTH_M = 0.15
"""Half the width of world shown (the deck is +-90 mm by default)."""
SAILOR_HEIGHT_M = 0.018


@dataclass
class Camera:
    """Maps world metres to screen pixels: ``scale`` px per metre, world (0, 0) at ``origin``;
    world x is multiplied by ``squash`` (the view turned away from the slice; negative: mirrored)."""

    scale: float = 1000.0
    origin: tuple[float, float] = (0.0, 0.0)
    squash: float = 1.0

    def to_screen(self, x_m: float, y_m: float) -> tuple[float, float]:
        return self.origin[0] + x_m * self.scale * self.squash, self.origin[1] - y_m * self.scale

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        return (px - self.origin[0]) / (self.scale * self.squash), (self.origin[1] - py) / self.scale


class SceneView:
    """Draws the side view into a rectangle; keeps a smoothly following camera."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.camera = Camera()
        self._target_top = 0.12
        self._rect: pygame.Rect | None = None
        self._backdrop: pygame.Surface | None = None
        self._sea: pygame.Surface | None = None
        self._tag_cards: dict[tuple[str, str, int], pygame.Surface] = {}

    # --- camera -----------------------------------------------------------------------

    def frame_camera(self, rect: pygame.Rect, tower_top: float, *, instant: bool = False) -> None:
        """Aim the camera so the sea and the tower (up to ``tower_top`` m) plus room to hang
        a barrel fit ``rect``; eases toward that unless ``instant``."""
        self._target_top = max(0.14, tower_top + 0.085)
        bottom = SEA_LEVEL_M - 0.035
        target = min(rect.height / (self._target_top - bottom), rect.width / (2 * VIEW_HALF_WIDTH_M))
        if instant or self._rect != rect:
            scale = target
        else:
            scale = self.camera.scale + (target - self.camera.scale) * 0.08
        self.camera.scale = scale
        self.camera.origin = (rect.centerx, rect.bottom + bottom * scale)
        if self._rect != rect:
            self._rect = pygame.Rect(rect)
            self._backdrop = _gradient(rect.size, palette.SKY_TOP, palette.SKY_BOTTOM)
            self._sea = _gradient(rect.size, palette.SEA_TOP, palette.SEA_BOTTOM)

    # --- drawing ------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, world: TowerWorld, *,
             slice_direction_rad: float, hanging: Hanging | None = None, time_s: float = 0.0,
             view_rad: float | None = None, squash: float = 1.0, hint: Hanging | None = None,
             language: Language = ENGLISH) -> None:
        """Draw the scene of ``world`` into ``rect`` (call :meth:`frame_camera` first).

        ``view_rad`` is the ship direction screen-right points to (default: the slice's),
        ``squash`` the slice picture's horizontal factor (:func:`viewer.orientation.squash`);
        ``hint``: where the balance hint would set the next barrel (a ghost outline and a mark);
        ``language``: the words of the end tags."""
        if self._rect != rect:
            self.frame_camera(rect, tower_top_m(world), instant=True)
        view = slice_direction_rad if view_rad is None else view_rad
        self.camera.squash = squash
        clip = surface.get_clip()
        surface.set_clip(rect)
        surface.blit(self._backdrop, rect.topleft)
        to_screen = self.camera.to_screen
        self._draw_far_sea(surface, rect, time_s)
        self._draw_hull(surface, world)
        self._draw_sailors(surface, world, slice_direction_rad, view, far=True)
        self._draw_deck(surface, world)
        for barrel in world.barrels:
            x, y = barrel.body.position
            draw_barrel(surface, barrel.spec, x / CM_PER_M, y / CM_PER_M, barrel.body.angle, to_screen)
        self._draw_sailors(surface, world, slice_direction_rad, view, far=False)
        if hanging is not None:
            self._draw_hanging(surface, world, hanging)
        self.hint_mark = self._draw_hint(surface, hint) if hint is not None else None
        self._draw_near_sea(surface, rect, time_s)
        self._draw_end_tags(surface, rect, view, language)
        surface.set_clip(clip)

    def end_tag_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        """Screen rectangles of the (left, right) end tags drawn last."""
        return self._tags

    _tags = (pygame.Rect(0, 0, 0, 0), pygame.Rect(0, 0, 0, 0))

    def _draw_end_tags(self, surface: pygame.Surface, rect: pygame.Rect, view: float,
                       language: Language = ENGLISH) -> None:
        """Name both ends of the view (right: ``view``, left: opposite) with the top view's markers."""
        size = max(14, round(rect.height / 30))
        pad = max(4, size // 3)
        y = min(self.camera.to_screen(0.0, 0.045)[1], rect.bottom - size * 2)
        tags = []
        for kind, direction in (("left", view + math.pi), ("right", view)):
            card = self._tag_card(kind, language.gettext(end_name(direction)).upper(), size)
            box = card.get_rect()
            if kind == "left":
                box.midleft = (rect.left + pad, y)
            else:
                box.midright = (rect.right - pad, y)
            surface.blit(card, box)
            tags.append(box)
        self._tags = (tags[0], tags[1])

    def _tag_card(self, kind: str, word: str, size: int) -> pygame.Surface:
        """An end tag (a pill with the end's marker and name), painted once."""
        key = (kind, word, size)
        card = self._tag_cards.get(key)
        if card is None:
            pad = max(4, size // 3)
            label = palette.text(word, size, palette.INK, bold=True)
            marker = size * 0.9
            card = pygame.Surface((round(label.get_width() + marker + 3 * pad), label.get_height() + pad),
                                  pygame.SRCALPHA)
            box = card.get_rect()
            pygame.draw.rect(card, (*palette.PANEL, 220), box, border_radius=box.height // 2)
            if kind == "left":
                draw_end_marker(card, "left", (pad + marker / 2, box.centery), marker, (-1.0, 0.0))
                card.blit(label, label.get_rect(midleft=(2 * pad + marker, box.centery)))
            else:
                draw_end_marker(card, "right", (box.right - pad - marker / 2, box.centery), marker, (1.0, 0.0))
                card.blit(label, label.get_rect(midright=(box.right - 2 * pad - marker, box.centery)))
            if len(self._tag_cards) > 64:
                self._tag_cards.clear()
            self._tag_cards[key] = card
        return card

    def _deck_point(self, world: TowerWorld, s_m: float, z_m: float) -> tuple[float, float]:
        x, y = world.deck.local_to_world((s_m * CM_PER_M, z_m * CM_PER_M))
        return self.camera.to_screen(x / CM_PER_M, y / CM_PER_M)

    def _draw_hull(self, surface: pygame.Surface, world: TowerWorld) -> None:
        ship = self.params.ship
        half, thick = ship.deck_half_length_m, ship.deck_thickness_m
        top, keel = -thick * 0.5, -thick - HULL_DEPTH_M
        outline_m = [(-half - 0.012, top + 0.006), (half + 0.022, top + 0.010)]
        for k in range(1, 24):  # a rounded belly from bow to stern
            t = k / 24
            s = (half + 0.022) - t * (2 * half + 0.034)
            depth = math.sin(math.pi * t) ** 0.6
            outline_m.append((s, top + (keel - top) * depth))
        points = [self._deck_point(world, s, z) for s, z in outline_m]
        pygame.draw.polygon(surface, palette.HULL, points)
        stripe = [self._deck_point(world, s, -thick - 0.008) for s in (-half + 0.006, half + 0.010)]
        pygame.draw.line(surface, palette.HULL_STRIPE, *stripe, max(2, round(self.camera.scale * 0.003)))
        pygame.draw.polygon(surface, palette.HULL_DARK, points, max(1, round(self.camera.scale * 0.0012)))

    def _draw_deck(self, surface: pygame.Surface, world: TowerWorld) -> None:
        to_screen = self.camera.to_screen
        for shape in world.deck.shapes:
            points = [to_screen(*(world.deck.local_to_world(v) / CM_PER_M)) for v in shape.get_vertices()]
            pygame.draw.polygon(surface, palette.DECK, points)
            pygame.draw.polygon(surface, palette.DECK_DARK, points, max(1, round(self.camera.scale * 0.0008)))

    def _draw_sailors(self, surface: pygame.Surface, world: TowerWorld, direction: float, view: float, *,
                      far: bool) -> None:
        """The sailors behind the slice plane (``far``, seen from ``view``) or in front of it.

        Each stands where it projects onto the slice; depth changes its height a little
        (a camera slightly above the deck), its size and, behind, its paleness, so two
        sailors at the same place along the slice are both seen."""
        cos_d, sin_d = math.cos(direction), math.sin(direction)
        width = max(2, round(self.camera.scale * 0.005))
        for index, (name, x, y) in enumerate(self.params.ship.screw_positions_m):
            depth = -x * math.sin(view) + y * math.cos(view)  # > 0: behind the slice plane
            if (depth > 1e-9) != far:
                continue
            s = x * cos_d + y * sin_d
            height = SAILOR_HEIGHT_M + 0.12 * depth
            foot, head = self._deck_point(world, s, 0.0), self._deck_point(world, s, height)
            size = width * (1.0 - 2.0 * depth)
            cap = palette.SAILOR_CAPS[name]
            post = (190, 160, 120)
            if far:
                cap, post = palette.shade(cap, 1.35), palette.shade(post, 1.25)
            pygame.draw.line(surface, post, foot, head, max(2, round(size)))
            radius = size * 1.1
            pygame.draw.circle(surface, cap, head, radius)
            pygame.draw.circle(surface, palette.INK_SOFT if far else palette.INK, head, radius, 1)
            if radius >= 7:
                ink = palette.INK if name == "yellow" else (255, 255, 255)
                number = palette.text(str(index + 1), round(radius * 1.5), ink, bold=True)
                surface.blit(number, number.get_rect(center=head))

    def _draw_hanging(self, surface: pygame.Surface, world: TowerWorld, hanging: Hanging) -> None:
        to_screen = self.camera.to_screen
        top = to_screen(hanging.x_m, hanging.y_m + hanging.spec.height_m / 2)
        pygame.draw.line(surface, palette.INK_SOFT, (top[0], self._rect.top), top, 2)
        # where it would land: a dotted plumb line down to the tower
        base = to_screen(hanging.x_m, hanging.y_m - hanging.spec.height_m / 2)
        land = to_screen(hanging.x_m, tower_top_m(world) if world.barrels else 0.0)
        y = base[1] + 4
        while y < land[1] - 2:
            pygame.draw.line(surface, palette.INK_SOFT, (base[0], y), (base[0], min(y + 4, land[1])), 1)
            y += 9
        draw_barrel(surface, hanging.spec, hanging.x_m, hanging.y_m, hanging.angle_rad, to_screen)

    hint_mark: tuple[float, float] | None = None
    """Screen point of the balance hint's target (where the ghost's bottom meets the tower), drawn
    last; None: no hint."""

    def _draw_hint(self, surface: pygame.Surface, hint: Hanging) -> tuple[float, float]:
        """The balance hint: the barrel's outline where the hint would set it, and a target where it
        meets the barrel below (the aim itself)."""
        to_screen = self.camera.to_screen
        c, s = math.cos(hint.angle_rad), math.sin(hint.angle_rad)

        def local(px: float, py: float) -> tuple[float, float]:
            return to_screen(hint.x_m + px * c - py * s, hint.y_m + px * s + py * c)

        width = max(2, round(self.camera.scale * 0.0008))
        pygame.draw.polygon(surface, palette.HINT, [local(px, py) for px, py in outline(hint.spec)], width)
        target = local(0.0, -hint.spec.height_m / 2)
        radius = max(5.0, self.camera.scale * 0.0022)
        pygame.draw.circle(surface, (255, 255, 255), target, radius + 2)
        pygame.draw.circle(surface, palette.HINT, target, radius)
        return target

    def _wave_points(self, rect: pygame.Rect, time_s: float, phase: float, amplitude_m: float) -> list:
        points = []
        sea_y = self.camera.to_screen(0.0, SEA_LEVEL_M)[1]
        amp = amplitude_m * self.camera.scale
        step = max(8, rect.width // 48)
        for px in range(rect.left - step, rect.right + 2 * step, step):
            wave = math.sin(px * 0.025 + time_s * 1.6 + phase) + 0.4 * math.sin(px * 0.061 - time_s * 2.3)
            points.append((px, sea_y + amp * wave))
        return points

    def _draw_far_sea(self, surface: pygame.Surface, rect: pygame.Rect, time_s: float) -> None:
        crest = self._wave_points(rect, time_s, 1.3, 0.0025)
        pygame.draw.polygon(surface, palette.shade(palette.SEA_TOP, 1.15),
                            [(x, y - self.camera.scale * 0.004) for x, y in crest]
                            + [(rect.right + 40, rect.bottom), (rect.left - 40, rect.bottom)])

    def _draw_near_sea(self, surface: pygame.Surface, rect: pygame.Rect, time_s: float) -> None:
        crest = self._wave_points(rect, time_s, 0.0, 0.002)
        top = int(min(y for _, y in crest))
        body = [(x, y) for x, y in crest] + [(rect.right + 40, rect.bottom), (rect.left - 40, rect.bottom)]
        pygame.draw.polygon(surface, palette.SEA_TOP, body)
        below = max(top + 4, int(max(y for _, y in crest)))
        if below < rect.bottom:
            surface.blit(self._sea, (rect.left, below), pygame.Rect(0, 0, rect.width, rect.bottom - below))
        pygame.draw.lines(surface, palette.FOAM, False, crest, max(2, round(self.camera.scale * 0.0015)))


def draw_end_marker(surface: pygame.Surface, kind: str, centre: tuple[float, float], size: float,
                    outward: tuple[float, float]) -> None:
    """The marker of one end of the view: "right", a white arrowhead pointing ``outward``
    (a screen unit vector); "left", a dark disc. The side view and the top view share them."""
    cx, cy = centre
    r = size / 2
    if kind == "right":
        ux, uy = outward
        points = [(cx + ux * r, cy + uy * r), (cx - ux * r * 0.8 - uy * r * 0.9, cy - uy * r * 0.8 + ux * r * 0.9),
                  (cx - ux * r * 0.8 + uy * r * 0.9, cy - uy * r * 0.8 - ux * r * 0.9)]
        pygame.draw.polygon(surface, palette.VIEW_RIGHT, points)
        pygame.draw.polygon(surface, palette.INK, points, 2)
    else:
        pygame.draw.circle(surface, palette.VIEW_LEFT, (cx, cy), r * 0.8)
        pygame.draw.circle(surface, (255, 255, 255), (cx, cy), r * 0.8, 2)


def _gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int]) -> pygame.Surface:
    """A vertical colour gradient, rendered once per window size."""
    width, height = size
    surface = pygame.Surface((max(1, width), max(1, height)))
    for row in range(max(1, height)):
        t = row / max(1, height - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom))
        pygame.draw.line(surface, colour, (0, row), (width, row))
    return surface
