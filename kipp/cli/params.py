"""``kipp params``: show the parameter set, so users can copy it and override a few keys."""

from __future__ import annotations

import click

from kipp.cli.options import UserError
from sim.params import ParamsError, default_params_text, params_toml


@click.command()
@click.option("--params", "path", metavar="FILE", default=None,
              help="Check this parameter file and print the whole set it gives (defaults overlaid with it).")
def params(path: str | None) -> None:
    """Print the default parameter file (TOML, units in key names).

    Copy it, keep only the keys you want to change, and pass the file to any
    subcommand with --params FILE; keys you leave out keep their defaults. With
    --params, the file is checked and the resolved set is printed in the same TOML
    format (every key, the defaults overlaid with the file): it loads back to the
    same parameters.
    """
    if path is None:
        click.echo(default_params_text(), nl=False)
        return
    try:
        text = params_toml(path)
    except ParamsError as error:
        raise UserError(f"--params: {error}") from None
    click.echo(text, nl=False)
