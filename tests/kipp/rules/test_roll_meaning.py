"""The rules answer what a roll means now (:meth:`GameState.roll_meaning`), and play by that answer.

Rulebook (DESIGN.md section 4): red and yellow place a barrel, then that sailor turns; blue
turns blue with no barrel, except on a round's first turn, which always places first; wild
places, then the player chooses any of the three sailors.
"""

from __future__ import annotations

import pytest

from kipp.rules.actions import ChooseSailor, Place, PlaceAnywhere, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import CHANCE, GameState
from sim.die import FACES, WILD, roll_meaning
from tests.kipp.kipp_referees import ScriptedReferee

LINE12 = ("large", "medium", "small") * 4
HERE = Place(0.0, 0.0)


def started(*actions) -> GameState:
    state = GameState(GameConfig(players=("Ann", "Ben")), ScriptedReferee())
    for action in (Shuffle(LINE12), *actions):
        state.apply_action(action)
    return state


def test_the_die_has_two_red_two_yellow_one_blue_and_one_wild_face():
    assert sorted(FACES) == sorted(["red", "red", "yellow", "yellow", "blue", WILD])
    assert GameConfig(players=("Ann",)).faces == FACES


def test_on_a_rounds_first_turn_every_face_places():
    state = started()
    for face in ("red", "yellow", "blue", WILD):
        assert state.roll_meaning(face).places_barrel, face
    assert state.roll_meaning("blue").sailors == ("blue",)
    assert state.roll_meaning(WILD).sailors == ("red", "yellow", "blue")


def test_once_a_barrel_is_on_only_blue_places_nothing():
    state = started(Roll("red"), HERE)
    assert [face for face in ("red", "yellow", "blue", WILD) if not state.roll_meaning(face).places_barrel] == ["blue"]
    assert state.roll_meaning("yellow").sailors == ("yellow",)


@pytest.mark.parametrize("face", ["red", "yellow", "blue", WILD])
def test_the_game_plays_what_the_query_said(face):
    """Asked before the roll, the answer is what the roll then does: a placement first or not,
    and a wild roll's sailor chosen from those the query named."""
    state = started(Roll("red"), HERE)
    meaning = state.roll_meaning(face)
    placed = state.placed
    state.apply_action(Roll(face))
    if meaning.places_barrel:
        assert isinstance(state.legal_actions()[0], PlaceAnywhere)
        state.apply_action(HERE)
    if len(meaning.sailors) > 1:
        assert state.legal_actions() == [ChooseSailor(s) for s in meaning.sailors]
        state.apply_action(ChooseSailor(meaning.sailors[-1]))
    assert state.placed == placed + meaning.places_barrel
    turn = state.events()[-1]
    assert turn["event"] == "turn" and turn["sailor"] in meaning.sailors
    assert state.current_player() == CHANCE


def test_an_unknown_face_is_refused():
    with pytest.raises(ValueError, match="unknown die face 'green'"):
        roll_meaning("green", 0)
    with pytest.raises(ValueError, match="unknown die face"):
        started().roll_meaning("green")
