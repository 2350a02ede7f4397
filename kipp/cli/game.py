"""``kipp game``: a whole game headless, bots only, as a transcript or JSON lines.

Referees come from :mod:`sim.referees`, which imports pymunk only when one is made, so
``kipp --help`` stays light.
"""

from __future__ import annotations

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import (
    barrels_option,
    game_config,
    params_option,
    parse_players,
    physics_errors,
    player_model_option,
    referee_option,
    seed_option,
)
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, Language
from kipp.players.models import make_bot
from kipp.rules.play import play_game
from kipp.rules.state import IllegalActionError
from kipp.rules.transcript import Narrator, json_line, with_header
from sim.params import Params, params_fingerprint
from sim.referees import make_referee


def bot_names(players: int | tuple[str, ...]) -> tuple[str, ...]:
    """The seats of ``kipp game``: a count N names Bot 1 .. Bot N; names label the bots."""
    if isinstance(players, int):
        return tuple(f"Bot {i}" for i in range(1, players + 1))
    return players


@click.command(cls=Command, help=paragraphs(
    N_("Play a whole game headless with bots and print its transcript."),
    N_("Every player is a bot of the player model --bots (casual by default: aims at the centre with the "
       "parameter set's placement error, 1.5 mm by default; levels the deck on a wild roll; passes on its own "
       "crash estimate in Old Sea Dogs). The same seed and options give the same transcript; save the --json "
       "output to check it later with `kipp replay FILE --check` (the recording names each player's model)."),
))
@click.option("--players", default="2", show_default=True, metavar="N|NAMES",
              help=N_('How many players (1-4), or their names separated by commas: "Ann,Ben" is two players, and '
                      'one name ("Ann") is a one-player game (for practice). Every seat is played '
                      "by a bot; names only label the bots (people play with `kipp play`). A name must not be a "
                      "number."))
@seed_option
@barrels_option
@click.option("--half-turn", is_flag=True, help=N_("Sailors turn half a revolution (younger sailors)."))
@click.option("--sea-dogs", is_flag=True, help=N_("Old Sea Dogs: passing allowed, a crash costs 2 chips."))
@params_option
@click.option("--json", "as_json", is_flag=True, help=N_("One JSON object per line (the replay format)."))
@referee_option("physics")
@player_model_option("--bots", N_("How every bot plays:"))
@language_option
def game(players: str, seed: int, barrels: int, half_turn: bool, sea_dogs: bool,
         params: Params, as_json: bool, referee_name: str, bots: str,
         language: Language) -> None:
    """``kipp game`` (its help is the ``help`` above): the bots play; the transcript or the
    ``--json`` lines go to the standard output as the game goes on."""
    names = bot_names(parse_players(players))
    config = game_config(players=names, barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)
    referee = make_referee(referee_name, params)
    model = bots
    bots = [make_bot(model, name, params) for name in names]
    header = {"seed": seed, "params": params_fingerprint(params), "referee": referee_name,
              "models": [model] * len(names)}
    shown = 0
    narrator = Narrator(list(names), language)

    def show(state, action) -> None:
        nonlocal shown
        events = list(with_header(state.events()[shown:], **header))
        shown += len(events)
        lines = (json_line(e) for e in events) if as_json else narrator.lines(events)
        for line in lines:
            click.echo(line)

    # an IllegalActionError is a bug in a bot, not the user's mistake: it keeps its traceback
    with physics_errors(language.gettext("the game stopped"), keep=(IllegalActionError,)):
        play_game(config, referee, bots, seed, params=params, observer=show)
