"""The creep fit: it recovers the fast referee's own creep, and physics towers drift downhill."""

import pytest

from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from lab.bench_situations import _Recorder  # keeps every (tower, placement, turn, decision)
from lab.creep_fit import creep_samples, fit_creep, main, physics_decisions
from sim.params import load_params
from sim.referees.fast import FastReferee


def test_the_fit_recovers_the_creep_of_the_fast_referees_own_games():
    params = load_params(overrides={"fast": {"creep_lean_rad": 0.0023, "creep_placed_mm": 0.31}})
    recorder = _Recorder(FastReferee(params))
    for seed in range(6):
        config = GameConfig(players=("A", "B"), half_turn=seed % 2 == 1)
        play_game(config, recorder, [Bot(name, params=params) for name in config.players], seed, params=params)
    fit = fit_creep(creep_samples(params, recorder.calls))
    assert fit.barrels > 20 and fit.placements > 10
    assert fit.lean_rad == pytest.approx(0.0023, rel=1e-9)
    assert fit.placed_mm == pytest.approx(0.31, rel=1e-9)
    assert fit.lean_residual_mm == pytest.approx(0.0, abs=1e-9)


def test_physics_towers_drift_downhill():
    params = load_params()
    fit = fit_creep(creep_samples(params, physics_decisions(params, games=4, seed=9000)))
    assert fit.lean_rad > 0 and fit.placed_mm > 0
    # the shipped values come from 80 such games; 4 give the same order of magnitude
    assert fit.lean_rad == pytest.approx(params.fast.creep_lean_rad, rel=0.5)
    assert fit.placed_mm == pytest.approx(params.fast.creep_placed_mm, rel=0.5)


def test_nothing_to_fit_is_an_error():
    with pytest.raises(ValueError, match="no standing decisions"):
        fit_creep(creep_samples(load_params(), []))


def test_games_must_be_positive(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--games", "0"])
    assert exit_info.value.code == 2 and "--games must be at least 1" in capsys.readouterr().err
