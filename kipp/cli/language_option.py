"""The ``--language`` option: the language of a command's words for people.

Every ``kipp`` command takes it, and so does the group (``kipp --language de tune --help``);
given twice, the later one wins, as for any click option (``kipp --language de game
--language en`` is English). Without it the system's locale decides (``LANG=de_DE.UTF-8``
gives German, see :func:`kipp.language.language_from_environment`). Machine output
(``--json`` lines, results files, CSV and JSON exports) never depends on it.

The language is known before click parses anything (:func:`language_in`, from the
arguments as given), so that ``--help``, which click answers as soon as it sees it, and
click's own errors already speak it; a command reads it from its context
(:func:`command_language`).
"""

from __future__ import annotations

from typing import Mapping, Sequence

import click

from kipp.language import LANGUAGES, N_, Language

META_KEY = "kipp.language"
"""Where a command's :class:`Language` is kept in ``click.Context.meta`` (shared by a group's context
and its subcommand's)."""

LANGUAGE_HELP = N_("Language of the words for people: de (Deutsch) or en [default: the system's locale, "
                   "LANG; else en]. Machine output (--json, results files) is the same in every language.")


def language_in(args: Sequence[str], environ: Mapping[str, str] | None = None) -> Language:
    """The language ``args`` (a command line without the program name) ask for: the value of the
    last ``--language CODE`` (or ``--language=CODE``) before a ``--``, when CODE has a catalogue;
    else the locale's (``environ``, default ``os.environ``).

    >>> language_in(["--language", "de", "tune", "--help"]).code
    'de'
    >>> language_in(["game", "--language=en"], {"LANG": "de_DE.UTF-8"}).code
    'en'
    >>> language_in(["game"], {"LANG": "de_DE.UTF-8"}).code
    'de'
    """
    code = None
    args = list(args)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--language" and i + 1 < len(args):
            code = args[i + 1]
        elif arg.startswith("--language="):
            code = arg.partition("=")[2]
    if code in LANGUAGES:
        return Language(code)
    return Language.from_environment(environ)


def command_language(ctx: click.Context | None = None) -> Language:
    """The language of the command running in ``ctx`` (default: click's current context); the
    locale's outside a ``kipp`` command line."""
    if ctx is None:
        ctx = click.get_current_context(silent=True)
    if ctx is not None and META_KEY in ctx.meta:
        return ctx.meta[META_KEY]
    return Language.from_environment()


def _to_language(ctx: click.Context, param: click.Parameter, value: str | None) -> Language:
    return Language(value) if value else command_language(ctx)


language_option = click.option(
    "--language", type=click.Choice(LANGUAGES), default=None, callback=_to_language, help=LANGUAGE_HELP,
)
"""``--language de|en``: hands the command its :class:`Language` (``language``)."""
