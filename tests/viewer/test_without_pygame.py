"""pygame-ce is the ``[viewer]`` extra's: every command but the window runs without it, and the window's
commands say in one line which extra to install.

Each command runs in a subprocess whose ``pygame`` is a stand-in on ``PYTHONPATH`` that notes it was
imported and raises ImportError, so a command that merely tries pygame (and would swallow the error)
is caught as well as one that needs it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kipp.cli.window import VIEWER_EXTRA


class WithoutPygame:
    """``python -m kipp ARGS`` in a subprocess whose ``pygame`` is the stand-in (:meth:`run`)."""

    def __init__(self, folder) -> None:
        shadow = folder / "shadow" / "pygame"
        shadow.mkdir(parents=True)
        shadow.joinpath("__init__.py").write_text(
            "import os, pathlib\n"
            "pathlib.Path(os.environ['KIPP_TEST_PYGAME_MARKER']).write_text('imported')\n"
            "raise ImportError('pygame is not installed (a test stands in for it)')\n")
        self.folder = folder
        self.marker = folder / "pygame-imported"
        self.env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(shadow.parent), os.environ.get("PYTHONPATH", "")]),
                        KIPP_TEST_PYGAME_MARKER=str(self.marker), MPLBACKEND="Agg")

    def run(self, *args: str) -> subprocess.CompletedProcess:
        """The finished command; its ``tried`` says whether it imported pygame."""
        self.marker.unlink(missing_ok=True)
        result = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=self.env,
                                cwd=self.folder, timeout=300)
        result.tried = self.marker.exists()
        return result

    def kipp(self, *args: str) -> subprocess.CompletedProcess:
        return self.run("-m", "kipp", *args)


@pytest.fixture
def without_pygame(tmp_path) -> WithoutPygame:
    return WithoutPygame(tmp_path)


def test_the_stand_in_blocks_pygame(without_pygame):
    result = without_pygame.run("-c", "import pygame")
    assert result.returncode != 0 and "ImportError" in result.stderr and result.tried


@pytest.mark.slow
def test_game_tune_bench_and_a_replay_check_never_import_pygame(without_pygame, tmp_path):
    game = without_pygame.kipp("game", "--referee", "fast", "--seed", "3", "--json")
    assert game.returncode == 0 and not game.tried, game.stderr
    recording = tmp_path / "game.jsonl"
    recording.write_text(game.stdout)
    for args in (("replay", str(recording), "--check"),
                 ("tune", "--orders", "sample:2", "--rounds", "2", "--referee", "fast", "--workers", "1",
                  "--no-progress", "--out", str(tmp_path / "t.sqlite"), "--plot", str(tmp_path / "t.png")),
                 ("bench", "--quick", "--quiet", "--json")):
        result = without_pygame.kipp(*args)
        assert result.returncode == 0, (args, result.stderr[-2000:])
        assert not result.tried, f"kipp {args[0]} imported pygame"


@pytest.mark.parametrize("args", [("play",), ("play", "--players", "Ann,bot", "--max-frames", "5"),
                                  ("replay", "game.jsonl"), ("bench", "--quick", "--viewer")])
def test_the_window_s_commands_name_the_viewer_extra_in_one_line(without_pygame, tmp_path, args):
    (tmp_path / "game.jsonl").write_text("")
    result = without_pygame.kipp(*args)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr
    assert VIEWER_EXTRA in lines[0] and "Traceback" not in result.stderr
    assert result.tried and not result.stdout


@pytest.mark.parametrize("args, command", [(("play",), "kipp play"),
                                           (("replay", "game.jsonl"), "kipp replay (ohne --check)")])
def test_in_german_the_window_s_commands_name_the_viewer_extra_in_german(without_pygame, tmp_path, args, command):
    (tmp_path / "game.jsonl").write_text("")
    without_pygame.env |= {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    result = without_pygame.kipp(*args)
    assert result.returncode == 2 and result.stderr.strip().splitlines() == [
        f"Fehler: {command} öffnet ein Fenster, und dafür braucht es pygame-ce: pip install 'kipp-kipp-ahoi[viewer]' "
        "(in einem Quellcode-Checkout: pip install -e '.[viewer]')"]
