"""``kipp play`` and the visual replay: headless runs, screenshots, no display, replays."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli_options import UserError
from kipp.cli_play import parse_seats, show_replay
from kipp.transcript import parse_json_lines
from sim.params import load_params
from viewer.controller import GameController
from viewer.script import ReplayScript


def test_bots_play_headless_and_the_screenshot_is_a_real_picture(tmp_path):
    out = tmp_path / "out.png"
    result = CliRunner().invoke(main, ["play", "--players", "bot,bot", "--max-frames", "600",
                                       "--screenshot", str(out)])
    assert result.exit_code == 0, result.output
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1280, 800)
    colours = {tuple(picture.get_at((x, y))) for x in range(0, 1280, 16) for y in range(0, 800, 16)}
    assert len(colours) > 50, "a drawn scene, not a blank frame"


def test_without_a_display_play_says_so_in_one_line_and_exits_2():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run([sys.executable, "-m", "kipp", "play", "--players", "Ann,bot"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: no display") and "kipp game" in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize("players", ["", "Ann,,Ben", "a,b,c,d,e"])
def test_bad_players_is_one_error_line(players):
    result = CliRunner().invoke(main, ["play", "--players", players, "--max-frames", "1"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --players"), result.output


def test_seats():
    assert parse_seats("Ann,Ben,bot") == (("Ann", "Ben", "Bot"), (2,))
    assert parse_seats("bot, BOT ,Cy") == (("Bot 1", "Bot 2", "Cy"), (0, 1))
    assert parse_seats("Robot") == (("Robot",), ())


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """A whole physics game recorded by `kipp game --json` (9 barrels, half turns: short)."""
    result = CliRunner().invoke(main, ["game", "--json", "--seed", "3", "--players", "2",
                                       "--barrels", "9", "--half-turn"])
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("replay") / "game.jsonl"
    path.write_text(result.output, encoding="utf-8")
    return path


def test_the_viewer_replays_a_recording_to_the_same_outcome(recording):
    events = parse_json_lines(recording.read_text(encoding="utf-8"))
    from kipp.replay import config_from_header

    controller = GameController(config_from_header(events[0]), load_params(), script=ReplayScript(events))
    for _ in range(40000):
        if controller.state.is_terminal() and controller.mode == "idle":
            break
        controller.update()
    assert controller.state.is_terminal() and controller.error is None
    recorded = [{k: v for k, v in e.items() if k not in ("_line", "seed", "params", "referee")} for e in events]
    assert controller.state.events() == recorded


def test_show_replay_runs_headless(recording, tmp_path):
    out = tmp_path / "replay.png"
    show_replay(str(recording), max_frames=120, screenshot=str(out))
    assert out.exists()


def test_show_replay_refuses_other_parameters(recording, tmp_path):
    other = tmp_path / "p.toml"
    other.write_text("[friction]\nmu = 0.3\n", encoding="utf-8")
    with pytest.raises(UserError, match="use the same --params"):
        show_replay(str(recording), load_params(other), max_frames=1)


def play_to_the_end(controller, frames=40000):
    for _ in range(frames):
        if controller.state.is_terminal() and controller.mode == "idle":
            break
        controller.update()
    assert controller.state.is_terminal() and controller.error is None


def test_a_fast_referee_recording_replays_in_the_viewer_to_identical_events(tmp_path, monkeypatch):
    """show_replay rebuilds the recording's referee (game_start.referee), not physics."""
    import kipp.cli_play

    result = CliRunner().invoke(main, ["game", "--json", "--seed", "5", "--players", "Ann,Ben",
                                       "--sea-dogs", "--referee", "fast"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "fast.jsonl"
    path.write_text(result.output, encoding="utf-8")
    built = []
    monkeypatch.setattr(kipp.cli_play, "_run", lambda new_controller, *_: built.append(new_controller(0)))
    show_replay(str(path), max_frames=1)
    controller = built[0]
    assert type(controller.referee.base).__name__ == "FastReferee"
    play_to_the_end(controller)
    events = parse_json_lines(path.read_text(encoding="utf-8"))
    recorded = [{k: v for k, v in e.items() if k not in ("_line", "seed", "params", "referee")} for e in events]
    assert controller.state.events() == recorded


@pytest.mark.parametrize("fields, text", [({"seed": None}, "seed must be"), ({"players": "Ann"}, "players must be"),
                                          ({"referee": "oracle"}, "unknown referee")])
def test_show_replay_refuses_a_malformed_header_in_one_line(recording, tmp_path, fields, text):
    import json

    lines = recording.read_text(encoding="utf-8").splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), **fields})
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=text) as error:
        show_replay(str(bad), max_frames=1)
    assert str(bad) in str(error.value.message) and "\n" not in error.value.message
