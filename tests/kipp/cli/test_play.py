"""``kipp play``: headless runs, screenshots, no display, seats."""

from __future__ import annotations

import os
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
