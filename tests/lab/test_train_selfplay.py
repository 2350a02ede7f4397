"""lab.train_selfplay: a short run is reproducible from its seed, for any number of workers, and each stage
fits its own weights only; lab.captain_study: its counts are the games' own."""

from __future__ import annotations

import numpy as np

from kipp.analysis.compare import game_seed
from kipp.players.captain import CaptainPolicy
from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from lab import captain_study
from lab.train_selfplay import STAGES, Setup, make_parser, run_stage, train
from sim.params import load_params
from sim.referees.fast import FastReferee

PARAMS = load_params()
TINY = {"generations": 2, "minutes": None, "population": 3, "games": 1, "sigma0": 0.2}


def test_a_short_training_is_the_same_for_the_same_seed_and_any_workers():
    runs = [train(seed=3, opponents=("casual", "self"), referee="fast", workers=w, aim=TINY,
                  passing={**TINY, "generations": 1, "population": 2}, progress=False) for w in (1, 1, 2)]
    flats = [policy.flat() for policy, _ in runs]
    assert np.array_equal(flats[0], flats[1]) and np.array_equal(flats[0], flats[2])
    def untimed(record):
        return [{k: v for k, v in row.items() if k != "elapsed_s"} for row in record["aim"]["curve"]]

    assert untimed(runs[0][1]) == untimed(runs[2][1])
    other, _ = train(seed=4, opponents=("casual", "self"), referee="fast", workers=1, aim=TINY,
                     passing={**TINY, "generations": 1, "population": 2}, progress=False)
    assert not np.array_equal(other.flat(), flats[0])


def test_each_stage_moves_its_own_weights_only():
    start = CaptainPolicy.starting_point().flat()
    for stage, (part, sea_dogs) in STAGES.items():
        end, curve = run_stage(stage, start, seed=1, setup=Setup(("casual",), sea_dogs, "fast"), workers=1,
                               progress=False, **{**TINY, "generations": 1})
        moved = end != start
        assert moved[part].any() and not np.delete(moved, np.arange(len(start))[part]).any(), stage
        assert len(curve) == 1 and set(curve[0]["best_by_opponent"]) == {"casual"}


def test_the_studys_figures_are_the_games_own():
    record = captain_study.run(2, "fast", 5, 1, opponents=("casual",), sea_dogs_opponents=("casual",),
                               completion_models=("captain",), pass_rules=("captain",), params=PARAMS)
    referee = FastReferee(PARAMS)
    chips, passes = [], 0
    for g in range(2):
        pair = 0.0
        for seats in (("Captain", "Casual"), ("Casual", "Captain")):
            bots = [make_bot(name.lower(), name, PARAMS) for name in seats]
            state = play_game(GameConfig(players=seats, sea_dogs=True), referee, bots, game_seed(5, g), params=PARAMS)
            mine = seats.index("Captain")
            pair += (state.chips[mine] - state.chips[1 - mine]) / 2
            passes += sum(e["event"] == "pass" and e["player"] == mine for e in state.events())
        chips.append(pair)
    sea = record["head_to_head"]["Old Sea Dogs"]["casual"]
    assert sea["chips"][0] == round(float(np.mean(chips)), 4)
    assert sea["captain_passes"]["count"] == passes
    assert sea["captain_passes"]["of"] >= passes
    completion = record["completion"]["captain"]
    assert completion["rounds"] == 6 and 0 <= completion["completed"] <= 6
    rule = record["pass"]["captain"]
    assert rule["passes"]["of"] > 0 and rule["passes"]["count"] <= rule["passes"]["of"]


def test_the_shipped_weights_were_trained_by_the_commands_defaults():
    """``python -m lab.train_selfplay --workers 2`` remakes kipp/players/data/captain.json (not re-run here:
    it takes minutes); its record names the options it ran with, which must be the defaults."""
    defaults = make_parser().parse_args([])
    training = CaptainPolicy.load().training
    assert (training["seed"], training["referee"], training["opponents"]) == (
        defaults.seed, defaults.referee, defaults.opponents.split(","))
    for stage in STAGES:
        record = training[stage]
        for name in ("generations", "population", "games", "sigma0", "minutes"):
            assert record[name] == getattr(defaults, f"{stage}_{name}"), (stage, name)
        assert record["generations_run"] == record["generations"]
