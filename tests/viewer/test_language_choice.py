"""Which language the window speaks: ``kipp play --language`` if given, else the language chosen on the
start screen (remembered with its other choices), else the system's locale; the start screen's
language field, by keyboard and by mouse, redraws the screen in that language at once."""

from __future__ import annotations

import json

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.language import Language
from tests.viewer.drawn_text import recording
from tests.viewer.test_start import _start_app, key
from viewer.setup import GameSetup, Seat, SeatKind, load_setup, save_setup, setup_path, window_language
from viewer.start import LANGUAGE_FIELD, StartScreen


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


GERMAN_LOCALE = {"LANG": "de_DE.UTF-8"}


def test_the_option_beats_the_remembered_choice_which_beats_the_locale():
    chosen = GameSetup(language="en")
    assert window_language(Language("de"), chosen, GERMAN_LOCALE).code == "de"
    assert window_language(None, chosen, GERMAN_LOCALE).code == "en"
    assert window_language(None, GameSetup(), GERMAN_LOCALE).code == "de"
    assert window_language(None, GameSetup(), {"LANG": "fr_FR.UTF-8"}).code == "en"
    assert window_language(None, GameSetup(), {}).code == "en"


def test_the_choice_is_remembered_and_an_older_file_without_it_still_reads():
    save_setup(GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"),), language="de"))
    assert load_setup().language == "de"
    older = json.loads(setup_path().read_text(encoding="utf-8"))
    del older["language"]
    setup_path().write_text(json.dumps(older), encoding="utf-8")
    notices = []
    setup = load_setup(notice=notices.append)
    assert setup.language is None and setup.players()[0].name == "Ann" and not notices


@pytest.mark.parametrize("value", ['"fr"', "3", "true", '["de"]'])
def test_a_remembered_language_that_is_none_of_ours_sets_the_file_aside(value):
    save_setup(GameSetup(language="de"))
    path = setup_path()
    path.write_text(path.read_text(encoding="utf-8").replace('"language": "de"', f'"language": {value}'),
                    encoding="utf-8")
    notices = []
    assert load_setup(notice=notices.append) == GameSetup()
    assert len(notices) == 1 and "language" in notices[0] and "set aside" in notices[0]


def _drawn(app, monkeypatch) -> list[str]:
    with recording(monkeypatch, app.surface.get_size()) as record:
        app.render(record.window)
    return record.texts()


def test_the_language_field_redraws_the_start_screen_at_once_by_keyboard_and_by_mouse(make_app, params, monkeypatch):
    setup = GameSetup(seats=(Seat(SeatKind.PERSON, "You"), Seat(SeatKind.BOT)))
    app = _start_app(make_app, params, setup)  # English: the suite's locale (tests/conftest.py)
    app.step()
    assert "Who plays tonight?" in _drawn(app, monkeypatch)
    start = app.start
    while start.focus != LANGUAGE_FIELD:  # keyboard alone: Tab to the field, Space changes it
        key(app, pygame.K_TAB)
    key(app, pygame.K_SPACE)
    assert app.language.code == "de" and app.controller.language.code == "de"
    drawn = _drawn(app, monkeypatch)
    assert "Wer spielt heute?" in drawn and "Sprache: Deutsch" in drawn and "Who plays tonight?" not in drawn
    assert "Du" in drawn, "the default person's name is shown in the window's language"
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start.rects[LANGUAGE_FIELD].center, button=1))
    app.step()  # mouse alone: a click on the field changes it back
    assert app.language.code == "en" and "Language: English" in _drawn(app, monkeypatch)
    key(app, pygame.K_LEFT)
    assert app.language.code == "de"
    key(app, pygame.K_RETURN)  # Start: the game speaks German, and the choice is remembered
    assert not isinstance(app.card, StartScreen) and app.controller.language.code == "de"
    assert load_setup().language == "de" and load_setup().players()[0].name == "You", "the name stays data"


def _language_of_play(monkeypatch, args, environ) -> str:
    import kipp.cli.play

    seen = {}
    monkeypatch.setattr(kipp.cli.play, "run_viewer", lambda *a, **options: seen.update(options))
    monkeypatch.delenv("LANGUAGE", raising=False)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(main, ["play", *args])
    assert result.exit_code == 0, result.output
    return seen["language"].code


def test_kipp_play_follows_the_option_then_the_remembered_choice_then_the_locale(monkeypatch):
    assert _language_of_play(monkeypatch, [], GERMAN_LOCALE) == "de"
    assert _language_of_play(monkeypatch, [], {"LANG": "C"}) == "en"
    save_setup(GameSetup(language="en"))
    assert _language_of_play(monkeypatch, [], GERMAN_LOCALE) == "en"
    assert _language_of_play(monkeypatch, ["--players", "Ann,bot"], GERMAN_LOCALE) == "en", "also without the screen"
    assert _language_of_play(monkeypatch, ["--language", "de"], {"LANG": "C"}) == "de"
    help_text = " ".join(CliRunner().invoke(main, ["play", "--help"]).output.split())
    assert "--language [en|de]" in help_text and "last chosen on the start screen" in help_text
