"""The key table (viewer/keys.py): one meaning per key in each table, and the window, the help card and the
legend all reading it."""

from __future__ import annotations

import pygame
import pytest

from kipp.rules.config import GameConfig
from viewer.controller import GameController
from viewer.help import HelpCard
from viewer.keys import (
    HELP_CARD_KEYS,
    KEYS,
    QUESTION_KEYS,
    REPLAY_KEYS,
    START_KEYS,
    START_KEYS_AFTER_GAME,
    Act,
    find,
    legend,
)
from viewer.question import QuestionCard

TABLES = {"game": KEYS, "replay": REPLAY_KEYS, "start": START_KEYS, "start after a game": START_KEYS_AFTER_GAME,
          "help card": HELP_CARD_KEYS, "question": QUESTION_KEYS}


@pytest.mark.parametrize("name", TABLES)
def test_no_key_means_two_things_in_one_table(name):
    seen: dict[tuple, Act] = {}
    for row in TABLES[name]:
        assert row.label and row.presses, row
        for press in row.presses:
            for key in [("code", code, press.mods) for code in press.codes] + [("char", c, 0) for c in press.chars]:
                assert key not in seen, f"{name}: {key} is both {seen[key]} and {press.act}"
                seen[key] = press.act


def test_a_typed_question_mark_opens_help_and_shift_tab_goes_back():
    assert find(KEYS, pygame.K_SLASH, "?").act is Act.HELP, "Shift+/ types ? on a US keyboard"
    assert find(KEYS, pygame.K_SLASH, "/") is None
    assert find(START_KEYS, pygame.K_TAB, mod=pygame.KMOD_LSHIFT).value == -1
    assert find(START_KEYS, pygame.K_TAB).value == 1
    assert legend(START_KEYS).endswith("Enter: start - Esc: quit")
    assert legend(START_KEYS_AFTER_GAME).endswith("Esc: back")


def _press(app, key, char=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=char, scancode=0))
    app.step()


def test_every_key_the_legend_lists_for_a_game_is_acted_on(make_app, params, scripted_referee):
    """Each act of the game's table does what its words say, through a real key event."""
    app = make_app(lambda games: GameController(GameConfig(players=("Ann", "Ben")), params,
                                                referee=scripted_referee()))
    c = app.controller
    hints, muted = app.hints, app.sound.muted
    _press(app, pygame.K_b)
    assert app.hints is not hints, "B: balance hint on / off"
    _press(app, pygame.K_m)
    assert app.sound.muted is not muted, "M: sound on / off"
    _press(app, pygame.K_h)
    assert isinstance(app.card, HelpCard), "H: how to play"
    _press(app, pygame.K_ESCAPE)
    assert app.card is None
    _press(app, pygame.K_n)
    assert isinstance(app.card, QuestionCard) and app.card.words()[0] == "Start a new game?", "N: new game"
    _press(app, pygame.K_ESCAPE)
    _press(app, pygame.K_ESCAPE)
    assert isinstance(app.card, QuestionCard) and app.card.words()[0] == "Quit the game?", "Esc: quit"
    _press(app, pygame.K_n)
    for _ in range(200):
        if c.prompt() == "roll":
            break
        app.step()
    _press(app, pygame.K_SPACE)
    assert c.mode == "rolling", "Space: roll the die"
