"""``kipp bench``: the performance figures of DESIGN.md section 7 (see :mod:`lab.bench`)."""

from __future__ import annotations

import json

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import params_option, seed_option
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, SEPARATORS, Language
from sim.params import Params

BENCH_WORDS = (
    # lab.bench.ROWS
    N_("physics turn decision, plain loop, median"), N_("physics turn decision, loop's early exits, median"),
    N_("physics turn decision, fast path, median"), N_("physics turn decision, fast path, p90"),
    N_("fast decisions, one by one"), N_("fast decisions, batched"), N_("speed-up of 2 workers over 1"),
    N_("the machine's own, pure CPU loop"),
    # lab.bench.table
    N_("rounds per CPU second, {name}"), N_("agreement with physics, {name}"), N_("of {count} situations"),
    N_("hybrid decisions sent to physics (set/games)"), N_("fast rounds per CPU second, player {name}"),
    N_("{round_cost}x casual's per round, {barrel_cost}x per barrel"), N_("viewer frame time, median / p99"),
    # lab.bench.measure's progress
    N_("physics turn decisions"), N_("fast referee and agreement"), N_("player models' rounds"),
    N_("sweep on 1 and 2 workers"), N_("viewer frame times"),
)
"""The words of :mod:`lab.bench`'s table and progress (English there; ``kipp bench`` translates them)."""


@click.command(cls=Command, help=paragraphs(
    N_("Measure physics, fast and hybrid referees on this machine; print a table or --json."),
    N_("CPU times per decision and per round (per core), the agreement of the fast and hybrid referees with "
       "physics on the stored benchmark situations, and the speed-up of a small sweep on 2 worker processes "
       "over 1."),
))
@click.option("--quick", is_flag=True, help=N_("Few samples: seconds instead of a minute (noisier figures)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON object instead of the table."))
@click.option("--viewer", is_flag=True, help=N_("Also time the viewer's frames headless (a whole round)."))
@click.option("--quiet", is_flag=True, help=N_("No progress lines on stderr."))
@params_option
@seed_option
@language_option
def bench(quick: bool, as_json: bool, viewer: bool, quiet: bool, params: Params, seed: int,
          language: Language) -> None:
    """``kipp bench`` (its help is the ``help`` above): the figures measured (progress on stderr), then
    the table (its words are :mod:`lab.bench`'s, translated with :data:`BENCH_WORDS`) or the JSON object
    (language-free)."""
    from lab.bench import measure, table

    def progress(what: str) -> None:
        if not quiet:
            click.echo(language.gettext("measuring: {what}").format(what=language.gettext(what)), err=True)

    viewer_frames = None
    if viewer:
        from kipp.cli.window import require_pygame

        require_pygame("kipp bench --viewer")
        from viewer.bench import measure as viewer_frames

    result = measure(params, quick=quick, seed=seed, viewer=viewer_frames, progress=progress)
    click.echo(json.dumps(result, sort_keys=True) if as_json
               else table(result, language.gettext, SEPARATORS[language.code]))
