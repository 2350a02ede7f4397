"""Everything around the ship: the round and the barrel line, players and chips, the
prompt, the Pass button, the key legend, short messages, the balance gauge, the REPLAY
banner and the first-game tips. (The end-of-game screen is :mod:`viewer.end_screen`, the
cards over the game :mod:`viewer.card`'s.)

Long names are cut with an ellipsis to the room they have (:func:`viewer.palette.fit`).

Drawing only, from the frame's view (:class:`viewer.frame.FrameView`): the numbers come from
the game state, what a person is asked to do from its prompt, the legend from the key table
(:mod:`viewer.keys`).
"""

from __future__ import annotations

import math

import pygame

from kipp.language import N_, Language
from viewer import palette
from viewer.balance_hint import Advice, gauge_text
from viewer.barrel_art import draw_barrel
from viewer.frame import FrameView
from viewer.keys import KEYS, REPLAY_KEYS, KeyRow, key_words
from viewer.layout import Layout
from viewer.messages import Tone
from viewer.modes import Mode, Prompt
from viewer.widgets import draw_button
from viewer.words import ENGLISH, said, shown_name


def draw_top_bar(surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
    """Round counter and the line of barrels (stacked ones faded, the next one marked)."""
    bar = layout.top_bar
    pygame.draw.rect(surface, palette.PANEL, bar)
    pygame.draw.line(surface, palette.PANEL_EDGE, bar.bottomleft, bar.bottomright, 2)
    state = view.state
    _ = view.language.gettext
    shown_round, stacked, over = view.shown_round
    round_label = palette.text(_("Round {number} of 3").format(number=shown_round), layout.font_px(30), palette.INK,
                               bold=True)
    surface.blit(round_label, round_label.get_rect(midleft=(bar.x + layout.px(16), bar.centery)))
    line = state.line
    if not line:
        return
    params = view.params
    tallest = max(params.barrel(size).height_m for size in line)
    scale = bar.height * 0.62 / tallest
    left = bar.x + layout.px(24) + round_label.get_width() + layout.px(20)
    right = bar.right - layout.px(110)
    slot = min((right - left) / len(line), bar.height * 0.55)
    base_y = bar.centery + tallest * scale / 2
    for index, size in enumerate(line):
        spec = params.barrel(size)
        cx = left + slot * (index + 0.5)

        def to_screen(x: float, y: float, cx=cx) -> tuple[float, float]:
            return cx + x * scale, base_y - y * scale

        draw_barrel(surface, spec, 0.0, spec.height_m / 2, 0.0, to_screen, faded=index < stacked)
        if index == stacked and not over:
            y = base_y + layout.px(5)
            pygame.draw.line(surface, palette.KABOOM, (cx - slot * 0.4, y), (cx + slot * 0.4, y), layout.px(4))
    count = palette.text(_("{stacked}/{barrels} stacked").format(stacked=stacked, barrels=len(line)),
                         layout.font_px(22), palette.INK_SOFT)
    surface.blit(count, count.get_rect(midright=(bar.right - layout.px(12), bar.centery)))


PASS_LABEL = N_("Pass (P): pay 1 chip")


def draw_panel(surface: pygame.Surface, layout: Layout, view: FrameView) -> str:
    """The right-hand panel behind the inset, the die, the prompt and the players.

    Returns what the foot of the panel shows: "legend" (the keys) or "hint" (too little
    room: one line pointing at the help screen, which lists them)."""
    pygame.draw.rect(surface, palette.PANEL, layout.panel)
    pygame.draw.line(surface, palette.PANEL_EDGE, layout.panel.topleft, layout.panel.bottomleft, 2)
    _draw_prompt(surface, layout, view)
    if view.prompt is Prompt.PLAY_OR_PASS:
        draw_button(surface, layout, layout.pass_button, view.language.gettext(PASS_LABEL), view.pulse)
    _draw_players(surface, layout, view)
    return _draw_keys(surface, layout, view.state.config.n_players, REPLAY_KEYS if view.scripted else KEYS,
                      view.language)


def _draw_keys(surface: pygame.Surface, layout: Layout, players: int, keys: tuple[KeyRow, ...],
               language: Language = ENGLISH) -> str:
    """A small legend of the controls at the bottom of the panel, or, if there is no room,
    one line saying where they are (the help screen)."""
    size = layout.font_px(19)
    line_h = palette.font(size).get_linesize()
    top = layout.panel.bottom - layout.px(12) - line_h * len(keys)
    free = layout.players.y + _row_height(layout, players) * (players + 1) + layout.px(8)
    x_key = layout.players.x + layout.px(10)
    if top < free:
        hint = palette.fit(language.gettext("H or ?: how to play, all the keys"), size,
                           layout.players.width - layout.px(20), palette.INK, bold=True)
        surface.blit(hint, (x_key, layout.panel.bottom - layout.px(10) - hint.get_height()))
        return "hint"
    rows = [key_words(row, language) for row in keys]
    key_w = max(palette.font(size, True).size(label)[0] for label, _ in rows) + layout.px(14)
    for k, (label, words) in enumerate(rows):
        y = top + k * line_h
        surface.blit(palette.text(label, size, palette.INK, bold=True), (x_key, y))
        surface.blit(palette.fit(words, size, layout.players.right - x_key - key_w, palette.INK_SOFT),
                     (x_key + key_w, y))
    return "legend"


def prompt_text(view: FrameView) -> str:
    """One sentence: who acts and how (or what is happening), in the view's language."""
    state, prompt, language = view.state, view.prompt, view.language
    _ = language.gettext
    if view.error:
        return view.error
    if view.ended:
        return _("The recording stops here, in round {number}: the game was not played to its end.").format(
            number=state.round)
    if state.is_terminal():
        return _("Game over.")
    name = view.names[state.player]
    texts = {
        Prompt.ROLL: N_("{name}: roll the die (Space, or click it)."),
        Prompt.PLAY_OR_PASS: N_("{name}: roll (Space), or pass (P), which costs you 1 chip."),
        Prompt.PLACE: N_("{name}: aim with the mouse or arrow keys; click or Enter lets go."),
        Prompt.SAILOR: N_("Wild! {name}: pick a sailor (click it, or 1/2/3)."),
    }
    if prompt is Prompt.PLACE and view.held:
        return _("{name}: let go here? Click or Enter: yes. Arrows, Backspace or Esc: aim again.").format(
            name=shown_name(name, language))
    if prompt in texts:
        return _(texts[prompt]).format(name=shown_name(name, language))
    fall = view.fall
    match view.mode:
        case Mode.ROLLING:
            return said(language, name, N_("{name} rolls..."), N_("You roll..."))
        case Mode.GLIDING | Mode.LOWERING:
            return said(language, name, N_("{name} places a barrel..."), N_("You place a barrel..."))
        case Mode.DECIDING:
            if view.turning is not None:
                return _(_TURNING.get(view.turning, N_("The sailor turns...")))
            return _("The barrel settles...")
        case Mode.AFTERMATH:
            return f"{fall[0].upper()}{fall[1:]}!" if fall else _("Barrels overboard!")
    _round, stacked, over = view.shown_round
    if over:  # between the end of a round and the next one's deal
        if state.last_round_end()["completed"]:
            return _("All {count} barrels stand: the tower is complete!").format(count=stacked)
        return f"{fall[0].upper()}{fall[1:]}." if fall else _("The tower fell.")
    if view.scripted:
        return _("Replay")
    if view.humans[state.player]:
        return said(language, name, N_("{name}'s turn"), N_("Your turn"))
    return said(language, name, N_("{name} is thinking..."), N_("You are thinking..."))


_TURNING = {"red": N_("The red sailor turns..."), "yellow": N_("The yellow sailor turns..."),
            "blue": N_("The blue sailor turns...")}
"""What the prompt says while a sailor turns (the sentence's adjective agrees with the sailor in German)."""


def _draw_prompt(surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
    rect = layout.hint
    size = layout.font_px(22)
    lines = palette.wrap(prompt_text(view), palette.font(size), rect.width)
    y = rect.y
    for line in lines[:4]:
        label = palette.text(line, size, palette.INK)
        surface.blit(label, (rect.x, y))
        y += label.get_height()


def _draw_chip(surface: pygame.Surface, centre: tuple[float, float], radius: float) -> None:
    pygame.draw.circle(surface, palette.CHIP, centre, radius)
    pygame.draw.circle(surface, palette.CHIP_EDGE, centre, radius, max(1, round(radius / 4)))


def _row_height(layout: Layout, players: int) -> int:
    """Height of a player's row: as tall as the reference allows, but squeezed (not below
    30 reference px) to leave room for the key legend under the rows and the supply."""
    legend = palette.font(layout.font_px(19)).get_linesize() * len(KEYS) + layout.px(20)
    room = (layout.players.height - legend) // (players + 1)
    return min(layout.px(52), layout.players.height // (players + 1), max(layout.px(30), room))


def _draw_players(surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
    rect = layout.players
    state = view.state
    n = state.config.n_players
    row_h = _row_height(layout, n)
    name_px = max(12, min(layout.font_px(26), round(row_h * 0.5)))
    chip_r = max(4.0, row_h * 0.16)
    for player, name in enumerate(state.config.players):
        row = pygame.Rect(rect.x, rect.y + player * row_h, rect.width, row_h - layout.px(4))
        current = not state.is_terminal() and player == state.player
        pygame.draw.rect(surface, palette.HIGHLIGHT if current else palette.shade(palette.PANEL, 0.96), row,
                         border_radius=layout.px(8))
        shown = shown_name(name, view.language)
        if not (view.humans[player] or view.scripted or name.startswith("Bot")):
            shown = view.language.gettext("{name} (bot)").format(name=shown)
        chips = view.chips[player]
        count = palette.text(str(chips), name_px, palette.INK, bold=True)
        count_rect = count.get_rect(midright=(row.right - layout.px(10), row.centery))
        name_room = round((row.width - layout.px(30) - count.get_width()) * 0.62)
        label = palette.fit(shown, name_px, name_room, palette.INK, bold=current)
        surface.blit(label, label.get_rect(midleft=(row.x + layout.px(10), row.centery)))
        surface.blit(count, count_rect)
        coin_room = count_rect.left - layout.px(10) - (row.x + layout.px(20) + label.get_width())
        coins = max(0, min(chips, 12, int(coin_room / (chip_r * 1.1)) - 1))
        for k in range(coins):  # a little stack of coins, right-aligned
            cx = count_rect.left - layout.px(10) - chip_r - k * chip_r * 1.1
            _draw_chip(surface, (cx, row.centery), chip_r)
    supply_y = rect.y + n * row_h + row_h // 2
    supply = palette.text(view.language.gettext("Supply: {count}").format(count=view.supply), name_px,
                          palette.INK_SOFT)
    surface.blit(supply, supply.get_rect(midleft=(rect.x + layout.px(10), supply_y)))
    supply_chip = (rect.x + layout.px(20) + supply.get_width() + chip_r, supply_y)
    _draw_chip(surface, supply_chip, chip_r)
    for flight in view.flights:  # chips on their way: earned from the supply, or paid back to it
        t = flight.progress(view.frame)
        if t <= 0.0 or t >= 1.0:
            continue
        row = pygame.Rect(rect.x, rect.y + flight.player * row_h, rect.width, row_h - layout.px(4))
        pile = (row.right - layout.px(60), row.centery)
        start, end = (pile, supply_chip) if flight.to_supply else (supply_chip, pile)
        x = start[0] + (end[0] - start[0]) * t
        y = start[1] + (end[1] - start[1]) * t - math.sin(math.pi * t) * row_h * 1.2
        _draw_chip(surface, (x, y), chip_r * (1.0 + 0.6 * math.sin(math.pi * t)))


TONE_COLOURS = {Tone.PLAIN: palette.INK, Tone.BAD: palette.KABOOM, Tone.GOOD: palette.GOOD}
"""A message's headline colour by its :class:`~viewer.messages.Tone`."""


def draw_message(surface: pygame.Surface, layout: Layout, view: FrameView) -> pygame.Rect | None:
    """The current message, centred over the top of the scene; fades out at the end. Where it is."""
    message = view.message
    if message is None:
        return None
    room = layout.scene.width - layout.px(60)
    colour = TONE_COLOURS[message.tone]
    title = palette.text(message.title, layout.font_px(64 if message.big else 34), colour, bold=True)
    if title.get_width() > room:
        title = palette.fit(message.title, layout.font_px(40 if message.big else 28), room, colour, bold=True)
    sub = palette.fit(message.subtitle, layout.font_px(26), room, palette.INK) if message.subtitle else None
    width = max(title.get_width(), sub.get_width() if sub else 0) + layout.px(40)
    height = title.get_height() + (sub.get_height() if sub else 0) + layout.px(20)
    box = pygame.Rect(0, 0, width, height)
    box.midtop = (layout.scene.centerx, layout.scene.y + layout.px(18))
    card = pygame.Surface(box.size, pygame.SRCALPHA)
    alpha = min(235, message.frames_left * 12)
    pygame.draw.rect(card, (*palette.PANEL, alpha), card.get_rect(), border_radius=layout.px(14))
    pygame.draw.rect(card, (*palette.PANEL_EDGE, alpha), card.get_rect(), 2, border_radius=layout.px(14))
    surface.blit(card, box)
    surface.blit(title, title.get_rect(midtop=(box.centerx, box.y + layout.px(10))))
    if sub:
        surface.blit(sub, sub.get_rect(midtop=(box.centerx, box.y + layout.px(10) + title.get_height())))
    return box


def draw_replay_banner(surface: pygame.Surface, layout: Layout, *, paused: bool, speed: int,
                       language: Language = ENGLISH) -> pygame.Rect:
    """REPLAY across the top of the scene, with the state of the playback and its keys."""
    _ = language.gettext
    scene = layout.scene
    size = layout.font_px(24)
    state = (_("paused: Space goes on, Right or S steps") if paused
             else _("{speed}x: Space pauses, + / - speed").format(speed=speed))
    word = palette.text(_("REPLAY"), layout.font_px(30), (255, 255, 255), bold=True)
    tail = palette.fit(state, size, scene.width - word.get_width() - layout.px(60), (255, 255, 255))
    box = pygame.Rect(0, 0, word.get_width() + tail.get_width() + layout.px(44),
                      max(word.get_height(), tail.get_height()) + layout.px(10))
    box.bottomleft = (scene.x + layout.px(12), scene.bottom - layout.px(12))
    pygame.draw.rect(surface, palette.KABOOM, box, border_radius=layout.px(10))
    pygame.draw.rect(surface, palette.shade(palette.KABOOM, 0.6), box, 2, border_radius=layout.px(10))
    surface.blit(word, word.get_rect(midleft=(box.x + layout.px(14), box.centery)))
    surface.blit(tail, tail.get_rect(midleft=(box.x + layout.px(30) + word.get_width(), box.centery)))
    return box


GAUGE_FULL_DEG = 10.0
"""The balance gauge's bar is full at this many degrees to spare."""
LEVEL_COLOURS = {"good": palette.GOOD, "close": palette.AMBER, "tipping": palette.KABOOM}


def draw_balance(surface: pygame.Surface, layout: Layout, advice: Advice,
                 message: pygame.Rect | None = None, language: Language = ENGLISH) -> pygame.Rect:
    """The balance gauge in the scene's upper left corner (below the ``message`` card if they
    would meet): how much tilt is to spare (a coloured bar and the degrees), and what the
    hint suggests."""
    scene = layout.scene
    head, detail = gauge_text(advice, language)
    colour = LEVEL_COLOURS[advice.level]
    room = min(scene.width - layout.px(48), layout.px(420))
    title = palette.fit(head, layout.font_px(24), room, colour, bold=True)
    sub = palette.fit(detail, layout.font_px(20), room, palette.INK) if detail else None
    pad = layout.px(10)
    bar_h = layout.px(8)
    width = max(title.get_width(), sub.get_width() if sub else 0, layout.px(160)) + 2 * pad
    height = pad + title.get_height() + layout.px(4) + bar_h + (layout.px(4) + sub.get_height() if sub else 0) + pad
    box = pygame.Rect(0, 0, width, height)
    box.topleft = (scene.x + layout.px(12), scene.y + layout.px(12))
    if message is not None and box.inflate(layout.px(16), layout.px(16)).colliderect(message):
        box.top = message.bottom + layout.px(8)
    pygame.draw.rect(surface, palette.PANEL, box, border_radius=layout.px(10))
    pygame.draw.rect(surface, palette.HINT, box, max(2, layout.px(3)), border_radius=layout.px(10))
    y = box.y + pad
    surface.blit(title, (box.x + pad, y))
    y += title.get_height() + layout.px(4)
    bar = pygame.Rect(box.x + pad, y, width - 2 * pad, bar_h)
    pygame.draw.rect(surface, palette.shade(palette.PANEL, 0.85), bar, border_radius=bar_h // 2)
    share = 1.0 if math.isinf(advice.margin_rad) else min(max(advice.margin_deg / GAUGE_FULL_DEG, 0.0), 1.0)
    if share > 0:
        pygame.draw.rect(surface, colour, pygame.Rect(bar.x, bar.y, max(bar_h, round(bar.width * share)), bar_h),
                         border_radius=bar_h // 2)
    if sub is not None:
        surface.blit(sub, (box.x + pad, bar.bottom + layout.px(4)))
    return box


def draw_tip(surface: pygame.Surface, layout: Layout, tip: str, language: Language = ENGLISH) -> pygame.Rect:
    """A first-game tip (in ``language`` already) in a strip along the foot of the scene."""
    scene = layout.scene
    size = layout.font_px(24)
    room = scene.width - layout.px(48)
    lines = palette.wrap(language.gettext("Tip: {tip}").format(tip=tip), palette.font(size), room)[:3]
    line_h = palette.font(size).get_linesize()
    box = pygame.Rect(0, 0, scene.width - layout.px(24), line_h * len(lines) + layout.px(12))
    box.midbottom = (scene.centerx, scene.bottom - layout.px(12))
    card = _tip_card(box.size)
    surface.blit(card, box)
    for k, line in enumerate(lines):
        surface.blit(palette.text(line, size, palette.INK), (box.x + layout.px(12), box.y + layout.px(6) + k * line_h))
    return box


_TIP_CARDS: dict[tuple[int, int], pygame.Surface] = {}


def _tip_card(size: tuple[int, int]) -> pygame.Surface:
    card = _TIP_CARDS.get(size)
    if card is None:
        if len(_TIP_CARDS) > 8:
            _TIP_CARDS.clear()
        card = _TIP_CARDS[size] = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(card, (255, 248, 214, 235), card.get_rect(), border_radius=10)
        pygame.draw.rect(card, (*palette.HIGHLIGHT, 255), card.get_rect(), 3, border_radius=10)
    return card


