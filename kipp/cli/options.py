"""Options and errors shared by several subcommands.

``--params FILE``, ``--seed``, ``--referee NAME``, ``--barrels 12|9``; :class:`UserError`
(one ``Error: ...`` line, exit 2) and :func:`game_config`, which turns the one check of a
game's set-up (:class:`kipp.rules.config.GameConfig`) into such an error.
"""

from __future__ import annotations

from typing import Callable

import click

from kipp.rules.config import BARREL_COUNTS, ConfigError, GameConfig, check_player_count
from sim.params import Params, ParamsError, load_params
from sim.referees import make_referee as _referee_by_name
from sim.referees import referee_names
from sim.tower import Referee

_CONFIG_OPTIONS = {"players": "--players", "barrels": "--barrels", "half_turn": "--half-turn",
                   "sea_dogs": "--sea-dogs"}
"""GameConfig fields set by command-line options: their errors name the option."""


class UserError(click.ClickException):
    """A mistake in the user's input: printed as one ``Error: ...`` line, exit code 2."""

    exit_code = 2


def _user_error(error: ConfigError) -> UserError:
    option = _CONFIG_OPTIONS.get(error.field)
    return UserError(f"{option}: {error}" if option else str(error))


def game_config(**fields) -> GameConfig:
    """``GameConfig(**fields)``; its refusal becomes a :class:`UserError` naming the option."""
    try:
        return GameConfig(**fields)
    except ConfigError as error:
        raise _user_error(error) from None


def player_count(n: int) -> int:
    """``n`` if that many players can play, else a :class:`UserError` (GameConfig's check)."""
    try:
        check_player_count(n)
    except ConfigError as error:
        raise _user_error(error) from None
    return n


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


def _barrels(ctx: click.Context, param: click.Parameter, value) -> int:
    text = str(value).strip()
    if not text.isdigit() or int(text) not in BARREL_COUNTS:
        raise UserError(f"--barrels: expected {' or '.join(map(str, BARREL_COUNTS))}, got {value!r}")
    return int(text)


barrels_option = click.option(
    "--barrels", default=str(BARREL_COUNTS[0]), show_default=True, metavar="|".join(map(str, BARREL_COUNTS)),
    callback=_barrels, help="Barrels per round (9: the younger sailors' variant).",
)


def check_referee(name: str, what: str = "--referee") -> str:
    """``name`` if it is a registered referee, else a :class:`UserError` naming the choices."""
    if name not in referee_names():
        raise UserError(f"{what}: unknown referee {name!r}; expected one of {', '.join(referee_names())}")
    return name


def referee_option(default: str | Callable[[], str], default_help: str | None = None):
    """``--referee NAME``, one of :func:`sim.referees.referee_names`, checked in a callback.

    ``default`` is a name or a function giving one (evaluated when the command runs);
    ``default_help`` describes it in ``--help`` (default: the name).
    """
    names = referee_names()
    shown = default_help if default_help is not None else str(default)
    return click.option(
        "--referee", "referee_name", default=default, metavar="|".join(names),
        callback=lambda ctx, param, value: check_referee(value),
        help=f"Who decides crashes: {', '.join(names)} (physics is the ground truth; fast and hybrid "
             f"are faster approximations, see `kipp bench`) [default: {shown}].",
    )


def make_referee(name: str, params: Params) -> Referee:
    """The referee called ``name``, as every command builds it (tests replace this function to avoid physics)."""
    return _referee_by_name(name, params)
