"""``kipp calibrate``: fit the model to measurements of a real set and write a parameter file."""

from __future__ import annotations

from pathlib import Path

import click

from kipp.cli.options import UserError, seed_option


@click.command()
@click.argument("measurements", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out", metavar="FILE", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to write the calibrated parameter file (TOML, the format of `kipp params`).")
@click.option("--params", "start", metavar="START", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Start parameter file: keys not calibrated keep its values (default: the shipped ones).")
@seed_option
@click.option("--draws", type=click.IntRange(min=10), default=200, show_default=True,
              help="Placement draws per trial in the topple / game-round likelihood.")
@click.option("--check/--no-check", default=True, show_default=True,
              help="Check that the solver reproduces the closed-form tipping and sliding angles.")
@click.option("--template", is_flag=True, help="Print the measurement template to fill in, and exit.")
def calibrate(measurements: Path | None, out: Path | None, start: Path | None, seed: int, draws: int,
              check: bool, template: bool) -> None:
    """Fit the model's parameters to MEASUREMENTS of a real set (TOML; see --template).

    Prints each fitted value with its 95% interval and the quality of each fit, then
    writes --out, a parameter file that every command accepts with --params. The
    placement skill sigma and the turn margin are printed (and written as comments):
    the parameter file has no keys for them.
    """
    from calibration import TEMPLATE_PATH, CalibrationError, MeasurementError, load_measurements
    from calibration import calibrate as fit
    from calibration.numerical_check import numerical_check
    from calibration.params_file import write_params
    from sim.params import ParamsError, load_params

    if template:
        click.echo(TEMPLATE_PATH.read_text(encoding="utf-8"), nl=False)
        return
    if measurements is None:
        raise UserError("missing MEASUREMENTS file (kipp calibrate --template prints one to fill in)")
    if out is None:
        raise UserError("missing --out FILE: where to write the calibrated parameters")
    try:
        start_params = load_params(start)
    except ParamsError as error:
        raise UserError(f"--params: {error}") from None
    sizes = tuple(spec.name for spec in start_params.barrels)
    try:
        result = fit(load_measurements(measurements, sizes), start, seed=seed, n_draws=draws)
    except (MeasurementError, CalibrationError) as error:
        raise UserError(str(error)) from None
    try:
        write_params(result, out, start, source=str(measurements), seed=seed)
    except (OSError, ParamsError) as error:
        raise UserError(f"--out {out}: cannot write the parameter file ({error})") from None
    click.echo(f"Calibration of {measurements}")
    click.echo(result.report())
    click.echo(f"wrote {out} (use it with --params {out})")
    if check:
        sizes_fitted = sorted({f.key.split(".")[1] for f in result.fitted if f.key.startswith("barrels.")})
        checks = numerical_check(result.params, sizes_fitted or [spec.name for spec in result.params.barrels])
        click.echo("numerical check (physics against closed-form statics):")
        for item in checks:
            click.echo(f"  {item.text()}")
        for item in checks:
            if not item.ok:
                click.echo(f"warning: the solver settings do not reproduce the closed form: {item.text()}; "
                           "consider more iterations or a smaller dt in [solver]", err=True)
