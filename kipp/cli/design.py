"""``kipp design``: the value of one parameter that gives a target completion rate."""

from __future__ import annotations

import click

from kipp.cli.language_option import command_language
from kipp.cli.options import UserError, bounded, library_error, shown_progress
from kipp.cli.sensitivity import run_options, variant_options
from kipp.cli.tune import check_results_out, check_scheduler, sweep_errors
from kipp.cli.words import Command, Text, paragraphs
from kipp.language import N_, Language


def _value_range(ctx, param, value):
    """``--range LOW,HIGH``: two numbers (checked against the key's allowed range later)."""
    if value is None:
        return None
    try:
        low, high = (float(part) for part in value.split(","))
    except ValueError:
        raise UserError(command_language(ctx).gettext("--range: expected two numbers LOW,HIGH like 2.5,5, got "
                                                      "{value!r}").format(value=value)) from None
    return low, high


@click.command(cls=Command, help=paragraphs(
    Text(N_("The value of one parameter that gives a target completion rate, with a {level} interval."), level="95%"),
    N_("Five values spread over the parameter's range each play --games rounds of --player in the variant asked "
       "for (the same rounds at every value: common random numbers), a logistic response in the parameter is "
       "fitted and inverted at --target, three values near that answer play twice as many rounds more, and the "
       "fit is made again. The interval is a bootstrap over rounds. If the target is not reached anywhere in the "
       "range, it says so (exit code 2). Results do not depend on --workers or --scheduler."),
))
@click.option("--target", default=None, metavar="P",
              help=N_("The completion rate wanted, between 0 and 1, e.g. 0.3."))
@click.option("--param", "key", default="ship.thread_pitch_mm", show_default=True, metavar="KEY",
              help=N_("The parameter to set: any numeric key of the parameter file, dotted as in `kipp params` "
                      "(ship.thread_pitch_mm, friction.mu, barrels.large.mass_g, turn.rate_rev_per_s, ...)."))
@click.option("--range", "value_range", default=None, metavar="LOW,HIGH", callback=_value_range,
              help=N_("Look within this range [default: the parameter's plausible range where kipp sensitivity "
                      "lists one (thread pitch 2.5-5 mm per turn, friction 0.3-0.6, ...), else what the "
                      "parameter file allows]."))
@variant_options
@run_options
def design(target: str | None, key: str, value_range, player: str, barrels: int, half_turn: bool, games: int,
           seed: int, params_path: str | None, referee_name: str, workers: int | None, scheduler: str | None,
           out: str | None, no_progress: bool, language: Language) -> None:
    """``kipp design`` (its help is the ``help`` above): the question asked, answered and printed."""
    from kipp.analysis.executor import Execution, default_workers
    from kipp.analysis.parameters.design import DesignError, Unreachable, ask, format_answer
    from kipp.analysis.parameters.design import design as answer_question
    from kipp.analysis.rounds import RoundModel

    if target is None:
        raise UserError(language.gettext("--target: which completion rate? e.g. --target 0.3"))
    wanted = bounded("--target", 0.0, 1.0, target)
    scheduler = check_scheduler(scheduler)
    out = check_results_out(out)
    try:
        question = ask(RoundModel(barrels, half_turn, player=player), key, wanted, seed=seed, rounds=games,
                       params_path=params_path, value_range=value_range, referee_name=referee_name)
        with sweep_errors(out):
            answer = answer_question(question, params_path=params_path, out=out,
                                     execution=Execution(workers or default_workers(), scheduler,
                                                         shown_progress(no_progress, language)))
    except (DesignError, Unreachable) as error:
        raise UserError(library_error(error)) from None
    click.echo(format_answer(answer, language))
