"""``kipp params``: show the parameter set, so users can copy it and override a few keys."""

from __future__ import annotations

import click

from kipp.cli.options import params_option
from sim.params import Params, default_params_text


@click.command()
@params_option
def params(params: Params) -> None:
    """Print the default parameter file (TOML, units in key names).

    Copy it, keep only the keys you want to change, and pass the file to any
    subcommand with --params FILE; keys you leave out keep their defaults. With
    --params, the file is checked and the resolved values (SI units) are printed.
    """
    if params is None:
        click.echo(default_params_text(), nl=False)
    else:
        click.echo(params)
