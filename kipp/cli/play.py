"""``kipp play``: the game on screen, people and bots (the window: :mod:`kipp.cli.window`)."""

from __future__ import annotations

import re

import click

from kipp.cli.options import UserError, barrels_option, game_config, params_option, seed_option
from kipp.cli.window import ensure_display, run_viewer
from sim.params import Params, load_params

_BOT_NAME = re.compile(r"bot\s*\d*", re.IGNORECASE)


def parse_seats(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``--players "Ann,Ben,bot"`` -> (names, indices of bot players).

    A name "bot" (or "bot 2", any case) makes a bot, named Bot 1, Bot 2, ... by seat
    order; every other name is a person. How many may play is
    :class:`kipp.rules.config.GameConfig`'s to check.
    """
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise UserError(f"--players: expected comma-separated names such as \"Ann,Ben,bot\", got {text!r}")
    bots = tuple(i for i, name in enumerate(names) if _BOT_NAME.fullmatch(name))
    for k, i in enumerate(bots, start=1):
        names[i] = f"Bot {k}" if len(bots) > 1 else "Bot"
    return tuple(names), bots


@click.command()
@click.option("--players", default="You,bot", show_default=True, metavar="NAMES",
              help='Comma-separated names in seating order; "bot" makes a bot: "Ann,Ben,bot" (1-4).')
@barrels_option
@click.option("--half-turn", is_flag=True, help="Sailors turn half a revolution (younger sailors).")
@click.option("--sea-dogs", is_flag=True, help="Old Sea Dogs: passing allowed, a crash costs 2 chips.")
@seed_option
@params_option
@click.option("--max-frames", type=click.IntRange(min=1), default=None, metavar="N",
              help="Quit after N frames (for documentation and tests; runs headless without a display).")
@click.option("--screenshot", default=None, metavar="PATH", help="Save the last frame as a PNG.")
def play(players: str, barrels: int, half_turn: bool, sea_dogs: bool, seed: int, params: Params | None,
         max_frames: int | None, screenshot: str | None) -> None:
    """Play Kipp, Kipp, Ahoi! in a window: people and bots, physics in real time.

    Space or a click on the die rolls; on a wild roll click a sailor (or 1/2/3); the
    next barrel follows the mouse (or the arrow keys) and a click (or Enter) lets it
    go; P passes in Old Sea Dogs (it costs a chip); H or ? shows how to play; N starts
    a new game and Esc quits (both ask first during a game). The first start opens on
    the how-to-play screen.
    """
    names, bot_seats = parse_seats(players)
    config = game_config(players=names, barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)
    ensure_display(max_frames is not None or screenshot is not None)
    params = params if params is not None else load_params()

    from kipp.players.bots import Bot
    from viewer.controller import GameController

    bots = {i: Bot(names[i], params=params, passing="cautious" if sea_dogs else "never") for i in bot_seats}

    def new_controller(games: int) -> GameController:
        return GameController(config, params, seed=seed + games, bots=bots)

    run_viewer(new_controller, max_frames, screenshot, help_at_start=True)
