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


POINTED = re.compile(r"\d\.\d")
"""A decimal point between digits: how English writes 2.6, never how German does."""


def test_the_german_transcript_writes_its_decimals_with_a_comma():
    """Millimetres, degrees and half turns (``--half-turn``) in German prose: ``-0,6 mm``, ``1,6 Grad``,
    ``rot 0,5``; the English keeps its points."""
    english, german = _game("--language", "en", "--half-turn"), _game("--language", "de", "--half-turn")
    assert POINTED.search(english), "the English game shows decimals"
    assert not POINTED.findall(german), [line for line in german.splitlines() if POINTED.search(line)][:3]
    assert re.search(r"x [+-]\d+,\d mm, y [+-]\d+,\d mm", german)
    assert re.search(r"um \d+,\d Grad", german) and re.search(r"\b(rot|gelb|blau) \d+,5\b", german)
    assert len(re.findall(r"\d,\d", german)) == len(POINTED.findall(english))


@pytest.mark.parametrize("value, digits, sign", [
    (2.64, 1, False), (-0.04, 1, True), (3.0, 1, True), (0.25, 2, False), (1234.5, 1, False),
    (1_000_000, None, False), (12, None, False), (987654.321, 3, False), (-1999.95, 2, False),
])
@pytest.mark.parametrize("code", ["en", "de"])
def test_a_number_reads_as_cldr_writes_it_in_the_language(code, value, digits, sign):
    """:meth:`Language.decimal` against Babel's ``format_decimal`` (the Unicode CLDR's patterns)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    expected = format_decimal(value, format=("+" + pattern + ";-" + pattern) if sign else pattern, locale=code,
                              decimal_quantization=True)
    assert Language(code).decimal(value, digits, sign=sign) == expected


@pytest.mark.parametrize("value, english, german", [(1.5, "1.5", "1,5"), (2.0, "2", "2"), (0.25, "0.25", "0,25")])
def test_a_number_without_digits_is_as_short_as_it_can_be(value, english, german):
    assert (Language("en").decimal(value), Language("de").decimal(value)) == (english, german)
