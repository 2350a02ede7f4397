"""``kipp sensitivity``: how the answers move over each uncertain parameter's plausible range."""

from __future__ import annotations

import click

from kipp.cli.language_option import command_language, language_option
from kipp.cli.options import (
    MAX_ROUNDS,
    UserError,
    _load,
    analysis_referee_option,
    barrels_option,
    check_output,
    check_plot,
    check_results_out,
    check_scheduler,
    library_error,
    player_model_option,
    progress_option,
    save_plot,
    scheduler_option,
    seed_option,
    shown_progress,
    sweep_errors,
    whole_number,
    workers_option,
)
from kipp.cli.words import Command, Text, paragraphs
from kipp.language import N_, Language


def _params_path(ctx, param, value):
    """``--params FILE``, checked to load (one-line error), kept as a path: the arms are the file's
    set with one parameter moved, built through the parameter file's own rules."""
    _load(ctx, param, value)
    return value


params_path_option = click.option("--params", "params_path", metavar="FILE", default=None, callback=_params_path,
                                  help=N_("TOML parameter file overriding the defaults (see `kipp params`); "
                                          "the default arm is this set, each other arm moves one parameter of it."))


def _parameters(ctx, param, value):
    """``--only NAME,NAME``: uncertain parameters by name (one-line error for an unknown one)."""
    from kipp.analysis.parameters.uncertain import UNCERTAIN, by_name

    if value is None:
        return UNCERTAIN
    try:
        return tuple(by_name(name.strip()) for name in value.split(","))
    except KeyError as error:
        from kipp.cli.library_words import library_words

        raise UserError(f"--only: {library_words(error.args[0], command_language(ctx))}") from None


def parameters_help() -> str:
    """The uncertain parameters with their plausible ranges (names and numbers: the same in every language)."""
    from kipp.analysis.parameters.uncertain import UNCERTAIN

    return "; ".join(f"{u.name} ({u.range_text()})" for u in UNCERTAIN)


def variant_options(command):
    """--player, --barrels, --half-turn, --games: the player model and variant measured."""
    for option in reversed((
            player_model_option("--player", N_("Who plays the rounds:")), barrels_option,
            click.option("--half-turn", is_flag=True, help=N_("Sailors turn half a revolution (younger sailors).")),
            click.option("--games", default="200", show_default=True, metavar="N",
                         callback=whole_number("--games", 2, MAX_ROUNDS),
                         help=N_("Rounds per arm (one player's tower, as kipp tune plays them; the same rounds "
                                 "in every arm).")))):
        command = option(command)
    return command


def run_options(command):
    """--seed, --params, --referee, --workers, --scheduler, --out, --no-progress, --language."""
    for option in reversed((
            seed_option, params_path_option, analysis_referee_option, workers_option, scheduler_option,
            click.option("--out", default=None, metavar="FILE.sqlite",
                         help=N_("Results file, written as blocks of rounds finish; rerun with the same file to "
                                 "resume (or with more --games to extend it).")),
            progress_option, language_option)):
        command = option(command)
    return command


@click.command(cls=Command, help=paragraphs(
    N_("Which answers survive the unmeasured toy, and what to measure first."),
    N_("Every default of the parameter file is an assumption until a real set is measured. For each uncertain "
       "parameter, two arms put it at the low and at the high end of its plausible range; every arm, and the "
       "default set, plays the same --games rounds (common random numbers: the same barrel lines, die rolls and "
       "placement errors), so each effect is a paired difference, exactly 0 for a parameter that changes nothing. "
       "Measured per arm: P(complete) and barrels stacked for --player in the variant asked for, the paired "
       "effects of half turns and of nine barrels, and the rank correlation of a fixed panel of 24 barrel orders "
       "(do the hardest and easiest keep their place). The table is sorted by the effect on P(complete); the "
       "headline names the measurement of a real set that would change the answers most. Results do not depend "
       "on --workers or --scheduler."),
))
@variant_options
@run_options
@click.option("--only", "parameters", default=None, metavar="NAME,NAME", callback=_parameters,
              help=Text(N_("Vary only these parameters [default: all: {parameters}]."), parameters=parameters_help()))
@click.option("--plot", default=None, metavar="FILE.png",
              help=N_("A tornado chart: each parameter's effect on P(complete) and on barrels stacked."))
@click.option("--json", "json_out", default=None, metavar="FILE.json",
              help=N_("Also write the effects as JSON (what notebooks/measure_your_set.ipynb reads)."))
def sensitivity(player: str, barrels: int, half_turn: bool, games: int, seed: int, params_path: str | None,
                referee_name: str, workers: int | None, scheduler: str | None, out: str | None, no_progress: bool,
                language: Language, parameters, plot: str | None, json_out: str | None) -> None:
    """``kipp sensitivity`` (its help is the ``help`` above): the arms played, then the table of effects."""
    from kipp.analysis.executor import Execution, default_workers
    from kipp.analysis.parameters.sensitivity import format_result
    from kipp.analysis.parameters.sensitivity import sensitivity as run
    from kipp.analysis.rounds import RoundModel
    from sim.params import ParamsError

    scheduler = check_scheduler(scheduler)
    out = check_results_out(out)
    plot = check_plot(plot)
    json_out = check_output("--json", json_out)
    try:
        with sweep_errors(out):
            result = run(RoundModel(barrels, half_turn, player=player), games, seed=seed, params_path=params_path,
                         parameters=parameters, referee=referee_name,
                         out=out, execution=Execution(workers or default_workers(), scheduler,
                                                 shown_progress(no_progress, language)))
    except ParamsError as error:
        raise UserError(language.gettext("--params: an end of a plausible range is refused: {problem}").format(
            problem=library_error(error))) from None
    click.echo(format_result(result, language))
    if out is not None:
        click.echo(language.gettext("Every round of every arm: {path}").format(path=out))
    if json_out is not None:
        from kipp.analysis.export import write_json
        from kipp.analysis.parameters.sensitivity import to_json

        write_json(to_json(result), json_out)
        click.echo(language.gettext("Effects: {path}").format(path=json_out))
    if plot is not None:
        from kipp.analysis.plots import tornado_figure

        save_plot(tornado_figure(result), plot)
