"""The "How to play" card (H or ?): the rules of the game being played and its keys.

The rules are worded after the rulebook as DESIGN.md section 4 reads it, for the game
being played: the variants that are on (nine barrels, half turns, Old Sea Dogs) get their
own lines. The keys are the key table's (:mod:`viewer.keys`). The card is painted once per
window size and game set-up and then only blitted, so showing it costs a frame nothing.
"""

from __future__ import annotations

import pygame

from kipp.rules.actions import WILD
from kipp.rules.config import ROUNDS, GameConfig
from viewer import palette
from viewer.die import paint_face
from viewer.frame import FrameView
from viewer.keys import HELP_CARD_KEYS, KEYS, REPLAY_KEYS, Act, find
from viewer.layout import Layout


def rules(config: GameConfig) -> list[tuple[str | None, str]]:
    """The rules of this game as (die face or None, paragraph), in reading order."""
    n, turn = config.barrels, "half a turn" if config.half_turn else "one whole turn"
    crash = 2 if config.sea_dogs else 1
    paragraphs: list[tuple[str | None, str]] = [
        (None, f"Stack all {n} barrels of the line on the ship, one per turn, without the tower "
               f"crashing. A game has {ROUNDS} rounds; whoever has the most chips after them wins."),
        (None, "On your turn roll the die (Space). It says which sailor turns after your barrel is on; "
               f"a sailor turns {turn} and the deck tilts."),
        ("red", "Red or yellow: place the next barrel, then that sailor turns."),
        ("blue", "Blue: on the first turn of a round, as red. After that: no barrel, just turn the blue sailor."),
        (WILD, "Wild: place the next barrel, then turn any sailor you like (1 2 3, or click it in the top view)."),
        (None, f"Chips: everyone starts with {config.start_chips}. A crash costs whoever caused it "
               f"{crash} chip{'s' * (crash > 1)}. A completed tower pays 2 to the player who placed the last "
               "barrel and 1 to everyone else."),
    ]
    younger = []
    if config.barrels == 9:
        younger.append("9 barrels instead of 12")
    if config.half_turn:
        younger.append("sailors turn half a turn")
    if younger:
        paragraphs.append((None, "Younger sailors (on): " + " and ".join(younger) + "."))
    if config.sea_dogs:
        paragraphs.append((None, "Old Sea Dogs (on): once a barrel stands, you may pass before rolling by "
                                 "paying a chip (P). The next player can't pass; they get that chip back if "
                                 "their turn ends without a crash. A crash costs 2 chips."))
    paragraphs.append((None, "Tip: set the barrel a little uphill of the coming tilt; the red arrow in the top "
                             "view points downhill. The side view cuts the ship along its steepest slope and "
                             "shows on its right what the top view shows on the right (along the ship: the bow), so "
                             "both see downhill on the same side; its end markers match the top view's dashed line. "
                             "B shows a balance hint: a purple mark where a careful player would set the barrel, "
                             "and how many degrees of tilt the tower has to spare."))
    return paragraphs


def _card_rect(layout: Layout) -> pygame.Rect:
    width, height = layout.size
    card = pygame.Rect(0, 0, min(width - layout.px(40), layout.px(1100)), height - layout.px(40))
    card.center = (width // 2, height // 2)
    return card


def _paint(layout: Layout, config: GameConfig, replay: bool, seed: int | None) -> pygame.Surface:
    card = _card_rect(layout)
    surface = pygame.Surface(card.size, pygame.SRCALPHA)
    radius = layout.px(18)
    pygame.draw.rect(surface, palette.PANEL, surface.get_rect(), border_radius=radius)
    pygame.draw.rect(surface, palette.PANEL_EDGE, surface.get_rect(), 3, border_radius=radius)
    pad = layout.px(28)
    keys = REPLAY_KEYS if replay else KEYS
    for size in range(layout.font_px(26), 11, -1):  # the largest text that fits the card
        title_px = round(size * 1.7)
        icon = round(size * 1.5)
        line_h = palette.font(size).get_linesize()
        keys_w = max(palette.font(size, True).size(row.label)[0] for row in keys) + pad // 2
        keys_col = keys_w + max(palette.font(size).size(row.words)[0] for row in keys)
        text_w = card.width - 3 * pad - keys_col - icon - pad // 2
        blocks = [(face, palette.wrap(p, palette.font(size), text_w)) for face, p in rules(config)]
        height = (pad + palette.font(title_px, True).get_linesize() + pad // 2
                  + sum(max(len(lines) * line_h, icon if face else 0) + size // 2 for face, lines in blocks)
                  + line_h + pad)
        if height <= card.height and text_w > 160:
            break
    title = palette.text("How to play", title_px, palette.INK, bold=True)
    surface.blit(title, (pad, pad))
    top = pad + title.get_height() + pad // 2
    y = top
    x_text = pad + icon + pad // 2
    for face, lines in blocks:
        if face is not None:
            die = pygame.Surface((icon, icon), pygame.SRCALPHA)
            paint_face(die, face)
            surface.blit(die, (pad, y))
            if face == "red":
                yellow = pygame.Surface((icon // 2, icon // 2), pygame.SRCALPHA)
                paint_face(yellow, "yellow")
                surface.blit(yellow, (pad + icon - icon // 3, y + icon - icon // 3))
        for k, line in enumerate(lines):
            surface.blit(palette.text(line, size, palette.INK), (x_text, y + k * line_h))
        y += max(len(lines) * line_h, icon if face else 0) + size // 2
    x_keys = card.width - pad - keys_col
    heading = palette.text("Keys", round(size * 1.2), palette.INK, bold=True)
    surface.blit(heading, (x_keys, top))
    ky = top + heading.get_height() + size // 3
    for row in keys:
        surface.blit(palette.text(row.label, size, palette.INK, bold=True), (x_keys, ky))
        surface.blit(palette.text(row.words, size, palette.INK_SOFT), (x_keys + keys_w, ky))
        ky += line_h
    back = HELP_CARD_KEYS[0]
    footer = palette.text(f"{back.label}: {back.words}", size, palette.GOOD, bold=True)
    surface.blit(footer, footer.get_rect(bottomright=(card.width - pad, card.height - pad // 2)))
    if seed is not None:
        note = palette.fit(seed_note(seed), size, card.width - 3 * pad - footer.get_width(), palette.INK_SOFT)
        surface.blit(note, note.get_rect(bottomleft=(pad, card.height - pad // 2)))
    return surface


def seed_note(seed: int) -> str:
    """How to play this game again: its seed."""
    return f"Game {seed}: kipp play --seed {seed} deals it again"


_painted: dict[tuple, pygame.Surface] = {}


def draw_help(surface: pygame.Surface, layout: Layout, config: GameConfig, *, replay: bool = False,
              seed: int | None = None) -> pygame.Rect:
    """The how-to-play card over the window (the caller dims it), with the game's ``seed`` if given; where it is."""
    key = (layout.size, config, replay, seed)
    painted = _painted.get(key)
    if painted is None:
        _painted.clear()
        painted = _painted[key] = _paint(layout, config, replay, seed)
    card = _card_rect(layout)
    surface.blit(painted, card)
    return card


class HelpCard:
    """The how-to-play card (a :class:`viewer.card.Card`) of the game behind it: answers
    :attr:`Act.CLOSE` to its keys (:data:`viewer.keys.HELP_CARD_KEYS`) and to any click."""

    def __init__(self, *, replay: bool = False) -> None:
        self.replay = replay
        """Over a replay: the replay's keys, and no seed to play the game again by."""

    def key(self, key: int, char: str = "", mod: int = 0) -> Act | None:
        press = find(HELP_CARD_KEYS, key, char)
        return press.act if press is not None else None

    def click(self, pos: tuple[int, int], layout: Layout) -> Act | None:
        return Act.CLOSE

    def draw(self, surface: pygame.Surface, layout: Layout, view: FrameView) -> None:
        draw_help(surface, layout, view.state.config, replay=self.replay, seed=None if self.replay else view.seed)
