"""Help texts in the command line's language, and the click command classes that show them so.

A help text is written in English, marked for the catalogue (:func:`kipp.language.N_`), and
translated when ``--help`` is shown, in the language of the command line
(:func:`kipp.cli.language_option.command_language`). A text with numbers or names filled in
is a :class:`Text` (its source is what the catalogue holds, the fields are filled in after
translation); a command's help is made of :func:`paragraphs`, each translated on its own. Both
are ``str``: their value is the English text, so click shows them unchanged in English.

Every ``kipp`` command is a :class:`Command` (the group is one too, see :mod:`kipp.cli.main`):
its help, its options' help, its usage line and click's own words (:mod:`kipp.cli.click_words`)
are in the command line's language; in English, click formats them itself, as it always did.
"""

from __future__ import annotations

import copy
import inspect
import sys
from typing import Iterable

import click

from kipp.cli.click_words import click_speaks, click_word
from kipp.cli.language_option import META_KEY, command_language, language_in
from kipp.language import N_, SOURCE_LANGUAGE, Language

HELP_OPTION_HELP = "Show this message and exit."
"""click's help of ``--help`` (in click's catalogue, :mod:`kipp.cli.click_words`)."""
OPTIONS_METAVAR = N_("[OPTIONS]")
COMMAND_METAVAR = N_("COMMAND [ARGS]...")


_BY_ENGLISH: dict[str, "Words"] = {}
"""Every :class:`Words` made, by its English: click keeps an option's help as a plain ``str`` (it
tidies the text's indentation), so :func:`translate` finds the words it came from here."""


class Words(str):
    """English words (the ``str`` value) that can be put in another language."""

    def translated(self, language: Language) -> str:
        raise NotImplementedError

    def _known(self) -> "Words":
        _BY_ENGLISH.setdefault(str(self), self)
        return self


class Text(Words):
    """``source.format(**fields)``: the source (marked with ``N_``) is translated, then filled in.

    A field that is :class:`Words` itself is translated too.

    >>> from kipp.language import Language
    >>> text = Text(N_("{name} starts."), name="Ann")
    >>> text, text.translated(Language("de"))
    ('Ann starts.', 'Ann beginnt.')
    """

    def __new__(cls, source: str, **fields: object) -> "Text":
        self = super().__new__(cls, source.format(**fields))
        self.source = source
        self.fields = fields
        return self._known()

    def translated(self, language: Language) -> str:
        fields = {name: translate(value, language) if isinstance(value, Words) else value
                  for name, value in self.fields.items()}
        return language.gettext(self.source).format(**fields)


class Joined(Words):
    """``separator.join(parts)``, each part translated on its own."""

    def __new__(cls, separator: str, parts: Iterable[str]) -> "Joined":
        parts = tuple(parts)
        self = super().__new__(cls, separator.join(parts))
        self.separator = separator
        self.parts = parts
        return self._known()

    def translated(self, language: Language) -> str:
        return self.separator.join(translate(part, language) for part in self.parts)


class Number(Words):
    """A number in a help text, written as the language reads it (:meth:`kipp.language.Language.decimal`):
    ``1,000,000`` in English, ``1.000.000`` in German. Not a value to type (an option's syntax keeps
    Python's own).

    >>> from kipp.language import Language
    >>> number = Number(4.63, 1)
    >>> number, number.translated(Language("de"))
    ('4.6', '4,6')
    """

    def __new__(cls, value: float, digits: int | None = None) -> "Number":
        self = super().__new__(cls, Language(SOURCE_LANGUAGE).decimal(value, digits))
        self.value = value
        self.digits = digits
        return self

    def translated(self, language: Language) -> str:
        return language.decimal(self.value, self.digits)


def paragraphs(*texts: str) -> Joined:
    """A command's help: paragraphs (each one line, marked with ``N_``), separated by a blank line."""
    return Joined("\n\n", texts)


def translate(text: str | None, language: Language) -> str | None:
    """``text`` in ``language``: from kipp's catalogue, or click's for the words click gave (the help
    of ``--version``)."""
    if text is None or language.code == SOURCE_LANGUAGE:
        return text
    text = _BY_ENGLISH.get(text, text)
    if isinstance(text, Words):
        return text.translated(language)
    words = language.gettext(text)
    return words if words != text else click_word(language, text)


def _english(ctx: click.Context) -> bool:
    return command_language(ctx).code == SOURCE_LANGUAGE


class TranslatedHelp:
    """What makes a click command speak the command line's language (mixed into :class:`Command`
    and the group's class).

    Run as a program (:meth:`main`), the command finds the language in its arguments and the
    locale before click parses them, and click's own words follow it while it runs.
    """

    def main(self, args=None, prog_name=None, **extra):
        language = language_in(sys.argv[1:] if args is None else args)
        with click_speaks(language):
            return super().main(args, prog_name, **extra)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if META_KEY not in ctx.meta:
            ctx.meta[META_KEY] = language_in(args)
        return super().parse_args(ctx, args)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """click's ``--help``, which click makes once per command (and keeps), with the names and the words
        of the command line that made it: made again when this one names it otherwise (``-h`` under the
        group, not when the command runs alone), and its help put back to the English source,
        translated when shown."""
        kept = getattr(self, "_help_option", None)
        if kept is not None and set(kept.opts) != set(self.get_help_option_names(ctx)):
            self._help_option = None
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = HELP_OPTION_HELP
        return option

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces = super().collect_usage_pieces(ctx)
        if _english(ctx):
            return pieces
        language = command_language(ctx)
        return [language.gettext(piece) if piece in (OPTIONS_METAVAR, COMMAND_METAVAR) else piece for piece in pieces]

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if _english(ctx) or self.help is None:
            return super().format_help_text(ctx, formatter)
        text = inspect.cleandoc(translate(self.help, command_language(ctx))).partition("\f")[0]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if _english(ctx):
            return super().format_options(ctx, formatter)
        language = command_language(ctx)
        rows = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                continue
            shown = copy.copy(param)
            shown.help = translate(param.help, language)
            record = shown.get_help_record(ctx)
            if record is not None:
                rows.append(record)
        if rows:
            with formatter.section(click_word(language, "Options")):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if _english(ctx) or not self.epilog:
            return super().format_epilog(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(inspect.cleandoc(translate(self.epilog, command_language(ctx))))


class Command(TranslatedHelp, click.Command):
    """A ``kipp`` subcommand (``@click.command(cls=Command, help=paragraphs(...))``)."""
