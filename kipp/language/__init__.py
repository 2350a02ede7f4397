"""The languages people read: English (the source strings) and German, by gettext.

A :class:`Language` is one catalogue of translations, looked up by its code (``en`` or
``de``). The code follows the system's locale the way gettext reads it (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``, first set wins) unless a command's ``--language``
option names one; any other locale falls back to English. Nothing here is global: a
caller holds its :class:`Language` and asks it for words, so two languages can be used
side by side (the tests do).

The catalogues are ``kipp/language/locale/<code>/LC_MESSAGES/kipp.po``, extracted and
compiled with Babel (CONTRIBUTING.md, "Translations"); the compiled ``kipp.mo`` files
ship in the package.

>>> Language("de").gettext("{name} starts.").format(name="Ann")
'Ann beginnt.'
>>> Language("en").ngettext("{count} chip", "{count} chips", 1).format(count=1)
'1 chip'
>>> Language("de").decimal(2.64, 1), Language("de").decimal(1_000_000)
('2,6', '1.000.000')
"""

from __future__ import annotations

import gettext
import os
from functools import lru_cache
from pathlib import Path
from typing import Mapping

DOMAIN = "kipp"
"""The gettext domain of every catalogue."""

LOCALE_DIR = Path(__file__).with_name("locale")
"""Where the catalogues live: ``<code>/LC_MESSAGES/kipp.po`` and its compiled ``kipp.mo``."""

LANGUAGES = ("en", "de")
"""The languages there are catalogues for; English is the source language."""

SOURCE_LANGUAGE = "en"

SEPARATORS = {"en": (".", ","), "de": (",", ".")}
"""(decimal separator, thousands separator) of each language, as CLDR writes them (Babel's
``format_decimal`` in the ``en`` and ``de`` locales; tests/kipp/language checks it)."""


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined and return it unchanged.

    For words kept in a constant (a table of labels, a help text given to a decorator): the
    catalogue extraction finds them by this mark, and the code that shows them translates
    them then, with the :class:`Language` it holds (``language.gettext(label)``).

    >>> N_("Start")
    'Start'
    """
    return message


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language code the locale asks for (``de`` for ``LANG=de_DE.UTF-8``), else ``en``.

    Reads ``LANGUAGE`` (a colon-separated preference list), ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` in gettext's order; ``C`` and ``POSIX`` mean the source language.
    """
    environ = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
            if code in ("c", "posix"):
                return SOURCE_LANGUAGE
        return SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


@lru_cache(maxsize=None)
def catalogue(code: str, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The compiled catalogue of ``domain`` (default :data:`DOMAIN`) for the language ``code``; for the
    source language none (the English source strings as they are)."""
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(domain, localedir=LOCALE_DIR, languages=[code])


class Language:
    """One language's words: ``gettext`` for a sentence, ``ngettext`` for one that counts.

    Raises ``ValueError`` for a code without a catalogue (the message names the known ones).
    """

    def __init__(self, code: str) -> None:
        if code not in LANGUAGES:
            raise ValueError(f"no language {code!r}: choose one of {', '.join(LANGUAGES)}")
        self.code = code
        self._catalogue = catalogue(code)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> "Language":
        """The language of the system's locale (see :func:`language_from_environment`)."""
        return cls(language_from_environment(environ))

    def gettext(self, message: str) -> str:
        """``message`` (an English source string) in this language."""
        return self._catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The singular or plural form for ``count``, in this language."""
        return self._catalogue.ngettext(singular, plural, count)

    def decimal(self, value: float, digits: int | None = None, *, sign: bool = False) -> str:
        """``value`` written as a reader of this language reads a number: its decimal separator
        (``2,6`` in German) and its thousands grouped (``1.000.000`` in German, ``1,000,000`` in
        English).

        ``digits``: how many after the separator, rounded as ``format`` rounds (half to even on
        the binary value); ``None``: an ``int`` whole, a ``float`` as short as ``format(value, "g")``
        writes it (``1.5``, ``2``). ``sign``: a ``+`` before a positive number. In English the text is
        ``format(value, ",.1f")`` (and so on): for numbers under a thousand, what ``.1f`` gives.
        For a number a person reads; machine output (JSON, CSV, values quoted from a file or an
        option) keeps Python's own.
        """
        kind = "d" if digits is None and isinstance(value, int) else "g" if digits is None else f".{digits}f"
        english = format(value, f"{'+' if sign else ''},{kind}")
        point, group = SEPARATORS[self.code]
        if (point, group) == SEPARATORS[SOURCE_LANGUAGE]:
            return english
        return english.translate({ord("."): point, ord(","): group})

    def __repr__(self) -> str:
        return f"Language({self.code!r})"
