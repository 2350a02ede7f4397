"""``kipp calibrate``: a real run writes a loadable file; every user mistake is one line, exit 2."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from calibration import SYNTHETIC_PATH, TEMPLATE_PATH
from kipp.cli import main
from sim.params import load_params


def test_calibrate_synthetic_writes_a_loadable_parameter_file(tmp_path):
    out = tmp_path / "params.toml"
    result = subprocess.run([sys.executable, "-m", "kipp", "calibrate", str(SYNTHETIC_PATH), "--out", str(out),
                             "--draws", "60"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "SYNTHETIC" in result.stdout and "95% interval" in result.stdout and "Hosmer-Lemeshow" in result.stdout
    assert "numerical check" in result.stdout and "FAILS" not in result.stdout
    params = load_params(out)
    assert params.ship.thread_pitch_m == pytest.approx(0.00386, rel=0.01)
    assert params.mu == pytest.approx(0.42, rel=0.05)
    text = out.read_text()
    assert "# SYNTHETIC" in text and "sigma_topple_mm" in text and "calibrated: +-" in text
    # the recorded players' skill (true 1.8 mm) becomes the bots' default placement error
    assert params.placement.sigma_m * 1000 == pytest.approx(1.8, rel=0.2)


def test_start_file_keeps_its_other_keys(tmp_path):
    start = tmp_path / "start.toml"
    start.write_text("[solver]\niterations = 50\n")
    measurements = tmp_path / "m.toml"
    measurements.write_text("[[slide]]\npair = 'barrel-deck'\ntilt_deg = 25.0\n"
                            "[[slide]]\npair = 'barrel-deck'\ntilt_deg = 23.0\n")
    out = tmp_path / "out.toml"
    result = CliRunner().invoke(main, ["calibrate", str(measurements), "--out", str(out), "--params", str(start),
                                       "--no-check"])
    assert result.exit_code == 0, result.output
    params = load_params(out)
    assert params.solver.iterations == 50 and params.mu == pytest.approx(0.4452, abs=1e-3)


def test_template_is_printed():
    result = CliRunner().invoke(main, ["calibrate", "--template"])
    assert result.exit_code == 0 and result.output == TEMPLATE_PATH.read_text()


@pytest.mark.parametrize("content, args, message", [
    ("[meta\n", [], "not valid TOML"),
    ("[[slide]]\npair = 'barrel-deck'\ntilt_deg = 'steep'\n", [], "slide[0].tilt_deg: expected a number"),
    ("[[slide]]\npair = 'barrel-deck'\ntilt_deg = 20.0\n", [], "friction needs at least 2"),
    ("", ["--params", "/no/such/start.toml"], "--params: /no/such/start.toml: cannot read"),
    ("", [], "no data to fit"),
    # the output path is checked before the fit starts
    ("", ["--out", "/no/such/dir/out.toml"], "--out: no such directory '/no/such/dir'"),
])
def test_user_mistakes_give_one_error_line_and_exit_2(tmp_path, content, args, message):
    measurements = tmp_path / "m.toml"
    measurements.write_text(content)
    out_args = [] if "--out" in args else ["--out", str(tmp_path / "out.toml")]
    result = CliRunner().invoke(main, ["calibrate", str(measurements), *out_args, *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output
    assert not (tmp_path / "out.toml").exists()


def test_unwritable_out_is_a_user_error_and_leaves_nothing(tmp_path):
    measurements = tmp_path / "m.toml"
    measurements.write_text("[[slide]]\npair = 'barrel-deck'\ntilt_deg = 25.0\n"
                            "[[slide]]\npair = 'barrel-deck'\ntilt_deg = 23.0\n")
    result = CliRunner().invoke(main, ["calibrate", str(measurements), "--out", str(tmp_path / "no" / "o.toml")])
    assert result.exit_code == 2 and result.output.startswith("Error: --out") and len(result.output.splitlines()) == 1
    assert not list(tmp_path.glob("**/*.tmp*"))


def test_missing_arguments_are_user_errors(tmp_path):
    assert "missing MEASUREMENTS" in CliRunner().invoke(main, ["calibrate"]).output
    result = CliRunner().invoke(main, ["calibrate", str(SYNTHETIC_PATH)])
    assert result.exit_code == 2 and "missing --out" in result.output
