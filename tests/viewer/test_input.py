"""Nothing dropped: a key in the pause that opens a person's turn acts at once, arrow keys move the
aim a millimetre a press and faster held, and the optional confirm step holds the barrel until a
second click (or Enter) while Backspace, Esc or the arrows let it be aimed again."""

from __future__ import annotations

import math

import pygame
import pytest

from kipp.rules.actions import Place
from kipp.rules.config import GameConfig
from viewer.controller import GameController

from .test_play_by_events import LINE_9, click, press, run_until, scripted_chance


def _app(make_app, params, scripted_referee, **options):
    config = GameConfig(players=("Ann",), barrels=9)
    return make_app(lambda games: GameController(config, params, referee=scripted_referee(),
                                                 chance=scripted_chance(LINE_9, ["red"] * 20), **options))


def test_space_in_the_pause_before_a_turn_rolls_at_once(make_app, params, scripted_referee):
    app = _app(make_app, params, scripted_referee)
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.mode == "idle" and len(c.state.history()) >= 3)
    assert c.wait > 0 and c.prompt() is None, "the pause after a decision, before the next roll"
    press(app, pygame.K_SPACE)
    assert c.mode == "rolling", "the key was not dropped: the die rolls"


def test_arrows_move_a_millimetre_a_press_and_faster_held(make_app, params, scripted_referee, monkeypatch):
    app = _app(make_app, params, scripted_referee)
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    clock = iter(range(0, 100_000, 35))  # the key repeat: every 35 ms
    monkeypatch.setattr(pygame.time, "get_ticks", lambda: next(clock))
    start = c.aim_xy()
    press(app, pygame.K_UP)
    moved = [math.dist(start, c.aim_xy())]
    for _ in range(33):  # held 1.2 s (the aim stays on the 90 mm deck)
        press(app, pygame.K_UP)
        moved.append(math.dist(start, c.aim_xy()))
    steps = [round((b - a) * 1000, 6) for a, b in zip([0.0] + moved, moved)]
    assert steps[0] == 1.0 and set(steps[:9]) == {1.0}, "a millimetre a press at first"
    assert steps[-1] == 5.0 and sorted(steps) == steps, "held, it speeds up and never slows"


def test_confirm_holds_the_barrel_until_a_second_click(make_app, params, scripted_referee):
    app = _app(make_app, params, scripted_referee, confirm=True)
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    hanging = c.hanging()
    target = app.scene.camera.to_screen(0.002, hanging.y_m)
    click(app, target)
    assert c.held and c.mode == "idle", "held, not let go"
    held_at = c.aim_xy()
    click(app, app.scene.camera.to_screen(-0.004, hanging.y_m))  # the mouse moved: the second click confirms
    assert c.mode == "lowering" and not c.held
    run_until(app, lambda: isinstance(c.state.history()[-1], Place))
    assert c.state.history()[-1].x_mm == pytest.approx(held_at[0] * 1000, abs=1e-3)  # placed on the um grid

    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    assert c.held
    press(app, pygame.K_ESCAPE)
    assert not c.held and app.card is None, "Esc aims again, it does not ask to quit"
    press(app, pygame.K_RETURN)
    press(app, pygame.K_BACKSPACE)
    assert not c.held and c.mode == "idle"
    press(app, pygame.K_RETURN)
    press(app, pygame.K_RETURN)
    assert c.mode == "lowering"
