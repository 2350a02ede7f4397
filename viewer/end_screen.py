"""The end-of-game screen: the winners, the final chips, a round-by-round recap and how to start again.

Drawn over the dimmed game once it is over (:attr:`viewer.modes.Prompt.NEW_GAME`); its button
(:func:`end_screen_button`) starts a new game, as N does.
"""

from __future__ import annotations

import pygame

from kipp.language import N_
from viewer import palette
from viewer.frame import FrameView
from viewer.help import seed_note
from viewer.layout import Layout
from viewer.recap import describe, round_recaps, signed
from viewer.widgets import draw_button, veil
from viewer.words import chips, said, shown_name


def end_screen_button(layout: Layout, players: int) -> pygame.Rect:
    """The "New game" button of the end-of-game screen."""
    rect = pygame.Rect(0, 0, layout.px(260), layout.px(52))
    rect.midbottom = (layout.size[0] // 2, _end_card(layout, players).bottom - layout.px(40))
    return rect


def _end_card(layout: Layout, players: int) -> pygame.Rect:
    """Where the end card is: headline, chips, the three rounds' recap, the button; as large as the window allows."""
    width = min(layout.size[0] - layout.px(40), layout.px(900))
    height = min(layout.size[1] - layout.px(30), layout.px(300 + 34 * players + 36 * 4))
    card = pygame.Rect(0, 0, width, height)
    card.center = (layout.size[0] // 2, layout.size[1] // 2)
    return card


def draw_end_screen(surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
    """Winners, final chips, what happened in each round and how to start again, over a dimmed picture."""
    state = view.state
    language = view.language
    _ = language.gettext
    surface.blit(veil(layout.size), (0, 0))
    n = state.config.n_players
    card = _end_card(layout, n)
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
    pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
    names = view.names
    inner = card.width - layout.px(40)
    winners = [names[p] for p in state.winners()]
    if len(winners) == 1:
        headline = said(language, winners[0], N_("{name} wins!"), N_("You win!"))
    else:
        headline = _("{names} share the win!").format(
            names=_(" and ").join(shown_name(name, language) for name in winners))
    title = palette.text(headline, layout.font_px(52), palette.GOOD, bold=True)
    if title.get_width() > inner:
        title = palette.fit(headline, layout.font_px(34), inner, palette.GOOD, bold=True)
    surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(18))))
    button = end_screen_button(layout, n)
    y = card.y + layout.px(26) + title.get_height()
    ranking = sorted(range(n), key=lambda p: -state.chips[p])
    rank_px = layout.font_px(28)
    for player in ranking:
        line = palette.fit(f"{shown_name(names[player], language)}: {chips(state.chips[player], language)}", rank_px,
                           inner,
                           palette.INK, bold=player in state.winners())
        surface.blit(line, line.get_rect(midtop=(card.centerx, y)))
        y += line.get_height() + layout.px(2)
    _draw_recap(surface, layout, view, pygame.Rect(card.x + layout.px(20), y + layout.px(10), inner,
                                                         button.top - y - layout.px(16)))
    draw_button(surface, layout, button, _("N: new game"), view.pulse)
    hint = palette.fit(_("Esc: quit  -  {note}").format(note=seed_note(view.seed, language)), layout.font_px(22),
                       inner, palette.INK_SOFT)
    surface.blit(hint, hint.get_rect(midtop=(card.centerx, button.bottom + layout.px(8))))


def _draw_recap(surface: pygame.Surface, layout: Layout, view: FrameView, rect: pygame.Rect) -> None:
    """A table: one row per round (what happened, each player's chips after it and the change)."""
    recaps = round_recaps(view.state.events())
    language = view.language
    names = view.names
    n = len(names)
    rows = len(recaps) + 1
    size = max(12, min(layout.font_px(22), rect.height // max(1, rows) - 4))
    line_h = max(palette.font(size).get_linesize(), min(rect.height // max(1, rows),
                                                        round(palette.font(size).get_linesize() * 1.6)))
    first_w = round(rect.width * (0.46 if n > 2 else 0.56))
    col_w = (rect.width - first_w) // n
    pygame.draw.line(surface, palette.PANEL_EDGE, (rect.x, rect.y + line_h - 2), (rect.right, rect.y + line_h - 2), 1)
    surface.blit(palette.text(language.gettext("Round by round"), size, palette.INK_SOFT, bold=True), (rect.x, rect.y))
    for k, name in enumerate(names):
        label = palette.fit(shown_name(name, language), size, col_w - 6, palette.INK_SOFT, bold=True)
        surface.blit(label, label.get_rect(topright=(rect.x + first_w + (k + 1) * col_w, rect.y)))
    for r, recap in enumerate(recaps, start=1):
        y = rect.y + r * line_h + 2
        colour = palette.GOOD if recap.completed else palette.KABOOM
        what = palette.fit(f"{recap.round}. {describe(recap, names, language)}", size, first_w - 8, colour, bold=True)
        surface.blit(what, (rect.x, y))
        for k in range(n):
            cell = palette.fit(f"{recap.chips_after[k]} ({signed(recap.change[k])})", size, col_w - 6, palette.INK)
            surface.blit(cell, cell.get_rect(topright=(rect.x + first_w + (k + 1) * col_w, y)))
