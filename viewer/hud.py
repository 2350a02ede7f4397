"""Everything around the ship: the round and the barrel line, players and chips, the
prompt, the Pass button, short messages, the end-of-game screen with its round-by-round
recap, and the overlays: a question (new game? quit?), the REPLAY banner, first-game tips.

Long names are cut with an ellipsis to the room they have (:func:`viewer.palette.fit`).

Drawing only: the numbers come from the game state (:class:`kipp.rules.state.GameState`),
what a person is asked to do from :meth:`viewer.controller.GameController.prompt`.
"""

from __future__ import annotations

import math

import pygame

from viewer import palette
from viewer.balance_hint import Advice, gauge_text
from viewer.barrel_art import draw_barrel
from viewer.controller import GameController
from viewer.help import KEYS, REPLAY_KEYS, seed_note
from viewer.layout import Layout
from viewer.messages import acts
from viewer.recap import describe, round_recaps, signed


def draw_top_bar(surface: pygame.Surface, layout: Layout, controller: GameController) -> None:
    """Round counter and the line of barrels (stacked ones faded, the next one marked)."""
    bar = layout.top_bar
    pygame.draw.rect(surface, palette.PANEL, bar)
    pygame.draw.line(surface, palette.PANEL_EDGE, bar.bottomleft, bar.bottomright, 2)
    state = controller.state
    shown_round, stacked, over = controller.shown_round()
    round_label = palette.text(f"Round {shown_round} of 3", layout.font_px(30), palette.INK, bold=True)
    surface.blit(round_label, round_label.get_rect(midleft=(bar.x + layout.px(16), bar.centery)))
    line = state.line
    if not line:
        return
    params = controller.params
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
    count = palette.text(f"{stacked}/{len(line)} stacked", layout.font_px(22), palette.INK_SOFT)
    surface.blit(count, count.get_rect(midright=(bar.right - layout.px(12), bar.centery)))


PASS_LABEL = "Pass (P): pay 1 chip"


def draw_panel(surface: pygame.Surface, layout: Layout, controller: GameController, pulse: float, *,
               prompt: str | None) -> str:
    """The right-hand panel behind the inset, the die, the prompt and the players.

    ``prompt`` is this frame's :meth:`GameController.prompt` (asked once per frame by the app).
    Returns what the foot of the panel shows: "legend" (the keys) or "hint" (too little
    room: one line pointing at the help screen, which lists them)."""
    pygame.draw.rect(surface, palette.PANEL, layout.panel)
    pygame.draw.line(surface, palette.PANEL_EDGE, layout.panel.topleft, layout.panel.bottomleft, 2)
    _draw_prompt(surface, layout, controller, prompt)
    if prompt == "play_or_pass":
        _draw_button(surface, layout, layout.pass_button, PASS_LABEL, pulse)
    _draw_players(surface, layout, controller)
    return _draw_keys(surface, layout, controller.config.n_players, REPLAY_KEYS if controller.script else KEYS)


def _draw_keys(surface: pygame.Surface, layout: Layout, players: int, keys) -> str:
    """A small legend of the controls at the bottom of the panel, or, if there is no room,
    one line saying where they are (the help screen)."""
    size = layout.font_px(19)
    line_h = palette.font(size).get_linesize()
    top = layout.panel.bottom - layout.px(12) - line_h * len(keys)
    free = layout.players.y + _row_height(layout, players) * (players + 1) + layout.px(8)
    x_key = layout.players.x + layout.px(10)
    if top < free:
        hint = palette.fit("H or ?: how to play, all the keys", size, layout.players.width - layout.px(20),
                           palette.INK, bold=True)
        surface.blit(hint, (x_key, layout.panel.bottom - layout.px(10) - hint.get_height()))
        return "hint"
    key_w = max(palette.font(size, True).size(k)[0] for k, _ in keys) + layout.px(14)
    for k, (key, what) in enumerate(keys):
        y = top + k * line_h
        surface.blit(palette.text(key, size, palette.INK, bold=True), (x_key, y))
        surface.blit(palette.fit(what, size, layout.players.right - x_key - key_w, palette.INK_SOFT),
                     (x_key + key_w, y))
    return "legend"


def prompt_text(controller: GameController, prompt: str | None) -> str:
    """One sentence: who acts and how (or what is happening); ``prompt`` is ``controller.prompt()``."""
    state = controller.state
    if controller.error:
        return controller.error
    if controller.ended:
        return f"The recording stops here, in round {state.round}: the game was not played to its end."
    if state.is_terminal():
        return "Game over."
    name = controller.short_names[state.player]
    texts = {
        "roll": f"{name}: roll the die (Space, or click it).",
        "play_or_pass": f"{name}: roll (Space), or pass (P), which costs you 1 chip.",
        "place": f"{name}: aim with the mouse or arrow keys; click or Enter lets go.",
        "sailor": f"Wild! {name}: pick a sailor (click it, or 1/2/3).",
    }
    if prompt == "place" and controller.held:
        return f"{name}: let go here? Click or Enter: yes. Arrows, Backspace or Esc: aim again."
    if prompt in texts:
        return texts[prompt]
    mode = controller.mode
    if mode == "rolling":
        return f"{acts(name, 'rolls')}..."
    if mode in ("gliding", "lowering"):
        return f"{acts(name, 'places')} a barrel..."
    if mode == "deciding":
        sailor = controller.turning()
        if sailor is not None:
            return f"The {sailor} sailor turns..."
        return "The barrel settles..."
    if mode == "aftermath":
        return f"{controller.fall[0].upper()}{controller.fall[1:]}!" if controller.fall else "Barrels overboard!"
    _, stacked, over = controller.shown_round()
    if over:  # between the end of a round and the next one's deal
        if state.last_round_end()["completed"]:
            return f"All {stacked} barrels stand: the tower is complete!"
        return f"{controller.fall[0].upper()}{controller.fall[1:]}." if controller.fall else "The tower fell."
    if controller.script is not None:
        return "Replay"
    if controller.seat_is_human(state.player):
        return "Your turn" if name == "You" else f"{name}'s turn"
    return f"{acts(name, 'is')} thinking..."


def _draw_prompt(surface: pygame.Surface, layout: Layout, controller: GameController, prompt: str | None) -> None:
    rect = layout.hint
    size = layout.font_px(22)
    lines = palette.wrap(prompt_text(controller, prompt), palette.font(size), rect.width)
    y = rect.y
    for line in lines[:4]:
        label = palette.text(line, size, palette.INK)
        surface.blit(label, (rect.x, y))
        y += label.get_height()


def _draw_button(surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, pulse: float) -> None:
    glow = palette.shade(palette.BUTTON, 1.0 + 0.15 * (1 + math.sin(pulse * 2 * math.pi)) / 2)
    pygame.draw.rect(surface, glow, rect, border_radius=layout.px(10))
    pygame.draw.rect(surface, palette.shade(palette.BUTTON, 0.6), rect, 2, border_radius=layout.px(10))
    text = palette.fit(label, layout.font_px(26), rect.width - layout.px(12), palette.BUTTON_TEXT, bold=True)
    surface.blit(text, text.get_rect(center=rect.center))


def _draw_chip(surface: pygame.Surface, centre: tuple[float, float], radius: float) -> None:
    pygame.draw.circle(surface, palette.CHIP, centre, radius)
    pygame.draw.circle(surface, palette.CHIP_EDGE, centre, radius, max(1, round(radius / 4)))


def _row_height(layout: Layout, players: int) -> int:
    """Height of a player's row: as tall as the reference allows, but squeezed (not below
    30 reference px) to leave room for the key legend under the rows and the supply."""
    legend = palette.font(layout.font_px(19)).get_linesize() * len(KEYS) + layout.px(20)
    room = (layout.players.height - legend) // (players + 1)
    return min(layout.px(52), layout.players.height // (players + 1), max(layout.px(30), room))


def _draw_players(surface: pygame.Surface, layout: Layout, controller: GameController) -> None:
    rect = layout.players
    state = controller.state
    n = state.config.n_players
    row_h = _row_height(layout, n)
    name_px = max(12, min(layout.font_px(26), round(row_h * 0.5)))
    chip_r = max(4.0, row_h * 0.16)
    for player, name in enumerate(state.config.players):
        row = pygame.Rect(rect.x, rect.y + player * row_h, rect.width, row_h - layout.px(4))
        current = not state.is_terminal() and player == state.player
        pygame.draw.rect(surface, palette.HIGHLIGHT if current else palette.shade(palette.PANEL, 0.96), row,
                         border_radius=layout.px(8))
        tag = "" if controller.seat_is_human(player) or controller.script or name.startswith("Bot") else " (bot)"
        chips = controller.chips_shown(player)
        count = palette.text(str(chips), name_px, palette.INK, bold=True)
        count_rect = count.get_rect(midright=(row.right - layout.px(10), row.centery))
        name_room = round((row.width - layout.px(30) - count.get_width()) * 0.62)
        label = palette.fit(name + tag, name_px, name_room, palette.INK, bold=current)
        surface.blit(label, label.get_rect(midleft=(row.x + layout.px(10), row.centery)))
        surface.blit(count, count_rect)
        coin_room = count_rect.left - layout.px(10) - (row.x + layout.px(20) + label.get_width())
        coins = max(0, min(chips, 12, int(coin_room / (chip_r * 1.1)) - 1))
        for k in range(coins):  # a little stack of coins, right-aligned
            cx = count_rect.left - layout.px(10) - chip_r - k * chip_r * 1.1
            _draw_chip(surface, (cx, row.centery), chip_r)
    supply_y = rect.y + n * row_h + row_h // 2
    supply = palette.text(f"Supply: {controller.supply_shown()}", name_px, palette.INK_SOFT)
    surface.blit(supply, supply.get_rect(midleft=(rect.x + layout.px(10), supply_y)))
    supply_chip = (rect.x + layout.px(20) + supply.get_width() + chip_r, supply_y)
    _draw_chip(surface, supply_chip, chip_r)
    for flight in controller.flights:  # chips earned, on their way from the supply
        t = flight.progress(controller.frame)
        if t <= 0.0:
            continue
        row = pygame.Rect(rect.x, rect.y + flight.player * row_h, rect.width, row_h - layout.px(4))
        target = (row.right - layout.px(60), row.centery)
        x = supply_chip[0] + (target[0] - supply_chip[0]) * t
        y = supply_chip[1] + (target[1] - supply_chip[1]) * t - math.sin(math.pi * t) * row_h * 1.2
        _draw_chip(surface, (x, y), chip_r * (1.0 + 0.6 * math.sin(math.pi * t)))


def draw_message(surface: pygame.Surface, layout: Layout, controller: GameController) -> pygame.Rect | None:
    """The current message, centred over the top of the scene; fades out at the end. Where it is."""
    message = controller.message
    if message is None:
        return None
    room = layout.scene.width - layout.px(60)
    title = palette.text(message.title, layout.font_px(64 if message.big else 34), message.colour, bold=True)
    if title.get_width() > room:
        title = palette.fit(message.title, layout.font_px(40 if message.big else 28), room, message.colour, bold=True)
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


def end_screen_button(layout: Layout, players: int) -> pygame.Rect:
    """The "New game" button of the end-of-game screen."""
    rect = pygame.Rect(0, 0, layout.px(260), layout.px(52))
    rect.midbottom = (layout.size[0] // 2, _end_card(layout, players).bottom - layout.px(40))
    return rect


def _end_card(layout: Layout, players: int) -> pygame.Rect:
    """The end card: headline, chips, the three rounds' recap, the button; as large as the window allows."""
    width = min(layout.size[0] - layout.px(40), layout.px(900))
    height = min(layout.size[1] - layout.px(30), layout.px(300 + 34 * players + 36 * 4))
    card = pygame.Rect(0, 0, width, height)
    card.center = (layout.size[0] // 2, layout.size[1] // 2)
    return card


_VEILS: dict[tuple[int, int], pygame.Surface] = {}


def _veil(size: tuple[int, int]) -> pygame.Surface:
    """The translucent dimming over the whole window, made once per window size."""
    veil = _VEILS.get(size)
    if veil is None:
        _VEILS.clear()  # a resized window never needs the old size again
        veil = _VEILS[size] = pygame.Surface(size, pygame.SRCALPHA)
        veil.fill((20, 30, 50, 150))
    return veil


def draw_end_screen(surface: pygame.Surface, layout: Layout, controller: GameController, pulse: float) -> None:
    """Winners, final chips, what happened in each round and how to start again, over a dimmed picture."""
    state = controller.state
    surface.blit(_veil(layout.size), (0, 0))
    n = state.config.n_players
    card = _end_card(layout, n)
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
    pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
    names = controller.short_names
    inner = card.width - layout.px(40)
    winners = [names[p] for p in state.winners()]
    headline = f"{acts(winners[0], 'wins')}!" if len(winners) == 1 else f"{' and '.join(winners)} share the win!"
    title = palette.text(headline, layout.font_px(52), palette.GOOD, bold=True)
    if title.get_width() > inner:
        title = palette.fit(headline, layout.font_px(34), inner, palette.GOOD, bold=True)
    surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(18))))
    button = end_screen_button(layout, n)
    y = card.y + layout.px(26) + title.get_height()
    ranking = sorted(range(n), key=lambda p: -state.chips[p])
    rank_px = layout.font_px(28)
    for player in ranking:
        chips = state.chips[player]
        line = palette.fit(f"{names[player]}: {chips} chip{'s' * (chips != 1)}", rank_px, inner,
                           palette.INK, bold=player in state.winners())
        surface.blit(line, line.get_rect(midtop=(card.centerx, y)))
        y += line.get_height() + layout.px(2)
    _draw_recap(surface, layout, controller, pygame.Rect(card.x + layout.px(20), y + layout.px(10), inner,
                                                         button.top - y - layout.px(16)))
    _draw_button(surface, layout, button, "N: new game", pulse)
    hint = palette.fit(f"Esc: quit  -  {seed_note(controller.seed)}", layout.font_px(22), inner, palette.INK_SOFT)
    surface.blit(hint, hint.get_rect(midtop=(card.centerx, button.bottom + layout.px(8))))


def _draw_recap(surface: pygame.Surface, layout: Layout, controller: GameController, rect: pygame.Rect) -> None:
    """A table: one row per round (what happened, each player's chips after it and the change)."""
    recaps = round_recaps(controller.state.events())
    names = controller.short_names
    n = len(names)
    rows = len(recaps) + 1
    size = max(12, min(layout.font_px(22), rect.height // max(1, rows) - 4))
    line_h = max(palette.font(size).get_linesize(), min(rect.height // max(1, rows),
                                                        round(palette.font(size).get_linesize() * 1.6)))
    first_w = round(rect.width * (0.46 if n > 2 else 0.56))
    col_w = (rect.width - first_w) // n
    pygame.draw.line(surface, palette.PANEL_EDGE, (rect.x, rect.y + line_h - 2), (rect.right, rect.y + line_h - 2), 1)
    surface.blit(palette.text("Round by round", size, palette.INK_SOFT, bold=True), (rect.x, rect.y))
    for k, name in enumerate(names):
        label = palette.fit(name, size, col_w - 6, palette.INK_SOFT, bold=True)
        surface.blit(label, label.get_rect(topright=(rect.x + first_w + (k + 1) * col_w, rect.y)))
    for r, recap in enumerate(recaps, start=1):
        y = rect.y + r * line_h + 2
        colour = palette.GOOD if recap.completed else palette.KABOOM
        what = palette.fit(f"{recap.round}. {describe(recap, names)}", size, first_w - 8, colour, bold=True)
        surface.blit(what, (rect.x, y))
        for k in range(n):
            cell = palette.fit(f"{recap.chips_after[k]} ({signed(recap.change[k])})", size, col_w - 6, palette.INK)
            surface.blit(cell, cell.get_rect(topright=(rect.x + first_w + (k + 1) * col_w, y)))


def confirm_buttons(layout: Layout) -> tuple[pygame.Rect, pygame.Rect]:
    """The Yes and No buttons of the question card."""
    card = _question_card(layout)
    yes = pygame.Rect(0, 0, layout.px(200), layout.px(50))
    no = yes.copy()
    yes.bottomright = (card.centerx - layout.px(12), card.bottom - layout.px(22))
    no.bottomleft = (card.centerx + layout.px(12), card.bottom - layout.px(22))
    return yes, no


def _question_card(layout: Layout) -> pygame.Rect:
    card = pygame.Rect(0, 0, min(layout.size[0] - layout.px(40), layout.px(620)), layout.px(210))
    card.center = (layout.size[0] // 2, layout.size[1] // 2)
    return card


def draw_confirm(surface: pygame.Surface, layout: Layout, question: str, detail: str, pulse: float) -> None:
    """A yes/no question over the dimmed game: Y or Enter is yes, N or Esc is no."""
    surface.blit(_veil(layout.size), (0, 0))
    card = _question_card(layout)
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
    pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
    inner = card.width - layout.px(40)
    title = palette.fit(question, layout.font_px(40), inner, palette.INK, bold=True)
    surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(22))))
    sub = palette.fit(detail, layout.font_px(24), inner, palette.INK_SOFT)
    surface.blit(sub, sub.get_rect(midtop=(card.centerx, card.y + layout.px(30) + title.get_height())))
    yes, no = confirm_buttons(layout)
    _draw_button(surface, layout, yes, "Yes (Y, Enter)", pulse)
    _draw_button(surface, layout, no, "No (N, Esc)", 0.75)


def draw_replay_banner(surface: pygame.Surface, layout: Layout, *, paused: bool, speed: int) -> pygame.Rect:
    """REPLAY across the top of the scene, with the state of the playback and its keys."""
    scene = layout.scene
    size = layout.font_px(24)
    state = "paused: Space goes on, Right or S steps" if paused else f"{speed}x: Space pauses, + / - speed"
    word = palette.text("REPLAY", layout.font_px(30), (255, 255, 255), bold=True)
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
                 message: pygame.Rect | None = None) -> pygame.Rect:
    """The balance gauge in the scene's upper left corner (below the ``message`` card if they
    would meet): how much tilt is to spare (a coloured bar and the degrees), and what the
    hint suggests."""
    scene = layout.scene
    head, detail = gauge_text(advice)
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


def draw_tip(surface: pygame.Surface, layout: Layout, tip: str) -> pygame.Rect:
    """A first-game tip in a strip along the foot of the scene."""
    scene = layout.scene
    size = layout.font_px(24)
    room = scene.width - layout.px(48)
    lines = palette.wrap(f"Tip: {tip}", palette.font(size), room)[:3]
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


def veil(size: tuple[int, int]) -> pygame.Surface:
    """The dimming behind every card (shared, made once per window size)."""
    return _veil(size)
