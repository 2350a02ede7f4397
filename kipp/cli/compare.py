"""``kipp compare``: the standard game against the younger-sailor variants and Old Sea Dogs."""

from __future__ import annotations

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import (
    MAX_ROUNDS,
    UserError,
    check_plot,
    check_results_out,
    check_scheduler,
    player_count,
    player_model_option,
    progress_option,
    save_plot,
    shown_progress,
    sweep_errors,
    sweep_options,
    whole_number,
)
from kipp.cli.words import Command, Number, Text, paragraphs
from kipp.language import N_, Language
from sim.params import Params


@click.command(cls=Command, help=paragraphs(
    N_("Compare the standard game with half turns, nine barrels, both, and Old Sea Dogs."),
    Text(N_("Bots of the player model --player play --games whole games of each arm (as `kipp game --bots`). Per arm: "
       "the share of rounds completed, barrels stacked per round, crashes per game, the winner's chips and the "
       "game's length in turns, each with a {level} interval. Common random numbers: game g of every arm is played "
       "from the same seed (same die rolls, same placement errors), and differences from the standard game are "
       "paired game by game. Results do not depend on --workers or --scheduler."), level="95%"),
))
@click.option("--games", default=None, metavar="N", callback=whole_number("--games", 1, MAX_ROUNDS),
              help=Text(N_("Games per arm (at most {max_games})."), max_games=Number(MAX_ROUNDS)))
@click.option("--players", default="2", show_default=True, metavar="K", callback=whole_number("--players", 1),
              help=N_("Bots per game (1-4)."))
@sweep_options
@click.option("--out", default=None, metavar="FILE.sqlite",
              help=N_("Results file, written as games finish (by one run at a time: a second run on it is "
                      "refused); rerun with the same file to resume (or with more --games to extend it)."))
@click.option("--plot", default=None, metavar="FILE.png", help=N_("Plot every metric per arm with its interval."))
@player_model_option("--player", N_("How every bot plays:"))
@progress_option
@language_option
def compare(games: int, players: int, seed: int, params: Params, referee_name: str,
            workers: int | None, scheduler: str | None, out: str | None, plot: str | None,
            player: str, no_progress: bool, language: Language) -> None:
    """``kipp compare`` (its help is the ``help`` above): the arms played, then their table."""
    from kipp.analysis.compare import format_compare, run_compare
    from kipp.analysis.executor import default_workers

    if games is None:
        raise UserError(language.gettext("--games: how many games per arm? e.g. --games 200"))
    player_count(players)
    scheduler = check_scheduler(scheduler)
    out = check_results_out(out)
    plot = check_plot(plot)
    with sweep_errors(out):
        summaries = run_compare(games, players=players, seed=seed, params=params,
                                referee=referee_name, workers=workers or default_workers(),
                                scheduler=scheduler, progress=shown_progress(no_progress, language), out=out,
                                player=player)
    click.echo(language.gettext("Referee {referee}; player {player}; seed {seed}.").format(
        referee=referee_name, player=player, seed=seed))
    click.echo(format_compare(summaries, players, language))
    if out is not None:
        click.echo(language.gettext("Every game of every arm: {path}").format(path=out))
    if plot is not None:
        from kipp.analysis.compare import compare_figure

        save_plot(compare_figure(summaries, f"{player}, {referee_name} referee, {games} games per arm"), plot)
