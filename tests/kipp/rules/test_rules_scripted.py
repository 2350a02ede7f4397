"""Each rule of the rulebook (DESIGN.md section 4), exercised deliberately with a scripted referee."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from kipp.rules.actions import ChooseSailor, Pass, Place, Play, Roll, Shuffle, parse_action
from kipp.rules.config import GameConfig
from kipp.rules.state import CHANCE, TERMINAL, GameState
from tests.kipp.kipp_referees import ScriptedReferee

LINE12 = ("large", "medium", "small") * 4
LINE9 = ("small", "medium", "large") * 3
HERE = Place(0.0, 0.0)


def new_game(players=("Ann", "Ben", "Cid"), script=(), **variant):
    referee = ScriptedReferee(script)
    return GameState(GameConfig(players=players, **variant), referee), referee


def kinds(state):
    return [e["event"] for e in state.events()]


def test_first_turn_places_even_on_blue_then_turns_blue():
    state, referee = new_game()
    state.apply_action(Shuffle(LINE12))
    state.apply_action(Roll("blue"))
    assert state.current_player() == 0
    state.apply_action(HERE)
    tower, placement, turn = referee.calls[-1]
    assert placement.size == "large" and (turn.sailor, turn.revolutions) == ("blue", 1.0)
    assert state.turns_by_sailor() == {"red": 0.0, "yellow": 0.0, "blue": 1.0}
    assert state.placed == 1 and state.current_player() == CHANCE and state.player == 1


def test_later_blue_places_nothing_and_turns_blue_without_a_decision():
    state, referee = new_game()
    for action in (Shuffle(LINE12), Roll("red"), HERE, Roll("blue")):
        state.apply_action(action)
    _, placement, turn = referee.calls[-1]
    assert placement is None and turn.sailor == "blue"
    assert state.placed == 1 and state.player == 2
    assert kinds(state)[-2:] == ["roll", "turn"]


@pytest.mark.parametrize("face", ["red", "yellow"])
def test_red_and_yellow_place_then_turn_that_sailor(face):
    state, referee = new_game()
    for action in (Shuffle(LINE12), Roll("red"), HERE, Roll(face), Place(0.5, -0.25)):
        state.apply_action(action)
    _, placement, turn = referee.calls[-1]
    assert (placement.size, placement.x_m, placement.y_m) == ("medium", 0.0005, -0.00025)
    assert turn.sailor == face
    assert state.turns_by_sailor()[face] == (2.0 if face == "red" else 1.0)


def test_wild_places_first_then_the_player_chooses_any_sailor():
    state, referee = new_game()
    for action in (Shuffle(LINE12), Roll("wild"), HERE):
        state.apply_action(action)
    assert referee.calls[-1][2] is None, "the barrel is placed before the sailor is chosen"
    assert state.current_player() == 0
    assert state.legal_actions() == [ChooseSailor("red"), ChooseSailor("yellow"), ChooseSailor("blue")]
    state.apply_action(ChooseSailor("yellow"))
    assert referee.calls[-1][1] is None and referee.calls[-1][2].sailor == "yellow"
    assert state.turns_by_sailor()["yellow"] == 1.0 and state.player == 1


def test_half_turn_variant_turns_half_a_revolution():
    state, referee = new_game(half_turn=True)
    for action in (Shuffle(LINE12), Roll("red"), HERE):
        state.apply_action(action)
    assert referee.calls[-1][2].revolutions == 0.5
    assert state.events()[-1]["fraction"] == 0.5


@pytest.mark.parametrize("phase, stacked", [("place", 1), ("turn", 2)])
def test_crash_ends_the_round_costs_one_chip_and_the_next_player_starts(phase, stacked):
    state, _ = new_game(script=[None, phase])
    for action in (Shuffle(LINE12), Roll("red"), HERE, Roll("yellow"), HERE):
        state.apply_action(action)
    assert state.chips == [3, 2, 3] and state.supply == 17
    crash, end = state.events()[-2:]
    assert crash == {"event": "crash", "player": 1, "chips_returned": 1, "phase": phase}
    assert end == {"event": "round_end", "round": 1, "completed": False, "stacked": stacked}
    assert state.current_player() == CHANCE and state.round == 2
    state.apply_action(Shuffle(LINE12))
    assert state.starter == 2 and state.player == 2
    assert state.turns_by_sailor() == {"red": 0.0, "yellow": 0.0, "blue": 0.0}, "sailors are level again"


def test_old_sea_dogs_crash_costs_two_chips_or_what_the_player_has():
    state, _ = new_game(players=("Ann",), sea_dogs=True, script=["turn", "turn"])
    for action in (Shuffle(LINE12), Roll("red"), HERE):  # the first barrel of a round: no pass to choose
        state.apply_action(action)
    assert state.chips == [1] and state.events()[-2]["chips_returned"] == 2
    for action in (Shuffle(LINE12), Roll("red"), HERE):
        state.apply_action(action)
    assert state.chips == [0] and state.events()[-2]["chips_returned"] == 1


def complete_round(state, line=LINE12, face="red"):
    state.apply_action(Shuffle(line))
    for _ in line:
        if state.pass_allowed():
            state.apply_action(Play())
        state.apply_action(Roll(face))
        state.apply_action(HERE)


def test_last_barrel_survived_pays_two_to_the_placer_and_one_to_each_other():
    state, _ = new_game()
    complete_round(state)
    awards = [(e["player"], e["chips"]) for e in state.events() if e["event"] == "award"]
    assert awards == [(2, 2), (0, 1), (1, 1)], "12 barrels by 3 players: player 2 places the last"
    assert state.chips == [4, 4, 5] and state.supply == 12
    assert state.events()[-1] == {"event": "round_end", "round": 1, "completed": True, "stacked": 12}
    assert state.starter == 0 and state.round == 2


def test_awards_come_from_the_supply_while_it_lasts_placer_first_then_clockwise():
    state, _ = new_game(players=("A", "B", "C", "D"), total_chips=14)  # supply 2
    complete_round(state)  # player 3 places the 12th barrel
    awards = [(e["player"], e["chips"]) for e in state.events() if e["event"] == "award"]
    assert awards == [(3, 2)]
    state, _ = new_game(players=("A", "B", "C", "D"), total_chips=15)  # supply 3
    complete_round(state)
    assert [(e["player"], e["chips"]) for e in state.events() if e["event"] == "award"] == [(3, 2), (0, 1)]
    assert sum(state.chips) + state.supply == 15


def test_nine_barrel_variant_completes_after_nine():
    state, _ = new_game(players=("Ann", "Ben"), barrels=9)
    complete_round(state, LINE9)
    assert state.events()[-1]["stacked"] == 9 and state.round == 2
    assert [e for e in state.events() if e["event"] == "award"][0]["player"] == 0


def test_blue_with_barrels_left_just_turns_and_the_round_goes_on():
    state, _ = new_game(players=("Ann",), barrels=9)
    state.apply_action(Shuffle(LINE9))
    for _ in range(8):
        state.apply_action(Roll("red"))
        state.apply_action(HERE)
    state.apply_action(Roll("blue"))
    assert state.placed == 8 and state.round == 1 and state.chance_kind() == "roll"
    state.apply_action(Roll("wild"))
    state.apply_action(HERE)
    assert state.round == 1, "the round ends after the last barrel's turn"
    state.apply_action(ChooseSailor("blue"))
    assert state.round == 2 and state.chips == [5]


def test_nobody_passes_before_the_first_barrel_stands():
    """The rulebook: pass "if you're sure you can't add another barrel", which never holds on an
    empty deck (DESIGN.md section 4)."""
    state, _ = new_game(sea_dogs=True)
    state.apply_action(Shuffle(LINE12))
    assert state.current_player() == CHANCE and not state.pass_allowed(), "the first player rolls at once"
    with pytest.raises(ValueError, match="before the first barrel"):
        state.apply_action(Pass())
    state.apply_action(Roll("red"))
    state.apply_action(HERE)
    assert state.legal_actions() == [Play(), Pass()], "one barrel stands: the next player may pass"


def _first_barrel_stands(state):
    state.apply_action(Shuffle(LINE12))
    state.apply_action(Roll("red"))
    state.apply_action(HERE)  # player 0 places the first barrel; player 1 is next


def test_pass_returns_a_chip_the_next_may_not_pass_and_earns_it_by_surviving():
    state, _ = new_game(sea_dogs=True)
    _first_barrel_stands(state)
    assert state.legal_actions() == [Play(), Pass()]
    state.apply_action(Pass())
    assert state.chips == [3, 2, 3] and state.supply == 17 and state.player == 2
    assert state.current_player() == CHANCE, "player 2 may not pass: the die is rolled at once"
    state.apply_action(Roll("red"))
    state.apply_action(HERE)
    assert state.chips == [3, 2, 4] and state.supply == 16
    assert state.legal_actions() == [Play(), Pass()], "the player after that may pass again"


def test_after_a_pass_a_crash_earns_no_chip_and_costs_two():
    state, _ = new_game(sea_dogs=True, script=[None, "turn"])
    _first_barrel_stands(state)
    for action in (Pass(), Roll("red"), HERE):
        state.apply_action(action)
    assert state.chips == [3, 2, 1] and state.supply == 19


def test_a_player_without_chips_cannot_pass():
    state, _ = new_game(players=("Ann", "Ben"), sea_dogs=True, start_chips=0)
    state.apply_action(Shuffle(LINE12))
    assert state.current_player() == CHANCE and not state.pass_allowed()


def test_three_rounds_then_terminal_most_chips_wins_ties_share():
    state, _ = new_game(players=("Ann", "Ben"), barrels=9)
    for _ in range(3):
        complete_round(state, LINE9)  # Ann, Ben, Ann place the ninth barrel
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.chips == [8, 7] and state.returns() == [1.0, 0.0]
    assert state.events()[-1] == {"event": "game_end", "chips": [8, 7], "supply": 10, "winners": [0]}
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    assert [e["round"] for e in state.events() if e["event"] == "round_start"] == [1, 2, 3]
    state.chips = [7, 8]
    assert state.returns() == [0.0, 1.0]
    state.chips = [7, 7]
    assert state.returns() == [0.5, 0.5] and state.winners() == [0, 1]


def test_returns_are_zero_until_the_end():
    state, _ = new_game(players=("Ann", "Ben"), barrels=9, script=["turn"])
    for action in (Shuffle(LINE9), Roll("red"), HERE):
        state.apply_action(action)
    assert state.chips == [2, 3] and state.returns() == [0.0, 0.0]
    complete_round(state, LINE9)  # Ben starts and places the ninth barrel
    complete_round(state, LINE9)  # Ann starts and places the ninth barrel
    assert state.chips == [5, 6] and state.returns() == [0.0, 1.0]


@pytest.mark.parametrize("players", [0, 5, 6])
def test_player_counts_outside_one_to_four_are_a_clear_error(players):
    with pytest.raises(ValueError, match="1 to 4 players"):
        GameConfig(players=tuple(f"P{i}" for i in range(players)))


@pytest.mark.parametrize("bad", [dict(barrels=10), dict(faces=("green",)), dict(faces=()),
                                 dict(players=("Ann", " ")), dict(start_chips=7, players=("A", "B", "C", "D"))])
def test_impossible_configs_are_value_errors(bad):
    with pytest.raises(ValueError):
        GameConfig(**bad)


def test_chance_outcomes_are_distributions():
    state, _ = new_game(barrels=9)
    shuffles = state.chance_outcomes()
    assert len(shuffles) == 1680 and math.isclose(sum(p for _, p in shuffles), 1.0)
    state.apply_action(Shuffle(LINE9))
    assert state.chance_outcomes() == [(Roll("red"), 2 / 6), (Roll("yellow"), 2 / 6), (Roll("blue"), 1 / 6),
                                       (Roll("wild"), 1 / 6)]
    assert len(new_game()[0].chance_outcomes()) == 34650


def test_clone_is_independent_and_history_replays_exactly():
    state, _ = new_game(sea_dogs=True, script=[None, None, None, "place"])
    for action in (Shuffle(LINE12), Roll("red"), HERE, Pass(), Roll("wild"), HERE, ChooseSailor("blue")):
        state.apply_action(action)
    copy = state.clone()
    copy.apply_action(Play())
    copy.apply_action(Roll("red"))
    copy.apply_action(Place(1.0, 1.0))
    assert len(state.history()) == 7 and len(copy.history()) == 10
    assert state.chips == [3, 2, 4] and copy.chips == [1, 2, 4]
    again, _ = new_game(sea_dogs=True, script=[None, None, None, "place"])
    for action in copy.history():
        again.apply_action(action)
    assert again.events() == copy.events() and str(again) == str(copy)


@pytest.mark.parametrize("action", [Shuffle(LINE9), Roll("wild"), Play(), Pass(), Place(1.25, -3.0),
                                    ChooseSailor("blue")])
def test_action_reprs_round_trip(action):
    assert parse_action(repr(action)) == action


@pytest.mark.parametrize("text", ["os.system('x')", "Place(1)", "Roll", "Place(x_mm=1, y_mm=2)", "1 +"])
def test_parse_action_rejects_anything_else(text):
    with pytest.raises(ValueError, match="not an action"):
        parse_action(text)


def test_the_rules_core_imports_neither_pymunk_nor_pygame():
    code = ("import sys, kipp.rules.state, kipp.rules.actions, kipp.rules.config, kipp.players.bots, "
            "kipp.rules.play, kipp.rules.transcript, kipp.rules.replay; "
            "bad = {'pymunk', 'pygame'} & set(sys.modules); assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_module_doctests():
    import doctest

    import kipp.players.balance
    import kipp.players.bots
    import kipp.players.models
    import kipp.rules.actions
    import kipp.rules.config
    import kipp.rules.state
    for module in (kipp.rules.actions, kipp.players.bots, kipp.players.balance, kipp.players.models,
                   kipp.rules.config, kipp.rules.state):
        assert doctest.testmod(module).failed == 0, module.__name__


def pass_before_the_last_barrel():
    """Old Sea Dogs, 2 players: Ben passes before barrel 12, Ann places it (passed chip + tower)."""
    state, _ = new_game(players=("Ann", "Ben"), sea_dogs=True)
    state.apply_action(Shuffle(LINE12))
    while state.placed < 12:
        if state.pass_allowed():
            state.apply_action(Pass() if state.placed == 11 else Play())
            continue
        state.apply_action(Roll("red"))
        state.apply_action(HERE)
    return state


def test_awards_say_why_a_chip_came():
    state = pass_before_the_last_barrel()
    awards = [e for e in state.events() if e["event"] == "award"]
    assert awards == [{"event": "award", "player": 0, "chips": 1, "reason": "pass"},
                      {"event": "award", "player": 0, "chips": 2, "reason": "completion"},
                      {"event": "award", "player": 1, "chips": 1, "reason": "completion"}]


def test_the_readable_transcript_says_why_a_chip_came():
    from kipp.rules.transcript import Narrator

    text = "\n".join(Narrator().lines(pass_before_the_last_barrel().events()))
    assert "Ann receives 1 chip passed by the previous player" in text
    assert "Ann receives 2 chips for the completed tower" in text
    assert "Ben receives 1 chip for the completed tower" in text


def test_the_turn_event_tilt_is_the_bots_deck_tilt():
    from kipp.players.bots import deck_tilt_deg
    from sim.geometry import deck_gradient, tilt_angle
    from sim.params import load_params

    params = load_params()
    state, _ = new_game()
    state.apply_action(Shuffle(LINE12))
    state.apply_action(Roll("red"))
    state.apply_action(HERE)
    turn = state.events()[-1]
    assert turn["tilt_deg"] == round(deck_tilt_deg(params, turn["turns"]), 3)
    exact = math.degrees(tilt_angle(deck_gradient(params.ship, {"red": 1.0, "blue": 0.5})))
    assert deck_tilt_deg(params, {"red": 1.0, "blue": 0.5}) == exact  # the cache changes no number
    with pytest.raises(ValueError, match="green"):
        deck_tilt_deg(params, {"green": 1.0})
