"""The "How to play" card (H or ?): the rules of the game being played and its keys.

The rules are worded after the rulebook as DESIGN.md section 4 reads it, for the game
being played: the variants that are on (nine barrels, half turns, Old Sea Dogs) get their
own lines. The words are a family's, the rulebook's where it has them: the barrel line is "the barrels
shown at the top", the top view "the small picture" of the ship from above, the side view "the big
picture"; what the tip says of them is what they draw (the red arrow downhill, the white arrowhead and
the dark disc at the same ends in both, the hint's purple mark); the command that plays the game again
is a small line at the foot, for whoever uses the command line. The keys are the key table's
(:mod:`viewer.keys`). Everything is in the window's
language (:attr:`viewer.frame.FrameView.language`). The card is painted once per window size,
game set-up and language and then only blitted, so showing it costs a frame nothing.
"""

from __future__ import annotations

import pygame

from kipp.language import Language
from kipp.rules.actions import WILD
from kipp.rules.config import ROUNDS, GameConfig
from viewer import palette
from viewer.die import paint_face
from viewer.frame import FrameView
from viewer.keys import HELP_CARD_KEYS, KEYS, REPLAY_KEYS, Act, find, key_words
from viewer.layout import Layout
from viewer.words import ENGLISH, chips


def rules(config: GameConfig, language: Language = ENGLISH) -> list[tuple[str | None, str]]:
    """The rules of this game as (die face or None, paragraph), in reading order, in ``language``."""
    _ = language.gettext
    n, turn = config.barrels, _("half a turn") if config.half_turn else _("one whole turn")
    crash = 2 if config.sea_dogs else 1
    paragraphs: list[tuple[str | None, str]] = [
        (None, _("Stack the {count} barrels shown at the top on the ship, one per turn, from left to right, "
                 "without the tower falling over. A game has {rounds} rounds; whoever has the most chips at the "
                 "end wins.").format(count=n, rounds=ROUNDS)),
        (None, _("On your turn, roll the die (Space). It shows which sailor turns after your barrel is on the "
                 "ship. The sailor turns {turn}, and that makes the ship lean.").format(turn=turn)),
        ("red", _("Red or yellow: place the next barrel, then that sailor turns.")),
        ("blue", _("Blue: on the first turn of a round, the same as red. After that: no barrel, only the blue "
                   "sailor turns.")),
        (WILD, _("Wild: place the next barrel, then pick any sailor to turn (press 1, 2 or 3, or click the sailor "
                 "in the small picture of the ship from above).")),
        (None, _("Chips: everyone starts with {start}. If the tower falls over on your turn, you give {crash} "
                 "back. If all the barrels stand, whoever placed the last one gets 2 chips and everyone else "
                 "gets 1.").format(start=config.start_chips, crash=chips(crash, language))),
    ]
    younger = []
    if config.barrels == 9:
        younger.append(_("9 barrels instead of 12"))
    if config.half_turn:
        younger.append(_("the sailors turn only half a turn"))
    if younger:
        paragraphs.append((None, _("Younger sailors (on): {changes}.").format(
            changes=_(" and ").join(younger))))
    if config.sea_dogs:
        paragraphs.append((None, _("Old Sea Dogs (on): once a barrel stands, you may give a chip back and pass "
                                   "instead of rolling (P). The next player may not pass; if the tower does not "
                                   "fall on their turn, they get that chip. If the tower falls over, you give 2 "
                                   "chips back.")))
    paragraphs.append((None, _("Tip: the red arrow in the small picture points to where the ship leans down. "
                               "When the sailor turns, the ship leans a new way: set your barrel a little toward "
                               "the side that will be high. The big picture shows the ship from the side; its "
                               "white arrow and dark dot are the same ends as in the small picture. B shows the "
                               "balance hint: a purple mark where a careful player would place the barrel, and how "
                               "much more the ship may lean before the tower falls.")))
    return paragraphs


def card_rect(layout: Layout) -> pygame.Rect:
    width, height = layout.size
    card = pygame.Rect(0, 0, min(width - layout.px(40), layout.px(1100)), height - layout.px(40))
    card.center = (width // 2, height // 2)
    return card


def _paint(layout: Layout, config: GameConfig, replay: bool, seed: int | None, language: Language) -> pygame.Surface:
    card = card_rect(layout)
    surface = pygame.Surface(card.size, pygame.SRCALPHA)
    radius = layout.px(18)
    pygame.draw.rect(surface, palette.PANEL, surface.get_rect(), border_radius=radius)
    pygame.draw.rect(surface, palette.PANEL_EDGE, surface.get_rect(), 3, border_radius=radius)
    pad = layout.px(28)
    _ = language.gettext
    keys = [key_words(row, language) for row in (REPLAY_KEYS if replay else KEYS)]
    paragraphs = rules(config, language)
    for size in range(layout.font_px(26), 11, -1):  # the largest text that fits the card
        title_px = round(size * 1.7)
        icon = round(size * 1.5)
        line_h = palette.font(size).get_linesize()
        keys_w = max(palette.font(size, True).size(label)[0] for label, _words in keys) + pad // 2
        keys_col = keys_w + max(palette.font(size).size(words)[0] for _label, words in keys)
        text_w = card.width - 3 * pad - keys_col - icon - pad // 2
        blocks = [(face, palette.wrap(p, palette.font(size), text_w)) for face, p in paragraphs]
        height = (pad + palette.font(title_px, True).get_linesize() + pad // 2
                  + sum(max(len(lines) * line_h, icon if face else 0) + size // 2 for face, lines in blocks)
                  + line_h + pad)
        if height <= card.height and text_w > 160:
            break
    title = palette.text(_("How to play"), title_px, palette.INK, bold=True)
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
    heading = palette.text(_("Keys"), round(size * 1.2), palette.INK, bold=True)
    surface.blit(heading, (x_keys, top))
    ky = top + heading.get_height() + size // 3
    for label, words in keys:
        surface.blit(palette.text(label, size, palette.INK, bold=True), (x_keys, ky))
        surface.blit(palette.text(words, size, palette.INK_SOFT), (x_keys + keys_w, ky))
        ky += line_h
    back_label, back_words = key_words(HELP_CARD_KEYS[0], language)
    footer = palette.text(f"{back_label}: {back_words}", size, palette.GOOD, bold=True)
    surface.blit(footer, footer.get_rect(bottomright=(card.width - pad, card.height - pad // 2)))
    if seed is not None:  # for whoever runs the command line: small, at the foot
        note = palette.fit(seed_note(seed, language), max(12, round(size * 0.75)),
                           card.width - 3 * pad - footer.get_width(), palette.INK_SOFT)
        surface.blit(note, note.get_rect(bottomleft=(pad, card.height - pad // 2)))
    return surface


def seed_note(seed: int, language: Language = ENGLISH) -> str:
    """How to play this game again: the command with its seed."""
    return language.gettext("To play this game again: kipp play --seed {seed}").format(seed=seed)


_painted: dict[tuple, pygame.Surface] = {}


def draw_help(surface: pygame.Surface, layout: Layout, config: GameConfig, *, replay: bool = False,
              seed: int | None = None, language: Language = ENGLISH) -> pygame.Rect:
    """The how-to-play card over the window (the caller dims it), with the game's ``seed`` if given, in
    ``language``; where it is."""
    key = (layout.size, config, replay, seed, language.code)
    painted = _painted.get(key)
    if painted is None:
        _painted.clear()
        painted = _painted[key] = _paint(layout, config, replay, seed, language)
    card = card_rect(layout)
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
        draw_help(surface, layout, view.state.config, replay=self.replay, seed=None if self.replay else view.seed,
                  language=view.language)
