"""The key table: every key of the game and of a replay, what it does, and the words shown for it.

Each :class:`KeyRow` is one line of the panel's legend (:func:`viewer.hud.draw_panel`) and of the
how-to-play card's "Keys" (:mod:`viewer.help`): its ``label`` names the keys, its ``words`` say what
they do, both in English and marked for the catalogue (``N_``); they are shown in the window's language
(:func:`key_words`). Its :class:`Press` entries are the keys themselves as :meth:`viewer.app.ViewerApp` reads
them (:func:`find`): a pygame key code or a typed character, and the :class:`Act` it stands for. A
key's meaning is written here only; the app says what each act does.

The cards have their own keys, in the same shape: :data:`START_KEYS` (the start screen),
:data:`HELP_CARD_KEYS` (back to the game) and :data:`QUESTION_KEYS` (yes / no).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pygame

from kipp.language import N_, Language


class Act(enum.Enum):
    """What a key asks for (the app carries it out: :meth:`viewer.app.ViewerApp.act`)."""

    ROLL = "roll"
    AIM = "aim"
    """An arrow: move the hanging barrel (``value``: the direction, see :data:`ARROWS`)."""
    AIM_AGAIN = "aim again"
    RELEASE = "release"
    SAILOR = "sailor"
    """Pick sailor number ``value`` (1, 2, 3) on a wild roll."""
    PASS = "pass"
    HINTS = "hints"
    MUTE = "mute"
    RECORD = "record"
    HELP = "help"
    NEW_GAME = "new game"
    QUIT = "quit"
    PAUSE = "pause"
    STEP = "step"
    FASTER = "faster"
    SLOWER = "slower"
    SPEED = "speed"
    """Replay at ``value`` game frames per drawn frame."""
    CLOSE = "close"
    """Close the card (the how-to-play card)."""
    YES = "yes"
    NO = "no"
    START = "start"
    """The start screen's Start: play the set-up."""
    LEAVE = "leave"
    """The start screen's Esc: quit, or back to the last game's end screen."""
    NEXT_FIELD = "next field"
    """The start screen: move the focus ``value`` fields on (-1: back)."""
    CHANGE = "change"
    """The start screen: change the field with the focus by ``value`` (+1 / -1)."""
    ERASE = "erase"
    """The start screen: take back the last letter of the name being typed."""


@dataclass(frozen=True)
class Press:
    """Keys that do one thing: pygame key ``codes`` or typed ``chars`` (either one), the :class:`Act`,
    and its ``value`` where the act needs one (a sailor's number, a speed, an arrow's direction).
    With ``mods`` (pygame modifier bits) a code counts only while one of those modifiers is held."""

    act: Act
    codes: tuple[int, ...]
    chars: tuple[str, ...] = ()
    value: int | tuple[int, int] | None = None
    mods: int = 0


@dataclass(frozen=True)
class KeyRow:
    """One line of the legend and the help card: ``label`` (the keys) and ``words`` (what they do)."""

    label: str
    words: str
    presses: tuple[Press, ...]


ARROWS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
"""An arrow's direction on screen: (right, up) steps."""

_HELP = KeyRow(N_("H or ?"), N_("how to play"), (Press(Act.HELP, (pygame.K_h, pygame.K_QUESTION), ("?",)),))
_MUTE = KeyRow(N_("M"), N_("sound on / off"), (Press(Act.MUTE, (pygame.K_m,)),))

KEYS = (
    KeyRow(N_("Space"), N_("roll the die"), (Press(Act.ROLL, (pygame.K_SPACE,)),)),
    KeyRow(N_("mouse, arrows"), N_("aim the barrel"),
           tuple(Press(Act.AIM, (code,), value=step) for code, step in ARROWS.items())
           + (Press(Act.AIM_AGAIN, (pygame.K_BACKSPACE,)),)),
    KeyRow(N_("click, Enter"), N_("let it go"), (Press(Act.RELEASE, (pygame.K_RETURN, pygame.K_KP_ENTER)),)),
    KeyRow(N_("1 2 3, click"), N_("pick a sailor (wild)"),
           tuple(Press(Act.SAILOR, codes, value=n) for n, codes in ((1, (pygame.K_1, pygame.K_KP1)),
                                                                    (2, (pygame.K_2, pygame.K_KP2)),
                                                                    (3, (pygame.K_3, pygame.K_KP3))))),
    KeyRow(N_("P"), N_("pass, paying a chip (Old Sea Dogs)"), (Press(Act.PASS, (pygame.K_p,)),)),
    KeyRow(N_("B"), N_("balance hint on / off"), (Press(Act.HINTS, (pygame.K_b,)),)),
    _MUTE,
    KeyRow(N_("R"), N_("record the game"), (Press(Act.RECORD, (pygame.K_r,)),)),
    _HELP,
    KeyRow(N_("N / Esc"), N_("new game / quit"),
           (Press(Act.NEW_GAME, (pygame.K_n,)), Press(Act.QUIT, (pygame.K_ESCAPE,)))),
)
"""The keys of a game (Esc while a barrel is held aims it again: :meth:`viewer.app.ViewerApp.act`)."""

REPLAY_KEYS = (
    KeyRow(N_("Space"), N_("pause / go on"), (Press(Act.PAUSE, (pygame.K_SPACE,)),)),
    KeyRow(N_("Right or S"), N_("one step (paused)"), (Press(Act.STEP, (pygame.K_RIGHT, pygame.K_s)),)),
    KeyRow(N_("+ / -, 1 2 4"), N_("speed 1x 2x 4x"),
           (Press(Act.FASTER, (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS), ("+",)),
            Press(Act.SLOWER, (pygame.K_MINUS, pygame.K_KP_MINUS), ("-",)))
           + tuple(Press(Act.SPEED, codes, value=n) for n, codes in ((1, (pygame.K_1, pygame.K_KP1)),
                                                                     (2, (pygame.K_2, pygame.K_KP2)),
                                                                     (4, (pygame.K_4, pygame.K_KP4))))),
    _MUTE,
    _HELP,
    KeyRow(N_("N / Esc"), N_("restart / quit"),
           (Press(Act.NEW_GAME, (pygame.K_n,)), Press(Act.QUIT, (pygame.K_ESCAPE,)))),
)
"""The keys of a replay."""

_START_ROWS = (
    KeyRow(N_("Tab or arrows"), N_("next field"),
           (Press(Act.NEXT_FIELD, (pygame.K_TAB,), value=-1, mods=pygame.KMOD_SHIFT),
            Press(Act.NEXT_FIELD, (pygame.K_TAB, pygame.K_DOWN), value=1),
            Press(Act.NEXT_FIELD, (pygame.K_UP,), value=-1))),
    KeyRow(N_("Left / Right or Space"), N_("change"), (Press(Act.CHANGE, (pygame.K_LEFT,), value=-1),
                                               Press(Act.CHANGE, (pygame.K_RIGHT, pygame.K_SPACE), value=1))),
    KeyRow(N_("type a name"), "", (Press(Act.ERASE, (pygame.K_BACKSPACE,)),)),
    KeyRow(N_("Enter"), N_("start"), (Press(Act.START, (pygame.K_RETURN, pygame.K_KP_ENTER)),)),
)
START_KEYS = _START_ROWS + (KeyRow(N_("Esc"), N_("quit"), (Press(Act.LEAVE, (pygame.K_ESCAPE,)),)),)
"""The start screen's keys at the launch (Shift+Tab goes back; in a name field the keys type, but for
those that move the focus, Enter and Esc)."""
START_KEYS_AFTER_GAME = _START_ROWS + (KeyRow(N_("Esc"), N_("back"), (Press(Act.LEAVE, (pygame.K_ESCAPE,)),)),)
"""The start screen's keys after a game (Esc goes back to its end screen)."""

HELP_CARD_KEYS = (
    KeyRow(N_("H, Esc, Enter or a click"), N_("back to the game"),
           (Press(Act.CLOSE, (pygame.K_h, pygame.K_QUESTION, pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER,
                              pygame.K_SPACE), ("?",)),)),
)
"""The how-to-play card's keys (it shows them at its foot; a click closes it too)."""

QUESTION_KEYS = (
    KeyRow(N_("Y, Enter"), N_("Yes"), (Press(Act.YES, (pygame.K_y, pygame.K_RETURN, pygame.K_KP_ENTER)),)),
    KeyRow(N_("N, Esc"), N_("No"), (Press(Act.NO, (pygame.K_n, pygame.K_ESCAPE)),)),
)
"""A yes/no question's keys (its two buttons show them)."""


def find(table: tuple[KeyRow, ...], code: int, char: str = "", mod: int = 0) -> Press | None:
    """What key ``code`` (typing ``char``, with modifiers ``mod`` held) does in ``table``: a key code
    first (the first press it matches, in the table's order), else the typed character."""
    presses = [press for row in table for press in row.presses]
    for press in presses:
        if code in press.codes and (not press.mods or mod & press.mods):
            return press
    if char:
        for press in presses:
            if char in press.chars:
                return press
    return None


def key_words(row: KeyRow, language: Language | None = None) -> tuple[str, str]:
    """``row``'s (label, words) in ``language`` (default: English, the words as written here)."""
    if language is None:
        return row.label, row.words
    return language.gettext(row.label), language.gettext(row.words) if row.words else ""


def legend(table: tuple[KeyRow, ...], separator: str = " - ", language: Language | None = None) -> str:
    """``table`` as one line: "Enter: start - Esc: quit" (a row without words shows its label alone)."""
    rows = [key_words(row, language) for row in table]
    return separator.join(f"{label}: {words}" if words else label for label, words in rows)
