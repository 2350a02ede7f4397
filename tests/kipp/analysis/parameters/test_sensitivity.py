"""``kipp sensitivity``: the arms share their luck (a parameter the referee does not read gives
effects of exactly 0), a parameter that tilts the deck more per turn costs barrels, every
interval stays in its range on 4 rounds, and a resumed or two-worker run gives the same
result. The fast referee plays (it is quick and reads the geometry, not the solver)."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

import kipp.analysis.parameters.sensitivity
from kipp.analysis.executor import Execution
from kipp.analysis.parameters.sensitivity import BLOCK, format_result, from_json, panel_orders, sensitivity
from kipp.analysis.parameters.uncertain import UNCERTAIN, Spread, Uncertain, by_name
from kipp.analysis.rounds import RoundModel
from kipp.cli import main

IDLE = Uncertain("settle window", ("settle.window_s",), Spread.FACTOR, 0.5, 2.0, "",
                 "nothing: the fast referee does not settle towers")
"""A parameter of the physics referee only: the fast referee decides the same whatever it is."""
CASUAL = RoundModel(player="casual")


def test_a_parameter_that_changes_nothing_has_effects_of_exactly_zero():
    result = sensitivity(CASUAL, 30, seed=3, parameters=(IDLE,), referee="fast")
    assert len(result.arms) == 2
    for arm in result.arms:
        for effect in (arm.completed, arm.stacked, arm.half_turns, arm.nine_barrels):
            assert effect.mean == 0.0 and effect.low <= 0.0 <= effect.high
        assert arm.rank_correlation.mean == arm.rank_correlation.low == arm.rank_correlation.high == 1.0


def test_a_steeper_thread_costs_barrels_and_a_shallower_one_saves_them():
    """Pitch 5 mm instead of 3 tilts the deck 5/3 as far per turn: fewer barrels stand; 2.5 mm: more."""
    result = sensitivity(CASUAL, 50, seed=1, parameters=(by_name("thread pitch"),), referee="fast")
    low, high = result.arms
    assert low.value == 2.5 and high.value == 5.0
    assert high.stacked.high < 0 < low.stacked.low


def test_every_interval_stays_in_its_range_on_four_rounds():
    result = sensitivity(CASUAL, 4, seed=2, parameters=UNCERTAIN, referee="fast")
    p, s = result.completed, result.stacked
    assert 0 <= p[1] <= p[0] <= p[2] <= 1 and 0 <= s[1] <= s[0] <= s[2] <= 12
    for a in result.arms:
        for effect, bound in ((a.completed, 1), (a.stacked, 12), (a.half_turns, 2), (a.nine_barrels, 2)):
            assert -bound <= effect.low <= effect.mean <= effect.high <= bound, a
        rho = a.rank_correlation
        assert math.isnan(rho.mean) or -1 <= rho.low <= rho.mean <= rho.high <= 1


def test_an_interrupted_run_resumes_to_the_uninterrupted_result(tmp_path, monkeypatch):
    parameters = (by_name("thread pitch"), by_name("friction"))
    whole = sensitivity(CASUAL, BLOCK + 5, seed=4, parameters=parameters, referee="fast", out=tmp_path / "w.sqlite")
    real, calls = kipp.analysis.parameters.sensitivity.sensitivity_block, []

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(kipp.analysis.parameters.sensitivity, "sensitivity_block", interrupted)
    out = tmp_path / "r.sqlite"
    with pytest.raises(KeyboardInterrupt):
        sensitivity(CASUAL, BLOCK + 5, seed=4, parameters=parameters, referee="fast", out=out)
    monkeypatch.undo()
    resumed = sensitivity(CASUAL, BLOCK + 5, seed=4, parameters=parameters, referee="fast", out=out)
    assert repr(resumed) == repr(whole)


def test_one_and_two_workers_give_the_same_result():
    parameters = (by_name("turn rate"),)
    one = sensitivity(CASUAL, 6, seed=5, parameters=parameters, referee="fast", execution=Execution(workers=1))
    two = sensitivity(CASUAL, 6, seed=5, parameters=parameters, referee="fast", execution=Execution(workers=2))
    assert repr(one) == repr(two)


def test_the_panel_holds_both_family_extremes_and_is_fixed():
    panel = panel_orders(12)
    assert len(set(panel)) == len(panel) == 24
    assert "".join(s[0].upper() for s in panel[0]) == "LLLLMMMMSSSS" and panel == panel_orders(12)


def test_cli_table_headline_tornado_and_json(tmp_path):
    plot, report = tmp_path / "t.png", tmp_path / "s.json"
    result = CliRunner().invoke(main, ["sensitivity", "--only", "thread pitch,turn rate", "--games", "4",
                                       "--referee", "fast", "--workers", "1", "--no-progress", "--plot", str(plot),
                                       "--json", str(report)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Measure first: the ")
    assert "thread pitch" in result.output and "turn rate" in result.output
    assert plot.stat().st_size > 10_000
    again = from_json(json.loads(report.read_text()))
    assert format_result(again) in result.output


@pytest.mark.parametrize("args, text", [
    (["--only", "colour"], "--only: unknown uncertain parameter 'colour'"),
    (["--games", "1"], "--games: expected a whole number >= 2"),
    (["--params", "no-such.toml"], "--params:"),
])
def test_cli_bad_input_is_one_error_line(args, text):
    result = CliRunner().invoke(main, ["sensitivity", "--referee", "fast", *args])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:") and text in lines[0], \
        result.output


def test_the_arms_are_the_parameter_files_set_with_one_value_moved(tmp_path):
    from kipp.analysis.parameters.sensitivity import build_arms
    from kipp.analysis.parameters.uncertain import Side

    path = tmp_path / "mine.toml"
    path.write_text("[ship]\nthread_pitch_mm = 4.0\n[barrels.large]\nheight_mm = 40.0\n")
    arms = build_arms(CASUAL, (by_name("thread pitch"), by_name("barrel heights")), path)
    default, pitch_low, pitch_high, short, tall = arms
    assert default.side is Side.DEFAULT and default.params.ship.thread_pitch_m == pytest.approx(0.004)
    pitches = (pitch_low.params.ship.thread_pitch_m, pitch_high.params.ship.thread_pitch_m)
    assert pitches == pytest.approx((0.0025, 0.005))
    assert pitch_low.params.barrel("large").height_m == pytest.approx(0.040)  # the file's other values stay
    assert short.params.barrel("large").height_m == pytest.approx(0.038)  # +-2 mm around the file's 40
    assert tall.params.barrel("small").height_m == pytest.approx(0.026)  # and around the default 24
    assert short.params.ship.thread_pitch_m == pytest.approx(0.004)


def test_a_results_file_of_other_ranges_is_refused(tmp_path):
    from kipp.analysis.results_store import ResultsFileError

    out = tmp_path / "s.sqlite"
    pitch = by_name("thread pitch")
    sensitivity(CASUAL, 2, seed=1, parameters=(pitch,), referee="fast", out=out)
    narrower = Uncertain(pitch.name, pitch.keys, pitch.spread, 2.8, 3.5, pitch.unit, pitch.how_to_measure)
    with pytest.raises(ResultsFileError, match="arms:"):
        sensitivity(CASUAL, 2, seed=1, parameters=(narrower,), referee="fast", out=out)
