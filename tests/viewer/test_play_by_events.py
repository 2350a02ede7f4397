"""Whole turns driven through real pygame events (keys, mouse moves, clicks), headless.

The die and the barrel line are scripted (the controller's ``chance`` hook) so that the
wild roll, the pass, the completed tower and the crash happen on cue; physics decides
the first game, a scripted referee the second (so that a round completes and a tower
crashes at known moments).
"""

from __future__ import annotations

import math

import pygame
import pytest

from kipp.rules.actions import ChooseSailor, Pass, Place, Roll, Shuffle
from kipp.rules.config import GameConfig
from viewer.controller import GameController
from viewer.question import Question, confirm_buttons

LINE_12 = ("large", "medium", "small") * 4
LINE_9 = ("large", "medium", "small") * 3


def scripted_chance(line, faces):
    faces = iter(faces)

    def chance(state):
        if state.chance_kind() == "shuffle":
            return Shuffle(line)
        return Roll(next(faces))
    return chance


def press(app, key):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    app.step()


def click(app, pos):
    pos = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.step()


def run_until(app, condition, limit=2000):
    for _ in range(limit):
        if condition():
            return
        app.step()
    raise AssertionError(f"not reached in {limit} frames: {app.controller.state}, mode {app.controller.mode}")


def test_wild_roll_mouse_placement_sailor_click_and_pass_with_physics(make_app, params):
    config = GameConfig(players=("Ann", "Ben"), sea_dogs=True)
    chance = scripted_chance(LINE_12, ["wild", "wild"])
    app = make_app(lambda games: GameController(config, params, chance=chance))
    c = app.controller

    # Ann may not pass on an empty deck (Old Sea Dogs): she rolls with the space bar: wild.
    run_until(app, lambda: c.prompt() is not None)
    assert c.prompt() == "roll"
    press(app, pygame.K_SPACE)
    assert c.mode == "rolling" and c.die.face == "wild"
    run_until(app, lambda: c.prompt() == "place")
    assert c.state.face == "wild" and c.die.shown == "wild"

    # The barrel hangs over the deck and follows the mouse; a click lets it go 0.8 mm toward the bow side.
    hanging = c.hanging()
    assert hanging is not None and hanging.spec.name == "large"
    target = app.scene.camera.to_screen(0.0008, hanging.y_m)
    click(app, target)
    assert c.mode == "lowering"
    run_until(app, lambda: c.prompt() == "sailor")
    place = c.state.history()[-1]
    assert isinstance(place, Place) and place.x_mm == pytest.approx(0.8, abs=0.5) and place.y_mm == 0.0
    assert c.state.placed == 1 and len(c.state.tower.barrels) == 1

    # Wild: choose the yellow sailor by clicking it in the inset.
    click(app, app.inset.to_screen(*params.ship.screw_xy("yellow")))
    assert c.mode == "deciding" and c.turning() == "yellow"
    run_until(app, lambda: c.prompt() == "play_or_pass")
    assert c.state.history()[-1] == ChooseSailor("yellow")
    assert c.state.turns_by_sailor() == {"red": 0.0, "yellow": 1.0, "blue": 0.0}
    assert c.state.player == 1

    # Ben passes with the visible Pass button: a chip back to the supply; Ann may not pass now.
    click(app, app.layout.pass_button.center)
    assert c.state.history()[-1] == Pass()
    assert c.state.chips == [3, 2] and c.state.supply == 20 and c.message.title == "Ben passes"
    run_until(app, lambda: c.prompt() is not None)
    assert c.state.player == 0 and c.prompt() == "roll"

    # Ann: wild again; she aims with the arrow keys, lets go with Enter, picks blue with key 3.
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    top, direction = c.state.tower.barrels[-1], c.state.tower.slice_direction_rad
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "sailor")
    place = c.state.history()[-1]
    shift = (place.x_mm - top.x_m * 1000, place.y_mm - top.y_m * 1000)
    along = shift[0] * math.cos(direction) + shift[1] * math.sin(direction)
    assert along == pytest.approx(2.0, abs=2e-3) and math.hypot(*shift) == pytest.approx(2.0, abs=2e-3)
    press(app, pygame.K_3)
    run_until(app, lambda: c.prompt() == "play_or_pass")
    assert c.state.turns_by_sailor()["blue"] == 1.0
    assert not c.state.last_decision.crashed and c.state.placed == 2
    assert c.state.chips == [4, 2], "Ann played after Ben's pass and receives the passed chip"


def test_completed_tower_and_crash(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), barrels=9)
    referee = scripted_referee(crash_at={10})  # the first decision of round 2 crashes
    chance = scripted_chance(LINE_9, ["red"] * 20)
    app = make_app(lambda games: GameController(config, params, referee=referee, chance=chance))
    c = app.controller

    for turn in range(9):
        run_until(app, lambda: c.prompt() == "roll")
        assert c.state.player == turn % 2
        press(app, pygame.K_SPACE)
        run_until(app, lambda: c.prompt() == "place")
        press(app, pygame.K_RETURN)
        run_until(app, lambda: c.mode == "idle")
    assert c.message.title == "Tower complete: +2 / +1"
    assert c.message.subtitle == "Ann +2 / Ben +1"
    assert c.state.chips == [5, 4] and c.state.round == 2

    run_until(app, lambda: c.prompt() == "roll")
    assert c.state.player == 1, "the player left of the one who ended the round starts"
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.message is not None and c.message.title == "Kaboom!")
    assert c.state.chips == [5, 3] and c.state.round == 3
    assert c.message.subtitle == "Ben returns 1 chip"


def test_new_game_and_escape_ask_first_during_a_game(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann",), barrels=9)
    app = make_app(lambda games: GameController(config, params, seed=games, referee=scripted_referee()))
    first = app.controller
    press(app, pygame.K_n)  # mid-game: a question, not a new game yet
    assert app.card.question is Question.NEW_GAME and app.controller is first
    frame = first.frame
    press(app, pygame.K_SPACE)  # the game waits under the card; Space is no answer
    assert first.frame == frame and first.mode == "idle" and app.card.question is Question.NEW_GAME
    press(app, pygame.K_ESCAPE)  # no
    assert app.card is None and app.controller is first and app.running
    press(app, pygame.K_n)
    press(app, pygame.K_y)  # yes
    assert app.controller is not first and app.games == 1 and app.card is None
    second = app.controller
    press(app, pygame.K_n)
    press(app, pygame.K_RETURN)  # Enter is yes too
    assert app.controller is not second and app.games == 2

    press(app, pygame.K_ESCAPE)  # quit: asked too
    assert app.card.question is Question.QUIT and app.running
    press(app, pygame.K_n)  # N answers no here, it does not start a game
    assert app.card is None and app.running and app.games == 2
    press(app, pygame.K_ESCAPE)
    yes, _ = confirm_buttons(app.layout)
    click(app, yes.center)
    assert not app.running
