"""Viewer tests run headless: SDL's dummy video driver, set before pygame is imported."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from dataclasses import replace  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from sim.params import load_params  # noqa: E402
from sim.tower import BarrelPose, Decision, TowerState  # noqa: E402


@pytest.fixture(scope="session")
def params():
    return load_params()


class ScriptedReferee:
    """No physics: a barrel stands where it is put, unless the script says otherwise.

    ``crash_at`` holds the numbers (1-based) of the ``decide`` calls that crash, in the
    phase the call covers (place if it places, else turn).
    """

    def __init__(self, crash_at=()):
        self.crash_at = set(crash_at)
        self.calls = 0

    def new_tower(self):
        return TowerState()

    def decide(self, tower, placement, turn):
        self.calls += 1
        if placement is not None:
            spec_h = 0.03
            pose = BarrelPose(placement.size, placement.x_m, placement.y_m, spec_h * (len(tower.barrels) + 0.5))
            tower = replace(tower, barrels=tower.barrels + (pose,))
        if turn is not None:
            tower = tower.with_turn(turn.sailor, turn.revolutions)
        if self.calls in self.crash_at:
            return Decision(True, tower, "place" if placement is not None else "turn", "scripted")
        return Decision(False, tower)


@pytest.fixture
def scripted_referee():
    return ScriptedReferee


@pytest.fixture
def make_app():
    """Build ViewerApps on the dummy display; all are closed after the test."""
    from viewer.app import ViewerApp

    apps = []

    def make(new_controller, size=(1280, 800), **options):
        app = ViewerApp(new_controller, size=size, throttle=False, **options)
        apps.append(app)
        return app

    yield make
    if pygame.display.get_init():
        pygame.event.clear()
    for app in apps:
        app.close()
