"""The start screen: seats, models, variants and Start by keyboard and by mouse, remembered between
launches (in a configuration folder of the test's own), and offered again by "New game"."""

from __future__ import annotations

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from viewer.controller import GameController
from viewer.setup import GameSetup, Seat, SeatKind, load_setup, setup_path
from viewer.start import StartScreen


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


def _factory(params):
    def games(setup: GameSetup):
        config, bots = setup.config(), setup.bots(params)
        return lambda n: GameController(config, params, seed=n, bots=bots, confirm=setup.confirm)
    return games


def _start_app(make_app, params, setup=None, start_screen=True):
    setup = setup or load_setup()
    games = _factory(params)
    return make_app(games(setup), games=games, setup=setup, start_screen=start_screen)


def key(app, k, char="", mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=char, scancode=0))
    app.step()


def type_text(app, text):
    for char in text:
        key(app, pygame.key.key_code(char) if char.isalnum() else pygame.K_SPACE, char)


def test_a_table_is_set_by_keyboard_and_remembered(make_app, params):
    app = _start_app(make_app, params)
    app.step()
    assert isinstance(app.card, StartScreen) and app.start.focus == ("kind", 0)
    key(app, pygame.K_TAB)  # the first seat's name
    for _ in range(3):
        key(app, pygame.K_BACKSPACE)
    type_text(app, "Ann")
    key(app, pygame.K_TAB)  # seat 2: a bot
    key(app, pygame.K_TAB)  # its model
    key(app, pygame.K_RIGHT)  # casual -> skilled
    key(app, pygame.K_TAB)  # seat 3: nobody -> a person
    key(app, pygame.K_SPACE)
    key(app, pygame.K_TAB)
    type_text(app, "Ben")
    while app.start.focus != ("toggle", "sea_dogs"):
        key(app, pygame.K_DOWN)
    key(app, pygame.K_SPACE)
    key(app, pygame.K_RETURN)
    assert app.card is None and app.start is None
    config = app.controller.config
    assert config.players == ("Ann", "Bot (skilled)", "Ben") and config.sea_dogs and config.barrels == 12
    assert set(app.controller.bots) == {1} and app.controller.bots[1].model == "skilled"
    assert setup_path().is_file()
    again = load_setup()
    assert again.config() == config and again.seats[1].model == "skilled"


def test_mouse_seats_a_bot_and_starts(make_app, params):
    app = _start_app(make_app, params)
    app.step()
    kind = app.start.rects[("kind", 2)]
    for _ in range(2):  # nobody -> person -> bot
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=kind.center))
        app.step()
    model = app.start.rects[("model", 2)]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(model.x + 3, model.centery)))
    app.step()  # the left arrow: casual -> novice
    nine = app.start.rects[("toggle", "nine")]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=nine.center))
    app.step()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=app.start.rects[("start",)].center))
    app.step()
    config = app.controller.config
    assert config.players == ("You", "Bot 1", "Bot 2 (novice)") and config.barrels == 9


def test_nobody_seated_cannot_start(make_app, params):
    setup = GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"), Seat(), Seat(), Seat()))
    app = _start_app(make_app, params, setup)
    key(app, pygame.K_SPACE)
    key(app, pygame.K_SPACE)  # Ann's seat: person -> bot -> nobody
    assert not app.start.setup.can_start()
    key(app, pygame.K_RETURN)
    assert isinstance(app.card, StartScreen)


def test_new_game_at_the_end_offers_the_start_screen_and_esc_goes_back(make_app, params):
    app = _start_app(make_app, params, GameSetup(), start_screen=False)
    assert app.card is None
    app.new_game()
    assert isinstance(app.card, StartScreen) and app.start.after_game
    key(app, pygame.K_ESCAPE)
    assert app.card is None and app.running


def test_an_unreadable_remembered_setup_gives_the_default():
    path = setup_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    assert load_setup() == GameSetup()
    path.write_text('{"seats": [{"kind": "robot"}], "barrels": 7, "hints": "yes"}', encoding="utf-8")
    assert load_setup() == GameSetup()


@pytest.mark.parametrize("args, start_screen", [([], True), (["--players", "Ann,bot"], False),
                                               (["--sea-dogs"], False), (["--seed", "3"], False)])
def test_kipp_play_opens_the_start_screen_only_without_game_options(monkeypatch, args, start_screen):
    import kipp.cli.play

    seen = {}
    monkeypatch.setattr(kipp.cli.play, "run_viewer", lambda *a, **kw: seen.update(kw))
    result = CliRunner().invoke(main, ["play", "--max-frames", "1", *args])
    assert result.exit_code == 0, result.output
    assert seen["start_screen"] is start_screen


def test_setup_doctest():
    import doctest

    import viewer.setup

    assert doctest.testmod(viewer.setup).failed == 0


def test_kipp_plays_confirm_option_and_toggle_reach_the_game(monkeypatch):
    import kipp.cli.play

    seen = {}
    monkeypatch.setattr(kipp.cli.play, "run_viewer", lambda *a, **kw: seen.update(kw))
    assert CliRunner().invoke(main, ["play", "--confirm", "--players", "Ann", "--max-frames", "1"]).exit_code == 0
    assert seen["setup"].confirm and seen["games"](seen["setup"])(0).confirm
    assert not seen["games"](GameSetup())(0).confirm, "the start screen's toggle (off) decides a game it starts"
