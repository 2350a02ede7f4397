"""``kipp tune --params FILE`` plays every part of its work under FILE's parameters: the plain
sweep, the physics-quality sweep, the confirmation of its extremes (which once loaded the
defaults for itself) and the race."""

from __future__ import annotations

import functools

import pytest
from click.testing import CliRunner

import kipp.analysis.difficulty.confirm
import kipp.analysis.difficulty.sweeps
from kipp.cli import main
from sim.params import load_params
from tests.kipp.kipp_referees import ThresholdReferee, standing_in

OVERRIDE = "[ship]\nthread_pitch_mm = 4.2\n[placement]\nsigma_mm = 0.9\n"


class RecordingFactory:
    """A referee factory that remembers the parameter set of every referee it builds."""

    def __init__(self):
        self.seen = []

    def __call__(self, params):
        self.seen.append(params)
        return ThresholdReferee(seed=1, crash_rate=0.04, tilt_budget_deg=60.0, ship=params.ship)


@pytest.mark.parametrize("extra", [
    ["--referee", "fast"],
    ["--physics-rounds", "3", "--anchors", "20", "--confirm", "2"],
    ["--find", "hardest:1,easiest:1"],
], ids=["one referee", "physics quality with --confirm", "race"])
def test_the_parameter_file_reaches_every_referee_of_kipp_tune(tmp_path, monkeypatch, extra):
    path = tmp_path / "mine.toml"
    path.write_text(OVERRIDE)
    mine = load_params(path)
    factory = RecordingFactory()
    monkeypatch.setattr(kipp.analysis.difficulty.sweeps, "confirm",
                        functools.partial(kipp.analysis.difficulty.confirm.confirm, rounds=4))
    with standing_in(factory):
        result = CliRunner().invoke(main, ["tune", "--orders", "sample:12", "--barrels", "9", "--rounds", "4",
                                           "--workers", "1", "--no-progress", "--params", str(path), *extra])
    assert result.exit_code == 0, result.output
    assert factory.seen, "no referee was built"
    assert all(p == mine for p in factory.seen)
    assert mine != load_params()  # the file does change something


def test_confirm_plays_its_rounds_under_the_sweeps_parameters(tmp_path):
    """The confirmation's new rounds are those of the parameter set it is handed: its fast
    values differ between the defaults and a set whose ship tilts the deck twice as fast."""
    from kipp.analysis.difficulty.confirm import confirm
    from kipp.analysis.difficulty.quality_sweep import run_quality_sweep
    from kipp.analysis.orders import sample_orders
    from tests.kipp.analysis.difficulty.test_quality_sweep import FAST, SAMPLED, _run, stand_ins

    orders = sample_orders(30, 9, seed=1)
    out = tmp_path / "q.sqlite"
    defaults = load_params()
    steep = load_params(overrides={"ship": {"thread_pitch_mm": 6.0}})
    with stand_ins():
        run_quality_sweep(_run(plan=SAMPLED), orders, defaults, out)
    factory = RecordingFactory()
    with standing_in(factory, (FAST,)):  # the fast referee the file names
        confirm(out, steep, top=2, rounds=6, orders=orders, progress=False)
    assert factory.seen and all(p == steep for p in factory.seen)
