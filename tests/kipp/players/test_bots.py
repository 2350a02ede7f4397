"""Bots: placement skill, wild-roll policies, pass policies."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from kipp.players.bots import Bot, critical_tilt_deg, deck_tilt_deg
from kipp.rules.actions import ChooseSailor, Pass, Place, PlaceAnywhere, Play, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState
from sim.params import load_params
from sim.tower import BarrelPose
from tests.kipp.kipp_referees import ScriptedReferee

PARAMS = load_params()
LINE = ("large", "medium", "small") * 4


def test_placement_error_is_gaussian_with_the_bot_sigma_around_the_top_barrel():
    bot = Bot(sigma_mm=1.5, params=PARAMS)
    rng = np.random.default_rng(0)
    where = PlaceAnywhere("small", (2.0, -1.0))
    points = np.array([[p.x_mm, p.y_mm] for p in (bot.place(where, rng) for _ in range(4000))])
    assert np.allclose(points.mean(axis=0), [2.0, -1.0], atol=0.1)
    assert np.allclose(points.std(axis=0), 1.5, rtol=0.06)
    assert np.array_equal(points, np.round(points, 3)), "micrometre grid"
    assert Bot(sigma_mm=0.0, params=PARAMS).place(where, rng) == Place(2.0, -1.0)


def test_leveler_turns_the_sailor_that_levels_the_deck_ties_in_sailor_order():
    bot = Bot(params=PARAMS)
    assert bot.choose_sailor({"red": 0.0, "yellow": 0.0, "blue": 0.0}, 1.0) == "red"
    assert bot.choose_sailor({"red": 1.0, "yellow": 0.0, "blue": 0.0}, 1.0) == "yellow"
    assert bot.choose_sailor({"red": 1.0, "yellow": 1.0, "blue": 0.0}, 1.0) == "blue"
    turns = {"red": 2.0, "yellow": 0.5, "blue": 1.0}
    choice = bot.choose_sailor(turns, 0.5)
    tilts = {s: deck_tilt_deg(PARAMS, {**turns, s: turns[s] + 0.5}) for s in turns}
    assert tilts[choice] == min(tilts.values())


def wild_state(turns=(0.0, 0.0, 0.0)):
    state = GameState(GameConfig(players=("A", "B")), ScriptedReferee())
    for action in (Shuffle(LINE), Roll("wild"), Place(0.0, 0.0)):
        state.apply_action(action)
    state.tower = replace(state.tower, turns=turns)
    return state


def test_bot_act_on_wild_uses_its_policy():
    state = wild_state((1.0, 0.0, 1.0))
    assert Bot(params=PARAMS).act(state, np.random.default_rng(0)) == ChooseSailor("yellow")
    random_bot = Bot(wild="random", params=PARAMS)
    picks = {random_bot.act(state, np.random.default_rng(seed)).sailor for seed in range(40)}
    assert picks == {"red", "yellow", "blue"}
    assert random_bot.act(state, np.random.default_rng(3)) == random_bot.act(state, np.random.default_rng(3))


def test_critical_tilt_of_one_barrel_is_its_tipping_angle_and_falls_with_height():
    large = PARAMS.barrel("large")
    expected = math.degrees(math.atan2(large.end_diameter_m / 2, large.height_m / 2))
    assert critical_tilt_deg(PARAMS, ["large"]) == pytest.approx(expected)
    angles = [critical_tilt_deg(PARAMS, LINE[:k]) for k in range(1, 13)]
    assert all(a > b for a, b in zip(angles, angles[1:]))
    assert 2.0 < angles[-1] < 6.0, "a 12-stack tips at a few degrees (DESIGN.md 3)"


def sea_dogs_state(barrels: int, turns):
    state = GameState(GameConfig(players=("A", "B"), sea_dogs=True), ScriptedReferee())
    state.apply_action(Shuffle(LINE))
    poses = tuple(BarrelPose(size, 0.0, 0.0, 0.03 * i) for i, size in enumerate(LINE[:barrels]))
    state.tower = replace(state.tower, barrels=poses, turns=turns)
    state.placed = barrels
    state._begin_turn()  # the turn starts on this tower: a pass is possible once a barrel stands
    return state


def test_cautious_bot_passes_on_a_tall_tilted_tower_only():
    cautious = Bot(passing="cautious", params=PARAMS)
    rng = np.random.default_rng(0)
    assert cautious.act(sea_dogs_state(1, (0.0, 0.0, 0.0)), rng) == Play()
    assert cautious.act(sea_dogs_state(10, (0.0, 0.0, 0.0)), rng) == Play(), "one turn from level: 1.9 deg"
    assert cautious.act(sea_dogs_state(10, (2.0, 0.0, 0.0)), rng) == Pass()
    assert cautious.act(sea_dogs_state(2, (2.0, 0.0, 0.0)), rng) == Play()
    assert Bot(passing="never", params=PARAMS).act(sea_dogs_state(10, (3.0, 0.0, 0.0)), rng) == Play()


@pytest.mark.parametrize("bad", [dict(wild="dizzy"), dict(passing="always"), dict(sigma_mm=-1.0),
                                 dict(sigma_mm=float("nan"))])
def test_bad_bot_settings_are_value_errors(bad):
    with pytest.raises(ValueError):
        Bot(params=PARAMS, **bad)


def test_a_bot_refuses_chance_nodes():
    state = GameState(GameConfig(players=("A", "B")), ScriptedReferee())
    with pytest.raises(ValueError, match="nothing to decide"):
        Bot(params=PARAMS).act(state, np.random.default_rng(0))
