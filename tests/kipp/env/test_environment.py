"""The Gymnasium environment: Gymnasium's own checker, determinism, whole episodes under the
rules (their transcripts re-played by ``kipp replay --check``), pictures."""

from __future__ import annotations

import json

import gymnasium
import numpy as np
import pytest
from click.testing import CliRunner
from gymnasium.utils.env_checker import check_env

import kipp.env
from kipp.cli import main
from kipp.players.table_view import FIELD, FIELDS, SIZE, TableView
from kipp.rules.replay import replay
from kipp.rules.transcript import parse_json_lines
from sim.params import load_params
from sim.referees import make_referee

PARAMS = load_params()


def make(**options):
    return gymnasium.make(kipp.env.ENV_ID, params=PARAMS, **options)


def test_gymnasiums_checker_passes_with_warnings_as_errors():
    # the suite turns every warning into an error (pyproject filterwarnings), the checker's included
    check_env(make().unwrapped)
    check_env(make(sea_dogs=True, passing="action", players=3, seat=1, opponents="skilled").unwrapped,
              skip_render_check=True)


def test_the_module_path_form_of_the_id_makes_the_same_environment():
    env = gymnasium.make("kipp.env:kipp/KippKippAhoi-v0")
    assert isinstance(env.unwrapped, kipp.env.KippKippAhoiEnv)


def test_the_docstring_table_matches_the_layout():
    doc = kipp.env.KippKippAhoiEnv.__doc__
    assert f"({SIZE},), float32" in doc
    for field in FIELDS:
        last = field.start + field.size - 1
        assert f"| {field.start}-{last} " in doc or f"| {field.start} " in doc, field.name


def play(env, seed, actions):
    """An episode with actions drawn from ``actions`` (a seeded generator): every step's data."""
    steps = [env.reset(seed=seed)]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(actions.uniform(-1, 1, 3).astype(np.float32))
        steps.append((obs, reward, terminated, truncated, info))
        done = terminated or truncated
        assert len(steps) < 500
    return steps


@pytest.mark.parametrize("options", [{}, {"sea_dogs": True, "passing": "action", "players": 3, "seat": 2},
                                     {"barrels": 9, "half_turn": True, "episode": "round"}])
def test_same_seed_and_actions_give_the_same_episode_and_another_seed_another(options):
    a = play(make(**options), 11, np.random.default_rng(5))
    b = play(make(**options), 11, np.random.default_rng(5))
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert np.array_equal(x[0], y[0]) and x[1:] == y[1:]
    env = make(**options)
    play(env, 11, np.random.default_rng(5))
    first = env.unwrapped.transcript()
    play(env, 12, np.random.default_rng(5))
    assert env.unwrapped.transcript() != first


def test_random_actions_finish_a_game_and_the_rewards_are_the_chips():
    env = make(players=3, seat=1, opponents=["skilled", "novice"])
    steps = play(env, 3, np.random.default_rng(0))
    state = env.unwrapped.state
    assert state.is_terminal() and steps[-1][2]
    assert sum(s[1] for s in steps[1:]) == state.chips[1] - steps[0][1]["chips"][1]
    events = [json.loads(line) for line in env.unwrapped.transcript().splitlines()]
    assert sum(e["event"] == "round_end" for e in events) == 3
    # every step was one of the learner's decisions: a placement at the learner's seat
    places = [e for e in events if e["event"] == "place" and e["player"] == 1]
    assert len(places) == len(steps) - 1
    assert sum(state.chips) + state.supply == 25


def test_a_round_episode_ends_with_the_first_round():
    env = make(episode="round")
    steps = play(env, 4, np.random.default_rng(1))
    assert steps[-1][4]["round_end"]["round"] == 1
    assert env.unwrapped.state.round == 2 and not env.unwrapped.state.is_terminal()


def test_an_episodes_transcript_passes_kipp_replay_check(tmp_path):
    env = make(sea_dogs=True, passing="action", opponents="expert")
    play(env, 21, np.random.default_rng(2))
    path = tmp_path / "episode.jsonl"
    path.write_text(env.unwrapped.transcript(), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--check"])
    assert result.exit_code == 0, result.output
    assert "replay matches" in result.output and "Learner" in result.output


def test_a_tampered_transcript_fails_the_check():
    env = make()
    play(env, 8, np.random.default_rng(3))
    events = parse_json_lines(env.unwrapped.transcript())
    place = next(e for e in events if e["event"] == "place" and e["player"] == 0 and e["index"] > 3)
    place["offset_mm"] = [place["offset_mm"][0] + 40.0, place["offset_mm"][1]]  # off the barrel below
    with pytest.raises(ValueError):
        replay(events, make_referee("fast", PARAMS), PARAMS)


def test_the_aim_is_scaled_to_the_barrel_below():
    """Aim (1, 1) sets the barrel one reach from the top barrel's centre, diagonally toward the bow
    and port: 0.75 of the smaller end radius of the two barrels (the catalogue's), since the
    corner of the box is pulled onto the unit disc's rim."""
    env = make(sigma_mm=0.0).unwrapped
    obs, _ = env.reset(seed=2)
    while not env.state.tower.barrels:
        obs, *_ = env.step(np.zeros(3, np.float32))
    tower = env.state.tower
    below, size = tower.barrels[-1].size, env.state.next_barrel()
    radius_mm = min(PARAMS.barrel(s).end_diameter_m for s in (below, size)) / 2 * 1e3
    assert obs[FIELD["reach_mm"].slice][0] == pytest.approx(0.75 * radius_mm, rel=1e-6)
    centre = np.array(tower.top_xy()) * 1e3
    assert obs[FIELD["aim_centre_mm"].slice] == pytest.approx(centre, abs=1e-3)
    before = len(env.state.events())
    env.step(np.array([1.0, 1.0, 0.0], np.float32))
    put = next(e for e in env.state.events()[before:] if e["event"] == "place")
    assert put["player"] == 0 and put["barrel"] == size
    offset = np.array(put["offset_mm"]) - centre
    assert np.hypot(*offset) == pytest.approx(0.75 * radius_mm, abs=1e-3)
    assert offset[0] == pytest.approx(offset[1], abs=1e-3) and offset[0] > 0


def test_the_observation_shows_the_table():
    env = make(players=2, opponents="casual").unwrapped
    obs, info = env.reset(seed=5)
    state = env.state
    assert obs[FIELD["chips"].slice].tolist() == [3, 3, 0, 0]
    assert obs[FIELD["supply"].slice].tolist() == [25 - 6]
    assert obs[FIELD["face"].slice].sum() == 1 and obs[FIELD["placed"].slice][0] == state.placed
    rest = obs[FIELD["line"].slice].reshape(-1, 3)
    assert rest.sum() == len(state.line) - state.placed - 1  # every barrel after the next, one each
    assert np.array_equal(TableView(PARAMS).observe(state, 0), obs)


def test_rgb_array_is_a_picture_of_the_table():
    env = make(render_mode="rgb_array")
    env.reset(seed=1)
    for _ in range(3):
        env.step(np.zeros(3, np.float32))
    picture = env.render()
    assert picture.shape == (400, 640, 3) and picture.dtype == np.uint8
    # the sky and the sea are both in the side view: blue-ish pixels at the top and at the bottom
    assert picture[5:40, 50:300, 2].mean() > 150 and picture[-10:, 50:300, 2].mean() > 80
    assert len({tuple(p) for p in picture.reshape(-1, 3)[::97]}) > 20
    env.close()


def test_human_mode_draws_into_a_window():
    env = make(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    import pygame

    assert pygame.display.get_surface().get_size() == (640, 400)
    env.close()


def test_the_docstring_examples_run():
    import doctest

    import kipp.env.environment
    import kipp.players.learned
    import kipp.players.table_view

    for module in (kipp.env.environment, kipp.players.table_view, kipp.players.learned):
        assert doctest.testmod(module).failed == 0, module.__name__


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_aiming_at_the_centre_plays_kipp_games_casual_bot_to_the_micrometre(seed):
    """The environment deals chance and hands as ``kipp game --seed ROOT`` does: a learner that
    always aims at the top barrel's centre with casual's hand and levels the deck on a wild roll
    plays the very game two casual bots play from the episode's root seed."""
    from kipp.players.learned import LearnedAim
    from kipp.players.models import make_bot
    from kipp.rules.play import play_game

    centre = LearnedAim(np.zeros((5, 4)))
    env = make(opponents="casual", sigma_mm=PARAMS.placement.sigma_m * 1e3).unwrapped
    obs, _ = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(centre.action(obs))
    bots = [make_bot("casual", name, PARAMS) for name in env.config.players]
    games = play_game(env.config, make_referee("fast", PARAMS), bots, env.root_seed, params=PARAMS)
    assert env.state.events() == games.events()


def test_rendering_without_pygame_names_the_extra(monkeypatch):
    import sys

    from gymnasium.error import DependencyNotInstalled

    env = make(render_mode="rgb_array")
    env.reset(seed=1)
    monkeypatch.setitem(sys.modules, "pygame", None)  # what `import pygame` meets when it is not installed
    with pytest.raises(DependencyNotInstalled, match=r"kipp-kipp-ahoi\[env\]"):
        env.render()


def test_the_physics_referee_judges_an_episode_that_replays():
    """``referee="physics"``: the pymunk world decides, and the recorded game re-plays under it."""
    env = make(referee="physics", barrels=9, half_turn=True)
    steps = play(env, 6, np.random.default_rng(4))
    assert steps[-1][2] and env.unwrapped.referee_name == "physics"
    events = parse_json_lines(env.unwrapped.transcript())
    assert events[0]["referee"] == "physics"
    state = replay(events, make_referee("physics", PARAMS), PARAMS)
    assert state.chips == env.unwrapped.state.chips
