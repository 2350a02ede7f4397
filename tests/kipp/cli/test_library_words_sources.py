"""The English templates of :mod:`kipp.cli.library_words` are copies of sentences the library writes
(``sim``, ``kipp``, ``calibration``); a library sentence reworded without its template would reach a
German reader in English. So each template's fixed words must still be written somewhere in the
library's source, as one string constant or the literal part of an f-string."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from kipp.cli.library_words import TEMPLATES

ROOT = Path(__file__).resolve().parents[3]
OWN = ROOT / "kipp" / "cli" / "library_words.py"


def _library_strings() -> set[str]:
    found = set()
    for package in ("sim", "kipp", "calibration"):
        for path in (ROOT / package).rglob("*.py"):
            if path == OWN:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.add(node.value)
    return found


LIBRARY = _library_strings()

ASSEMBLED = {
    "must be <= {high}, got {value} ({why})": ("must be ", "<= "),
    "must be <= {high}, got {value}": ("must be ", "<= "),
}
"""Templates the library writes in pieces (``sim.toml_schema``'s bound: ``must be {bound}``), with the
pieces to look for instead of the longest run of fixed words."""


def _fixed_words(template: str) -> str:
    """The template's longest run of words between its ``{fields}``."""
    return max((literal for literal, *_ in string.Formatter().parse(template)), key=len).strip()


@pytest.mark.parametrize("template", TEMPLATES)
def test_every_template_is_still_written_by_the_library(template):
    for words in ASSEMBLED.get(template, (_fixed_words(template),)):
        assert any(words in text for text in LIBRARY), (
            f"no library string holds {words!r} of the template {template!r}: reworded without its template?")
