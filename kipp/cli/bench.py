"""``kipp bench``: the performance figures of DESIGN.md section 7 (see :mod:`lab.bench`)."""

from __future__ import annotations

import json

import click

from kipp.cli.options import params_option, seed_option
from sim.params import Params


@click.command()
@click.option("--quick", is_flag=True, help="Few samples: seconds instead of a minute (noisier figures).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the table.")
@click.option("--viewer", is_flag=True, help="Also time the viewer's frames headless (a whole round).")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@params_option
@seed_option
def bench(quick: bool, as_json: bool, viewer: bool, quiet: bool, params: Params, seed: int) -> None:
    """Measure physics, fast and hybrid referees on this machine; print a table or --json.

    CPU times per decision and per round (per core), the agreement of the fast and
    hybrid referees with physics on the stored benchmark situations, and the speed-up
    of a small sweep on 2 worker processes over 1.
    """
    from lab.bench import measure, table

    def progress(what: str) -> None:
        if not quiet:
            click.echo(f"measuring: {what}", err=True)

    viewer_frames = None
    if viewer:
        from kipp.cli.window import require_pygame

        require_pygame("kipp bench --viewer")
        from viewer.bench import measure as viewer_frames

    result = measure(params, quick=quick, seed=seed, viewer=viewer_frames, progress=progress)
    click.echo(json.dumps(result, sort_keys=True) if as_json else table(result))
