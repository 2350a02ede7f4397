"""The learned player: the shipped policy loads, plays whole games under the rules, and plays as a bot
exactly the aim it was trained to give in the environment."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.players.learned import SCALARS, VECTORS, LearnedAim, features
from kipp.players.models import make_bot
from kipp.players.table_view import FIELD, TableView, aim_xy_m
from kipp.rules.actions import PlaceAnywhere
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from kipp.rules.replay import replay
from kipp.rules.state import CHANCE, GameState
from kipp.rules.transcript import json_line, parse_json_lines
from sim.params import load_params
from sim.referees.fast import FastReferee
from sim.seeds import stream

PARAMS = load_params()


def test_the_shipped_policy_loads_with_how_it_was_trained():
    policy = LearnedAim.load()
    assert policy.weights.shape == (len(VECTORS), len(SCALARS)) and np.all(np.isfinite(policy.weights))
    assert np.any(policy.weights != 0.0)  # trained, not the centre aim it started from
    training = policy.training
    assert training["generations"] >= 1 and training["population"] >= 2 and training["wall_s"] > 0
    assert len(training["curve"]) == training["generations"]


def test_the_learned_aim_goes_with_the_levelling_wild_choice():
    from kipp.players.bots import Bot

    with pytest.raises(ValueError, match="leveler"):
        Bot("Ann", aim="learned", wild="random", params=PARAMS)


def test_a_policy_survives_saving(tmp_path):
    policy = LearnedAim.from_flat(np.arange(20) / 7.0, {"note": "test"})
    path = tmp_path / "p.json"
    policy.save(path)
    again = LearnedAim.load(path)
    assert np.allclose(again.weights, policy.weights, atol=1e-6) and again.training == {"note": "test"}
    path.write_text(json.dumps({"vectors": ["x"], "scalars": list(SCALARS), "weights": [[0.0]]}))
    with pytest.raises(ValueError, match="not a policy of these features"):
        LearnedAim.load(path)


def test_a_learned_bot_plays_a_whole_game_that_replays():
    config = GameConfig(players=("Ann", "Ben", "Cid"), sea_dogs=True)
    bots = [make_bot("learned", name, PARAMS) for name in config.players]
    state = play_game(config, FastReferee(PARAMS), bots, seed=4, params=PARAMS)
    assert state.is_terminal()
    events = state.events()
    assert sum(e["event"] == "round_end" for e in events) == 3
    assert sum(state.chips) + state.supply == 25
    parsed = parse_json_lines("\n".join(json_line(e) for e in events))
    assert replay(parsed, FastReferee(PARAMS), PARAMS).chips == state.chips


def test_the_bot_aims_where_the_policy_aims_in_the_environment():
    """At every placement of a game, the learned bot's aim is the environment's reading of the
    policy's action on the same table (the aim the policy was trained with)."""
    bot = make_bot("learned", "Ann", PARAMS)
    view = TableView(PARAMS)
    state = GameState(GameConfig(players=("Ann",)), FastReferee(PARAMS), PARAMS.ship)
    rng, checked = stream(9, "die"), 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            from kipp.rules.play import sample_chance

            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()[0]
        if isinstance(legal, PlaceAnywhere) and state.tower.barrels:
            obs = view.observe(state, 0)
            action = bot.learned.action(obs)
            expected = aim_xy_m(state.tower.top_xy(), obs[FIELD["reach_mm"].slice][0] / 1e3, *action[:2])
            assert bot.learned_aim_m(state) == pytest.approx(expected, abs=1e-6)
            checked += 1
        state.apply_action(bot.act(state, rng))
    assert checked > 10


def test_the_policy_turns_with_the_deck():
    """The aim is a sum of deck-frame vectors: a table whose gradients, lean and step are mirrored
    across the x axis gets the mirrored aim (the features carry no preferred direction)."""
    policy = LearnedAim.load()
    rng = np.random.default_rng(3)
    obs = np.zeros(FIELD["placed"].start + 1, np.float32)
    obs[FIELD["gradient_after"].slice] = rng.normal(0, 0.05, 6)
    obs[FIELD["gradient"].slice] = rng.normal(0, 0.05, 2)
    obs[FIELD["tilt_after_deg"].slice] = [3.0, 2.0, 4.0]
    obs[FIELD["reach_mm"].slice] = 9.0
    obs[FIELD["next_barrel"].slice] = [0, 1, 0]
    tower = obs[FIELD["tower"].slice].reshape(-1, 6)
    tower[:3, 0] = 1.0
    tower[:3, 3:5] = rng.normal(0, 2.0, (3, 2))
    obs[FIELD["tower"].slice] = tower.ravel()
    obs[FIELD["aim_centre_mm"].slice] = tower[2, 3:5]
    mirror = obs.copy()
    for name in ("gradient_after", "gradient", "aim_centre_mm"):
        mirror[FIELD[name].slice] = (obs[FIELD[name].slice].reshape(-1, 2) * [1, -1]).ravel()
    mtower = mirror[FIELD["tower"].slice].reshape(-1, 6)
    mtower[:, 4] *= -1
    mirror[FIELD["tower"].slice] = mtower.ravel()
    x, y = policy.aim(obs, "red")
    mx, my = policy.aim(mirror, "red")
    assert (mx, my) == pytest.approx((x, -y), abs=1e-6)
    assert features(obs, "red")[0].shape == (len(VECTORS), 2)


def test_kipp_game_and_compare_take_the_learned_player(tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["game", "--bots", "learned", "--referee", "fast", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[0])["models"] == ["learned", "learned"]
    path = tmp_path / "g.jsonl"
    path.write_text(result.output, encoding="utf-8")
    assert runner.invoke(main, ["replay", str(path), "--check"]).exit_code == 0
    result = runner.invoke(main, ["compare", "--player", "learned", "--referee", "fast", "--games", "2",
                                  "--workers", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "learned" in result.output


def test_a_kipp_play_seat_can_be_the_learned_player():
    from kipp.cli.play import parse_bot_models

    names, bots, models = parse_bot_models("Ann,bot:learned")
    assert names == ("Ann", "Bot (learned)") and bots == (1,) and models == {1: "learned"}
