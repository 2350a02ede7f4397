"""Colours and fonts of the viewer: one place for the look, so every widget agrees.

Fonts are pygame's bundled default font (the same on every machine, so screenshots are
reproducible), cached by pixel size; rendered text is cached too, since rendering text is
the most expensive thing a frame does.
"""

from __future__ import annotations

import pygame

from viewer.names import ELLIPSIS

SKY_TOP = (142, 196, 232)
SKY_BOTTOM = (214, 236, 247)
SEA_TOP = (38, 120, 168)
SEA_BOTTOM = (12, 52, 96)
FOAM = (226, 242, 250)
HULL = (112, 66, 36)
HULL_DARK = (72, 40, 20)
HULL_STRIPE = (232, 214, 170)
DECK = (214, 172, 112)
DECK_DARK = (150, 108, 60)
PANEL = (246, 240, 226)
PANEL_EDGE = (196, 178, 140)
INK = (40, 34, 30)
INK_SOFT = (110, 100, 90)
HIGHLIGHT = (255, 214, 64)
CHIP = (232, 186, 44)
CHIP_EDGE = (150, 110, 20)
BUTTON = (60, 110, 160)
BUTTON_TEXT = (255, 255, 255)
KABOOM = (140, 20, 30)
GOOD = (30, 150, 150)
AMBER = (245, 190, 50)
"""The balance gauge's three levels: sea green (:data:`GOOD`), sunny amber, deep red (:data:`KABOOM`).

They differ in lightness as much as in hue, so they stay apart under red-green and
blue-yellow colour blindness (tests/viewer/test_palette_colour_vision.py: CIEDE2000 >= 20
for every pair under simulated protanopia, deuteranopia and tritanopia)."""
HINT = (150, 60, 200)
"""The balance hint's mark (side view and top view) and the gauge's frame: a colour nothing else uses."""
VIEW_RIGHT = (255, 255, 255)
"""Marker of the side view's right-hand end (an arrowhead), here and in the top view."""
VIEW_LEFT = (40, 34, 30)
"""Marker of the side view's left-hand end (a disc)."""

SAILOR_CAPS = {"red": (214, 44, 44), "yellow": (244, 204, 40), "blue": (44, 96, 206)}
"""Cap colour of each sailor (and of the matching die face); :mod:`viewer.symbols` adds a shape to each."""

BARREL_COLOURS = {"brown": (126, 76, 40), "orange": (244, 168, 48), "green": (64, 176, 168)}
"""Fill of a barrel by the catalogue's colour name (sim/default_params.toml): a dark wood brown,
a light orange and a sea green, apart in lightness and in the blue-yellow direction so that
red-green colour blindness keeps them apart (the palette test checks every pair)."""


def barrel_rgb(colour: str) -> tuple[int, int, int]:
    """RGB of a catalogue colour name; any CSS/X11 name works, unknown names are grey."""
    if colour in BARREL_COLOURS:
        return BARREL_COLOURS[colour]
    try:
        c = pygame.Color(colour)
    except ValueError:
        return (150, 150, 150)
    return (c.r, c.g, c.b)


def shade(rgb: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    """``rgb`` darkened (factor < 1) or lightened toward white (factor > 1)."""
    if factor <= 1.0:
        return tuple(max(0, int(c * factor)) for c in rgb)  # type: ignore[return-value]
    t = min(factor - 1.0, 1.0)
    return tuple(int(c + (255 - c) * t) for c in rgb)  # type: ignore[return-value]


_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_texts: dict[tuple, pygame.Surface] = {}


def font(size_px: int, bold: bool = False) -> pygame.font.Font:
    """The default font at ``size_px`` (never below 12 px, so text stays readable)."""
    key = (max(12, int(size_px)), bold)
    if key not in _fonts:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, key[0])
        f.set_bold(bold)
        _fonts[key] = f
    return _fonts[key]


def text(message: str, size_px: int, colour=INK, bold: bool = False) -> pygame.Surface:
    """A rendered, cached line of text."""
    key = (message, max(12, int(size_px)), tuple(colour), bold)
    surface = _texts.get(key)
    if surface is None:
        if len(_texts) > 512:
            _texts.clear()
        surface = font(size_px, bold).render(message, True, colour)
        _texts[key] = surface
    return surface


def fit(message: str, size_px: int, width: int, colour=INK, bold: bool = False) -> pygame.Surface:
    """``message`` rendered no wider than ``width`` px: cut with an ellipsis if it must be (cached)."""
    key = (message, max(12, int(size_px)), int(width), bold)
    cut = _cuts.get(key)
    if cut is None:
        f = font(size_px, bold)
        cut = message
        if f.size(message)[0] > width:
            keep = len(message)
            while keep > 1 and f.size(message[:keep].rstrip() + ELLIPSIS)[0] > width:
                keep -= 1
            cut = message[:keep].rstrip() + ELLIPSIS
        if len(_cuts) > 512:
            _cuts.clear()
        _cuts[key] = cut
    return text(cut, size_px, colour, bold)


_cuts: dict[tuple, str] = {}


def wrap(message: str, font: pygame.font.Font, width: int) -> list[str]:
    """Greedy word wrap of ``message`` to lines no wider than ``width`` pixels."""
    lines, current = [], ""
    for word in message.split():
        trial = f"{current} {word}".strip()
        if current and font.size(trial)[0] > width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return lines
