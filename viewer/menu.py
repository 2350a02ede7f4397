"""The mouse's way to the actions that otherwise only have a key: the Menu button and its card,
and the "Aim again" button while a barrel is held (``--confirm``).

The Menu button sits in the scene's upper right corner, over the game and over its end screen;
a click opens the :class:`MenuCard` (a :class:`viewer.card.Card`): one button for each of the
key table's actions a click reaches nowhere else (how to play, the balance hint, the sound,
recording, a new game, quit; a replay's pause, restart and quit), each naming its key, which
the card answers too. The app carries out the answer as if the key had been pressed
(:meth:`viewer.app.ViewerApp.answer`), except that Quit always asks first during a game.

Every other action already has its click: the die rolls, the Pass button passes, the scene
aims and lets go, a sailor in the top view is chosen, the cards' buttons answer.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from kipp.language import N_, Language
from viewer import palette
from viewer.frame import FrameView
from viewer.keys import KEYS, REPLAY_KEYS, Act, KeyRow, Press, find, key_words
from viewer.layout import Layout
from viewer.modes import Prompt
from viewer.widgets import draw_button
from viewer.words import ENGLISH

MENU_LABEL = N_("Menu")
"""The Menu button's word."""
AIM_AGAIN_LABEL = N_("Aim again")
"""The button that lets go of a held barrel's hold (the key table's Backspace)."""


@dataclass(frozen=True)
class MenuEntry:
    """One button of the menu card: the act it stands for and its words (marked for the catalogue)."""

    act: Act
    words: str


GAME_MENU = (MenuEntry(Act.HELP, N_("How to play")), MenuEntry(Act.HINTS, N_("Balance hint on / off")),
             MenuEntry(Act.MUTE, N_("Sound on / off")), MenuEntry(Act.RECORD, N_("Record the game")),
             MenuEntry(Act.NEW_GAME, N_("New game")), MenuEntry(Act.QUIT, N_("Quit")))
"""The menu of a game."""
REPLAY_MENU = (MenuEntry(Act.PAUSE, N_("Pause / go on")), MenuEntry(Act.HELP, N_("How to play")),
               MenuEntry(Act.MUTE, N_("Sound on / off")), MenuEntry(Act.NEW_GAME, N_("Restart the replay")),
               MenuEntry(Act.QUIT, N_("Quit")))
"""The menu of a replay."""

MENU_CARD_KEYS = (
    KeyRow(N_("Esc or a click beside the buttons"), N_("back to the game"), (Press(Act.CLOSE, (pygame.K_ESCAPE,)),)),
)
"""The menu card's own key, shown at its foot (the entries' keys are the game's, :func:`key_label`)."""


KEY_NAMES = {pygame.K_n: N_("N"), pygame.K_ESCAPE: N_("Esc"), pygame.K_BACKSPACE: N_("Backspace")}
"""Keys by name, as the key table's labels name them, for a row of several acts (default: pygame's name)."""


def key_label(table: tuple[KeyRow, ...], act: Act, language: Language = ENGLISH) -> str:
    """The key table's name for the keys of ``act`` in ``language``: its row's label; for a row of
    several acts ("N / Esc": new game / quit; Backspace in "mouse, arrows"), the name of the act's
    first key (:data:`KEY_NAMES`)."""
    for row in table:
        acts = list(dict.fromkeys(press.act for press in row.presses))
        if act not in acts:
            continue
        if len(acts) == 1:
            return key_words(row, language)[0]
        code = next(press for press in row.presses if press.act is act).codes[0]
        return language.gettext(KEY_NAMES[code]) if code in KEY_NAMES else pygame.key.name(code).title()
    raise KeyError(act)


def menu_button(layout: Layout) -> pygame.Rect:
    """The Menu button: the scene's upper right corner."""
    rect = pygame.Rect(0, 0, layout.px(112), layout.px(40))
    rect.topright = (layout.scene.right - layout.px(12), layout.scene.y + layout.px(12))
    return rect


def aim_again_button(layout: Layout) -> pygame.Rect:
    """The Aim again button, where the Pass button is (it shows only while a barrel is held)."""
    return layout.pass_button


def draw_controls(surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
    """The Menu button, and the Aim again button while a barrel is held (in the view's language)."""
    _ = view.language.gettext
    _small_button(surface, layout, menu_button(layout), _(MENU_LABEL), layout.font_px(20))
    if view.prompt is Prompt.PLACE and view.held:
        keys = key_label(KEYS, Act.AIM_AGAIN, view.language)
        draw_button(surface, layout, aim_again_button(layout), f"{_(AIM_AGAIN_LABEL)} ({keys})", view.pulse)


def _small_button(surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, size: int) -> None:
    pygame.draw.rect(surface, palette.PANEL, rect, border_radius=layout.px(8))
    pygame.draw.rect(surface, palette.PANEL_EDGE, rect, 2, border_radius=layout.px(8))
    bars = rect.height // 2
    x, top = rect.x + layout.px(10), rect.centery - bars // 2
    for k in range(3):  # the three bars of a menu
        y = top + k * (bars // 2)
        pygame.draw.line(surface, palette.INK, (x, y), (x + layout.px(16), y), max(2, layout.px(3)))
    text = palette.fit(label, size, rect.right - x - layout.px(26), palette.INK, bold=True)
    surface.blit(text, text.get_rect(midleft=(x + layout.px(24), rect.centery)))


class MenuCard:
    """The menu (a :class:`viewer.card.Card`): answers the act of the entry clicked or of its key,
    :attr:`Act.CLOSE` for Esc or a click beside the entries (Esc, the game's Quit key, goes back to
    the game here, as a card's Esc does)."""

    def __init__(self, *, replay: bool = False) -> None:
        self.replay = replay
        self.entries = REPLAY_MENU if replay else GAME_MENU
        self.table = REPLAY_KEYS if replay else KEYS
        """The key table the entries' keys are named from."""

    def labels(self, language: Language = ENGLISH) -> list[str]:
        """Each entry's button text: its words and its key, in ``language``."""
        return [f"{language.gettext(entry.words)} ({key_label(self.table, entry.act, language)})"
                for entry in self.entries]

    def key(self, key: int, char: str = "", mod: int = 0) -> Act | None:
        press = find(MENU_CARD_KEYS, key) or find(self.table, key, char)
        if press is None:
            return None
        return press.act if press.act is Act.CLOSE or press.act in {e.act for e in self.entries} else None

    def click(self, pos: tuple[int, int], layout: Layout) -> Act | None:
        for entry, rect in zip(self.entries, self.buttons(layout)):
            if rect.collidepoint(pos):
                return entry.act
        return Act.CLOSE

    def buttons(self, layout: Layout) -> list[pygame.Rect]:
        """Where each entry's button is."""
        card = self._card(layout)
        height, gap = layout.px(46), layout.px(10)
        top = card.y + layout.px(84)
        return [pygame.Rect(card.x + layout.px(30), top + k * (height + gap), card.width - layout.px(60), height)
                for k in range(len(self.entries))]

    def _card(self, layout: Layout) -> pygame.Rect:
        rows = len(self.entries)
        height = min(layout.size[1] - layout.px(20), layout.px(84 + rows * 56 + 50))
        card = pygame.Rect(0, 0, min(layout.size[0] - layout.px(40), layout.px(480)), height)
        card.center = (layout.size[0] // 2, layout.size[1] // 2)
        return card

    def draw(self, surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
        language = view.language
        card = self._card(layout)
        pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
        pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
        title = palette.fit(language.gettext(MENU_LABEL), layout.font_px(40), card.width - layout.px(40), palette.INK,
                            bold=True)
        surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(18))))
        for label, rect in zip(self.labels(language), self.buttons(layout)):
            draw_button(surface, layout, rect, label, 0.75)
        back_label, back_words = key_words(MENU_CARD_KEYS[0], language)
        foot = palette.fit(f"{back_label}: {back_words}", layout.font_px(20), card.width - layout.px(40), palette.GOOD,
                           bold=True)
        surface.blit(foot, foot.get_rect(midbottom=(card.centerx, card.bottom - layout.px(14))))
