"""lab.coverage_check holds out orders of the sweep it checks, under that sweep's own game and player."""

import pytest

from kipp.analysis.difficulty import RoundModel
from kipp.analysis.orders import resolve_orders
from kipp.analysis.physics_quality import COLUMNS, KIND
from kipp.analysis.quality_plan import Plan, QualityRun
from kipp.analysis.results_store import ResultsStore
from lab import coverage_check


def test_the_held_out_rounds_are_played_under_the_sweeps_own_variant_player_and_seed(tmp_path, monkeypatch):
    model = RoundModel(barrels=9, half_turn=True, player="skilled")
    orders = resolve_orders("sample:30", 9, 7)
    results = tmp_path / "sweep.sqlite"
    run = QualityRun(model, 7, Plan(), "test-params", "sample:30")
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
