"""``kipp calibrate``: fit the model to measurements of a real set and write a parameter file."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from kipp.cli.language_option import language_option
from kipp.cli.options import UserError, check_output, library_error, seed_option
from kipp.cli.words import Command, Number, Text, paragraphs
from kipp.language import N_, Language

MAX_DRAWS = 20_000
"""``--draws`` at most (100 x the default: the likelihood's time and memory grow with it)."""


@click.command(cls=Command, help=paragraphs(
    N_("Fit the model's parameters to MEASUREMENTS of a real set (TOML; see --template)."),
    Text(N_("Prints each fitted value with its {level} interval and the quality of each fit, then writes --out, a "
       "parameter file that every command accepts with --params. The recorded players' placement skill is "
       "written as [placement] sigma_mm (the bots' default); the topple experimenter's placement error and the "
       "turn margin of real turns are printed and written as comments, since the parameter file has no key for "
       "them. The fit takes from seconds to a minute; progress goes to stderr."), level="95%"),
))
@click.argument("measurements", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path),
              help=N_("Where to write the calibrated parameter file (TOML, the format of `kipp params`)."))
@click.option("--params", "start", metavar="START", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=N_("Start parameter file: keys not calibrated keep its values (default: the shipped ones)."))
@seed_option
@click.option("--draws", type=click.IntRange(min=10, max=MAX_DRAWS), default=200, show_default=True,
              help=Text(N_("Placement draws per trial in the topple / game-round likelihood (10 to {max_draws})."),
                        max_draws=Number(MAX_DRAWS)))
@click.option("--check/--no-check", default=True, show_default=True,
              help=N_("Check that the solver reproduces the closed-form tipping and sliding angles."))
@click.option("--progress/--quiet", "show_progress", default=None,
              help=N_("Progress lines on stderr while fitting [default: when stderr is a terminal]."))
@click.option("--template", is_flag=True, help=N_("Print the measurement template to fill in, and exit."))
@language_option
def calibrate(measurements: Path | None, out: Path | None, start: Path | None, seed: int, draws: int,
              check: bool, show_progress: bool | None, template: bool, language: Language) -> None:
    """``kipp calibrate`` (its help is the ``help`` above): the measurements read and fitted, the
    parameter file written, the report and the numerical check printed (their words are
    :mod:`calibration`'s, translated by :func:`kipp.cli.calibration_words.report_words`)."""
    from calibration import TEMPLATE_PATH, CalibrationError, MeasurementError, load_measurements
    from calibration import calibrate as fit
    from calibration.numerical_check import numerical_check
    from calibration.params_file import write_params
    from kipp.cli.calibration_words import report_words
    from sim.params import ParamsError, load_params

    _ = language.gettext
    if template:
        click.echo(TEMPLATE_PATH.read_text(encoding="utf-8"), nl=False)
        return
    if measurements is None:
        raise UserError(_("missing MEASUREMENTS file (kipp calibrate --template prints one to fill in)"))
    if out is None:
        raise UserError(_("missing --out FILE: where to write the calibrated parameters"))
    check_output("--out", out)
    if show_progress is None:
        show_progress = sys.stderr.isatty()
    started = time.monotonic()

    def progress(stage: str) -> None:
        if show_progress:
            click.echo(f"calibrate [{time.monotonic() - started:4.0f} s]: {report_words(language)(stage)}", err=True)

    try:
        start_params = load_params(start)
    except ParamsError as error:
        raise UserError(f"--params: {library_error(error)}") from None
    sizes = tuple(spec.name for spec in start_params.barrels)
    try:
        data = load_measurements(measurements, sizes)
        result = fit(data, start, seed=seed, n_draws=draws, progress=progress)
    except (MeasurementError, CalibrationError) as error:
        raise UserError(library_error(error)) from None
    try:
        write_params(result, out, start, source=str(measurements), seed=seed)
    except (OSError, ParamsError) as error:
        raise UserError(_("--out {path}: cannot write the parameter file ({reason})").format(
            path=out, reason=library_error(error))) from None
    click.echo(_("Calibration of {path}").format(path=measurements))
    click.echo(result.report(report_words(language)))
    click.echo(_("wrote {path} (use it with --params {path})").format(path=out))
    if check:
        sizes_fitted = sorted({f.key.split(".")[1] for f in result.fitted if f.key.startswith("barrels.")})
        progress(_("numerical check: physics against the closed-form tipping and sliding angles"))
        checks = numerical_check(result.params, sizes_fitted or [spec.name for spec in result.params.barrels])
        click.echo(_("numerical check (physics against closed-form statics):"))
        for item in checks:
            click.echo(f"  {report_words(language)(item.text())}")
        for item in checks:
            if not item.ok:
                click.echo(_("warning: the solver settings do not reproduce the closed form: {check}; "
                             "consider more iterations or a smaller dt in [solver]").format(
                                 check=report_words(language)(item.text())),
                           err=True)
    progress(_("done"))
