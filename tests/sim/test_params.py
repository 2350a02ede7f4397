"""The parameter set: defaults, partial overrides, and one clear error per bad value."""

import math
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kipp.cli import main
from sim.params import ParamsError, load_params


def write(tmp_path, text):
    path = tmp_path / "params.toml"
    path.write_text(text)
    return path


def test_defaults_are_the_design_values_in_si_units():
    params = load_params()
    large = params.barrel("large")
    assert (large.height_m, large.end_diameter_m, large.belly_diameter_m, large.mass_kg) == (
        0.036, 0.026, 0.030, 0.0155)
    assert [b.name for b in params.barrels] == ["large", "medium", "small"]
    assert sum(b.count for b in params.barrels) == 12
    assert params.mu == 0.45
    assert params.ship.thread_pitch_m == 0.003  # the stated design assumption (default_params.toml)
    assert params.solver.dt_s == 1 / 960 and params.solver.iterations == 60
    assert params.solver.collision_slop_m == 0.0002
    # screws on an equilateral triangle of circumradius 70 mm, red at the bow
    for _, x, y in params.ship.screw_positions_m:
        assert math.hypot(x, y) == pytest.approx(0.070)
    assert params.ship.screw_xy("red") == (0.070, 0.0)


def test_a_partial_file_overrides_only_what_it_names(tmp_path):
    params = load_params(write(tmp_path, "[friction]\nmu = 0.6\n[barrels.small]\nmass_g = 6.0\n"))
    defaults = load_params()
    assert params.mu == 0.6
    assert params.barrel("small").mass_kg == 0.006
    assert params.barrel("small").height_m == defaults.barrel("small").height_m
    assert params.ship == defaults.ship and params.solver == defaults.solver


@pytest.mark.parametrize("text, message", [
    ("[friction]\nmu = -0.5\n", "friction.mu: must be > 0, got -0.5"),
    ("[friction]\nmu = nan\n", "friction.mu: must be a finite number"),
    ("[friction]\nmu = 'slippery'\n", "friction.mu: expected a number"),
    ("[friction]\nmue = 0.5\n", "friction.mue: unknown key"),
    ("[deck]\nsize = 1\n", "deck: unknown key"),
    ("[barrels.small]\nmass_g = -5.3\n", "barrels.small.mass_g: must be > 0, got -5.3"),
    ("[barrels.small]\nheight_mm = 0\n", "barrels.small.height_mm: must be > 0, got 0"),
    ("[barrels.small]\ncount = 2.5\n", "barrels.small.count: expected an integer"),
    ("[barrels.small]\nbelly_diameter_mm = 10.0\n", "barrels.small.belly_diameter_mm: must be >= end_diameter_mm"),
    ("[barrels.tiny]\nheight_mm = 10.0\n", "barrels.tiny.colour: missing"),
    ("[ship.screws.red]\nx_mm = -50.0\n", "ship.screws: the triangle of the three screws must contain the tower spot"),
    ("[turn]\nprofile = 'jerky'\n", "turn.profile: must be one of smooth, constant"),
    ("[solver]\niterations = true\n", "solver.iterations: expected an integer"),
    ("friction = 3\n", "friction: expected a table"),
    ("[friction\nmu = 1\n", "not valid TOML"),
    ("[solver]\ncollision_bias = 0.0\n", "solver.collision_bias: must be > 0, got 0.0"),
    ("[solver]\ncollision_bias = 1.5\n", "solver.collision_bias: must be between 0 and 1, got 1.5"),
    ("[solver]\ndamping = -0.1\n", "solver.damping: must be > 0, got -0.1"),
])
def test_bad_files_raise_one_clear_error_naming_the_key(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ParamsError) as caught:
        load_params(path)
    assert message in str(caught.value)
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_the_solver_softening_reaches_the_pymunk_space():
    from sim.world import TowerWorld

    params = load_params(overrides={"solver": {"collision_bias": 1e-6, "damping": 0.9}})
    space = TowerWorld(params).space
    assert (space.collision_bias, space.damping) == (1e-6, 0.9)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ParamsError, match="cannot read parameter file"):
        load_params(tmp_path / "nope.toml")


def test_params_error_is_a_value_error():
    assert issubclass(ParamsError, ValueError)


def test_cli_prints_one_line_and_exits_2_for_a_bad_file(tmp_path):
    path = write(tmp_path, "[barrels.small]\nmass_g = -5.3\n")
    result = CliRunner().invoke(main, ["params", "--params", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "barrels.small.mass_g: must be > 0" in lines[0]
    assert "Traceback" not in result.output


def test_cli_prints_the_defaults_which_load_back(tmp_path):
    result = CliRunner().invoke(main, ["params"])
    assert result.exit_code == 0
    assert load_params(write(tmp_path, result.output)) == load_params()


def test_installed_kipp_command_answers_help():
    result = subprocess.run([sys.executable, "-m", "kipp", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "params" in result.stdout


def test_cli_prints_a_resolved_file_as_toml_that_loads_back(tmp_path):
    path = write(tmp_path, "[friction]\nmu = 0.6\n[barrels.\"extra large\"]\ncolour = 'red \"dark\"'\ncount = 1\n"
                           "height_mm = 40\nend_diameter_mm = 27.0\nbelly_diameter_mm = 31.0\nmass_g = 20.0\n")
    result = CliRunner().invoke(main, ["params", "--params", str(path)])
    assert result.exit_code == 0, result.output
    assert "Params(" not in result.output and "[friction]\nmu = 0.6" in result.output
    printed = tmp_path / "printed.toml"
    printed.write_text(result.output)
    assert load_params(printed) == load_params(path)


@pytest.mark.parametrize("text, message", [
    ("[solver]\nsteps_per_second = 1\n", "solver.steps_per_second: must be between 60 and 20000, got 1"),
    ("[turn]\nrate_rev_per_s = 1e-9\n", "turn.rate_rev_per_s: must be between 0.05 and 20"),
    ("[solver]\nsteps_per_second = 20000\niterations = 200\n", "the limits are 200,000 steps"),
    ("[settle]\nenergy_fraction = 2.0\n", "settle.energy_fraction: must be between 0 and 1"),
])
def test_values_that_would_break_or_hang_the_physics_are_refused(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ParamsError, match=message):
        load_params(path)


def test_the_widest_accepted_sets_stay_within_the_decision_cap():
    from sim.params import MAX_DECISION_STEPS, decision_steps

    assert decision_steps(load_params()) == 4800
    fast_solver = load_params(overrides={"solver": {"steps_per_second": 20000}})
    assert decision_steps(fast_solver) == 100_000 <= MAX_DECISION_STEPS
