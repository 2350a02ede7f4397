"""The start screen: seat up to four players (people by name, bots by player model), pick the
variants and the hint, and start -- with the mouse or the keyboard.

Keyboard: the key table's :data:`viewer.keys.START_KEYS` (shown at the card's foot): move
between the fields, change the one that has the focus, type a name, start, quit (or, after a
game, go back to its end screen). Mouse: a click changes a field (the arrows of a player
model go back and forth) or puts the cursor in a name; the Quit (after a game: Back) button
does what Esc does. (A name is typed; without a keyboard a person plays as "Player N".)

One field is the window's language (:data:`kipp.language.LANGUAGES`, each shown by its own
name): changing it redraws the screen in that language at once (:attr:`StartScreen.language`,
which the app then gives the whole window) and is remembered with the set-up
(:attr:`viewer.setup.GameSetup.language`).

The screen only edits a :class:`viewer.setup.GameSetup`; as a card (:mod:`viewer.card`), its
:meth:`StartScreen.key` and :meth:`StartScreen.click` answer when to start (:attr:`Act.START`) or
leave (:attr:`Act.LEAVE`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from kipp.language import LANGUAGES, N_, Language
from kipp.players.models import MODELS
from viewer import palette
from viewer.frame import FrameView
from viewer.keys import START_KEYS, START_KEYS_AFTER_GAME, Act, find, key_words, legend
from viewer.layout import Layout
from viewer.setup import NAME_LIMIT, GameSetup, Seat, SeatKind
from viewer.words import ENGLISH, YOU, model_word, shown_name

START_BUTTON = ("start",)
"""The Start button's field."""
LANGUAGE_FIELD = ("language",)
"""The field of the window's language."""
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}
"""Each language by its own name, as the language field shows it (the same in every language)."""
LEAVE_BUTTON = ("leave",)
"""The Quit (or, after a game, Back) button's place: the mouse's Esc (not a field the focus visits)."""

_KINDS = (SeatKind.PERSON, SeatKind.BOT, SeatKind.EMPTY)
_KIND_LABELS = {SeatKind.PERSON: N_("Person"), SeatKind.BOT: N_("Bot"), SeatKind.EMPTY: N_("Nobody")}
TOGGLES = (("nine", N_("Younger sailors: nine barrels")), ("half_turn", N_("Younger sailors: half turns")),
           ("sea_dogs", N_("Old Sea Dogs: pass for a chip, a fall costs 2")),
           ("hints", N_("Balance hint (B in the game)")), ("confirm", N_("Ask before letting a barrel go")))


def _toggle_value(setup: GameSetup, key: str) -> bool:
    return setup.barrels == 9 if key == "nine" else getattr(setup, key)


def _toggled(setup: GameSetup, key: str) -> GameSetup:
    if key == "nine":
        return replace(setup, barrels=12 if setup.barrels == 9 else 9)
    return replace(setup, **{key: not getattr(setup, key)})


def card_rect(layout: Layout) -> pygame.Rect:
    """Where the start screen's card is in the window."""
    width, height = layout.size
    card = pygame.Rect(0, 0, min(width - layout.px(30), layout.px(1000)), height - layout.px(30))
    card.center = (width // 2, height // 2)
    return card


class StartScreen:
    """The start screen's state: the set-up being edited, which field has the focus, and the
    language it speaks (the window's, until the language field changes it)."""

    def __init__(self, setup: GameSetup, *, after_game: bool = False, language: Language = ENGLISH) -> None:
        self.setup = setup
        self.language = language
        """The language the screen is drawn in; the language field changes it (and the set-up's)."""
        self.after_game = after_game
        """Opened from a game's end screen (Esc goes back to it instead of quitting)."""
        self.focus: tuple = ("kind", 0)
        self.rects: dict[tuple, pygame.Rect] = {}
        """Where each field was drawn last (for clicks)."""

    # --- fields -------------------------------------------------------------------

    def fields(self) -> list[tuple]:
        """The focusable fields in reading order."""
        items: list[tuple] = []
        for i, seat in enumerate(self.setup.seats):
            items.append(("kind", i))
            if seat.kind is SeatKind.PERSON:
                items.append(("name", i))
            elif seat.kind is SeatKind.BOT:
                items.append(("model", i))
        items += [("toggle", key) for key, _ in TOGGLES]
        items.append(LANGUAGE_FIELD)
        items.append(START_BUTTON)
        return items

    def _move(self, step: int) -> None:
        items = self.fields()
        index = items.index(self.focus) if self.focus in items else 0
        self.focus = items[(index + step) % len(items)]

    def _seat(self, i: int, seat: Seat) -> None:
        seats = list(self.setup.seats)
        seats[i] = seat
        self.setup = replace(self.setup, seats=tuple(seats))

    def _change(self, item: tuple, step: int) -> Act | None:
        """Change ``item`` by ``step`` (+1 / -1); :attr:`Act.START` for the Start button."""
        kind = item[0]
        if item == START_BUTTON:
            return Act.START if self.setup.can_start() else None
        if item == LANGUAGE_FIELD:
            code = LANGUAGES[(LANGUAGES.index(self.language.code) + step) % len(LANGUAGES)]
            self.language = Language(code)
            self.setup = replace(self.setup, language=code)
        elif kind == "toggle":
            self.setup = _toggled(self.setup, item[1])
        elif kind == "kind":
            seat = self.setup.seats[item[1]]
            new = _KINDS[(_KINDS.index(seat.kind) + step) % len(_KINDS)]
            self._seat(item[1], replace(seat, kind=new))
        elif kind == "model":
            seat = self.setup.seats[item[1]]
            names = list(MODELS)
            self._seat(item[1], replace(seat, model=names[(names.index(seat.model) + step) % len(names)]))
        return None

    # --- input --------------------------------------------------------------------

    def keys(self):
        """This screen's key table (:data:`viewer.keys.START_KEYS`, or the one after a game)."""
        return START_KEYS_AFTER_GAME if self.after_game else START_KEYS

    def key(self, key: int, char: str = "", mod: int = 0) -> Act | None:
        """A key press; :attr:`Act.START`, :attr:`Act.LEAVE` or None."""
        press = find(self.keys(), key, mod=mod)
        act = press.act if press is not None else None
        if act is Act.START:
            return Act.START if self.setup.can_start() else None
        if act is Act.LEAVE:
            return Act.LEAVE
        if act is Act.NEXT_FIELD:
            self._move(press.value)
        elif self.focus[0] == "name":
            self._type(char, erase=act is Act.ERASE)
        elif act is Act.CHANGE:
            return self._change(self.focus, press.value)
        return None

    def _type(self, char: str, *, erase: bool = False) -> None:
        i = self.focus[1]
        seat = self.setup.seats[i]
        name = shown_name(seat.name, self.language) if seat.name == YOU else seat.name  # edit what is shown
        if erase:
            self._seat(i, replace(seat, name=name[:-1]))
        elif char and char.isprintable() and char not in ",\t" and len(name) < NAME_LIMIT:
            if char.strip() or name:
                self._seat(i, replace(seat, name=name + char))

    def click(self, pos: tuple[int, int], layout: Layout | None = None) -> Act | None:
        """A click; :attr:`Act.START` when it hit an enabled Start button (the fields are where they
        were drawn last, whatever the ``layout``)."""
        for item, rect in self.rects.items():
            if not rect.collidepoint(pos):
                continue
            self.focus = item if item in self.fields() else self.focus
            if item == LEAVE_BUTTON:
                return Act.LEAVE
            if item[0] == "name":
                return None
            step = -1 if item[0] == "model" and pos[0] < rect.x + rect.height else 1
            return self._change(item, step)
        return None

    # --- drawing ------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
        """The start card over whatever is behind it (the caller dims it), in :attr:`language`."""
        _ = self.language.gettext
        pulse = view.pulse
        card = card_rect(layout)
        pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
        pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
        pad = layout.px(24)
        title = palette.text("Kipp, Kipp, Ahoi!", layout.font_px(46), palette.INK, bold=True)
        surface.blit(title, (card.x + pad, card.y + layout.px(18)))
        sub = palette.text(_("Who plays tonight?"), layout.font_px(24), palette.INK_SOFT)
        surface.blit(sub, sub.get_rect(bottomleft=(card.x + pad + title.get_width() + pad,
                                                   card.y + layout.px(14) + title.get_height() - layout.px(8))))
        self.rects = {}
        leave_row = next(row for row in self.keys() if any(press.act is Act.LEAVE for press in row.presses))
        leave = pygame.Rect(0, 0, layout.px(150), layout.px(44))
        leave.topright = (card.right - pad, card.y + layout.px(18))
        leave_label, leave_words = key_words(leave_row, self.language)
        self._button(surface, layout, leave, f"{leave_words[:1].upper()}{leave_words[1:]} ({leave_label})",
                     LEAVE_BUTTON, pulse)
        y = card.y + layout.px(40) + title.get_height()
        row_h = layout.px(78)
        size = layout.font_px(24)
        small = layout.font_px(19)
        kind_w = layout.px(150)
        field_w = layout.px(300)
        for i, seat in enumerate(self.setup.seats):
            x = card.x + pad
            label = palette.text(f"{i + 1}.", size, palette.INK, bold=True)
            surface.blit(label, label.get_rect(midleft=(x, y + layout.px(22))))
            x += layout.px(36)
            kind = pygame.Rect(x, y, kind_w, layout.px(44))
            self._button(surface, layout, kind, _(_KIND_LABELS[seat.kind]), ("kind", i), pulse,
                         dim=seat.kind is SeatKind.EMPTY)
            field = pygame.Rect(kind.right + layout.px(14), y, field_w, layout.px(44))
            if seat.kind is SeatKind.PERSON:
                self._name_field(surface, layout, field, shown_name(seat.name, self.language), ("name", i), pulse,
                                 _("Player {number}").format(number=i + 1))
            elif seat.kind is SeatKind.BOT:
                self._button(surface, layout, field, f"<   {model_word(seat.model, self.language)}   >", ("model", i),
                             pulse)
                room = card.right - pad - (field.right + layout.px(14))
                lines = palette.wrap(model_description(seat.model, self.language), palette.font(small), room)
                for k, line in enumerate(lines[:3]):
                    surface.blit(palette.text(line, small, palette.INK_SOFT),
                                 (field.right + layout.px(14), y + k * palette.font(small).get_linesize()))
            y += row_h
        pygame.draw.line(surface, palette.PANEL_EDGE, (card.x + pad, y), (card.right - pad, y), 2)
        y += layout.px(14)
        heading = palette.text(_("Variants and help"), size, palette.INK, bold=True)
        surface.blit(heading, (card.x + pad, y))
        y += heading.get_height() + layout.px(10)
        col_w = (card.width - 3 * pad) // 2
        for k, (key, text) in enumerate(TOGGLES):
            x = card.x + pad + (k % 2) * (col_w + pad)
            rect = pygame.Rect(x, y + (k // 2) * layout.px(54), col_w, layout.px(42))
            self._toggle(surface, layout, rect, _(text), _toggle_value(self.setup, key), ("toggle", key), pulse)
        k = len(TOGGLES)  # the language: the grid's next cell
        rect = pygame.Rect(card.x + pad + (k % 2) * (col_w + pad), y + (k // 2) * layout.px(54), col_w, layout.px(42))
        self._button(surface, layout, rect, _("Language: {name}").format(name=LANGUAGE_NAMES[self.language.code]),
                     LANGUAGE_FIELD, pulse)
        start = pygame.Rect(0, 0, layout.px(280), layout.px(58))
        start.bottomright = (card.right - pad, card.bottom - layout.px(18))
        enabled = self.setup.can_start()
        self._button(surface, layout, start, _("Start (Enter)") if enabled else _("Seat somebody first"), START_BUTTON,
                     pulse, strong=enabled, dim=not enabled)
        lines = palette.wrap(legend(self.keys(), language=self.language), palette.font(small),
                             start.left - card.x - 2 * pad)
        for k, line in enumerate(lines[:3]):
            surface.blit(palette.text(line, small, palette.INK_SOFT),
                         (card.x + pad, start.top + k * palette.font(small).get_linesize()))

    def _focus_ring(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, item: tuple,
                    pulse: float) -> None:
        self.rects[item] = rect
        if self.focus == item:
            glow = palette.shade(palette.HIGHLIGHT, 0.9 + 0.1 * math.sin(pulse * 2 * math.pi))
            pygame.draw.rect(surface, glow, rect.inflate(layout.px(8), layout.px(8)), layout.px(4),
                             border_radius=layout.px(12))

    def _button(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, item: tuple,
                pulse: float, *, strong: bool = False, dim: bool = False) -> None:
        self._focus_ring(surface, layout, rect, item, pulse)
        fill = palette.BUTTON if strong else (palette.shade(palette.PANEL, 0.82) if dim else palette.shade(
            palette.PANEL, 0.9))
        pygame.draw.rect(surface, fill, rect, border_radius=layout.px(10))
        pygame.draw.rect(surface, palette.PANEL_EDGE, rect, 2, border_radius=layout.px(10))
        ink = palette.BUTTON_TEXT if strong else (palette.INK_SOFT if dim else palette.INK)
        text = palette.fit(label, layout.font_px(24 if strong else 22), rect.width - layout.px(12), ink, bold=True)
        surface.blit(text, text.get_rect(center=rect.center))

    def _name_field(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, name: str, item: tuple,
                    pulse: float, placeholder: str) -> None:
        self._focus_ring(surface, layout, rect, item, pulse)
        pygame.draw.rect(surface, (255, 255, 255), rect, border_radius=layout.px(8))
        pygame.draw.rect(surface, palette.PANEL_EDGE, rect, 2, border_radius=layout.px(8))
        shown = name if name else placeholder
        text = palette.fit(shown, layout.font_px(24), rect.width - layout.px(24),
                           palette.INK if name else palette.INK_SOFT)
        box = text.get_rect(midleft=(rect.x + layout.px(10), rect.centery))
        surface.blit(text, box)
        if self.focus == item and pulse < 0.5:  # a blinking cursor
            x = box.right + 2 if name else box.left
            pygame.draw.line(surface, palette.INK, (x, rect.y + layout.px(8)), (x, rect.bottom - layout.px(8)), 2)

    def _toggle(self, surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, on: bool,
                item: tuple, pulse: float) -> None:
        self._focus_ring(surface, layout, rect, item, pulse)
        box = pygame.Rect(rect.x + layout.px(6), 0, layout.px(28), layout.px(28))
        box.centery = rect.centery
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=layout.px(6))
        pygame.draw.rect(surface, palette.INK, box, 2, border_radius=layout.px(6))
        if on:
            pygame.draw.lines(surface, palette.GOOD, False, [(box.x + box.w * 0.2, box.centery),
                                                             (box.x + box.w * 0.42, box.bottom - box.h * 0.2),
                                                             (box.right - box.w * 0.15, box.y + box.h * 0.2)],
                              max(3, layout.px(4)))
        text = palette.fit(label, layout.font_px(21), rect.right - box.right - layout.px(16), palette.INK)
        surface.blit(text, text.get_rect(midleft=(box.right + layout.px(10), rect.centery)))


def model_description(model: str, language: Language = ENGLISH) -> str:
    """What playing against a bot of player ``model`` is like, in ``language``
    (:attr:`kipp.players.models.PlayerModel.family_words`)."""
    return language.gettext(MODELS[model].family_words)
