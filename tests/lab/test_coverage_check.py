"""lab.coverage_check holds out orders of the sweep it checks, under that sweep's own game and player."""

import pytest

from kipp.analysis.difficulty.quality_plan import Plan, QualityRun
from kipp.analysis.difficulty.quality_sweep import COLUMNS, KIND
from kipp.analysis.orders import resolve_orders
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.rounds import RoundModel
from lab import coverage_check
from sim.params import load_params, params_fingerprint


def test_the_held_out_rounds_are_played_under_the_sweeps_own_variant_player_and_seed(tmp_path, monkeypatch):
    model = RoundModel(barrels=9, half_turn=True, player="skilled")
    orders = resolve_orders("sample:30", 9, 7)
    results = tmp_path / "sweep.sqlite"
    run = QualityRun(model, 7, Plan(), params_fingerprint(load_params()), "sample:30")
    ResultsStore.open(results, KIND, run.options(orders), COLUMNS).close()

    class Handed(Exception):
        """What main() hands to check(): the held-out orders are drawn from these and played under them."""

    def check(results, orders, model, seed, *args, **kwargs):
        raise Handed(orders, model, seed)

    monkeypatch.setattr(coverage_check, "check", check)
    with pytest.raises(Handed) as handed:
        coverage_check.main(["--results", str(results), "--holdout", "2", "--rounds", "2"])
    assert handed.value.args == (orders, model, 7)


def test_a_file_that_is_no_sweep_is_one_error_line(tmp_path, capsys):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("not a database")
    assert coverage_check.main(["--results", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and err.count("\n") == 1


def test_each_draw_holds_out_its_own_orders_the_same_every_time():
    first, again = (coverage_check.held_out_indices(2, 34650, 60) for _ in range(2))
    second = coverage_check.held_out_indices(2, 34650, 60, draw=1)
    assert list(first) == list(again) and len(set(first)) == len(set(second)) == 60
    assert len(set(first) & set(second)) < 5  # another random set (expected overlap 0.1)


def test_a_negative_draw_is_one_error_line(tmp_path, capsys):
    assert coverage_check.main(["--results", str(tmp_path / "x.sqlite"), "--draw", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--draw" in err and err.count("\n") == 1
