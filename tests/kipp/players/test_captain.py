"""The captain: its policy's parts reduce to the hand-written rules they start from, its file round-trips,
and it plays whole games that replay."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.players.captain import DIMENSIONS, PASS_TERMS, VECTORS, WILD_TERMS, CaptainPolicy
from kipp.players.learned import SCALARS, LearnedAim
from kipp.players.models import make_bot
from kipp.rules.actions import WILD
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from sim.params import SCREWS, load_params
from sim.referees.fast import FastReferee

PARAMS = load_params()


def states_of_games(bot, seeds, sea_dogs=False):
    """Every decision state (a copy) of two-player games between two copies of ``bot``."""
    seen = []
    config = GameConfig(players=("A", "B"), sea_dogs=sea_dogs)
    for seed in seeds:
        play_game(config, FastReferee(PARAMS), [bot, bot], seed, params=PARAMS,
                  observer=lambda state, _: seen.append(state.clone()) if not state.is_terminal()
                  and not state.is_chance_node() else None)
    return seen


def test_the_policy_round_trips_through_its_file_and_its_flat_vector(tmp_path):
    rng = np.random.default_rng(1)
    policy = CaptainPolicy.from_flat(rng.normal(size=DIMENSIONS), {"seed": 3})
    path = tmp_path / "captain.json"
    policy.save(path)
    again = CaptainPolicy.load(path)
    assert np.array_equal(again.flat(), policy.flat()) and again.training == {"seed": 3}
    assert DIMENSIONS == len(VECTORS) * len(SCALARS) + len(WILD_TERMS) + len(PASS_TERMS)
    data = json.loads(path.read_text())
    data["vectors"] = data["vectors"][:-1]
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="not a captain policy"):
        CaptainPolicy.load(path)


def test_the_balance_vector_alone_is_the_skilled_players_aim():
    weights = np.zeros((len(VECTORS), len(SCALARS)))
    weights[VECTORS.index("balance"), SCALARS.index("one")] = 1.0
    policy = CaptainPolicy(weights, np.zeros(len(WILD_TERMS)), np.zeros(len(PASS_TERMS)))
    captain = replace(make_bot("captain", "C", PARAMS), captain=policy)
    skilled = make_bot("skilled", "S", PARAMS)
    placements = [s for s in states_of_games(skilled, [1, 2]) if s.legal_actions()
                  and type(s.legal_actions()[0]).__name__ == "PlaceAnywhere" and s.face != WILD]
    assert len(placements) > 30
    for state in placements:
        assert captain.captain_aim_m(state) == pytest.approx(skilled.balance_aim_m(state), abs=1e-9)


def test_the_learned_weights_alone_are_the_learned_players_aim():
    learned = make_bot("learned", "L", PARAMS)
    policy = CaptainPolicy.starting_point(balance_share=0.0, aim=LearnedAim.load())
    captain = replace(make_bot("captain", "C", PARAMS), captain=policy)
    placements = [s for s in states_of_games(learned, [3]) if s.legal_actions()
                  and type(s.legal_actions()[0]).__name__ == "PlaceAnywhere" and s.face != WILD]
    for state in placements:
        assert captain.captain_aim_m(state) == pytest.approx(learned.learned_aim_m(state), abs=1e-9)


def test_with_zero_wild_weights_the_captain_levels_the_deck():
    """The starting point's wild choice is the leveler's: the sailor it turns leaves the least tilt."""
    captain = replace(make_bot("captain", "C", PARAMS), captain=CaptainPolicy.starting_point())
    choices = [s for s in states_of_games(captain, range(4)) if s.legal_actions()
               and type(s.legal_actions()[0]).__name__ == "ChooseSailor"]
    assert len(choices) > 10
    for state in choices:
        chosen = captain.act(state, np.random.default_rng(0)).sailor
        tilt = {s: captain.view.judge.gradient_after(state.tower, s, 1.0) for s in SCREWS}
        least = min(np.hypot(*g) for g in tilt.values())
        assert np.hypot(*tilt[chosen]) <= least + 1e-6


def test_with_zero_pass_weights_the_captain_passes_as_the_risk_rule_does():
    captain = replace(make_bot("captain", "C", PARAMS), captain=CaptainPolicy.starting_point())
    chances = [s for s in states_of_games(captain, range(3), sea_dogs=True) if s.pass_allowed()]
    assert len(chances) > 20
    verdicts = [captain.estimate_passes(s) for s in chances]
    assert all(v["risk"] == v["captain"] for v in verdicts)
    assert any(v["risk"] for v in verdicts) and not all(v["risk"] for v in verdicts)


def test_a_higher_bar_passes_less():
    start = CaptainPolicy.starting_point()
    higher = CaptainPolicy(start.aim_weights, start.wild, np.array([2.0, 0.0, 0.0, 0.0]))
    captain = replace(make_bot("captain", "C", PARAMS), captain=start)
    chances = [s for s in states_of_games(captain, range(3), sea_dogs=True) if s.pass_allowed()]
    low = sum(captain.estimate_passes(s)["captain"] for s in chances)
    high = sum(replace(captain, captain=higher).estimate_passes(s)["captain"] for s in chances)
    assert high < low


def test_the_captain_aim_and_wild_choice_go_together():
    with pytest.raises(ValueError, match="go together"):
        make_bot("expert", "E", PARAMS).__class__(aim="captain", wild="leveler", params=PARAMS)
    with pytest.raises(ValueError, match="needs the captain aim"):
        make_bot("expert", "E", PARAMS).__class__(aim="balance", passing="captain", params=PARAMS)


def test_kipp_game_seats_captains_and_the_recording_replays(tmp_path):
    result = CliRunner().invoke(main, ["game", "--bots", "captain", "--seed", "4", "--json", "--sea-dogs",
                                       "--referee", "fast"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[0])["models"] == ["captain", "captain"]
    path = tmp_path / "game.jsonl"
    path.write_text(result.output, encoding="utf-8")
    check = CliRunner().invoke(main, ["replay", str(path), "--check"])
    assert check.exit_code == 0, check.output
    assert "(captain)" in check.output
