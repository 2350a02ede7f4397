"""``kipp bench``: the performance figures of DESIGN.md section 7 (see :mod:`lab.bench`)."""

from __future__ import annotations

import json

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import params_option, seed_option
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, Language
from sim.params import Params


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
    the table (its words are :mod:`lab.bench`'s, English) or the JSON object (language-free)."""
    from lab.bench import measure, table

    def progress(what: str) -> None:
        if not quiet:
            click.echo(language.gettext("measuring: {what}").format(what=what), err=True)

    viewer_frames = None
    if viewer:
        from kipp.cli.window import require_pygame

        require_pygame("kipp bench --viewer")
        from viewer.bench import measure as viewer_frames

    result = measure(params, quick=quick, seed=seed, viewer=viewer_frames, progress=progress)
    click.echo(json.dumps(result, sort_keys=True) if as_json else table(result))
