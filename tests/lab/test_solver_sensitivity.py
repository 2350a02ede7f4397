"""The solver-sensitivity report: re-deciding the stored situations under other solver settings."""

import json

import pytest

from lab.bench_situations import load_situations
from lab.solver_sensitivity import (
    Results,
    Run,
    Setting,
    _setting,
    default_setting,
    differences,
    main,
    measure,
    row_text,
    with_solver,
)
from sim.params import load_params

PARAMS = load_params()
STORED = load_situations()
CLOSE_CALLS = [s for s in STORED if s.turn is not None and abs(s.static_margin_deg) < 0.5][:24]


def test_with_solver_changes_only_the_solver():
    changed = with_solver(PARAMS, 240, 12)
    assert (changed.solver.steps_per_second, changed.solver.iterations) == (240, 12)
    assert changed.solver.collision_slop_m == PARAMS.solver.collision_slop_m
    assert changed.ship == PARAMS.ship and changed.barrels == PARAMS.barrels


def test_a_setting_applies_slop_bias_and_damping_and_doubles_rate_and_iterations():
    setting = Setting(480, 40, collision_slop_mm=0.05, collision_bias=1e-6, damping=0.9)
    solver = setting.apply(PARAMS).solver
    assert (solver.collision_slop_m, solver.collision_bias, solver.damping) == (0.05 / 1000, 1e-6, 0.9)
    assert setting.finer() == Setting(960, 80, collision_slop_mm=0.05, collision_bias=1e-6, damping=0.9)
    assert _setting("960:80:slop=0.05:bias=1e-6") == Setting(960, 80, collision_slop_mm=0.05, collision_bias=1e-6)


def test_differences_count_each_direction():
    a = Run(Setting(1, 1), (True, True, False, False), ())
    b = Run(Setting(2, 2), (True, False, True, False), ())
    d = differences(a, b)
    assert (d.crash_stand, d.stand_crash, d.total) == (1, 1, 2)
    assert "1/1" in row_text(a, b, None)


def test_the_default_solver_is_stable_on_close_calls_when_doubled():
    # the convergence rule, on a cheap sample: the default and the 2x-finer setting agree
    default = default_setting(PARAMS)
    coarse = Results(PARAMS, CLOSE_CALLS, []).get(default)
    fine = Results(PARAMS, CLOSE_CALLS, []).get(default.finer())
    assert differences(coarse, fine).total <= 1  # the rule allows 1%; one of these close calls is among the 2 of 500
    assert 0 < coarse.crashes < len(CLOSE_CALLS)


def test_a_coarse_solver_changes_close_calls():
    coarse = Results(PARAMS, CLOSE_CALLS, []).get(Setting(120, 4))
    default = Results(PARAMS, CLOSE_CALLS, []).get(default_setting(PARAMS))
    assert differences(coarse, default).total > 0


def test_measure_counts_verdicts_that_differ_from_the_stored_labels():
    sample = CLOSE_CALLS[:6]
    row = measure(PARAMS, 120, 4, sample, [])
    run = Results(PARAMS, sample, []).get(Setting(120, 4))
    assert row.situations == len(sample)
    assert row.flipped == sum(c != s.crashed for c, s in zip(run.crashed, sample))


def test_results_are_kept_and_reused(tmp_path):
    path = tmp_path / "runs.json"
    first = Results(PARAMS, CLOSE_CALLS[:2], [], str(path)).get(Setting(120, 4))
    stored = json.loads(path.read_text())
    assert [entry["setting"] for entry in stored.values()] == ["120x4"]
    key = next(iter(stored))
    stored[key]["crashed"] = [not c for c in stored[key]["crashed"]]  # a reused run is read, not re-decided
    path.write_text(json.dumps(stored))
    again = Results(PARAMS, CLOSE_CALLS[:2], [], str(path)).get(Setting(120, 4))
    assert again.crashed == tuple(not c for c in first.crashed)


@pytest.mark.parametrize("setting", ["480", "480:x", "0:40", "480:-1", "480:40:slop=-1", "480:40:bias=2",
                                     "480:40:speed=3"])
def test_a_malformed_setting_is_a_usage_error(setting, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([setting])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert f"'{setting}'" in error and ("RATE:ITERATIONS" in error or "must be" in error)
