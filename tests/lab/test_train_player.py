"""Training the learned player: a small run writes a policy the player model can load, the same seed
trains the same policy, and the optimiser leaves numpy's global random state alone."""

from __future__ import annotations

import numpy as np

from kipp.players.learned import LearnedAim
from kipp.players.models import make_bot
from lab import train_player
from sim.params import load_params


def test_a_short_training_writes_a_policy_and_the_same_seed_trains_the_same_one(tmp_path):
    args = ["--generations", "2", "--population", "4", "--rounds", "6", "--holdout", "8", "--no-progress"]
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    assert train_player.main(args + ["--out", str(tmp_path / "a.json")]) == 0
    assert np.array_equal(np.random.get_state()[1], before)  # CMA-ES drew from its own generator
    assert train_player.main(args + ["--out", str(tmp_path / "b.json")]) == 0
    a, b = LearnedAim.load(tmp_path / "a.json"), LearnedAim.load(tmp_path / "b.json")
    assert np.array_equal(a.weights, b.weights) and np.any(a.weights != 0.0)
    assert a.training["generations"] == 2 and len(a.training["curve"]) == 2
    assert set(a.training["holdout"]) == {"rounds", "learned", "centre aim"}
    bot = make_bot("learned", "Ann", load_params())
    assert bot.learned is not None and bot.aim == "learned"


def test_candidates_of_a_generation_play_the_same_rounds():
    """Common random numbers: the same policy on the same seeds scores the same (the die, the lines
    and the hand's errors come from the seeds), another policy otherwise."""
    env = train_player.make_env("fast", 1.0, 12)
    seeds = [11, 12, 13]
    centre = LearnedAim(np.zeros((5, 4)))
    assert train_player.play(env, centre, seeds) == train_player.play(env, centre, seeds)
    other = LearnedAim.from_flat(np.full(20, 0.3))
    assert train_player.play(env, other, seeds) != train_player.play(env, centre, seeds)
