"""lab.train_selfplay: a short run is reproducible from its seed, for any number of workers, and each stage
fits its own weights only; lab.captain_study: its counts are the games' own."""

from __future__ import annotations

import numpy as np
import pytest

from kipp.analysis.compare import game_seed
from kipp.players.captain import CaptainPolicy
from kipp.players.learned import LearnedAim
from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from lab import captain_study
from lab.train_selfplay import N_AIM, N_WILD, STAGES, Setup, make_parser, run_stage, train
from sim.params import load_params
from sim.referees.fast import FastReferee

PARAMS = load_params()
TINY = {"generations": 2, "minutes": None, "population": 3, "games": 1, "sigma0": 0.2, "completion_weight": 1.0}


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
    parts = {"aim": np.arange(N_AIM + N_WILD), "pass": np.arange(N_AIM + N_WILD, len(start))}
    for stage, spec in STAGES.items():
        end, curve = run_stage(stage, start, seed=1, setup=Setup(("casual",), spec.sea_dogs, "fast"), workers=1,
                               progress=False, **{**TINY, "generations": 1})
        moved = end != start
        assert moved[parts[stage]].any() and not np.delete(moved, parts[stage]).any(), stage
        assert len(curve) == 1 and set(curve[0]["best_by_opponent"]) == {"casual"}
        assert set(curve[0]["mean"]) == set(spec.terms) and 0 <= curve[0]["best_completion"] <= 1


def test_the_aim_stage_blends_the_balance_and_the_learned_aims():
    """Its numbers read the starting point as half of each aim and the leveler, and write back the same
    weights; any numbers give an aim whose learned part is the learned policy's weights scaled."""
    learned, aim = LearnedAim.load(), STAGES["aim"]
    start = CaptainPolicy.starting_point().flat()
    numbers = aim.numbers(start, learned)
    assert numbers == pytest.approx([0.5, 0.5, 0.0, 0.0, 0.0])
    assert np.allclose(aim.full(numbers, start, learned), start)
    policy = CaptainPolicy.from_flat(aim.full(np.array([0.8, 0.3, 2.0, -0.1, 0.2]), start, learned))
    assert np.allclose(policy.aim_weights[:-1], 0.3 * learned.weights)
    assert policy.aim_weights[-1].tolist() == [0.8, 0.0, 0.0, 0.0] and policy.wild.tolist() == [2.0, -0.1, 0.2]
    assert np.array_equal(policy.passing, CaptainPolicy.from_flat(start).passing)


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
    table = rule["by_estimate"]
    assert sum(row["chances"] for row in table) == rule["passes"]["of"]
    assert sum(row["captain_rule_passes"] for row in table) == rule["passes"]["count"]
    assert sum(row["risk_rule_passes"] for row in table) == rule["risk_rule_at_the_same_chances"]["count"]
    for row in table:  # the risk rule passes only above its threshold, 0.4 for two players
        if row["estimate"][1] <= 0.4:
            assert row["risk_rule_passes"] == 0
        crashed = row["next_players_forced_turns_crashed"]
        assert crashed["of"] == row["captain_rule_passes"] and crashed["count"] <= crashed["of"]


def test_a_forced_turn_after_a_pass_is_read_from_the_events():
    events = [{"event": "pass", "player": 0}, {"event": "roll", "player": 1}, {"event": "award", "player": 1,
              "chips": 1, "reason": "pass"}, {"event": "pass", "player": 0}, {"event": "roll", "player": 1},
              {"event": "crash", "player": 1}, {"event": "round_end", "completed": False},
              {"event": "pass", "player": 1}, {"event": "roll", "player": 0},
              {"event": "round_end", "completed": True}]
    assert captain_study.forced_turns_crashed(events, 0) == [False, True]
    assert captain_study.forced_turns_crashed(events, 1) == [False]
    assert [captain_study.estimate_bin(p) for p in (0.0, 0.39, 0.4, 0.99, 1.0)] == [0, 2, 3, 5, 5]


def test_the_shipped_weights_were_trained_by_the_commands_defaults():
    """``python -m lab.train_selfplay --workers 2`` remakes kipp/players/data/captain.json (not re-run here:
    it takes minutes); its record names the options it ran with, which must be the defaults."""
    defaults = make_parser().parse_args([])
    training = CaptainPolicy.load().training
    assert (training["seed"], training["referee"], training["opponents"]) == (
        defaults.seed, defaults.referee, defaults.opponents.split(","))
    for stage in STAGES:
        record = training[stage]
        for name in ("generations", "population", "games", "sigma0", "minutes", "completion_weight"):
            assert record[name] == getattr(defaults, f"{stage}_{name}"), (stage, name)
        assert record["generations_run"] == record["generations"]
