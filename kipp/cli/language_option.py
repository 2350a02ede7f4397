"""The ``--language`` option: the language of a command's words for people.

Without the option the system's locale decides (``LANG=de_DE.UTF-8`` gives German, see
:func:`kipp.language.language_from_environment`); machine output (``--json`` lines,
results files) never depends on it.
"""

from __future__ import annotations

import click

from kipp.language import LANGUAGES, Language


def _to_language(ctx: click.Context, param: click.Parameter, value: str | None) -> Language:
    return Language(value) if value else Language.from_environment()


language_option = click.option(
    "--language", type=click.Choice(LANGUAGES), default=None, callback=_to_language,
    help="Language of the transcript: de (Deutsch) or en [default: the system's locale, LANG; else en].",
)
