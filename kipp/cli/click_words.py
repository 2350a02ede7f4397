"""click's own words (``Usage:``, ``Options``, ``Error: ...``, ``Invalid value for ...``) in the
language of the command line.

click asks the standard library for them: each of its modules does ``from gettext import
gettext as _`` (and ``ngettext``), so a lookup goes to gettext's global default domain
(``messages``) in the locale's language, where no catalogue of click's words is installed.
The kipp command line brings its own: the gettext domain ``click`` next to kipp's catalogue
(``kipp/language/locale/<code>/LC_MESSAGES/click.po``, made as its header says), and
:func:`click_speaks` points click's lookups at it for as long as one command line runs, then
puts them back. Nothing changes when kipp is imported, and nothing outlives the command: a
program that uses click (or kipp's library) meanwhile sees click as it was.
"""

from __future__ import annotations

import contextlib
import gettext
import sys
from typing import Iterator

from kipp.language import Language, catalogue

DOMAIN = "click"
"""The gettext domain of click's words in kipp's catalogues."""

_LOOKUPS = {"_": gettext.gettext, "ngettext": gettext.ngettext}
"""The names click's modules give the standard library's lookups, and the lookups themselves."""


def click_catalogue(code: str) -> gettext.NullTranslations:
    """click's words in the language ``code`` (English, click's own, for the source language)."""
    return catalogue(code, DOMAIN)


class _Lookup:
    """One of click's lookups pointed at a catalogue of :data:`DOMAIN` (told apart from click's own, so
    that a command line run inside another one speaks its own language)."""

    def __init__(self, function) -> None:
        self.function = function

    def __call__(self, *args: object) -> str:
        return self.function(*args)


def click_word(language: Language, message: str) -> str:
    """One of click's words (``Options``, ``Commands``) in ``language``, for a command that writes it
    itself."""
    return click_catalogue(language.code).gettext(message)


def _click_modules() -> list:
    return [module for name, module in list(sys.modules.items())
            if module is not None and (name == "click" or name.startswith("click."))]


@contextlib.contextmanager
def click_speaks(language: Language) -> Iterator[None]:
    """While the body runs, click's own words are in ``language``; afterwards click looks them up
    as before (also when the body raises)."""
    catalogue = click_catalogue(language.code)
    ours = {"_": _Lookup(catalogue.gettext), "ngettext": _Lookup(catalogue.ngettext)}
    replaced = []
    for module in _click_modules():
        for name, lookup in _LOOKUPS.items():
            current = getattr(module, name, None)
            if current is lookup or isinstance(current, _Lookup):
                setattr(module, name, ours[name])
                replaced.append((module, name, current))
    try:
        yield
    finally:
        for module, name, previous in reversed(replaced):
            setattr(module, name, previous)
