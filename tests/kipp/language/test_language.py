"""Which language a person gets, and the German transcript of ``kipp game``."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kipp.cli.game import game
from kipp.language import Language, language_from_environment


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT"}, "de"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de"),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
])
def test_the_locale_decides_the_language_as_gettext_reads_it(environ, expected):
    assert language_from_environment(environ) == expected


def test_an_unknown_language_is_refused_by_name():
    with pytest.raises(ValueError, match="'fr'.*de"):
        Language("fr")


ENGLISH_WORDS = ("rolls", "places barrel", "turns the", "Round", "starts.", "Kaboom", "chips", "Game over", "wins")


def _game(*args: str, env: dict | None = None) -> str:
    result = CliRunner().invoke(game, ["--referee", "fast", "--seed", "4", "--players", "3", "--sea-dogs",
                                       *args], env=env)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_german_transcript_has_no_english_sentence_and_tells_the_same_game():
    english, german = _game("--language", "en"), _game("--language", "de")
    assert len(english.splitlines()) == len(german.splitlines())
    assert any(word in english for word in ENGLISH_WORDS)
    for word in ENGLISH_WORDS:
        assert not re.search(rf"\b{word}\b", german), word
    for word in ("würfelt", "Fass", "Matrosen", "Siegchip", "Runde"):
        assert word in german, word


def test_the_locale_gives_german_without_the_option():
    assert _game(env={"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}) == _game(
        "--language", "de")


def test_the_json_lines_do_not_depend_on_the_language():
    english, german = _game("--json", "--language", "en"), _game("--json", "--language", "de")
    assert english == german
    assert all(json.loads(line)["event"] for line in german.splitlines())
