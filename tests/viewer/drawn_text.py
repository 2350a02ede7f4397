"""What the window draws as text, and where: a recorder for the language tests.

Every text the viewer draws is rendered by :func:`viewer.palette.text` (directly, or through
:func:`viewer.palette.fit`, which cuts it with an ellipsis when it is too wide) and put on a
surface with ``Surface.blit``. :func:`recording` intercepts those places for the length of a
``with`` block: the rendered surfaces are remembered with their words, every ``pygame.Surface``
the viewer makes is a :class:`RecordingSurface`, whose ``blit`` notes each text's rectangle
on it, and :func:`viewer.palette.wrap`'s lines note when a drawer keeps fewer than it wrapped.

:class:`PseudoLanguage` is German with every word of every translation in markers
(``⟦Würfle⟧ ⟦den⟧ ...``), built from the real catalogue: a drawn text with letters outside
the markers came from a string the catalogue does not translate.
"""

from __future__ import annotations

import contextlib
import gettext
import re
from dataclasses import dataclass, field

import pygame
from babel.messages.pofile import read_po

from kipp.language import LOCALE_DIR, Language
from viewer import help as help_card
from viewer import palette, widgets

OPEN, CLOSE = "\u27e6", "\u27e7"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*(?:{CLOSE}|\u2026$)")
"""A marked word, or a marked word cut by an ellipsis at the end of the text."""
LETTER = re.compile(r"[^\W\d_]")


def catalogue(code: str = "de"):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "kipp.po", "rb") as po:
        return read_po(po, locale=code)


def _marked(text: str) -> str:
    return " ".join(f"{OPEN}{word}{CLOSE}" for word in text.split(" ") if word) if text.strip() else text


class _PseudoCatalogue(gettext.NullTranslations):
    def __init__(self, code: str) -> None:
        super().__init__()
        self.singular: dict[str, str] = {}
        self.plural: dict[tuple[str, str], tuple[str, ...]] = {}
        for message in catalogue(code):
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                self.plural[message.id[:2]] = tuple(_marked(s) for s in message.string)
            else:
                self.singular[message.id] = _marked(message.string)

    def gettext(self, message: str) -> str:
        return self.singular.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.plural.get((singular, plural))
        if forms is None:
            return singular if n == 1 else plural
        return forms[0] if n == 1 else forms[1]


class PseudoLanguage(Language):
    """German with every word of every translation marked; a string not in the catalogue stays unmarked."""

    def __init__(self, code: str = "de") -> None:
        super().__init__(code)
        self._catalogue = _PseudoCatalogue(code)


def unmarked(text: str, names: tuple[str, ...] = ()) -> str:
    """The letters of ``text`` outside the markers and outside the proper ``names`` ("" if none)."""
    rest = MARKED.sub(" ", text)
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    return "".join(LETTER.findall(rest))


@dataclass(frozen=True)
class Drawn:
    """One text put on a surface: its words, its rectangle there, the surface's size, and the layer
    (how many veils had dimmed the window before it: 0 is the game, 1 a card or the end screen ...)."""

    text: str
    rect: pygame.Rect
    surface_size: tuple[int, int]
    layer: int
    on_window: bool


@dataclass
class Record:
    """What one ``with recording():`` saw."""

    drawn: list[Drawn] = field(default_factory=list)
    cut: list[tuple[str, int]] = field(default_factory=list)
    """Texts :func:`viewer.palette.fit` had to cut, with the width they had."""
    dropped: list[tuple[str, int, int]] = field(default_factory=list)
    """Wrapped texts a drawer showed only some lines of: (text, lines, lines shown)."""
    window: object = None
    _words: dict[int, tuple[pygame.Surface, str]] = field(default_factory=dict)
    _layer: int = 0

    def texts(self) -> list[str]:
        return [d.text for d in self.drawn]


_RECORD: Record | None = None


class RecordingSurface(pygame.Surface):
    """A surface that notes the texts blitted on it (while a :class:`Record` is open)."""

    def blit(self, source, dest, area=None, special_flags=0):
        record = _RECORD
        if record is not None:
            if any(source is v for v in widgets._VEILS.values()) and self is record.window:
                record._layer += 1
            words = record._words.get(id(source))
            if words is not None and words[0] is source:
                x, y = (dest.topleft if isinstance(dest, pygame.Rect) else (round(dest[0]), round(dest[1])))
                record.drawn.append(Drawn(words[1], pygame.Rect(x, y, *source.get_size()), self.get_size(),
                                          record._layer, self is record.window))
        return super().blit(source, dest, area, special_flags)


class _Lines(list):
    def __init__(self, lines, message: str, record: Record) -> None:
        super().__init__(lines)
        self.message, self.record = message, record

    def __getitem__(self, index):
        if isinstance(index, slice):
            kept = super().__getitem__(index)
            if len(kept) < len(self):
                self.record.dropped.append((self.message, len(self), len(kept)))
            return kept
        return super().__getitem__(index)


@contextlib.contextmanager
def recording(monkeypatch, size: tuple[int, int]):
    """Record what is drawn; yields the :class:`Record` and the window surface to draw on."""
    global _RECORD
    record = Record()
    text, fit, wrap = palette.text, palette.fit, palette.wrap

    def recorded_text(message, size_px, colour=palette.INK, bold=False):
        surface = text(message, size_px, colour, bold)
        record._words[id(surface)] = (surface, message)
        return surface

    def recorded_fit(message, size_px, width, colour=palette.INK, bold=False):
        if palette.font(size_px, bold).size(message)[0] > width:
            record.cut.append((message, int(width)))
        return fit(message, size_px, width, colour, bold)

    def recorded_wrap(message, font, width):
        return _Lines(wrap(message, font, width), message, record)

    with monkeypatch.context() as patch:
        patch.setattr(palette, "text", recorded_text)
        patch.setattr(palette, "fit", recorded_fit)
        patch.setattr(palette, "wrap", recorded_wrap)
        patch.setattr(pygame, "Surface", RecordingSurface)
        palette._texts.clear()
        help_card._painted.clear()  # painted in another language, or in the pseudo one
        record.window = RecordingSurface(size)
        _RECORD = record
        try:
            yield record
        finally:
            _RECORD = None
            palette._texts.clear()
