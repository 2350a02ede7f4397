"""The yes/no card before a game is given up: N (a new game) or Esc (quit) during a game ask first.

Its keys are :data:`viewer.keys.QUESTION_KEYS` (Y or Enter: yes; N or Esc: no), shown on its buttons.
"""

from __future__ import annotations

import enum

import pygame

from kipp.language import Language
from viewer import palette
from viewer.frame import FrameView
from viewer.keys import QUESTION_KEYS, Act, find, key_words
from viewer.layout import Layout
from viewer.widgets import draw_button
from viewer.words import ENGLISH


class Question(enum.Enum):
    """What the card asks."""

    NEW_GAME = "new game"
    QUIT = "quit"


class QuestionCard:
    """A yes/no question (a :class:`viewer.card.Card`): answers :attr:`Act.YES` or :attr:`Act.NO`."""

    def __init__(self, question: Question, *, replay: bool = False) -> None:
        self.question = question
        self.replay = replay
        """Asked of a replay (restart it? quit it?) rather than of a game."""

    def words(self, language: Language = ENGLISH) -> tuple[str, str]:
        """The question and what a yes means, in ``language``."""
        _ = language.gettext
        if self.question is Question.QUIT:
            if self.replay:
                return _("Quit the replay?"), _("The recording stays as it is.")
            return _("Quit the game?"), _("This game will be lost.")
        if self.replay:
            return _("Restart the replay?"), _("It starts again from the first roll.")
        return _("Start a new game?"), _("This game will be lost.")

    def key(self, key: int, char: str = "", mod: int = 0) -> Act | None:
        press = find(QUESTION_KEYS, key)
        return press.act if press is not None else None

    def click(self, pos: tuple[int, int], layout: Layout) -> Act | None:
        yes, no = confirm_buttons(layout)
        if yes.collidepoint(pos):
            return Act.YES
        return Act.NO if no.collidepoint(pos) else None

    def draw(self, surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
        question, detail = self.words(view.language)
        card = card_rect(layout)
        pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
        pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
        inner = card.width - layout.px(40)
        title = palette.fit(question, layout.font_px(40), inner, palette.INK, bold=True)
        surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(22))))
        sub = palette.fit(detail, layout.font_px(24), inner, palette.INK_SOFT)
        surface.blit(sub, sub.get_rect(midtop=(card.centerx, card.y + layout.px(30) + title.get_height())))
        yes, no = confirm_buttons(layout)
        (yes_label, yes_words), (no_label, no_words) = (key_words(row, view.language) for row in QUESTION_KEYS)
        draw_button(surface, layout, yes, f"{yes_words} ({yes_label})", view.pulse)
        draw_button(surface, layout, no, f"{no_words} ({no_label})", 0.75)


def confirm_buttons(layout: Layout) -> tuple[pygame.Rect, pygame.Rect]:
    """The Yes and No buttons of the question card."""
    card = card_rect(layout)
    yes = pygame.Rect(0, 0, layout.px(200), layout.px(50))
    no = yes.copy()
    yes.bottomright = (card.centerx - layout.px(12), card.bottom - layout.px(22))
    no.bottomleft = (card.centerx + layout.px(12), card.bottom - layout.px(22))
    return yes, no


def card_rect(layout: Layout) -> pygame.Rect:
    """Where the question's card is in the window."""
    card = pygame.Rect(0, 0, min(layout.size[0] - layout.px(40), layout.px(620)), layout.px(210))
    card.center = (layout.size[0] // 2, layout.size[1] // 2)
    return card
