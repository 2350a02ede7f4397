"""``lab.confirm`` and ``lab.coverage_check`` play a sweep's new rounds under the parameter set the
sweep was played with, and refuse another one in one line: a real small sweep of ``kipp tune``
made under a parameter file other than the defaults."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kipp.cli import main as kipp
from lab import confirm, coverage_check
from sim.params import load_params, params_fingerprint

STEEPER = "[ship]\nthread_pitch_mm = 3.6\n"


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """(results file, parameter file): a physics-quality sweep of 6 nine-barrel orders under STEEPER."""
    folder = tmp_path_factory.mktemp("sweep")
    params_file, results = folder / "steeper.toml", folder / "sweep.sqlite"
    params_file.write_text(STEEPER)
    made = CliRunner().invoke(kipp, ["tune", "--orders", "sample:6", "--barrels", "9", "--rounds", "4",
                                     "--physics-rounds", "2", "--anchors", "10", "--workers", "1", "--no-progress",
                                     "--params", str(params_file), "--out", str(results)])
    assert made.exit_code == 0, made.output
    return results, params_file


def _one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "Traceback" not in captured.err, captured.err
    return lines[0]


@pytest.mark.parametrize("command, args", [
    (confirm.main, ["--top", "1", "--rounds", "3"]),
    (coverage_check.main, ["--holdout", "1", "--rounds", "2"]),
], ids=["confirm", "coverage check"])
def test_the_defaults_are_refused_for_a_sweep_of_another_parameter_set(sweep, capsys, command, args):
    results, params_file = sweep
    assert command(["--results", str(results), *args]) == 2
    line = _one_error_line(capsys)
    ours, defaults = params_fingerprint(load_params(params_file)), params_fingerprint(load_params())
    assert ours != defaults
    assert str(results) in line and f"parameter set {ours}, not {defaults}" in line and "no --params" in line


def test_another_parameter_file_is_refused_too(sweep, tmp_path, capsys):
    results, _ = sweep
    other = tmp_path / "other.toml"
    other.write_text("[ship]\nthread_pitch_mm = 3.7\n")
    assert confirm.main(["--results", str(results), "--params", str(other), "--top", "1", "--rounds", "3"]) == 2
    assert f"not {params_fingerprint(load_params(other))} (--params {other})" in _one_error_line(capsys)


def test_the_sweeps_own_parameter_file_is_played(sweep, tmp_path, capsys):
    results, params_file = sweep
    report = tmp_path / "confirm.json"
    assert confirm.main(["--results", str(results), "--params", str(params_file), "--top", "1", "--rounds", "3",
                         "--json", str(report)]) == 0
    assert [len(json.loads(report.read_text())[k]) for k in ("hardest", "easiest")] == [1, 1]
    checked = tmp_path / "coverage.json"
    assert coverage_check.main(["--results", str(results), "--params", str(params_file), "--holdout", "1",
                                "--rounds", "2", "--json", str(checked)]) == 0
    assert len(json.loads(checked.read_text())["held_out"]) == 1
    assert capsys.readouterr().err.count("Error") == 0
