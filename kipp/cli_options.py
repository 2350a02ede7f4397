"""Options and errors shared by several subcommands: ``--params FILE``, ``--seed``, UserError."""

from __future__ import annotations

import click

from sim.params import ParamsError, load_params


class UserError(click.ClickException):
    """A mistake in the user's input: printed as one ``Error: ...`` line, exit code 2."""

    exit_code = 2


def _load(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    try:
        return load_params(value)
    except ParamsError as error:
        raise UserError(f"--params: {error}") from None


params_option = click.option(
    "--params", "params", metavar="FILE", default=None, callback=_load,
    help="TOML parameter file overriding the defaults (see `kipp params`).",
)

seed_option = click.option(
    "--seed", type=click.IntRange(min=0), default=0, show_default=True,
    help="Root random seed: the same seed and options give the same result.",
)
