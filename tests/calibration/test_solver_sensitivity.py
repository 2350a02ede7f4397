"""The solver-sensitivity report: re-deciding the stored situations under other solver settings."""

import pytest

from calibration.solver_sensitivity import main, measure, with_solver
from kipp.analysis.bench_situations import load_situations
from sim.params import load_params

PARAMS = load_params()
STORED = load_situations(check_params=PARAMS)
CLOSE_CALLS = [s for s in STORED if s.turn is not None and abs(s.static_margin_deg) < 0.5][:24]


def test_with_solver_changes_only_the_solver():
    changed = with_solver(PARAMS, 240, 12)
    assert (changed.solver.steps_per_second, changed.solver.iterations) == (240, 12)
    assert changed.solver.collision_slop_m == PARAMS.solver.collision_slop_m
    assert changed.ship == PARAMS.ship and changed.barrels == PARAMS.barrels


def test_the_shipped_settings_reproduce_the_stored_labels():
    row = measure(PARAMS, PARAMS.solver.steps_per_second, PARAMS.solver.iterations, CLOSE_CALLS, [])
    assert (row.flipped, row.situations) == (0, len(CLOSE_CALLS))


def test_a_coarse_solver_changes_close_calls():
    row = measure(PARAMS, 120, 4, CLOSE_CALLS, [])
    assert row.flipped > 0


@pytest.mark.parametrize("setting", ["480", "480:x", "0:40", "480:-1"])
def test_a_malformed_setting_is_a_usage_error(setting, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([setting])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert f"'{setting}'" in error and ("RATE:ITERATIONS" in error or "must be positive" in error)
