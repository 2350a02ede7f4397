"""Bad input, table-driven (issue 13): every row is one mistake a user can make.

The contract for each: exit code 2, exactly one line (``Error: ...`` naming the input
and the problem), no traceback, and no file left behind in the working folder (a
refused run writes nothing). Rows run through click's CliRunner, in-process; a few run
the installed command in a real subprocess too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kipp.cli import main

ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False

PHYSICS_BREAKERS = {
    "sps1.toml": "[solver]\nsteps_per_second = 1\n",
    "slow.toml": "[turn]\nrate_rev_per_s = 1e-9\n",
    "iters.toml": "[solver]\niterations = 5000\n",
    "cap.toml": "[settle]\nmax_time_s = 30\n[turn]\nrate_rev_per_s = 0.05\n[solver]\nsteps_per_second = 3000\n",
    "recess.toml": "[ship]\nrecess_diameter_mm = 10.0\n",
    "deep.toml": "[ship]\nrecess_depth_mm = 15.0\n",
    "window.toml": "[settle]\nwindow_s = 5.0\n",
    "mu.toml": "[friction]\nmu = 5.0\n",
    "mass.toml": "[barrels.small]\nmass_g = 5000.0\n",
}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder holding the bad inputs the rows refer to by name."""
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe[friction]\nmu = 0.4\n")
    (tmp_path / "stray.toml").write_bytes(b"[meta]\ndescription = \"caf\xe9\"\n")  # Latin-1, not UTF-8
    (tmp_path / "binary.jsonl").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "afile.txt").write_text("a regular file\n")
    (tmp_path / "adir").mkdir()
    (tmp_path / "adir.png").mkdir()
    (tmp_path / "adir.sqlite").mkdir()
    for name, text in PHYSICS_BREAKERS.items():
        (tmp_path / name).write_text(text)
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o500)
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    readonly.chmod(0o700)


def unwritable_png() -> str:
    """A .png path in a folder no file can be created in: a read-only folder, or for root
    (who ignores permission bits) /proc, where nobody may create files."""
    return "/proc/shot.png" if ROOT else "readonly/shot.png"


def unwritable_out() -> str:
    return "/proc/out.toml" if ROOT else "readonly/out.toml"


FAST = ["--referee", "fast"]

# (id, arguments (a callable for paths decided at run time), what the one line must say)
ROWS = [
    # files that are not UTF-8, not files, empty, huge
    ("params-binary-game", ["game", "--params", "binary.toml", *FAST], "binary.toml: not UTF-8 text (byte 0xff"),
    ("params-binary-play", ["play", "--params", "binary.toml", "--max-frames", "1"], "binary.toml: not UTF-8 text"),
    ("params-binary-params", ["params", "--params", "binary.toml"], "binary.toml: not UTF-8 text"),
    ("params-binary-calibrate", ["calibrate", "stray.toml", "--out", "o.toml", "--params", "binary.toml"],
     "--params: binary.toml: not UTF-8 text"),
    ("measurements-stray-byte", ["calibrate", "stray.toml", "--out", "o.toml"],
     "stray.toml: not UTF-8 text (byte 0xe9 at offset 25)"),
    ("params-is-a-folder", ["game", "--params", "adir", *FAST], "--params: adir: is a folder, not a parameter file"),
    ("params-device", ["params", "--params", "/dev/zero"], "/dev/zero: is a device, not a parameter file"),
    ("params-binary-tune", ["tune", "--params", "binary.toml"], "binary.toml: not UTF-8 text"),
    ("params-binary-bench", ["bench", "--params", "binary.toml"], "binary.toml: not UTF-8 text"),
    ("replay-binary", ["replay", "binary.jsonl", "--check"], "binary.jsonl: not UTF-8 text (byte 0x89"),
    ("replay-binary-visual", ["replay", "binary.jsonl", "--max-frames", "1"], "binary.jsonl: not UTF-8 text"),
    ("replay-empty", ["replay", "empty.jsonl", "--check"], "empty.jsonl: does not start with a game_start"),
    ("replay-folder", ["replay", "adir", "--check"], "adir: is a folder, not a recording"),
    ("orders-binary", ["tune", "--orders", "binary.toml"], "--orders: binary.toml is not UTF-8 text"),
    ("orders-folder", ["tune", "--orders", "adir"], "--orders: cannot read adir"),
    # values that validate as numbers but break or hang the physics
    ("steps-per-second-1", ["game", "--params", "sps1.toml", *FAST],
     "solver.steps_per_second: must be between 60 and 20000, got 1"),
    ("turn-rate-1e-9", ["game", "--params", "slow.toml", *FAST],
     "turn.rate_rev_per_s: must be between 0.05 and 20, got 1e-09"),
    ("iterations-5000", ["params", "--params", "iters.toml"], "solver.iterations: must be between 1 and 1000"),
    ("decision-too-long", ["params", "--params", "cap.toml"], "a physics decision would take up to 240,000 steps"),
    ("recess-narrower-than-barrel", ["params", "--params", "recess.toml"],
     "ship.recess_diameter_mm: must be >= the widest barrel end"),
    ("recess-deeper-than-barrel", ["params", "--params", "deep.toml"], "ship.recess_depth_mm: must be less than"),
    ("window-longer-than-settle", ["params", "--params", "window.toml"],
     "settle.window_s: must be shorter than settle.max_time_s"),
    ("mu-5", ["params", "--params", "mu.toml"], "friction.mu: must be between 0.01 and 2, got 5.0"),
    ("mass-5-kg", ["params", "--params", "mass.toml"], "barrels.small.mass_g: must be between 0.5 and 1000"),
    # --players, read the same by game and play
    ("game-players-negative", ["game", "--players", "-1", *FAST], "--players: expected a count (1-4) or"),
    ("game-players-fraction", ["game", "--players", "2.5", *FAST], "got '2.5' (a name must not be a number)"),
    ("game-players-nan", ["game", "--players", "nan", *FAST], "got 'nan' (a name must not be a number)"),
    ("game-players-number-name", ["game", "--players", "Ann,3", *FAST], "got '3' (a name must not be a number)"),
    ("game-players-5", ["game", "--players", "5", *FAST], "--players: a game has 1 to 4 players"),
    ("play-players-nan", ["play", "--players", "nan", "--max-frames", "1"], "(a name must not be a number)"),
    ("play-players-5", ["play", "--players", "5", "--max-frames", "1"], "--players: a game has 1 to 4 players"),
    ("play-players-0", ["play", "--players", "0", "--max-frames", "1"], "--players: a game has 1 to 4 players"),
    ("compare-players-negative", ["compare", "--games", "2", "--players", "-1"], "--players: expected a whole number"),
    # output paths, checked before any work starts
    ("screenshot-folder", ["play", "--screenshot", "adir", "--max-frames", "1"], "--screenshot: adir is a folder"),
    ("screenshot-unwritable", lambda: ["play", "--screenshot", unwritable_png(), "--max-frames", "1"],
     "--screenshot: cannot write in folder"),
    ("screenshot-under-a-file", ["play", "--screenshot", "afile.txt/shot.png"],
     "--screenshot: afile.txt is a file, not a folder"),
    ("screenshot-missing-folder", ["play", "--screenshot", "nodir/shot.png"], "--screenshot: no such directory"),
    ("screenshot-not-png", ["play", "--screenshot", "shot.jpg"], "--screenshot: expected a .png file name"),
    ("replay-screenshot-folder", ["replay", "empty.jsonl", "--screenshot", "adir.png"],
     "--screenshot: adir.png is a folder"),
    ("tune-out-folder", ["tune", "--out", "adir.sqlite"], "--out: adir.sqlite is a folder"),
    ("tune-out-missing-folder", ["tune", "--out", "nodir/r.sqlite"], "--out: no such directory 'nodir'"),
    ("tune-out-under-a-file", ["tune", "--out", "afile.txt/r.sqlite"], "--out: afile.txt is a file, not a folder"),
    ("tune-out-unwritable", lambda: ["tune", "--out", unwritable_out()], "--out: cannot write in folder"),
    ("tune-out-not-results", ["tune", "--out", "afile.txt", "--orders", "sample:1", "--rounds", "1", *FAST,
                              "--workers", "1", "--no-progress"], "afile.txt: not a results file"),
    ("tune-plot-folder", ["tune", "--plot", "adir.png"], "--plot: adir.png is a folder"),
    ("compare-out-folder", ["compare", "--games", "2", "--out", "adir.sqlite"], "--out: adir.sqlite is a folder"),
    ("compare-plot-missing-folder", ["compare", "--games", "2", "--plot", "nodir/p.png"],
     "--plot: no such directory"),
    ("calibrate-out-missing-folder", ["calibrate", "stray.toml", "--out", "missing/x.toml"],
     "--out: no such directory 'missing'"),
    ("calibrate-out-folder", ["calibrate", "stray.toml", "--out", "adir"], "is a directory"),
    ("calibrate-out-unwritable", lambda: ["calibrate", "stray.toml", "--out", unwritable_out()],
     "--out: cannot write in folder"),
    # counts beyond any sensible value
    ("play-max-frames-huge", ["play", "--max-frames", "1000001"], "'--max-frames': 1000001 is not in the range"),
    ("replay-max-frames-huge", ["replay", "empty.jsonl", "--max-frames", "10000000"], "--max-frames"),
    ("tune-rounds-huge", ["tune", "--rounds", "1000000000"], "--rounds: expected a whole number from 1 to 1,000,000"),
    ("compare-games-huge", ["compare", "--games", "1000000000"], "--games: expected a whole number from 1 to"),
    ("tune-workers-huge", ["tune", "--workers", "100000"], "--workers: expected a whole number from 1 to 256"),
    ("tune-sigma-huge", ["tune", "--sigma-mm", "50"], "--sigma-mm: expected a number >= 0 and <= 20"),
    ("tune-sigma-nan", ["tune", "--sigma-mm", "nan"], "--sigma-mm: expected a number"),
    ("tune-correction-features-unknown", ["tune", "--correction-features", "cells"],
     "'cells' is not one of 'summary', 'layout'"),
    ("tune-rounds-unicode-digits", ["tune", "--rounds", "\u0663"], "--rounds: expected a whole number"),
    ("calibrate-draws-huge", ["calibrate", "stray.toml", "--out", "o.toml", "--draws", "10000000"], "'--draws'"),
    ("game-seed-negative", ["game", "--seed", "-3", *FAST], "'--seed': -3 is not in the range"),
]


def files_under(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*") if "readonly" not in p.parts or p.is_file()}


@pytest.mark.parametrize("args, message", [pytest.param(a, m, id=i) for i, a, m in ROWS])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(folder, args, message):
    args = args() if callable(args) else args
    before = files_under(folder)
    result = CliRunner().invoke(main, args)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.output
    assert files_under(folder) == before


def test_the_unwritable_rows_are_real(folder):
    """The rows above rely on these paths refusing a new file (root ignores permission bits)."""
    path = Path(unwritable_png()).parent / "probe"
    with pytest.raises(OSError):
        path.open("x").close()


def test_an_unreachable_scheduler_leaves_no_results_file(folder, monkeypatch):
    from kipp.analysis import executor as sweep

    monkeypatch.setattr(sweep, "DASK_CONNECT_TIMEOUT_S", 1)
    result = CliRunner().invoke(main, ["tune", "--scheduler", "tcp://127.0.0.1:1", "--out", "new.sqlite",
                                       "--orders", "sample:1", "--rounds", "1", *FAST, "--no-progress"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert "cannot reach the Dask scheduler" in result.output
    assert not list(folder.glob("new.sqlite*"))


def test_an_existing_results_file_is_kept_when_the_scheduler_is_unreachable(folder, monkeypatch):
    from kipp.analysis import executor as sweep

    monkeypatch.setattr(sweep, "DASK_CONNECT_TIMEOUT_S", 1)
    args = ["tune", "--out", "r.sqlite", "--orders", "sample:1", "--rounds", "1", *FAST, "--no-progress"]
    assert CliRunner().invoke(main, [*args, "--workers", "1"]).exit_code == 0
    size = (folder / "r.sqlite").stat().st_size
    result = CliRunner().invoke(main, [*args, "--orders", "sample:2", "--scheduler", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2
    assert (folder / "r.sqlite").stat().st_size == size


@pytest.mark.parametrize("args, message", [
    (["game", "--params", "binary.toml", *FAST], "binary.toml: not UTF-8 text"),
    (["game", "--params", "slow.toml", *FAST], "turn.rate_rev_per_s: must be between 0.05 and 20"),
    (["game", "--players", "nan", *FAST], "a name must not be a number"),
    (["play", "--screenshot", "adir", "--max-frames", "1"], "--screenshot: adir is a folder"),
    (["calibrate", "stray.toml", "--out", "missing/x.toml"], "--out: no such directory"),
])
def test_the_installed_command_prints_one_line_on_stderr(folder, args, message):
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    before = files_under(folder)
    result = subprocess.run([sys.executable, "-m", "kipp", *args], capture_output=True, text=True, timeout=120,
                            env=env, cwd=folder)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], result.stderr
    assert files_under(folder) == before


def test_play_reads_players_as_game_does():
    from kipp.cli.play import parse_seats

    assert parse_seats("3") == (("You", "Bot 1", "Bot 2"), (1, 2))
    assert parse_seats("1") == (("You",), ())
    assert parse_seats("2") == (("You", "Bot"), (1,))


def test_calibrate_progress_goes_to_stderr_when_asked(folder):
    Path("m.toml").write_text("[[slide]]\npair = 'barrel-deck'\ntilt_deg = 25.0\n"
                              "[[slide]]\npair = 'barrel-deck'\ntilt_deg = 23.0\n")
    result = CliRunner().invoke(main, ["calibrate", "m.toml", "--out", "o.toml", "--no-check", "--progress"])
    assert result.exit_code == 0, result.output
    assert "calibrate [" in result.stderr and "friction from 2 slide tests" in result.stderr
    assert "calibrate [" not in result.stdout
    quiet = CliRunner().invoke(main, ["calibrate", "m.toml", "--out", "o2.toml", "--no-check"])
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_help_texts_say_what_they_need_without_an_outside_document():
    for args in (["--help"], ["bench", "--help"], ["calibrate", "--help"], ["params", "--help"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0 and "DESIGN.md" not in result.output
    text = CliRunner().invoke(main, ["calibrate", "--help"]).output
    assert "sigma_mm" in " ".join(text.split()) and "no keys for them" not in text
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    assert "DESIGN.md" not in readme
