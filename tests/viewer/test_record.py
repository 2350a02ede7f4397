"""Save and watch again: a game played in the window is written in the replay format as it goes
(``--record``, or R), and a recording of a game stopped half-way replays, in the window and with
``kipp replay --check``, up to where it stops."""

from __future__ import annotations

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli.replay import show_replay
from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.transcript import parse_json_lines
from viewer.controller import GameController


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _bot_game(params):
    config = GameConfig(players=("Ann", "Bot"), barrels=9, half_turn=True)
    bots = {i: make_bot(model, name, params) for i, (name, model) in enumerate(zip(config.players,
                                                                                    ("novice", "skilled")))}
    return lambda n: GameController(config, params, seed=5 + n, bots=bots)


def test_a_game_stopped_half_way_is_recorded_and_replays_to_where_it_stopped(make_app, params, tmp_path):
    path = tmp_path / "night.jsonl"
    app = make_app(_bot_game(params), record=str(path))
    while app.controller.state.placed < 3:  # stop after the third barrel of round 1
        app.step()
        assert app.frames < 5_000
    played = app.controller.state.events()
    app.close()  # the window closed half-way through the game
    events = parse_json_lines(path.read_text(encoding="utf-8"))
    assert [e["event"] for e in events] == [e["event"] for e in played]
    header = events[0]
    assert header["seed"] == 5 and header["referee"] == "loop" and header["models"] == ["novice", "skilled"]
    result = CliRunner().invoke(main, ["replay", str(path), "--check"])
    assert result.exit_code == 0, result.output
    assert "stops in round 1 of 3" in result.output
    shot = tmp_path / "end.png"
    show_replay(str(path), params, screenshot=str(shot))  # unattended: runs until the recording stops
    assert shot.is_file()


def test_r_records_the_game_being_played_from_its_start(make_app, params):
    app = make_app(_bot_game(params))
    for _ in range(200):
        app.step()
    assert app.recorder is None
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="r", scancode=0))
    app.step()
    path = app.recorder.path
    assert app.controller.message.title == "Recording this game" and str(path) in app.controller.message.subtitle
    for _ in range(200):
        app.step()
    events = parse_json_lines(path.read_text(encoding="utf-8"))
    assert events[0]["event"] == "game_start" and events[1]["event"] == "round_start"
    assert len(events) == len(app.controller.state.events())
