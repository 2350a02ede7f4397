"""``kipp play``: the game on screen, people and bots (the window: :mod:`kipp.cli.window`)."""

from __future__ import annotations

import re

import click
from click.core import ParameterSource

from kipp.cli.language_option import language_option
from kipp.cli.options import (
    barrels_option,
    check_output,
    check_player_model,
    game_config,
    params_option,
    parse_players,
)
from kipp.cli.window import (
    ensure_display,
    max_frames_option,
    mute_option,
    require_pygame,
    run_viewer,
    screenshot_option,
)
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, Language
from sim.params import Params

GAME_OPTIONS = ("players", "barrels", "half_turn", "sea_dogs", "hints", "confirm", "seed", "record")
"""Options that set up a game: any of them starts it at once; without them the start screen opens."""

_BOT_NAME = re.compile(r"bot\s*\d*(?::\s*(?P<model>\S+))?", re.IGNORECASE)


def parse_seats(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``--players "Ann,Ben,bot"`` -> (names, indices of bot players).

    A name "bot" (or "bot 2", any case) makes a bot, named Bot 1, Bot 2, ... by seat
    order; every other name is a person. A count N (1-4) means you and N - 1 bots:
    ``3`` is "You,bot,bot". The text is read by :func:`kipp.cli.options.parse_players`,
    as ``kipp game`` reads it; how many may play is
    :class:`kipp.rules.config.GameConfig`'s to check. ``bot:MODEL`` names the bot's player
    model (:func:`parse_bot_models`).
    """
    names, bots, _ = parse_bot_models(text)
    return names, bots


def parse_bot_models(text: str) -> tuple[tuple[str, ...], tuple[int, ...], dict[int, str]]:
    """(names, bot seats, player model per bot seat): ``"Ann,bot:skilled,bot:novice"``.

    A bare ``bot`` plays the default model (casual); an unknown model is a one-line error
    listing the known ones.
    """
    from kipp.players.models import DEFAULT_MODEL

    players = parse_players(text)
    names = ["You"] + ["bot"] * (players - 1) if isinstance(players, int) else list(players)
    models: dict[int, str] = {}
    for i, name in enumerate(names):
        match = _BOT_NAME.fullmatch(name)
        if match:
            models[i] = check_player_model("--players", (match.group("model") or DEFAULT_MODEL).lower())
    bots = tuple(models)
    for k, i in enumerate(bots, start=1):
        base = f"Bot {k}" if len(bots) > 1 else "Bot"
        names[i] = base if models[i] == DEFAULT_MODEL else f"{base} ({models[i]})"
    return tuple(names), bots, models


def _language_given(context: click.Context) -> bool:
    """Was ``--language`` given on the command line, to ``kipp play`` or to the ``kipp`` group before it?"""
    sources = [ctx.get_parameter_source("language") for ctx in (context, context.parent) if ctx is not None]
    return any(source not in (None, ParameterSource.DEFAULT) for source in sources)


@click.command(cls=Command, help=paragraphs(
    N_("Play Kipp, Kipp, Ahoi! in a window: people and bots, physics in real time."),
    N_("Without options the window opens on the start screen: seat up to four players (people by name, bots by "
       "player model), choose the variants and the hint, and start; the last choices are remembered. Any of "
       "--players, --barrels, --half-turn, --sea-dogs, --hints, --confirm, --seed or --record starts a game at "
       "once."),
    N_("Space or a click on the die rolls; on a wild roll click a sailor (or 1/2/3); the next barrel follows the "
       "mouse (or the arrow keys) and a click (or Enter) lets it go; P passes in Old Sea Dogs (it costs a chip); B "
       "shows the balance hint (where a careful player would set the barrel, how close the tower is to tipping; on "
       "from the start with --hints); H or ? shows how to play; N starts a new game and Esc quits (both ask first "
       "during a game). The first start opens on the how-to-play screen."),
    N_("The window speaks German or English: --language if given, else the language last chosen on the start "
       "screen (remembered with its other choices), else the system's locale (LANG=de_DE.UTF-8 gives German; else "
       "English)."),
))
@click.option("--players", default="You,bot", show_default=True, metavar="N|NAMES",
              help=N_('Comma-separated names in seating order; "bot" makes a bot: "Ann,Ben,bot" (1-4 players), '
                      '"bot:MODEL" a bot of a player model: "Ann,bot:skilled,bot:novice" (every model is in '
                      '`kipp game --help`; a bare bot is casual). '
                      'A count N is you and N-1 bots: 3 is "You,bot,bot"; one name ("Ann") is a one-player game. '
                      "A name must not be a number."))
@barrels_option
@click.option("--half-turn", is_flag=True, help=N_("Sailors turn half a revolution (younger sailors)."))
@click.option("--sea-dogs", is_flag=True, help=N_("Old Sea Dogs: passing allowed, a crash costs 2 chips."))
@click.option("--hints", is_flag=True,
              help=N_("Start with the balance hint on (B turns it on and off): a purple mark where the bots' "
                      "balance judgement would set your barrel, and how many degrees of tilt the tower has to "
                      "spare."))
@click.option("--confirm", is_flag=True,
              help=N_("Ask before letting a barrel go: a click (or Enter) holds it where it is, a second click "
                      "(or Enter) lets it go; the arrows, Backspace or Esc aim again."))
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="N",
              help=N_("Root random seed of the first game (the next ones use N+1, N+2, ...): the same seed and "
                      "players give the same barrel lines and dice. Default: fresh luck, a new seed each game, "
                      "shown on the end screen and in the help card so a good game can be played again."))
@click.option("--record", default=None, metavar="FILE.jsonl",
              help=N_("Write the game to FILE.jsonl as it is played, in the replay format of `kipp game --json` "
                      "(the next games to FILE-2.jsonl, ...): `kipp replay FILE.jsonl` shows it again, also a game "
                      "stopped half-way. R in the window records the game being played into your data folder."))
@language_option
@mute_option
@params_option
@max_frames_option(N_("Quit after N frames (for documentation and tests; runs headless without a display)"))
@screenshot_option(N_("Save the last frame as a PNG."))
def play(players: str, barrels: int, half_turn: bool, sea_dogs: bool, hints: bool, confirm: bool, seed: int | None,
         record: str | None, language: Language, mute: bool, params: Params, max_frames: int | None,
         screenshot: str | None) -> None:
    """``kipp play`` (its help is the ``help`` above): the start screen, or a game set up by the options."""
    require_pygame("kipp play")
    screenshot = check_output("--screenshot", screenshot, suffix=".png")
    record = check_output("--record", record, suffix=".jsonl")
    context = click.get_current_context()
    chosen = [name for name in GAME_OPTIONS if context.get_parameter_source(name) is not ParameterSource.DEFAULT]
    names, bot_seats, models = parse_bot_models(players)
    game_config(players=names, barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)  # checks the set-up
    ensure_display(max_frames is not None or screenshot is not None)

    from kipp.rules.play import fresh_seed
    from viewer.controller import GameController
    from viewer.setup import GameSetup, Seat, SeatKind, load_setup, window_language

    remembered = load_setup()
    if chosen:
        seats = tuple(Seat(SeatKind.BOT, model=models[i]) if i in bot_seats else Seat(SeatKind.PERSON, name)
                      for i, name in enumerate(names))
        setup = GameSetup(seats=seats, barrels=barrels, half_turn=half_turn,
                          sea_dogs=sea_dogs, hints=hints, confirm=confirm, language=remembered.language)
    else:
        setup = remembered
    given = language if _language_given(context) else None

    def games(setup: GameSetup):
        config, bots = setup.config(), setup.bots(params)

        def new_controller(games: int) -> GameController:
            return GameController(config, params, seed=fresh_seed() if seed is None else seed + games, bots=bots,
                                  confirm=setup.confirm)
        return new_controller

    run_viewer(games(setup), max_frames, screenshot, help_at_start=True, hints=setup.hints, games=games,
               setup=setup, start_screen=not chosen, mute=mute, record=record,
               language=window_language(given, setup))
