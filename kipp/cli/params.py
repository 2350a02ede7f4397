"""``kipp params``: show the parameter set, so users can copy it and override a few keys."""

from __future__ import annotations

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import UserError, library_error
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, Language
from sim.params import ParamsError, default_params_text, params_toml


@click.command(cls=Command, help=paragraphs(
    N_("Print the default parameter file (TOML, units in key names)."),
    N_("Copy it, keep only the keys you want to change, and pass the file to any subcommand with --params FILE; "
       "keys you leave out keep their defaults. With --params, the file is checked and the resolved set is "
       "printed in the same TOML format (every key, the defaults overlaid with the file): it loads back to the "
       "same parameters."),
))
@click.option("--params", "path", metavar="FILE", default=None,
              help=N_("Check this parameter file and print the whole set it gives (defaults overlaid with it)."))
@language_option
def params(path: str | None, language: Language) -> None:
    """``kipp params`` (its help is the ``help`` above): the TOML goes to the standard output, the same in
    every language."""
    if path is None:
        click.echo(default_params_text(), nl=False)
        return
    try:
        text = params_toml(path)
    except ParamsError as error:
        raise UserError(f"--params: {library_error(error)}") from None
    click.echo(text, nl=False)
