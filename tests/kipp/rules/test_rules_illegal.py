"""Every kind of illegal action raises IllegalActionError (a ValueError) naming the action and the state."""

from __future__ import annotations

import pytest

from kipp.rules.actions import ChooseSailor, Pass, Place, Play, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState, IllegalActionError
from tests.kipp.kipp_referees import ScriptedReferee

LINE = ("large", "medium", "small") * 4
HERE = Place(0.0, 0.0)


def state_after(*actions, players=("Ann", "Ben"), script=(), **variant):
    state = GameState(GameConfig(players=players, **variant), ScriptedReferee(script))
    for action in actions:
        state.apply_action(action)
    return state


def assert_illegal(state, action, reason, player=None):
    before = (state.history(), state.events(), list(state.chips), state.supply, str(state))
    with pytest.raises(IllegalActionError, match=reason) as error:
        state.apply_action(action, player=player)
    assert isinstance(error.value, ValueError)
    message = str(error.value)
    assert repr(action) in message, "the message names the action"
    assert "round " in message or "game over" in message, "the message names the state"
    assert (state.history(), state.events(), state.chips, state.supply, str(state)) == before, \
        "an illegal action changes nothing"


def test_wrong_player():
    state = state_after(Shuffle(LINE), Roll("red"))
    assert_illegal(state, HERE, "not player 1's turn", player=1)


def test_a_player_acting_at_a_chance_node():
    assert_illegal(state_after(Shuffle(LINE)), HERE, "no barrel is to be placed", player=0)
    assert_illegal(state_after(Shuffle(LINE)), Roll("red"), "not player 0's turn", player=0)


def test_placing_when_not_allowed():
    assert_illegal(state_after(), HERE, "no barrel is to be placed")
    assert_illegal(state_after(Shuffle(LINE), Roll("wild"), HERE), HERE, "no barrel is to be placed")


@pytest.mark.parametrize("place", [Place(float("nan"), 0.0), Place(0.0, float("inf")), Place(501.0, 0.0)])
def test_placing_off_the_map(place):
    assert_illegal(state_after(Shuffle(LINE), Roll("red")), place, "finite coordinates")


def test_rolling_or_shuffling_out_of_turn():
    assert_illegal(state_after(), Roll("red"), "not to be rolled now")
    assert_illegal(state_after(Shuffle(LINE)), Shuffle(LINE), "only at the start of a round")


def test_shuffle_with_the_wrong_barrels():
    assert_illegal(state_after(), Shuffle(LINE[:-1]), "exactly the barrels")
    assert_illegal(state_after(barrels=9), Shuffle(LINE), "exactly the barrels")


def test_a_face_the_die_does_not_have():
    assert_illegal(state_after(Shuffle(LINE)), Roll("green"), "no face 'green'")
    assert_illegal(state_after(Shuffle(LINE), faces=("red", "yellow")), Roll("wild"), "no face 'wild'")


def test_passing_without_the_old_sea_dogs_variant():
    assert_illegal(state_after(Shuffle(LINE)), Pass(), "only for Old Sea Dogs")
    assert_illegal(state_after(Shuffle(LINE)), Play(), "only for Old Sea Dogs")


FIRST_BARREL = (Shuffle(LINE), Roll("red"), Place(0.0, 0.0))
"""Ann places the round's first barrel and it stands: Ben's turn, and passing may be allowed."""


def test_passing_before_the_first_barrel_stands():
    assert_illegal(state_after(Shuffle(LINE), sea_dogs=True), Pass(), "before the first barrel")


def test_passing_twice_in_a_row():
    state = state_after(*FIRST_BARREL, Pass(), sea_dogs=True)
    assert_illegal(state, Pass(), "after a pass may not pass")


def test_passing_with_no_chips():
    state = state_after(*FIRST_BARREL, sea_dogs=True, start_chips=0)
    assert_illegal(state, Pass(), "has none")


def test_passing_after_choosing_to_play_names_that_choice():
    state = state_after(*FIRST_BARREL, Play(), sea_dogs=True)
    assert state.chips[0] == 3
    assert_illegal(state, Pass(), "already chosen to play")
    assert_illegal(state, Play(), "already chosen to play")
    with pytest.raises(IllegalActionError) as error:
        state.apply_action(Pass())
    assert "has none" not in str(error.value), "the player has 3 chips"


def test_passing_after_rolling():
    assert_illegal(state_after(*FIRST_BARREL, Play(), Roll("red"), sea_dogs=True), Pass(), "before rolling")


def test_choosing_a_sailor_when_not_wild():
    assert_illegal(state_after(Shuffle(LINE), Roll("red")), ChooseSailor("red"), "only after placing on a wild")
    assert_illegal(state_after(Shuffle(LINE), Roll("wild")), ChooseSailor("red"), "only after placing on a wild")


def test_an_unknown_sailor():
    assert_illegal(state_after(Shuffle(LINE), Roll("wild"), HERE), ChooseSailor("green"), "unknown sailor 'green'")


def test_acting_on_a_terminal_state():
    state = state_after(players=("Ann",), barrels=9, script=["place"] * 3)
    for _ in range(3):
        for action in (Shuffle(LINE[:9]), Roll("red"), HERE):
            state.apply_action(action)
    assert state.is_terminal()
    for action in (Shuffle(LINE[:9]), Roll("red"), HERE, Pass(), ChooseSailor("red")):
        assert_illegal(state, action, "the game is over")


def test_something_that_is_not_an_action():
    assert_illegal(state_after(), "Roll('red')", "not an action of this game")
