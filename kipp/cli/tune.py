"""``kipp tune`` (difficulty of barrel orders) and the options it shares with ``kipp compare``."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from kipp.cli.options import (
    UserError,
    barrels_option,
    bounded,
    check_output,
    params_option,
    player_model_option,
    referee_option,
    removed_on_error,
    seed_option,
)
from kipp.players.bots import WILD_POLICIES
from sim.params import Params, load_params
from sim.referees import referee_names

SAMPLED_FROM = 1000
"""Physics-quality sweeps of more orders than this sample some of them for the correction by
default. Measured on all 1,680 nine-barrel orders with the casual bot: 200 sampled orders x 80
rounds (1,252 CPU s in all) left every order within +-0.135 barrels, where paired rounds of
every order left 3 orders above +-0.15 with 12 rounds (1,654 CPU s) and 291 with 24 (2,630 CPU
s). Shared by all orders, a paired round in which the referees part early moves every order
with that prefix at once: 2 of those 24 rounds carried 80% of the model's round-to-round
variance, so a dozen shared rounds under-sample it."""
SAMPLED_ORDERS, SAMPLED_ROUNDS = 200, 80
"""The default sample of such sweeps: orders, and rounds each. Measured on all 34,650 orders
with the casual bot: the correction's order effect is small (about 0.02 barrels), so its
bound shrinks with fewer orders played longer at the same physics; 200 x 80 left 0.0013
barrels^2 for an unsampled order, against 0.0025 for 2,000 x 8."""
PAIRED_ROUNDS = 12
"""Paired rounds of every order by default, where every order plays them."""
CONFIRM_ROUNDS = 2000
"""``--confirm``: fast rounds of its own for each order confirmed. The 40 extremes of the
nine-barrel casual sweep came out within +-0.06 to +-0.09 barrels stacked, correction included."""


def default_referee() -> str:
    """``hybrid`` when it is registered, else ``physics``."""
    names = referee_names()
    return "hybrid" if "hybrid" in names else "physics"


def _referee_spec(name: str):
    """What the tasks get for the referee ``name`` (tests replace this to avoid physics)."""
    return name


MAX_ROUNDS = 1_000_000
"""``--rounds`` per order and ``--games`` per arm at most (a million physics games run for weeks)."""
MAX_SIGMA_MM = 20.0
"""``--sigma-mm`` at most: the parameter file's placement.sigma_mm range (20 mm misses a 26 mm barrel)."""
MAX_WORKERS = 256
"""``--workers`` at most (each is a process with its own copy of the physics)."""


def whole_number(option: str, minimum: int, maximum: int | None = None):
    """A click callback: ``option`` must be a whole number >= ``minimum`` (and <= ``maximum``;
    one-line error)."""
    def convert(ctx, param, value):
        if value is None:
            return None
        text = str(value).strip()
        if not (text.isascii() and text.isdigit()) or int(text) < minimum:
            raise UserError(f"{option}: expected a whole number >= {minimum}, got {value!r}")
        if maximum is not None and int(text) > maximum:
            raise UserError(f"{option}: expected a whole number from {minimum} to {maximum:,}, got {value!r}")
        return int(text)
    return convert


def _physics_orders(ctx, param, value):
    """``--physics-orders``: ``all`` (0: every order plays the paired rounds) or a whole number >= 2."""
    if value is not None and str(value).strip() == "all":
        return 0
    try:
        return whole_number("--physics-orders", 2)(ctx, param, value)
    except UserError:
        raise UserError(f"--physics-orders: expected all or a whole number >= 2, got {value!r}") from None


def _half_widths(ctx, param, value):
    """``--half-widths``: ``BARRELS,P``, two positive numbers (P below 1)."""
    if value is None:
        return None
    parts = [part.strip() for part in str(value).split(",")]
    try:
        barrels, p = (float(part) for part in parts)
    except ValueError:
        raise UserError(f"--half-widths: expected two numbers BARRELS,P like 0.15,0.07, got {value!r}") from None
    if not (0 < barrels <= 12 and 0 < p < 1):
        raise UserError(f"--half-widths: expected 0 < BARRELS <= 12 and 0 < P < 1, got {value!r}")
    return barrels, p


def check_scheduler(address: str | None) -> str | None:
    if address is not None and "://" not in address:
        raise UserError(f"--scheduler: expected an address like tcp://HOST:PORT, got {address!r}")
    return address


def check_plot(path: str | None) -> str | None:
    """``--plot FILE.png``, checked before the sweep (:func:`kipp.cli.options.check_output`)."""
    return check_output("--plot", path, suffix=".png")


def check_results_out(path: str | None) -> str | None:
    """``--out FILE`` of a sweep: a path a results file can be written at (an existing file
    is checked to be one when the sweep opens it, and resumed)."""
    return check_output("--out", path)


def save_plot(fig, path: str) -> None:
    """Write the figure to ``--plot`` and say so; an unwritable file is a one-line error."""
    from kipp.analysis.plots import save

    try:
        save(fig, path)
    except OSError as error:
        raise UserError(f"--plot: cannot write {path}: {error.strerror or error}") from None
    click.echo(f"Plot: {path}")


@contextlib.contextmanager
def sweep_errors(out: str | None = None):
    """Turn a results file or executor refusal during a sweep into the one-line CLI error.

    A results file ``out`` that this run created is removed if the run fails (an
    unreachable --scheduler, say): a refused run leaves nothing behind. One that existed
    before is kept, as is one that holds the finished part of an interrupted run.
    """
    from kipp.analysis.results_store import ResultsFileError
    from kipp.analysis.sweep import ExecutorError

    try:
        with _removed_if_empty(out):
            yield
    except ResultsFileError as error:
        raise UserError(f"--out: {error}") from None
    except ExecutorError as error:
        raise UserError(str(error)) from None


def _holds_results(path: str) -> bool:
    """Does the SQLite file ``path`` hold any finished item (a row of table ``results``)?"""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return db.execute("SELECT EXISTS (SELECT 1 FROM results)").fetchone()[0] == 1
    except sqlite3.Error:
        return False


def _removed_if_empty(out: str | None):
    """Remove ``out`` on an error if this run created it and it holds no results yet."""
    return removed_on_error(out, keep=_holds_results)


workers_option = click.option(
    "--workers", default=None, metavar="N", callback=whole_number("--workers", 1, MAX_WORKERS),
    help=f"Worker processes (default: all cores; at most {MAX_WORKERS}); 1 runs in this process.")
scheduler_option = click.option(
    "--scheduler", default=None, metavar="tcp://HOST:PORT",
    help="Run the tasks on this Dask cluster instead (needs the 'dask' extra; workers need kipp installed).")
analysis_referee_option = referee_option(default_referee, "hybrid if available, else physics")
progress_option = click.option("--no-progress", is_flag=True, help="No progress bar (it goes to stderr).")


def sweep_options(command, referee=analysis_referee_option):
    """--seed, --params, --referee, --workers and --scheduler, in that order: what every
    sweep command (``kipp tune``, ``kipp compare``) takes."""
    for option in reversed((seed_option, params_option, referee, workers_option, scheduler_option)):
        command = option(command)
    return command


QUALITY = "physics quality"
"""``kipp tune``'s default: the physics-quality estimate (:mod:`kipp.analysis.physics_quality`)."""
tune_referee_option = referee_option(
    lambda: None, "the physics-quality estimate: fast rounds for every order, corrected by rounds every "
                  "order also plays with physics; a name plays every round with that one referee")


def _tune_options(command):
    return sweep_options(command, referee=tune_referee_option)


def check_find(text: str | None, n_orders: int):
    """``--find`` parsed for ``n_orders`` orders (one-line error otherwise)."""
    if text is None:
        return None
    from kipp.analysis.racing import FindError, parse_find

    try:
        return parse_find(text, n_orders)
    except FindError as error:
        raise UserError(f"--find: {error}") from None


@click.command()
@click.option("--orders", "orders_spec", default="sample:100", show_default=True, metavar="all|sample:N|FILE",
              help="Which orders: all distinct ones (34,650 with 12 barrels, 1,680 with 9), N drawn at "
                   "random (seeded), or a file with one order per line like LLMSMSLMSLMS (# comments).")
@click.option("--rounds", default=None, metavar="R", callback=whole_number("--rounds", 1, MAX_ROUNDS),
              help=f"Rounds played per order (at most {MAX_ROUNDS:,}) [default: 300 fast rounds for the "
                   "physics-quality estimate, 200 with --half-widths (the top-up gives more to the orders that "
                   "need them), 200 with --referee; with --find, the most any order plays: 4,096].")
@click.option("--physics-rounds", default=None, metavar="P", callback=whole_number("--physics-rounds", 2, MAX_ROUNDS),
              help="Physics-quality estimate: rounds every order also plays with both referees (the correction), "
                   f"or with --physics-orders each sampled order [default: {PAIRED_ROUNDS}, or {SAMPLED_ROUNDS} for "
                   "each sampled order].")
@click.option("--physics-orders", default=None, metavar="N|all", callback=_physics_orders,
              help="Physics-quality estimate: play the correction on N orders drawn at random instead (all: on "
                   "every order), each --physics-rounds rounds of its own with both referees; a model of it "
                   "carries it to the rest (on the orders' features where they predict it out of sample, tried "
                   "from 20 sampled orders per feature on, 520 with twelve barrels; else its mean), with an order "
                   "effect in the intervals, and the sample fixes the level (no physics anchors). For large "
                   "sweeps: the physics rounds of every order cost the more, and the less predictably, the "
                   "longer towers stand (they share few prefixes that a crash cuts short) "
                   f"[default: every order when at most {SAMPLED_FROM:,} are swept, else {SAMPLED_ORDERS:,} drawn "
                   "at random].")
@click.option("--anchors", default="2000", show_default=True, metavar="A",
              callback=whole_number("--anchors", 2, MAX_ROUNDS),
              help="Physics-quality estimate: rounds of randomly drawn orders played by both referees, which "
                   "fix the level (10 x A more are played by the fast referee alone).")
@click.option("--half-widths", default=None, metavar="BARRELS,P", callback=_half_widths,
              help="Physics-quality estimate: after the planned rounds, give every order whose 95% interval is "
                   "still wider than BARRELS barrels stacked or P on P(complete) more fast rounds, as many as its "
                   "variance says it needs (in up to 8 top-up stages, at most 8 x --rounds per order; an order "
                   "whose correction alone is wider gets none), e.g. 0.15,0.07 [default: the planned rounds only].")
@click.option("--find", "find", default=None, metavar="hardest:N,easiest:M",
              help="Race instead of sweeping: find the N hardest and M easiest orders (fewest / most barrels "
                   "stacked) at 95% confidence, giving rounds only to orders still in doubt; --referee plays "
                   "the race [default there: physics].")
@barrels_option
@click.option("--half-turn", is_flag=True, help="Sailors turn half a revolution (younger sailors).")
@player_model_option("--player", "Who plays the rounds:")
@click.option("--sigma-mm", default=None, metavar="S",
              help="Override the player model's placement error, standard deviation per axis, mm (0 to 20) "
                   "[default: the model's].")
@click.option("--wild", default=None, metavar="|".join(WILD_POLICIES),
              help="Override the player model's choice on a wild roll: the sailor that levels the deck best, "
                   "a random one, or (balance aim only) the one chosen with the aim [default: the model's].")
@_tune_options
@click.option("--out", default=None, metavar="FILE.sqlite",
              help="Results file, written as orders finish; rerun with the same file to resume.")
@click.option("--plot", default=None, metavar="FILE.png", help="Plot the distribution of difficulty and "
              "difficulty against the mean position of the large barrels.")
@click.option("--csv", "csv_out", default=None, metavar="FILE.csv[.gz]",
              help="Also write every order's difficulty with its intervals as a CSV table (gzip for .gz).")
@click.option("--top", default="10", show_default=True, metavar="N", callback=whole_number("--top", 1),
              help="Rows of the hardest and of the easiest orders to print.")
@click.option("--confirm", "confirm_top", default=None, metavar="N", callback=whole_number("--confirm", 1),
              help="Physics-quality estimate: after the sweep, play its N hardest and N easiest orders (by "
                   f"barrels stacked) again, {CONFIRM_ROUNDS:,} fast rounds each of their own, and print their "
                   "values with the sweep's "
                   "correction (the sweep's shared rounds move orders of one family together, and the extremes "
                   "are also those whose noise pointed that way, so their values can be off by more than their "
                   "intervals) [default: no confirmation].")
@progress_option
def tune(orders_spec: str, rounds: int | None, physics_rounds: int | None, physics_orders: int | None, anchors: int,
         half_widths: tuple[float, float] | None, find: str | None, barrels: int,
         half_turn: bool, player: str, sigma_mm: str | None, wild: str | None, seed: int,
         params: Params | None, referee_name: str | None, workers: int | None, scheduler: str | None,
         out: str | None, plot: str | None, csv_out: str | None, top: int, confirm_top: int | None,
         no_progress: bool) -> None:
    """Rank barrel orders by how hard they make a round.

    A bot of the player model --player plays rounds of every order to a crash or
    completion; an order's difficulty is the share of rounds completed and the mean
    number of barrels stacked, each with a 95% interval. Common random numbers: the
    k-th round of every order uses the same die rolls and the same placement errors,
    so orders are compared on equal luck; rounds are played once for every prefix
    the orders share.

    By default the difficulty is estimated at physics quality for little physics:
    every order plays --rounds fast rounds and --physics-rounds rounds with both the
    fast referee and physics, whose differences (pooled over orders with similar
    features, and per order) correct the fast rounds; --anchors rounds fix the level.
    With --physics-orders N only N orders drawn at random play the correction's rounds
    (200 by default when more than 1,000 orders are swept). --half-widths tops up the
    fast rounds of the orders whose intervals are still too wide.
    The intervals include the correction's uncertainty. --referee NAME plays every
    round with that referee instead. --find races for the hardest and easiest orders.
    Results do not depend on --workers or --scheduler.
    """
    from kipp.analysis.difficulty import RoundModel
    from kipp.analysis.orders import OrderError, resolve_orders
    from kipp.analysis.sweep import default_workers
    from kipp.analysis.tune import TuneRun, format_table, read_summaries, run_sweep, temporary_out
    from kipp.rules.replay import params_fingerprint

    params = params if params is not None else load_params()
    # the range of the parameter file's placement.sigma_mm
    sigma = bounded("--sigma-mm", 0.0, MAX_SIGMA_MM, sigma_mm)
    if wild is not None and wild not in WILD_POLICIES:
        raise UserError(f"--wild: expected one of {', '.join(WILD_POLICIES)}, got {wild!r}")
    model = RoundModel(barrels, half_turn, sigma, wild, player)
    try:
        bot = model.bot(params)
    except ValueError as error:  # e.g. --wild joint for a model that aims at the centre
        raise UserError(f"--wild: {error}") from None
    scheduler = check_scheduler(scheduler)
    out = check_results_out(out)
    plot = check_plot(plot)
    csv_out = check_output("--csv", csv_out)
    try:
        orders = resolve_orders(orders_spec, barrels, seed)
    except OrderError as error:
        raise UserError(f"--orders: {error}") from None
    except UnicodeDecodeError as error:
        raise UserError(f"--orders: {orders_spec} is not UTF-8 text (byte 0x{error.object[error.start]:02x} at "
                        f"offset {error.start}); expected one order per line") from None
    except OSError as error:
        raise UserError(f"--orders: cannot read {orders_spec} ({error.strerror or error})") from None
    question = check_find(find, len(orders))
    for name, value in (("--half-widths", half_widths), ("--confirm", confirm_top)):
        if value is not None and (question is not None or referee_name is not None):
            raise UserError(f"{name}: only for the physics-quality estimate (not with --find or --referee)")
    if confirm_top is not None and 2 * confirm_top > len(orders):
        raise UserError(f"--confirm: {confirm_top:,} hardest and {confirm_top:,} easiest are more than the "
                        f"{len(orders):,} orders swept")
    workers = workers or default_workers()
    if question is not None:
        _race(orders, model, bot, question, referee_name or "physics", params, seed, workers, scheduler, no_progress,
              max_rounds=rounds or 4096)
        return
    if referee_name is None:
        if rounds == 1:
            raise UserError("--rounds: the physics-quality estimate needs at least 2 rounds per order "
                            "(or name one --referee)")
        from kipp.analysis.physics_quality import Plan

        if physics_orders and physics_orders > len(orders):
            raise UserError(f"--physics-orders: {physics_orders:,} is more than the {len(orders):,} orders swept")
        if physics_orders is None:
            physics_orders = SAMPLED_ORDERS if len(orders) > SAMPLED_FROM else 0
        if physics_rounds is None:
            physics_rounds = SAMPLED_ROUNDS if physics_orders else PAIRED_ROUNDS
        plan = Plan(fast_rounds=rounds or (200 if half_widths else 300), paired_rounds=physics_rounds,
                    physics_anchors=anchors, fast_anchors=10 * anchors, paired_orders=physics_orders or 0,
                    half_widths=half_widths)
        _quality(orders, orders_spec, model, bot, plan, params, seed, workers, scheduler, out, plot, csv_out, top,
                 confirm_top, no_progress)
        return
    rounds = rounds or 200
    run = TuneRun(model, seed, rounds, referee_name, params_fingerprint(params), orders_spec)
    with temporary_out() as scratch:
        path = out if out is not None else str(Path(scratch) / "results.sqlite")
        with sweep_errors(out):
            run_sweep(run, orders, params, path, referee=_referee_spec(referee_name), workers=workers,
                      scheduler=scheduler, progress=not no_progress)
        summaries = read_summaries(path)
    click.echo(f"{len(orders)} orders x {rounds} rounds, {barrels} barrels{', half turns' if half_turn else ''}; "
               f"player: {player} (aim {bot.aim}, sigma {bot.sigma_mm:g} mm, wild {bot.wild}); "
               f"referee {referee_name}; seed {seed}")
    click.echo(format_table(summaries, top))
    if out is not None:
        click.echo(f"Counts of every order: {out}")
    if csv_out is not None:
        save_csv(summaries, csv_out, f"kipp tune, referee {referee_name}, {rounds} rounds per order, player "
                                     f"{player}, seed {seed}")
    if plot is not None:
        from kipp.analysis.plots import tune_figure

        save_plot(tune_figure(summaries, f"{player}, {referee_name} referee, {rounds} rounds per order"), plot)


def save_csv(rows, path: str, about: str) -> None:
    """Write ``--csv`` and say so; an unwritable file is a one-line error."""
    from kipp.analysis.export import write_csv

    try:
        write_csv(rows, path, about)
    except OSError as error:
        raise UserError(f"--csv: cannot write {path}: {error.strerror or error}") from None
    click.echo(f"Table: {path}")


def _describe(model, bot, n_orders: int) -> str:
    return (f"{n_orders} orders, {model.barrels} barrels{', half turns' if model.half_turn else ''}; "
            f"player: {model.player} (aim {bot.aim}, sigma {bot.sigma_mm:g} mm, wild {bot.wild})")


def _quality(orders, orders_spec, model, bot, plan, params, seed, workers, scheduler, out, plot, csv_out, top,
             confirm_top, no_progress) -> None:
    from kipp.analysis.physics_quality import (
        QualityRun,
        format_quality,
        read_quality,
        run_quality_sweep,
        summaries,
    )
    from kipp.analysis.tune import temporary_out
    from kipp.rules.replay import params_fingerprint

    run = QualityRun(model, seed, plan, params_fingerprint(params), orders_spec)
    with temporary_out() as scratch:
        path = out if out is not None else str(Path(scratch) / "results.sqlite")
        with sweep_errors(out):
            run_quality_sweep(run, orders, params, path, fast=_referee_spec("fast"),
                              physics=_referee_spec("physics"), workers=workers, scheduler=scheduler,
                              progress=not no_progress)
            result = read_quality(path, orders)
            if confirm_top is not None:
                from kipp.analysis.confirm import confirm, format_report

                confirmed = confirm(path, params, confirm_top, CONFIRM_ROUNDS, workers, not no_progress,
                                    fast=_referee_spec("fast"), orders=orders)
    click.echo(f"{_describe(model, bot, len(orders))}; seed {seed}")
    click.echo(format_quality(result, top))
    if confirm_top is not None:
        click.echo(format_report(confirmed))
    if out is not None:
        click.echo(f"Totals of every order: {out}")
    if csv_out is not None:
        save_csv(summaries(result), csv_out, f"kipp tune, physics-quality estimate {plan}, player {model.player}, "
                                             f"{model.barrels} barrels, seed {seed}, wall {result.wall_s:.0f} s, "
                                             f"physics share {result.physics_share:.3f}")
    if plot is not None:
        from kipp.analysis.plots import tune_figure

        save_plot(tune_figure(summaries(result), f"{model.player}, physics quality ({plan.fast_rounds} fast rounds "
                                                 "per order, corrected)"), plot)


def _race(orders, model, bot, question, referee_name, params, seed, workers, scheduler, no_progress, *,
          max_rounds: int) -> None:
    import sys

    from kipp.analysis.orders import order_text
    from kipp.analysis.racing import race, shared_player
    from kipp.analysis.sweep import open_executor

    def report(rounds: int, left: int) -> None:
        if not no_progress:
            print(f"race: {rounds} rounds played, {left} of {len(orders)} orders still in doubt", file=sys.stderr)

    with sweep_errors(None), open_executor(workers, scheduler) as executor:
        play = shared_player(orders, model, _referee_spec(referee_name), params, seed, executor)
        result = race(len(orders), play, question, max_rounds=max_rounds, on_batch=report, most=model.barrels)
    click.echo(f"{_describe(model, bot, len(orders))}; referee {referee_name}; seed {seed}")
    verdict = "sure at 95% confidence" if result.sure else "NOT sure: the round limit came first"
    click.echo(f"Race {verdict}: {result.rounds_played:,} order-rounds played; a uniform sweep to the same "
               f"confidence needs {result.uniform_rounds:,} ({result.uniform_rounds / result.rounds_played:.1f}x).")
    for title, chosen in (("Hardest (fewest barrels stacked), hardest first", result.hardest),
                          ("Easiest, easiest last", result.easiest)):
        if chosen:
            click.echo(f"\n{title}:")
            for i in chosen:
                mean, low, high = result.means[i]
                click.echo(f"  {order_text(orders[i])}  {mean:5.2f} [{low:.2f}, {high:.2f}] barrels stacked over "
                           f"{result.rounds_per_order[i]} rounds")
