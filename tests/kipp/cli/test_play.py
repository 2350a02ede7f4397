"""``kipp play``: headless runs, screenshots, no display, seats."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli.play import parse_seats


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
    assert len(lines) == 1 and lines[0].startswith("Error: no display") and "kipp game" in lines[0], lines
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


def _free_display() -> str:
    """A display number no X server answers on (no socket, no lock file)."""
    for number in range(99, 200):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            return f":{number}"
    pytest.skip("no free display number")


def _without_display() -> dict:
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}


@pytest.mark.parametrize("command", [["play", "--players", "Ann,bot"], ["replay", "RECORDING"]])
def test_a_display_nobody_answers_on_is_one_error_line_not_an_invisible_game(command, tmp_path):
    """pygame-ce falls back to its offscreen driver when DISPLAY names no server; without the
    check the game would run invisibly until killed (the timeout here)."""
    if command[-1] == "RECORDING":
        recorded = CliRunner().invoke(main, ["game", "--json", "--players", "2", "--barrels", "9",
                                             "--referee", "fast"])
        (tmp_path / "game.jsonl").write_text(recorded.output, encoding="utf-8")
        command = ["replay", str(tmp_path / "game.jsonl")]
    display = _free_display()
    result = subprocess.run([sys.executable, "-m", "kipp", *command], env={**_without_display(), "DISPLAY": display},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: cannot open a window on DISPLAY={display}"), lines
    assert "kipp game" in lines[0] and result.stdout == ""


def test_a_headless_run_asked_for_still_runs_with_a_dead_display(tmp_path):
    out = tmp_path / "shot.png"
    env = {**_without_display(), "DISPLAY": _free_display()}
    result = subprocess.run([sys.executable, "-m", "kipp", "play", "--players", "bot,bot", "--max-frames", "5",
                             "--screenshot", str(out)], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert out.exists()
    dummy = subprocess.run([sys.executable, "-m", "kipp", "play", "--players", "bot,bot", "--max-frames", "5"],
                           env={**_without_display(), "SDL_VIDEODRIVER": "dummy"}, capture_output=True, text=True,
                           timeout=60)
    assert dummy.returncode == 0, dummy.stderr


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb (apt-get install xvfb)")
def test_a_real_window_under_xvfb_opens_on_the_help_card(tmp_path):
    out = tmp_path / "window.png"
    env = _without_display()
    result = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1400x900x24", sys.executable, "-m", "kipp", "play",
                             "--players", "Ann,bot", "--max-frames", "20", "--screenshot", str(out)],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    picture = pygame.image.load(str(out))
    width, height = picture.get_size()
    centre = picture.get_at((width // 2, height // 2))
    assert all(abs(a - b) <= 12 for a, b in zip(centre[:3], (246, 240, 226))), "the help card of the first start"


def _seeds_of_games(monkeypatch, *args) -> list[int]:
    """The root seed of each game `kipp play ARGS --max-frames 1` started."""
    from viewer.controller import GameController

    seeds = []
    original = GameController.__init__

    def recording(self, *a, **kw):
        seeds.append(kw["seed"])
        original(self, *a, **kw)

    monkeypatch.setattr(GameController, "__init__", recording)
    result = CliRunner().invoke(main, ["play", "--players", "bot,bot", "--max-frames", "1", *args])
    assert result.exit_code == 0, result.output
    return seeds


def test_each_game_without_seed_has_fresh_luck_and_a_seed_replays(monkeypatch):
    fresh = _seeds_of_games(monkeypatch) + _seeds_of_games(monkeypatch) + _seeds_of_games(monkeypatch)
    assert len(set(fresh)) == 3, f"three launches dealt the same game: {fresh}"
    assert all(0 <= s < 1_000_000 for s in fresh)
    assert _seeds_of_games(monkeypatch, "--seed", "4242") == [4242]
