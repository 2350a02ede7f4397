"""``kipp tune``: difficulty of barrel orders (the sweeps are :mod:`kipp.analysis.difficulty.sweeps`'s; the
options it shares with ``kipp compare`` are :mod:`kipp.cli.options`'). The command builds what it runs
(:class:`Sweep`, :class:`~kipp.analysis.executor.Execution`, :class:`Outputs`) and hands them on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

from kipp.analysis.difficulty.confirm import ROUNDS as CONFIRM_ROUNDS
from kipp.analysis.difficulty.quality_plan import (
    FAST_ANCHORS_PER_PHYSICS,
    SAMPLED_FROM,
    SAMPLED_ORDERS,
    SAMPLED_ROUNDS,
    TOPPED_FAST_ROUNDS,
    Plan,
)
from kipp.cli.language_option import command_language, language_option
from kipp.cli.options import (
    MAX_ROUNDS,
    UserError,
    barrels_option,
    bounded,
    check_output,
    check_plot,
    check_results_out,
    check_scheduler,
    library_error,
    player_model_option,
    progress_option,
    referee_option,
    results_path,
    save_csv,
    save_plot,
    shown_progress,
    sweep_errors,
    sweep_options,
    whole_number,
)
from kipp.cli.words import Command, Number, Text, paragraphs
from kipp.language import N_, Language
from kipp.players.bots import WILD_POLICIES, Bot
from sim.params import Params

if TYPE_CHECKING:
    from kipp.analysis.executor import Execution
    from kipp.analysis.rounds import RoundModel

MAX_SIGMA_MM = 20.0
"""``--sigma-mm`` at most: the parameter file's placement.sigma_mm range (20 mm misses a 26 mm barrel)."""


@dataclass(frozen=True)
class Sweep:
    """What every form of ``kipp tune`` plays: the orders (and the ``--orders`` text that named them),
    the player model and variant with its bot, the parameter set and the root seed."""

    orders: list[tuple[str, ...]]
    orders_spec: str
    model: RoundModel
    bot: Bot
    params: Params
    seed: int


@dataclass(frozen=True)
class Outputs:
    """What ``kipp tune`` writes besides its table: ``--out``, ``--plot``, ``--csv`` (None: not asked
    for), and the table's ``--top`` rows of the hardest and of the easiest orders."""

    out: str | None
    plot: str | None
    csv: str | None
    top: int


def _physics_orders(ctx, param, value):
    """``--physics-orders``: ``all`` (0: every order plays the paired rounds) or a whole number >= 2."""
    if value is not None and str(value).strip() == "all":
        return 0
    try:
        return whole_number("--physics-orders", 2)(ctx, param, value)
    except UserError:
        raise UserError(command_language(ctx).gettext("--physics-orders: expected all or a whole number >= 2, got "
                                                      "{value!r}").format(value=value)) from None


def _half_widths(ctx, param, value):
    """``--half-widths``: ``BARRELS,P``, two positive numbers (P below 1)."""
    if value is None:
        return None
    _ = command_language(ctx).gettext
    parts = [part.strip() for part in str(value).split(",")]
    try:
        barrels, p = (float(part) for part in parts)
    except ValueError:
        raise UserError(_("--half-widths: expected two numbers BARRELS,P like 0.15,0.07, got {value!r}").format(
            value=value)) from None
    if not (0 < barrels <= 12 and 0 < p < 1):
        raise UserError(_("--half-widths: expected 0 < BARRELS <= 12 and 0 < P < 1, got {value!r}").format(
            value=value))
    return barrels, p


tune_referee_option = referee_option(
    lambda: None, N_("the physics-quality estimate: fast rounds for every order, corrected by rounds every "
                     "order also plays with physics; a name plays every round with that one referee"))


def _tune_options(command):
    return sweep_options(command, referee=tune_referee_option)


def check_find(text: str | None, n_orders: int):
    """``--find`` parsed for ``n_orders`` orders (one-line error otherwise)."""
    if text is None:
        return None
    from kipp.analysis.difficulty.racing import FindError, parse_find

    try:
        return parse_find(text, n_orders)
    except FindError as error:
        raise UserError(f"--find: {library_error(error)}") from None


def _orders(spec: str, barrels: int, seed: int) -> list[tuple[str, ...]]:
    """``--orders`` resolved (one-line error for a bad spec or an unreadable file)."""
    from kipp.analysis.orders import OrderError, resolve_orders

    try:
        return resolve_orders(spec, barrels, seed)
    except OrderError as error:
        raise UserError(f"--orders: {library_error(error)}") from None
    except UnicodeDecodeError as error:
        raise UserError(command_language().gettext(
            "--orders: {spec} is not UTF-8 text (byte {byte} at offset {offset}); expected one order per line").format(
            spec=spec, byte=f"0x{error.object[error.start]:02x}", offset=error.start)) from None
    except OSError as error:
        raise UserError(command_language().gettext("--orders: cannot read {spec} ({reason})").format(
            spec=spec, reason=error.strerror or error)) from None


@click.command(cls=Command, help=paragraphs(
    N_("Rank barrel orders by how hard they make a round."),
    Text(N_("A bot of the player model --player plays rounds of every order to a crash or completion; an order's "
       "difficulty is the share of rounds completed and the mean number of barrels stacked, each with a {level} "
       "interval. Common random numbers: the k-th round of every order uses the same die rolls and the same "
       "placement errors, so orders are compared on equal luck; rounds are played once for every prefix the "
       "orders share."), level="95%"),
    N_("By default the difficulty is estimated at physics quality for little physics: every order plays --rounds "
       "fast rounds and --physics-rounds rounds with both the fast referee and physics, whose differences (pooled "
       "over orders with similar features, and per order) correct the fast rounds; --anchors rounds fix the "
       "level. With --physics-orders N only N orders drawn at random play the correction's rounds (200 by default "
       "when more than 1,000 orders are swept). --half-widths tops up the fast rounds of the orders whose "
       "intervals are still too wide. The intervals include the correction's uncertainty. --referee NAME plays "
       "every round with that referee instead. --find races for the hardest and easiest orders. Results do not "
       "depend on --workers or --scheduler."),
))
@click.option("--orders", "orders_spec", default="sample:100", show_default=True, metavar="all|sample:N|FILE",
              help=N_("Which orders: all distinct ones (34,650 with 12 barrels, 1,680 with 9), N drawn at "
                      "random (seeded), or a file with one order per line like LLMSMSLMSLMS (# comments)."))
@click.option("--rounds", default=None, metavar="R", callback=whole_number("--rounds", 1, MAX_ROUNDS),
              help=Text(N_("Rounds played per order (at most {max_rounds}) [default: {fast_rounds} fast rounds for "
                           "the physics-quality estimate, {topped_rounds} with --half-widths (the top-up gives more "
                           "to the orders that need them), 200 with --referee; with --find, the most any order "
                           "plays: 4,096]."),
                        max_rounds=Number(MAX_ROUNDS), fast_rounds=Plan.fast_rounds, topped_rounds=TOPPED_FAST_ROUNDS))
@click.option("--physics-rounds", default=None, metavar="P", callback=whole_number("--physics-rounds", 2, MAX_ROUNDS),
              help=Text(N_("Physics-quality estimate: rounds every order also plays with both referees (the "
                           "correction), or with --physics-orders each sampled order [default: {paired_rounds}, "
                           "or {sampled_rounds} for each sampled order]."),
                        paired_rounds=Plan.paired_rounds, sampled_rounds=SAMPLED_ROUNDS))
@click.option("--physics-orders", default=None, metavar="N|all", callback=_physics_orders,
              help=Text(N_("Physics-quality estimate: play the correction on N orders drawn at random instead (all: "
                           "on every order), each --physics-rounds rounds of its own with both referees; a model of "
                           "it carries it to the rest (on the orders' --correction-features where they predict it "
                           "out of sample; else its mean), with an order effect in the intervals, and the sample "
                           "fixes the level (no physics anchors). For large sweeps: the physics rounds of every "
                           "order cost the more, and the less predictably, the longer towers stand (they share few "
                           "prefixes that a crash cuts short) [default: every order when at most {sampled_from} "
                           "are swept, else {sampled_orders} drawn at random]."),
                        sampled_from=Number(SAMPLED_FROM), sampled_orders=Number(SAMPLED_ORDERS)))
@click.option("--correction-features", default=None, type=click.Choice(["summary", "layout"]),
              help=N_("Physics-quality estimate: the orders' features the correction's model may use: summary "
                      "(where the large and the medium barrels sit on average, and which size is at the bottom; "
                      "tried from 100 sampled orders on) or layout (which size sits at each position, and which "
                      "sizes stand on which; from 520 orders with twelve barrels: the only set before the summary) "
                      "[default: summary with --physics-orders sampling, else layout]."))
@click.option("--anchors", default=str(Plan.physics_anchors), show_default=True, metavar="A",
              callback=whole_number("--anchors", 2, MAX_ROUNDS),
              help=Text(N_("Physics-quality estimate: rounds of randomly drawn orders played by both referees, "
                           "which fix the level ({fast_per_physics} x A more are played by the fast referee "
                           "alone)."), fast_per_physics=FAST_ANCHORS_PER_PHYSICS))
@click.option("--half-widths", default=None, metavar="BARRELS,P", callback=_half_widths,
              help=Text(N_("Physics-quality estimate: after the planned rounds, give every order whose {level} "
                      "interval is still wider than BARRELS barrels stacked or P on P(complete) more fast rounds, "
                      "as many as its variance says it needs (in up to 12 top-up stages, at most 8 x --rounds per "
                      "order; an order whose correction alone is wider gets none), e.g. 0.15,0.07 [default: the "
                      "planned rounds only]."), level="95%"))
@click.option("--find", "find", default=None, metavar="hardest:N,easiest:M",
              help=Text(N_("Race instead of sweeping: find the N hardest and M easiest orders (fewest / most barrels "
                      "stacked) at {level} confidence, giving rounds only to orders still in doubt; --referee plays "
                      "the race [default there: physics]."), level="95%"))
@barrels_option
@click.option("--half-turn", is_flag=True, help=N_("Sailors turn half a revolution (younger sailors)."))
@player_model_option("--player", N_("Who plays the rounds:"))
@click.option("--sigma-mm", default=None, metavar="S",
              help=N_("Override the player model's placement error, standard deviation per axis, mm (0 to 20) "
                      "[default: the model's]."))
@click.option("--wild", default=None, metavar="|".join(WILD_POLICIES),
              help=N_("Override the player model's choice on a wild roll: the sailor that levels the deck best, "
                      "a random one, or (balance aim only) the one chosen with the aim [default: the model's]."))
@_tune_options
@click.option("--out", default=None, metavar="FILE.sqlite",
              help=N_("Results file, written as orders finish (by one run at a time: a second run on it is "
                      "refused); rerun with the same file to resume."))
@click.option("--plot", default=None, metavar="FILE.png", help=N_("Plot the distribution of difficulty and "
              "difficulty against the mean position of the large barrels."))
@click.option("--csv", "csv_out", default=None, metavar="FILE.csv[.gz]",
              help=N_("Also write every order's difficulty with its intervals as a CSV table (gzip for .gz)."))
@click.option("--top", default="10", show_default=True, metavar="N", callback=whole_number("--top", 1),
              help=N_("Rows of the hardest and of the easiest orders to print."))
@click.option("--confirm", "confirm_top", default=None, metavar="N", callback=whole_number("--confirm", 1),
              help=Text(N_("Physics-quality estimate: after the sweep, play its N hardest and N easiest orders (by "
                           "barrels stacked) again, {confirm_rounds} fast rounds each of their own, and print their "
                           "values with the sweep's correction (the sweep's shared rounds move orders of one family "
                           "together, and the extremes are also those whose noise pointed that way, so their values "
                           "can be off by more than their intervals) [default: no confirmation]."),
                        confirm_rounds=Number(CONFIRM_ROUNDS)))
@progress_option
@language_option
def tune(orders_spec: str, rounds: int | None, physics_rounds: int | None, physics_orders: int | None,
         correction_features: str | None, anchors: int, half_widths: tuple[float, float] | None, find: str | None,
         barrels: int, half_turn: bool, player: str, sigma_mm: str | None, wild: str | None, seed: int,
         params: Params, referee_name: str | None, workers: int | None, scheduler: str | None,
         out: str | None, plot: str | None, csv_out: str | None, top: int, confirm_top: int | None,
         no_progress: bool, language: Language) -> None:
    """``kipp tune`` (its help is the ``help`` above): the options checked, then a sweep, a race or the
    physics-quality estimate, and its table.
    """
    from kipp.analysis.executor import Execution, default_workers
    from kipp.analysis.rounds import RoundModel

    _, number = language.gettext, language.decimal
    sigma = bounded("--sigma-mm", 0.0, MAX_SIGMA_MM, sigma_mm)
    if wild is not None and wild not in WILD_POLICIES:
        raise UserError(_("--wild: expected one of {choices}, got {wild!r}").format(
            choices=", ".join(WILD_POLICIES), wild=wild))
    model = RoundModel(barrels, half_turn, sigma, wild, player)
    try:
        bot = model.bot(params)
    except ValueError as error:  # e.g. --wild joint for a model that aims at the centre
        raise UserError(f"--wild: {error}") from None
    scheduler = check_scheduler(scheduler)
    out = check_results_out(out)
    plot = check_plot(plot)
    csv_out = check_output("--csv", csv_out)
    orders = _orders(orders_spec, barrels, seed)
    question = check_find(find, len(orders))
    for name, value in (("--half-widths", half_widths), ("--confirm", confirm_top)):
        if value is not None and (question is not None or referee_name is not None):
            raise UserError(_("{option}: only for the physics-quality estimate (not with --find or --referee)")
                            .format(option=name))
    if confirm_top is not None and 2 * confirm_top > len(orders):
        raise UserError(_("--confirm: {top} hardest and {top} easiest are more than the {orders} orders swept")
                        .format(top=number(confirm_top), orders=number(len(orders))))
    sweep = Sweep(orders, orders_spec, model, bot, params, seed)
    execution = Execution(workers or default_workers(), scheduler, shown_progress(no_progress, language))
    outputs = Outputs(out, plot, csv_out, top)
    if question is not None:
        _race(sweep, question, referee_name or "physics", execution, max_rounds=rounds or 4096)
    elif referee_name is None:
        if rounds == 1:
            raise UserError(_("--rounds: the physics-quality estimate needs at least 2 rounds per order "
                              "(or name one --referee)"))
        if physics_orders and physics_orders > len(orders):
            raise UserError(_("--physics-orders: {count} is more than the {orders} orders swept").format(
                count=number(physics_orders), orders=number(len(orders))))
        plan = Plan.for_orders(len(orders), fast_rounds=rounds, paired_rounds=physics_rounds,
                               paired_orders=physics_orders, physics_anchors=anchors, half_widths=half_widths,
                               correction_features=correction_features)
        _quality(sweep, plan, confirm_top, execution, outputs)
    else:
        _one_referee(sweep, rounds or 200, referee_name, execution, outputs)


def _one_referee(sweep: Sweep, rounds: int, referee_name: str, execution: Execution, outputs: Outputs) -> None:
    from kipp.analysis.difficulty.sweeps import TuneRun, format_table, game_words, referee_sweep
    from kipp.analysis.plots import tune_figure
    from sim.params import params_fingerprint

    model, bot, out = sweep.model, sweep.bot, outputs.out
    run = TuneRun(model, sweep.seed, rounds, referee_name, params_fingerprint(sweep.params), sweep.orders_spec)
    with results_path(out) as path, sweep_errors(out):
        summaries = referee_sweep(run, sweep.orders, sweep.params, path, workers=execution.workers,
                                  scheduler=execution.scheduler, progress=execution.progress)
    click.echo(command_language().gettext(
        "{orders} orders x {rounds} rounds, {game}; player: {player} (aim {aim}, sigma {sigma} mm, wild {wild}); "
        "referee {referee}; seed {seed}").format(
        orders=len(sweep.orders), rounds=rounds, game=game_words(model, command_language()), player=model.player,
        aim=bot.aim,
        sigma=command_language().decimal(float(bot.sigma_mm)), wild=bot.wild, referee=referee_name, seed=sweep.seed))
    click.echo(format_table(summaries, outputs.top, command_language()))
    if out is not None:
        click.echo(command_language().gettext("Counts of every order: {path}").format(path=out))
    if outputs.csv is not None:
        save_csv(summaries, outputs.csv, f"kipp tune, referee {referee_name}, {rounds} rounds per order, player "
                                         f"{model.player}, {game_words(model)}, seed {sweep.seed}")
    if outputs.plot is not None:
        save_plot(tune_figure(summaries, f"{model.player}, {referee_name} referee, {rounds} rounds per order"),
                  outputs.plot)


def _quality(sweep: Sweep, plan: Plan, confirm_top: int | None, execution: Execution, outputs: Outputs) -> None:
    from kipp.analysis.difficulty.confirm import format_report
    from kipp.analysis.difficulty.quality_plan import QualityRun
    from kipp.analysis.difficulty.quality_sweep import format_quality, summaries
    from kipp.analysis.difficulty.sweeps import describe, game_words, quality_sweep
    from kipp.analysis.plots import tune_figure
    from sim.params import params_fingerprint

    model, out = sweep.model, outputs.out
    run = QualityRun(model, sweep.seed, plan, params_fingerprint(sweep.params), sweep.orders_spec)
    with results_path(out) as path, sweep_errors(out):
        done = quality_sweep(run, sweep.orders, sweep.params, path, workers=execution.workers,
                             scheduler=execution.scheduler, progress=execution.progress, confirm_top=confirm_top)
    result = done.result
    click.echo(command_language().gettext("{sweep}; seed {seed}").format(
        sweep=describe(model, sweep.bot, len(sweep.orders), command_language()), seed=sweep.seed))
    click.echo(format_quality(result, outputs.top, command_language()))
    if done.confirmed is not None:
        click.echo(format_report(done.confirmed, command_language()))
    if out is not None:
        click.echo(command_language().gettext("Totals of every order: {path}").format(path=out))
    if outputs.csv is not None:
        save_csv(summaries(result), outputs.csv, f"kipp tune, physics-quality estimate {plan}, player {model.player}, "
                                                 f"{game_words(model)}, seed {sweep.seed}, wall {result.wall_s:.0f} s, "
                                                 f"physics share {result.physics_share:.3f}")
    if outputs.plot is not None:
        save_plot(tune_figure(summaries(result), f"{model.player}, physics quality ({plan.fast_rounds} fast rounds "
                                                 "per order, corrected)"), outputs.plot)


def _race(sweep: Sweep, question, referee_name: str, execution: Execution, *, max_rounds: int) -> None:
    from kipp.analysis.difficulty.racing import format_race, race_orders
    from kipp.analysis.difficulty.sweeps import describe

    with sweep_errors(None):
        result = race_orders(sweep.orders, sweep.model, referee_name, sweep.params, sweep.seed,
                             question, workers=execution.workers, scheduler=execution.scheduler,
                             max_rounds=max_rounds, progress=execution.progress)
    click.echo(command_language().gettext("{sweep}; referee {referee}; seed {seed}").format(
        sweep=describe(sweep.model, sweep.bot, len(sweep.orders), command_language()), referee=referee_name,
        seed=sweep.seed))
    click.echo(format_race(result, sweep.orders, language=command_language()))
