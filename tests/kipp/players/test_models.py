"""Named player models: one source of truth for their help texts, and skill that shows in play."""

from __future__ import annotations

import re

import numpy as np
import pytest

import kipp.players.models as models
from kipp.analysis.orders import sample_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.stats import mean_interval
from kipp.players.models import DEFAULT_MODEL, MODELS, UnknownModelError, make_bot, models_help
from sim.params import load_params
from sim.referees.fast import FastReferee

PARAMS = load_params()


@pytest.mark.parametrize("name", list(MODELS))
def test_a_models_bot_has_its_parameters_and_its_texts_say_them(name):
    m = MODELS[name]
    bot = make_bot(name, "Ann", PARAMS)
    assert (bot.aim, bot.wild, bot.passing, bot.model) == (m.aim, m.wild, m.passing, name)
    expected_sigma = m.sigma_mm if m.sigma_mm is not None else PARAMS.placement.sigma_m * 1000
    assert bot.sigma_mm == pytest.approx(expected_sigma)
    line = m.describe()
    assert line.startswith(name + ":") and line in models_help()
    if m.sigma_mm is not None:
        assert f"{m.sigma_mm:g} mm" in line
    # the module docstring's paragraph on this model names its hand and aim
    paragraph = re.search(rf"- ``{name}``(.*?)(?=\n- ``|\n\n)", models.__doc__, re.S).group(1)
    hand = f"{m.sigma_mm:g} mm" if m.sigma_mm is not None else "sigma_mm"
    assert hand in paragraph
    assert ("uphill" in paragraph or "balance" in paragraph) == (m.aim == "balance")


def test_an_unknown_model_lists_the_known_ones():
    with pytest.raises(UnknownModelError, match="known: novice, casual, skilled, expert, learned"):
        make_bot("pirate")


def test_the_default_model_is_the_first_versions_bot():
    bot = make_bot(DEFAULT_MODEL, params=PARAMS)
    assert (bot.aim, bot.sigma_mm, bot.wild) == ("centre", PARAMS.placement.sigma_m * 1000, "leveler")


def test_a_skilled_bot_completes_more_rounds_than_a_casual_one_on_the_same_luck():
    """Common random numbers: round k of every order has the same rolls and the same placement
    errors (scaled by each model's sigma) for both models; the paired difference of
    completions has a 95% interval above zero. Fast referee, half turns (where both complete
    some rounds), 24 orders x 5 rounds."""
    referee = FastReferee(PARAMS)
    orders = sample_orders(24, 12, seed=4)
    diffs, stacked = [], []
    for player_a, player_b in [("skilled", "casual")]:
        a, b = (RoundModel(player=p, half_turn=True) for p in (player_a, player_b))
        bot_a, bot_b = a.bot(PARAMS), b.bot(PARAMS)
        for order in orders:
            for k in range(5):
                ra = play_round(order, referee, bot_a, a.config(), 9, k)
                rb = play_round(order, referee, bot_b, b.config(), 9, k)
                diffs.append(int(ra.completed) - int(rb.completed))
                stacked.append(ra.stacked - rb.stacked)
    mean, low, _ = mean_interval(diffs)
    assert low > 0.0, f"skilled - casual completion {mean:.3f}, 95% interval from {low:.3f}"
    assert np.mean(stacked) > 0.0
