"""Time to celebrate: a completed tower stands at least 3 s with its banner while the chips fly to
those who earned them; the top bar shows the round and the count the scene shows, not the next one's."""

from __future__ import annotations

import pygame

from kipp.rules.actions import Shuffle
from kipp.rules.config import GameConfig
from viewer.controller import GameController

from .test_play_by_events import LINE_9, press, run_until, scripted_chance

FPS = 60


def test_a_completed_tower_stands_three_seconds_and_its_chips_fly(make_app, params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), barrels=9)
    referee = scripted_referee(crash_at={10})  # the first decision of round 2 crashes while placing
    app = make_app(lambda games: GameController(config, params, referee=referee,
                                                chance=scripted_chance(LINE_9, ["red"] * 20)))
    c = app.controller
    for _ in range(9):
        run_until(app, lambda: c.prompt() == "roll")
        press(app, pygame.K_SPACE)
        run_until(app, lambda: c.prompt() == "place")
        assert c.shown_round()[:2] == (1, c.state.placed)
        press(app, pygame.K_RETURN)
        run_until(app, lambda: c.mode == "idle")
    assert c.state.round == 2 and c.state.chips == [5, 4]
    assert c.shown_round() == (1, 9, True), "the top bar stays on round 1 and its nine barrels"
    assert [f.player for f in c.flights] == [0, 0, 1]
    assert [c.chips_shown(p) for p in (0, 1)] == [3, 3], "the chips are on their way"
    standing = 0
    while not isinstance(c.state.history()[-1], Shuffle):
        assert len(c.display_world().barrels) == 9 and c.message is not None, (standing, c.wait, c.mode)
        assert c.message.title.startswith("Tower complete")
        assert c.shown_round() == (1, 9, True)
        app.step()
        standing += 1
        if standing == FPS:
            assert [c.chips_shown(p) for p in (0, 1)] == [4, 3], "one chip has arrived, one flies"
    assert standing >= 3 * FPS, f"the tower stood {standing} frames"
    assert [c.chips_shown(p) for p in (0, 1)] == [5, 4] and not c.flights
    assert c.shown_round() == (2, 0, False)

    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.state.round == 3)
    assert c.shown_round() == (2, 0, True), "the crashed barrel is not counted, the round is still 2"
