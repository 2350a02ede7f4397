"""The PettingZoo environment: PettingZoo's own API and seed tests, whole games under the rules (their
transcripts re-played by ``kipp replay --check``), chips as rewards, the action mask, pictures."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.env import aec
from kipp.players.models import make_bot
from kipp.rules.play import play_game
from kipp.rules.replay import replay
from kipp.rules.transcript import parse_json_lines
from sim.params import load_params
from sim.referees import make_referee

with warnings.catch_warnings():
    # pettingzoo.test imports its own connect_four_v3 by the module path it deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

PARAMS = load_params()


@pytest.fixture
def classic_dict_observations(monkeypatch):
    """PettingZoo's api_test advises Box observations, but lets its own classic games (chess_v6,
    connect_four_v3, ...) hand out ``{"observation", "action_mask"}`` dicts by naming them in two
    lists: this environment's observation is of that form, so it is named there too. Every other
    warning of the test stays an error (pyproject's filterwarnings)."""
    module = sys.modules["pettingzoo.test.api_test"]
    for name in ("env_obs_dicts", "env_obs_space"):
        monkeypatch.setattr(module, name, [*getattr(module, name), aec.NAME])


@pytest.mark.parametrize("options", [{}, {"players": 4, "sea_dogs": True}, {"players": 3, "barrels": 9,
                                                                            "half_turn": True}])
def test_pettingzoos_api_test_passes_with_warnings_as_errors(classic_dict_observations, options):
    api_test(aec.env(params=PARAMS, **options), num_cycles=300)
    api_test(aec.raw_env(params=PARAMS, **options), num_cycles=300)


@pytest.mark.parametrize("options", [{}, {"players": 3, "sea_dogs": True}])
def test_pettingzoos_seed_test_passes(options):
    seed_test(lambda: aec.env(params=PARAMS, **options), num_cycles=300)


def play(env, seed: int, actions: np.random.Generator, check=None) -> dict[str, float]:
    """A whole game with random allowed actions (a seeded generator); each agent's rewards summed."""
    env.reset(seed=seed)
    for space in env.action_spaces.values():
        space.seed(int(actions.integers(2**31)))
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if check is not None and not (termination or truncation):
            check(env, agent, obs)
        env.step(None if termination or truncation else env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
        assert steps < 2000
    return totals


def test_a_game_ends_with_every_agent_terminated_and_the_rewards_are_the_chips():
    env = aec.raw_env(params=PARAMS, players=3, sea_dogs=True)
    totals = play(env, 5, np.random.default_rng(1))
    state = env.game
    assert state.is_terminal() and env.agents == []
    start = state.config.start_chips
    assert [totals[a] for a in env.possible_agents] == [c - start for c in state.chips]
    # the chips moved as the transcript says: passes and crashes paid in, awards paid out
    events = state.events()
    for seat, agent in enumerate(env.possible_agents):
        paid = sum(e["chips"] for e in events if e["event"] == "award" and e["player"] == seat)
        lost = sum(e["chips_returned"] for e in events if e["event"] == "crash" and e["player"] == seat)
        passed = sum(e["event"] == "pass" and e["player"] == seat for e in events)
        assert totals[agent] == paid - lost - passed


def test_the_mask_allows_exactly_what_the_rules_allow():
    seen = set()

    def check(env, agent, obs):
        state, mask = env.game, obs["action_mask"]
        seat = env.possible_agents.index(agent)
        assert state.current_player() == seat and mask.dtype == np.int8
        first = type(state.legal_actions()[0]).__name__
        allowed = {aec.CHOICES[i] for i in np.flatnonzero(mask)}
        assert allowed == {"PlaceAnywhere": {"place"}, "Play": {"play", "pass"},
                           "ChooseSailor": {"red", "yellow", "blue"}}[first]
        seen.add(first)
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()

    env = aec.raw_env(params=PARAMS, players=2, sea_dogs=True)
    for seed in range(3):
        play(env, seed, np.random.default_rng(seed), check)
    assert seen == {"PlaceAnywhere", "Play", "ChooseSailor"}


def test_a_choice_the_mask_does_not_allow_is_refused():
    env = aec.raw_env(params=PARAMS)
    env.reset(seed=3)
    assert env.legal_choices() == ["place"]  # the first turn of a game sets a barrel
    with pytest.raises(ValueError, match="allowed: 0 place"):
        env.step(np.array([aec.CHOICE["pass"], 0, 0], np.float32))


def test_the_same_seed_gives_the_same_game_and_another_seed_another():
    def transcript(seed):
        env = aec.raw_env(params=PARAMS, sea_dogs=True)
        play(env, seed, np.random.default_rng(9))
        return env.transcript()

    assert transcript(4) == transcript(4)
    assert transcript(4) != transcript(5)


@pytest.mark.parametrize("seed", [1, 2])
def test_centre_aiming_levellers_play_kipp_games_casual_bots_to_the_micrometre(seed):
    """The environment deals chance and hands as ``kipp game --seed ROOT`` does: agents that aim at the
    top barrel's centre with casual's hand and level the deck on a wild roll play the very game that
    casual bots play from the environment's root seed."""
    env = aec.raw_env(params=PARAMS, players=3)
    env.reset(seed=seed)
    leveler = make_bot("casual", "leveler", PARAMS)
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        state = env.game
        if obs["action_mask"][aec.CHOICE["place"]]:
            env.step(np.array([aec.CHOICE["place"], 0.0, 0.0], np.float32))
        else:
            sailor = leveler.choose_sailor(state.turns_by_sailor(), state.config.fraction)
            env.step(np.array([aec.CHOICE[sailor], 0.0, 0.0], np.float32))
    bots = [make_bot("casual", name, PARAMS) for name in env.config.players]
    game = play_game(env.config, make_referee("fast", PARAMS), bots, env.root_seed, params=PARAMS)
    assert env.game.events() == game.events()


def test_a_games_transcript_passes_kipp_replay_check(tmp_path):
    env = aec.raw_env(params=PARAMS, players=3, sea_dogs=True)
    play(env, 11, np.random.default_rng(2))
    events = parse_json_lines(env.transcript())
    assert any(e["event"] == "pass" for e in events)  # random play passes: the check covers the pass too
    path = tmp_path / "game.jsonl"
    path.write_text(env.transcript(), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--check"])
    assert result.exit_code == 0, result.output
    assert "replay matches" in result.output and "player_2" in result.output


def test_the_physics_referee_judges_a_game_that_replays():
    env = aec.raw_env(params=PARAMS, referee="physics", barrels=9, half_turn=True)
    play(env, 6, np.random.default_rng(4))
    events = parse_json_lines(env.transcript())
    assert events[0]["referee"] == "physics"
    assert replay(events, make_referee("physics", PARAMS), PARAMS).chips == env.game.chips


def test_rgb_array_is_a_picture_of_the_table():
    env = aec.raw_env(params=PARAMS, render_mode="rgb_array")
    env.reset(seed=1)
    for _ in range(3):
        env.step(np.array([0, 0, 0], np.float32) if env.legal_choices() == ["place"]
                 else np.array([aec.CHOICE[env.legal_choices()[0]], 0, 0], np.float32))
    picture = env.render()
    assert picture.shape == (400, 640, 3) and picture.dtype == np.uint8
    assert len({tuple(p) for p in picture.reshape(-1, 3)[::97]}) > 20
    env.close()


def test_the_hands_are_per_seat():
    env = aec.raw_env(params=PARAMS, sigma_mm=[0.0, 2.0])
    assert env.sigma_mm == [0.0, 2.0]
    env.reset(seed=2)
    env.step(np.array([0, 0.0, 0.0], np.float32))  # seat 0 sets the first barrel with a steady hand
    place = next(e for e in env.game.events() if e["event"] == "place")
    assert place["offset_mm"] == [0.0, 0.0]
    with pytest.raises(ValueError, match="one per seat"):
        aec.raw_env(params=PARAMS, sigma_mm=[1.0, 1.0, 1.0])
