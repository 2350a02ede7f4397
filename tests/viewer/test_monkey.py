"""A monkey at the keyboard: 20,000 random key, mouse and resize events over every screen of the
viewer (start screen, play, help, the yes/no questions, the menu, the end screen, a replay), headless, with
the sound on (SDL's dummy audio driver mixes nothing, but every sound is made and played).

Nothing may raise, and after every frame the game must be a valid game: chips conserved (players
plus supply = the game's chips), none negative, no more barrels stacked than the line holds, no
controller error. The games alternate between the physics referee (first game of each window) and a
referee under which every tower falls at once, so that rounds end quickly and the end screen and
the start screen after it are reached many times.
"""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from kipp.rules.config import GameConfig
from viewer.controller import GameController
from viewer.setup import GameSetup, Seat, SeatKind

EVENTS = 20_000
EVENTS_PER_FRAME = 8
KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_SPACE, pygame.K_RETURN, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP,
        pygame.K_DOWN, pygame.K_TAB, pygame.K_BACKSPACE, pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4,
        pygame.K_p, pygame.K_b, pygame.K_m, pygame.K_h, pygame.K_y, pygame.K_s, pygame.K_r,
        pygame.K_a, pygame.K_z, pygame.K_PLUS, pygame.K_MINUS, pygame.K_QUESTION, pygame.K_KP_ENTER)
"""The keys the monkey hits (Space and Enter twice as often); also Esc 1 in 10,000 keys and N 1 in
5,000 (they leave the game once confirmed: more often, and no game would last to its end screen)."""


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # R records into it
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # Start remembers into it


class Monkey:
    """Random events from a seeded generator, a batch per frame; counts them and the screens seen."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.events = 0
        self.screens: set[str] = set()
        self.frame_ms: list[float] = []

    def _pos(self, size) -> tuple[int, int]:
        return int(self.rng.integers(0, size[0])), int(self.rng.integers(0, size[1]))

    def post_batch(self, app) -> None:
        size = app.surface.get_size()
        for _ in range(EVENTS_PER_FRAME):
            kind = self.rng.random()
            if kind < 0.5:
                rare = self.rng.random()
                key = int(self.rng.choice(KEYS)) if rare > 0.0003 else pygame.K_ESCAPE if rare < 0.0001 else pygame.K_n
                char = pygame.key.name(key) if len(pygame.key.name(key)) == 1 else ""
                mod = pygame.KMOD_SHIFT if self.rng.random() < 0.1 else 0
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=char, scancode=0))
            elif kind < 0.75:
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=self._pos(size), rel=(0, 0),
                                                     buttons=(0, 0, 0)))
            elif kind < 0.995:
                button = 1 if self.rng.random() < 0.9 else int(self.rng.integers(2, 6))
                pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=self._pos(size), button=button))
            else:
                new = (int(self.rng.integers(300, 1700)), int(self.rng.integers(200, 1100)))
                pygame.display.set_mode(new, pygame.RESIZABLE)
                pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=new, w=new[0], h=new[1]))
            self.events += 1

    def frame(self, app) -> None:
        self.post_batch(app)
        app.step()
        self.frame_ms.append(app.frame_ms[-1])
        self.screens.add(_screen(app))
        _check(app)


def _screen(app) -> str:
    c = app.controller
    if app.card is not None:
        return {"StartScreen": "start", "HelpCard": "help", "QuestionCard": "confirm", "MenuCard": "menu"}[
            type(app.card).__name__]
    if c.state.is_terminal() and c.mode == "idle" and c.wait == 0:
        return "end"
    return "replay" if app.replay else "play"


def _check(app) -> None:
    c = app.controller
    state = c.state
    assert sum(state.chips) + state.supply == state.config.total_chips, state
    assert min(state.chips) >= 0 and state.supply >= 0, state
    assert 0 <= state.placed <= len(state.line or ()) or state.placed == 0, state
    assert c.error is None, c.error


def test_twenty_thousand_random_events_on_every_screen(make_app, params, scripted_referee, tmp_path):
    from kipp.cli.replay import read_recording
    from kipp.rules.replay import config_from_header
    from sim.referees import make_referee
    from viewer.script import ReplayScript

    monkey = Monkey(seed=26)
    setup = GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.PERSON, "Ben"), Seat(SeatKind.BOT)),
                      sea_dogs=True, hints=True)

    def games(setup: GameSetup):
        config, bots = setup.config(), setup.bots(params)

        def new_controller(n: int) -> GameController:
            physics = n == 0 and windows == 0  # the first game is played with physics, the rest fall at once
            referee = None if physics else scripted_referee(crash_at=range(1, 10_000))
            return GameController(config, params, seed=n, bots=bots, referee=referee, confirm=setup.confirm)
        return new_controller

    recording = tmp_path / "monkey.jsonl"
    windows = 0
    while monkey.events < EVENTS * 3 // 4:
        app = make_app(games(setup), games=games, setup=setup, start_screen=windows % 2 == 1,
                       record=str(recording) if windows == 0 else None)
        windows += 1
        while app.running and monkey.events < EVENTS * 3 // 4:
            monkey.frame(app)
        app.close()
        setup = app.setup

    # the rest on a replay of the first window's game (as far as it went)
    events = read_recording(str(recording))
    config: GameConfig = config_from_header(events[0])
    while monkey.events < EVENTS:
        app = make_app(lambda n: GameController(config, params, seed=events[0]["seed"],
                                                referee=make_referee("loop", params),
                                                script=ReplayScript(events)), replay=True)
        while app.running and monkey.events < EVENTS:
            monkey.frame(app)
        app.close()

    frames = np.array(monkey.frame_ms)
    print(f"\nmonkey: {monkey.events} events, {len(frames)} frames, {windows} windows, "
          f"screens {sorted(monkey.screens)}, frame ms p50 {np.percentile(frames, 50):.2f} "
          f"p99 {np.percentile(frames, 99):.2f}")
    assert monkey.events >= EVENTS
    assert {"start", "play", "help", "confirm", "end", "replay", "menu"} <= monkey.screens, monkey.screens
