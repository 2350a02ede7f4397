"""Every reader of a user's file bounds what it reads: a 5,000-digit number, nesting thousands deep, stored
options that are not JSON, a FIFO or a device in a file's place are one line and exit 2 (never a traceback,
never a hang); and the two answers that looked found or meant though they were not (``--find`` on too few
rounds, ``--players abc``) say what they are."""

from __future__ import annotations

import os
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kipp.cli import main
from tests.kipp.cli.test_reliability import _environment, _one_error_line

FAST = ["--referee", "fast"]
HUGE = "1" * 5000
DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _recording(folder: Path) -> str:
    """A real recording of ``kipp game --json`` (fast referee), as text."""
    result = CliRunner().invoke(main, ["game", "--json", "--seed", "3", *FAST])
    assert result.exit_code == 0, result.output
    return result.output


def _refused(args, *parts):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    _one_error_line(result.output, *parts)


@pytest.mark.parametrize("text, part", [
    (f"[friction]\nmu = {HUGE}\n", "digits"),
    (f"[friction]\nmu = {DEEP}\n", "nested"),
    ("[friction]\nmu = 1" + "0" * 400 + "\n", "digits"),
])
def test_a_parameter_file_with_a_huge_number_or_deep_nesting_is_one_line(folder, text, part):
    (folder / "p.toml").write_text(text)
    _refused(["game", "--params", "p.toml", *FAST], "--params: p.toml", part)
    _refused(["calibrate", "p.toml", "--out", "x.toml"], "p.toml", part)
    assert not (folder / "x.toml").exists()


@pytest.mark.parametrize("number", [HUGE, "1" + "0" * 400])
def test_a_recording_with_a_huge_number_is_one_line(folder, number):
    lines = _recording(folder).splitlines()
    (folder / "g.jsonl").write_text("\n".join([lines[0], lines[1].replace('"order"', f'"x": {number}, "order"'),
                                               *lines[2:]]) + "\n")
    _refused(["replay", "g.jsonl", "--check"], "g.jsonl line 2", "digits")


def test_a_recording_with_a_deeply_nested_line_is_one_line(folder):
    lines = _recording(folder).splitlines()
    (folder / "g.jsonl").write_text("\n".join([lines[0], f'{{"event": "roll", "face": {DEEP}}}']) + "\n")
    _refused(["replay", "g.jsonl", "--check"], "g.jsonl line 2", "nested")


@pytest.mark.parametrize("name", ["A\\u0000B", "\\ud800"])
def test_a_recording_with_an_unprintable_player_name_is_one_line(folder, name):
    lines = _recording(folder).splitlines()
    (folder / "g.jsonl").write_text("\n".join([lines[0].replace('"Bot 1"', f'"{name}"'), *lines[1:]]) + "\n")
    _refused(["replay", "g.jsonl", "--check"], "g.jsonl")


def test_a_results_file_whose_stored_options_are_not_json_is_one_line(folder):
    args = ["tune", "--orders", "sample:2", "--rounds", "2", *FAST, "--workers", "1", "--no-progress",
            "--out", "r.sqlite"]
    assert CliRunner().invoke(main, args).exit_code == 0
    with sqlite3.connect(folder / "r.sqlite") as db:
        db.execute("UPDATE meta SET value = '{not json' WHERE key = 'options'")
    before = (folder / "r.sqlite").read_bytes()
    _refused(args, "--out: r.sqlite", "stored options")
    assert (folder / "r.sqlite").read_bytes() == before


INPUTS = {  # a FIFO or a device in the place of each input file
    "params": lambda f: ["game", "--params", f, *FAST],
    "measurements": lambda f: ["calibrate", f, "--out", "x.toml"],
    "calibrate-start": lambda f: ["calibrate", "m.toml", "--params", f, "--out", "x.toml"],
    "recording": lambda f: ["replay", f, "--check"],
    "orders": lambda f: ["tune", "--orders", f, *FAST, "--rounds", "2", "--workers", "1"],
    "sensitivity-params": lambda f: ["sensitivity", "--params", f],
}


def _at_most_2_gb() -> None:
    """A reader that read /dev/zero whole would take all the machine's memory: stop it at 2 GB instead."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("kind", ["fifo", "device"])
@pytest.mark.parametrize("name", list(INPUTS))
def test_a_fifo_or_a_device_as_an_input_file_is_refused_at_once(folder, name, kind):
    if kind == "fifo":
        os.mkfifo(folder / "pipe")
        path = "pipe"
    else:
        path = "/dev/zero"
    (folder / "m.toml").write_text("")
    result = subprocess.run([sys.executable, "-m", "kipp", *INPUTS[name](path)], capture_output=True, text=True,
                            timeout=30, cwd=folder, env=_environment(), preexec_fn=_at_most_2_gb)
    assert result.returncode == 2, result.stderr
    _one_error_line(result.stderr, path, "a FIFO" if kind == "fifo" else "a device")


# --- answers that looked found or meant ----------------------------------------------------------------


def test_a_race_on_too_few_rounds_says_which_orders_it_could_not_separate(folder):
    result = CliRunner().invoke(main, ["tune", "--find", "hardest:2,easiest:2", "--rounds", "4", *FAST,
                                       "--orders", "sample:30", "--workers", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "Hardest (fewest barrels stacked), hardest first:" not in result.output  # the header of a found list
    assert "Hardest (fewest barrels stacked): NOT found" in text and "Easiest: NOT found" in text
    assert "not separated" in text


def test_the_players_help_says_a_single_name_is_a_one_player_game():
    result = CliRunner().invoke(main, ["game", "--help"])
    text = " ".join(result.output.split())
    assert 'one name ("Ann") is a one-player game' in text
    played = CliRunner().invoke(main, ["game", "--players", "abc", *FAST, "--seed", "1"])
    assert played.exit_code == 0 and played.output.splitlines()[0].endswith(": abc (12 barrels, full turns).")
