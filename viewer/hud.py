"""Everything around the ship: the round and the barrel line, players and chips, the
prompt, the Pass button, short messages and the end-of-game screen.

Drawing only: the numbers come from the game state (:class:`kipp.rules.state.GameState`),
what a person is asked to do from :meth:`viewer.controller.GameController.prompt`.
"""

from __future__ import annotations

import math

import pygame

from viewer import palette
from viewer.barrel_art import draw_barrel
from viewer.controller import GameController
from viewer.layout import Layout


def draw_top_bar(surface: pygame.Surface, layout: Layout, controller: GameController) -> None:
    """Round counter and the line of barrels (stacked ones faded, the next one marked)."""
    bar = layout.top_bar
    pygame.draw.rect(surface, palette.PANEL, bar)
    pygame.draw.line(surface, palette.PANEL_EDGE, bar.bottomleft, bar.bottomright, 2)
    state = controller.state
    round_label = palette.text(f"Round {state.round} of 3", layout.font_px(30), palette.INK, bold=True)
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

        draw_barrel(surface, spec, 0.0, spec.height_m / 2, 0.0, to_screen, faded=index < state.placed)
        if index == state.placed and not state.is_terminal():
            y = base_y + layout.px(5)
            pygame.draw.line(surface, palette.KABOOM, (cx - slot * 0.4, y), (cx + slot * 0.4, y), layout.px(4))
    stacked = palette.text(f"{state.placed}/{len(line)} stacked", layout.font_px(22), palette.INK_SOFT)
    surface.blit(stacked, stacked.get_rect(midright=(bar.right - layout.px(12), bar.centery)))


def draw_panel(surface: pygame.Surface, layout: Layout, controller: GameController, pulse: float, *,
               prompt: str | None) -> None:
    """The right-hand panel behind the inset, the die, the prompt and the players.

    ``prompt`` is this frame's :meth:`GameController.prompt` (asked once per frame by the app)."""
    pygame.draw.rect(surface, palette.PANEL, layout.panel)
    pygame.draw.line(surface, palette.PANEL_EDGE, layout.panel.topleft, layout.panel.bottomleft, 2)
    _draw_prompt(surface, layout, controller, prompt)
    if prompt == "play_or_pass":
        _draw_button(surface, layout, layout.pass_button, "Pass (P)", pulse)
    _draw_players(surface, layout, controller)
    _draw_keys(surface, layout, controller.config.n_players)


KEYS = (("Space", "roll the die"), ("mouse, arrows", "aim the barrel"), ("click, Enter", "let it go"),
        ("1 2 3, click", "pick a sailor (wild)"), ("P", "pass (Old Sea Dogs)"), ("N / Esc", "new game / quit"))


def _draw_keys(surface: pygame.Surface, layout: Layout, players: int) -> None:
    """A small legend of the controls at the bottom of the panel, if there is room."""
    size = layout.font_px(19)
    line_h = palette.font(size).get_linesize()
    top = layout.panel.bottom - layout.px(12) - line_h * len(KEYS)
    if top < layout.players.y + _row_height(layout, players) * (players + 1) + layout.px(8):
        return
    x_key, x_text = layout.players.x + layout.px(10), layout.players.x + layout.px(150)
    for k, (key, what) in enumerate(KEYS):
        y = top + k * line_h
        surface.blit(palette.text(key, size, palette.INK, bold=True), (x_key, y))
        surface.blit(palette.text(what, size, palette.INK_SOFT), (x_text, y))


def prompt_text(controller: GameController, prompt: str | None) -> str:
    """One sentence: who acts and how (or what is happening); ``prompt`` is ``controller.prompt()``."""
    state = controller.state
    if controller.error:
        return controller.error
    if state.is_terminal():
        return "Game over."
    name = state.config.players[state.player]
    texts = {
        "roll": f"{name}: roll the die (Space, or click it).",
        "play_or_pass": f"{name}: roll (Space) or pass (P) for a chip.",
        "place": f"{name}: aim with the mouse or arrow keys; click or Enter lets go.",
        "sailor": f"Wild! {name}: pick a sailor (click it, or 1/2/3).",
    }
    if prompt in texts:
        return texts[prompt]
    mode = controller.mode
    if mode == "rolling":
        return f"{name} rolls..."
    if mode in ("gliding", "lowering"):
        return f"{name} places a barrel..."
    if mode == "deciding":
        sailor = controller.turning()
        if sailor is not None:
            return f"The {sailor} sailor turns..."
        return "The barrel settles..."
    if mode == "aftermath":
        return "Barrels overboard!"
    if controller.script is not None:
        return "Replay"
    return f"{name}'s turn" if controller.seat_is_human(state.player) else f"{name} is thinking..."


def _draw_prompt(surface: pygame.Surface, layout: Layout, controller: GameController, prompt: str | None) -> None:
    rect = layout.hint
    size = layout.font_px(22)
    lines = wrap(prompt_text(controller, prompt), palette.font(size), rect.width)
    y = rect.y
    for line in lines[:4]:
        label = palette.text(line, size, palette.INK)
        surface.blit(label, (rect.x, y))
        y += label.get_height()


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


def _draw_button(surface: pygame.Surface, layout: Layout, rect: pygame.Rect, label: str, pulse: float) -> None:
    glow = palette.shade(palette.BUTTON, 1.0 + 0.15 * (1 + math.sin(pulse * 2 * math.pi)) / 2)
    pygame.draw.rect(surface, glow, rect, border_radius=layout.px(10))
    pygame.draw.rect(surface, palette.shade(palette.BUTTON, 0.6), rect, 2, border_radius=layout.px(10))
    text = palette.text(label, layout.font_px(26), palette.BUTTON_TEXT, bold=True)
    surface.blit(text, text.get_rect(center=rect.center))


def _draw_chip(surface: pygame.Surface, centre: tuple[float, float], radius: float) -> None:
    pygame.draw.circle(surface, palette.CHIP, centre, radius)
    pygame.draw.circle(surface, palette.CHIP_EDGE, centre, radius, max(1, round(radius / 4)))


def _row_height(layout: Layout, players: int) -> int:
    return min(layout.px(52), layout.players.height // (players + 1))


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
        tag = "" if controller.seat_is_human(player) or controller.script or name.startswith("Bot") else "  (bot)"
        label = palette.text(name + tag, name_px, palette.INK, bold=current)
        surface.blit(label, label.get_rect(midleft=(row.x + layout.px(10), row.centery)))
        chips = state.chips[player]
        count = palette.text(str(chips), name_px, palette.INK, bold=True)
        count_rect = count.get_rect(midright=(row.right - layout.px(10), row.centery))
        surface.blit(count, count_rect)
        for k in range(min(chips, 12)):  # a little stack of coins, right-aligned
            cx = count_rect.left - layout.px(10) - chip_r - k * chip_r * 1.1
            _draw_chip(surface, (cx, row.centery), chip_r)
    supply_y = rect.y + n * row_h + row_h // 2
    supply = palette.text(f"Supply: {state.supply}", name_px, palette.INK_SOFT)
    surface.blit(supply, supply.get_rect(midleft=(rect.x + layout.px(10), supply_y)))
    _draw_chip(surface, (rect.x + layout.px(20) + supply.get_width() + chip_r, supply_y), chip_r)


def draw_message(surface: pygame.Surface, layout: Layout, controller: GameController) -> None:
    """The current message, centred over the top of the scene; fades out at the end."""
    message = controller.message
    if message is None:
        return
    title = palette.text(message.title, layout.font_px(64 if message.big else 34), message.colour, bold=True)
    sub = palette.text(message.subtitle, layout.font_px(26), palette.INK) if message.subtitle else None
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


def end_screen_button(layout: Layout, players: int) -> pygame.Rect:
    """The "New game" button of the end-of-game screen."""
    rect = pygame.Rect(0, 0, layout.px(260), layout.px(56))
    rect.midbottom = (layout.size[0] // 2, _end_card(layout, players).bottom - layout.px(44))
    return rect


def _end_card(layout: Layout, players: int) -> pygame.Rect:
    card = pygame.Rect(0, 0, layout.px(620), layout.px(250 + 42 * players))
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
    """Winners, final chips and how to start again, over a dimmed picture."""
    state = controller.state
    surface.blit(_veil(layout.size), (0, 0))
    card = _end_card(layout, state.config.n_players)
    pygame.draw.rect(surface, palette.PANEL, card, border_radius=layout.px(18))
    pygame.draw.rect(surface, palette.PANEL_EDGE, card, 3, border_radius=layout.px(18))
    names = state.config.players
    winners = [names[p] for p in state.winners()]
    headline = f"{winners[0]} wins!" if len(winners) == 1 else f"{' and '.join(winners)} share the win!"
    title = palette.text(headline, layout.font_px(56), palette.GOOD, bold=True)
    if title.get_width() > card.width - layout.px(30):
        title = palette.text(headline, layout.font_px(36), palette.GOOD, bold=True)
    surface.blit(title, title.get_rect(midtop=(card.centerx, card.y + layout.px(24))))
    y = card.y + layout.px(110)
    ranking = sorted(range(len(names)), key=lambda p: -state.chips[p])
    for player in ranking:
        chips = state.chips[player]
        line = palette.text(f"{names[player]}: {chips} chip{'s' * (chips != 1)}", layout.font_px(32),
                            palette.INK, bold=player in state.winners())
        surface.blit(line, line.get_rect(midtop=(card.centerx, y)))
        y += line.get_height() + layout.px(6)
    button = end_screen_button(layout, len(names))
    _draw_button(surface, layout, button, "N: new game", pulse)
    hint = palette.text("Esc: quit", layout.font_px(22), palette.INK_SOFT)
    surface.blit(hint, hint.get_rect(midtop=(card.centerx, button.bottom + layout.px(10))))
