"""The German catalogue covers every string the code marks for translation, and ships compiled.

Checked against Babel's own extraction of the source tree (the strings the code asks
for) and its compiler (the ``.mo`` file that gettext reads), not against a list kept here.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from kipp.language import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parents[3]
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}
TRANSLATED = [code for code in LANGUAGES if code != SOURCE_LANGUAGE]


def _source_ids() -> set[str]:
    ids = set()
    for package in ("kipp", "sim", "viewer", "calibration", "lab"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS):
            ids.add(message if isinstance(message, str) else message[0])
    return ids


def _catalogue(code: str):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "kipp.po", "rb") as po:
        return read_po(po, locale=code)


def _fields(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_the_source_marks_strings_for_translation():
    assert len(_source_ids()) >= 40  # the transcript's sentences at least


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_marked_string_has_a_translation_and_none_is_stale(code):
    catalogue = _catalogue(code)
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalogue if m.id}
    source = _source_ids()
    untranslated = sorted(i for i in source if i not in translated or not all(
        s for s in ([translated[i].string] if isinstance(translated[i].string, str) else translated[i].string)))
    assert not untranslated, f"untranslated in {code}: {untranslated}"
    assert not sorted(set(translated) - source), "translations of strings the code no longer asks for"
    assert not [m.id for m in catalogue if m.id and m.fuzzy]


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_keeps_the_placeholders_of_its_source(code):
    for message in _catalogue(code):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set().union(*(_fields(i) for i in ids))
        for text in strings:
            assert _fields(text) == wanted, (message.id, text)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_shipped_compiled_catalogue_holds_what_its_source_says(code):
    with open(LOCALE_DIR / code / "LC_MESSAGES" / "kipp.mo", "rb") as mo:
        shipped = {m.id if isinstance(m.id, str) else tuple(m.id): m.string if isinstance(m.string, str)
                   else tuple(m.string) for m in read_mo(mo) if m.id}
    source = {m.id if isinstance(m.id, str) else tuple(m.id): m.string if isinstance(m.string, str)
              else tuple(m.string) for m in _catalogue(code) if m.id}
    assert shipped == source, "run pybabel compile (CONTRIBUTING.md, Translations)"
