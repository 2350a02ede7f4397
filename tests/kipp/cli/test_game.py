"""`kipp game` and `kipp replay --check` through click's CliRunner.

Most tests stand the fast threshold referee in for every referee name (the ``fast_referee``
fixture registers it in :mod:`sim.referees`); the ``slow`` test plays real physics end to end.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.rules.transcript import EVENTS
from sim.referees import referee_names, registered_referee
from tests.kipp.kipp_referees import ThresholdReferee

FIELDS = {
    "game_start": {"seed", "players", "variant", "chips"},
    "round_start": {"round", "order", "starter"},
    "roll": {"player", "face"},
    "pass": {"player"},
    "place": {"player", "barrel", "index", "offset_mm"},
    "turn": {"player", "sailor", "fraction", "turns", "tilt_deg"},
    "crash": {"player", "chips_returned"},
    "round_end": {"round", "completed", "stacked"},
    "award": {"player", "chips", "reason"},
    "game_end": {"chips", "winners"},
}


def run(*args):
    return CliRunner().invoke(main, list(args))


def assert_user_error(result, text):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and text in lines[0], result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize("args", [[], ["--json"], ["--players", "Ann,Ben,Cid,Dot", "--sea-dogs", "--half-turn",
                                                    "--barrels", "9", "--json"]])
def test_same_seed_gives_a_byte_identical_transcript(fast_referee, args):
    first, second = run("game", "--seed", "4", *args), run("game", "--seed", "4", *args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    assert run("game", "--seed", "5", *args).output != first.output


def test_json_transcript_is_json_lines_in_the_vocabulary(fast_referee):
    result = run("game", "--players", "3", "--seed", "2", "--sea-dogs", "--json")
    events = [json.loads(line) for line in result.output.splitlines()]
    assert {e["event"] for e in events} <= set(EVENTS)
    for event in events:
        assert FIELDS[event["event"]] <= set(event), event
    assert events[0]["players"] == ["Bot 1", "Bot 2", "Bot 3"] and events[0]["seed"] == 2
    assert events[0]["variant"] == {"barrels": 12, "half_turn": False, "sea_dogs": True}
    assert events[-1]["event"] == "game_end" and sum(events[-1]["chips"]) + events[-1]["supply"] == 25


def test_readable_transcript_names_players_and_chips(fast_referee):
    result = run("game", "--players", "Ann,Ben", "--seed", "3")
    assert result.exit_code == 0
    text = result.output
    assert "Ann rolls" in text and "Round 3." in text and "deg" in text and "Game over." in text
    assert "Kaboom!" in text or "all barrels stacked" in text


@pytest.mark.parametrize("args, text", [
    (["--players", "5"], "1 to 4 players"),
    (["--players", "0"], "1 to 4 players"),
    (["--players", ""], "--players"),
    (["--players", "Ann,,Ben"], "--players"),
    (["--players", "A,B,C,D,E"], "1 to 4 players"),
    (["--barrels", "10"], "--barrels"),
    (["--referee", "crystal-ball"], "unknown referee"),
    (["--params", "/nonexistent.toml"], "--params"),
])
def test_bad_game_input_is_one_line_and_exit_2(fast_referee, args, text):
    assert_user_error(run("game", *args), text)


def test_malformed_params_file_is_one_line(tmp_path, fast_referee):
    bad = tmp_path / "bad.toml"
    bad.write_text("[barrels.small]\nmass_g = -5.3\n")
    assert_user_error(run("game", "--params", str(bad)), "mass_g")
    bad.write_text("not toml = = \n")
    assert_user_error(run("game", "--params", str(bad)), "TOML")


@pytest.fixture
def recording(tmp_path, fast_referee):
    result = run("game", "--players", "Ann,Ben,Cid", "--seed", "0", "--sea-dogs", "--json")  # has every event kind
    path = tmp_path / "game.jsonl"
    path.write_text(result.output)
    return path


def test_replay_check_accepts_its_own_recording(recording):
    result = run("replay", str(recording), "--check")
    assert result.exit_code == 0, result.output
    assert "replay matches" in result.output


def tamper(path, predicate, change):
    lines = path.read_text().splitlines()
    for i, line in enumerate(lines):
        event = json.loads(line)
        if predicate(event):
            change(event)
            lines[i] = json.dumps(event)
            path.write_text("\n".join(lines) + "\n")
            return i + 1
    raise AssertionError("the fixture recording lacks the event this case tampers with")


@pytest.mark.parametrize("predicate, change", [
    (lambda e: e["event"] == "turn", lambda e: e.update(tilt_deg=e["tilt_deg"] + 1)),
    (lambda e: e["event"] == "crash", lambda e: e.update(chips_returned=e["chips_returned"] + 1)),
    (lambda e: e["event"] == "award", lambda e: e.update(chips=e["chips"] + 1)),
    (lambda e: e["event"] == "game_end", lambda e: e.update(winners=[])),
    (lambda e: e["event"] == "roll" and e["face"] == "red", lambda e: e.update(face="blue")),
    (lambda e: e["event"] == "place", lambda e: e.update(offset_mm=[40.0, 0.0])),
    (lambda e: e["event"] == "place", lambda e: e.update(offset_mm="here")),
    (lambda e: e["event"] == "round_start", lambda e: e.update(order=["small"] * 12)),
    (lambda e: e["event"] == "game_start", lambda e: e.update(players=["Ann"] * 7)),
    (lambda e: e["event"] == "game_start", lambda e: e.update(params="0123456789abcdef")),
])
def test_replay_check_rejects_a_tampered_recording(recording, predicate, change):
    line = tamper(recording, predicate, change)
    result = run("replay", str(recording), "--check")
    assert_user_error(result, "line ")
    reported = int(result.output.split("line ")[1].split(":")[0])
    assert reported >= line, "an outcome is caught where it is recorded, a changed input where it shows"


@pytest.mark.parametrize("content, text", [
    ("", "game_start"),
    ("{not json\n", "not JSON"),
    ('{"event": "teleport"}\n', "vocabulary"),
    ("[1, 2]\n", "vocabulary"),
])
def test_replay_check_rejects_corrupt_files(tmp_path, fast_referee, content, text):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    assert_user_error(run("replay", str(path), "--check"), text)


def test_replay_check_accepts_a_game_stopped_half_way_but_not_a_cut_or_extended_one(recording):
    lines = recording.read_text().splitlines()
    first_round_end = next(i for i, line in enumerate(lines) if '"round_end"' in line)
    recording.write_text("\n".join(lines[:first_round_end + 1]) + "\n")
    result = run("replay", str(recording), "--check")
    assert result.exit_code == 0 and "stops in round 2 of 3, before the game's end" in result.output, result.output
    recording.write_text("\n".join(lines[:-3]) + "\n")
    assert_user_error(run("replay", str(recording), "--check"), "the record lacks")
    recording.write_text("\n".join(lines + lines[-1:]) + "\n")
    assert_user_error(run("replay", str(recording), "--check"), "after the end of the game")


def test_replay_without_check_or_file(recording, tmp_path, monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    assert_user_error(run("replay", str(recording)), "no display")  # the visual replay needs a window
    assert_user_error(run("replay", str(tmp_path / "missing.jsonl"), "--check"), "cannot read")


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("sim.referees.loop") is None, reason="no physics referee yet")
def test_physics_games_end_to_end_and_replay_check(tmp_path):
    for seed, options in ((1, []), (2, ["--players", "Ann,Ben,Cid", "--sea-dogs", "--half-turn", "--barrels", "9"])):
        start = time.perf_counter()
        result = run("game", "--seed", str(seed), "--json", *options)
        assert result.exit_code == 0, result.output
        elapsed = time.perf_counter() - start
        events = [json.loads(line) for line in result.output.splitlines()]
        assert events[-1]["event"] == "game_end" and events[0]["referee"] == "physics"
        path = tmp_path / f"physics{seed}.jsonl"
        path.write_text(result.output)
        check = run("replay", str(path), "--check")
        assert check.exit_code == 0, check.output
        assert elapsed < 120


def test_the_recording_has_every_event_the_tamper_cases_need(recording):
    events = [json.loads(line) for line in recording.read_text().splitlines()]
    kinds = {e["event"] for e in events}
    assert {"turn", "crash", "award", "game_end", "place", "round_start", "pass"} <= kinds
    assert any(e["event"] == "roll" and e["face"] == "red" for e in events)


def rewrite_header(path, **fields):
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header.update(fields)
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("fields, text", [
    ({"seed": None}, "seed must be a whole number >= 0"),
    ({"seed": -1}, "seed must be a whole number >= 0"),
    ({"seed": "7"}, "seed must be a whole number >= 0"),
    ({"players": "Ann"}, "players must be a list of names"),
    ({"players": ["Ann", 3]}, "players must be a list of names"),
    ({"players": ["A", "B", "C", "D", "E"]}, "1 to 4 players"),
    ({"players": []}, "1 to 4 players"),
    ({"variant": {"barrels": "12", "half_turn": False, "sea_dogs": True}}, "variant.barrels"),
    ({"variant": {"barrels": 12, "half_turn": "no", "sea_dogs": True}}, "variant.half_turn"),
    ({"referee": "oracle"}, "unknown referee"),
])
@pytest.mark.parametrize("mode", [["--check"], ["--max-frames", "1"]])
def test_a_malformed_header_is_one_line_in_both_replays(recording, fields, text, mode):
    rewrite_header(recording, **fields)
    assert_user_error(run("replay", str(recording), *mode), text)
    assert_user_error(run("replay", str(recording), *mode), "line 1")


@pytest.mark.parametrize("option", [["--max-frames", "5"], ["--screenshot", "x.png"]])
def test_viewer_options_with_check_are_one_line(recording, option):
    assert_user_error(run("replay", str(recording), "--check", *option), f"{option[0]}: only for the visual replay")


@pytest.mark.parametrize("args, text", [
    (["game", "--seed", "-3"], "kipp game: Invalid value for '--seed'"),
    (["game", "--frobnicate"], "No such option '--frobnicate'"),
    (["game", "surplus"], "unexpected extra argument"),
    (["play", "--barrels", "7"], "--barrels: expected 12 or 9"),
    (["play", "--max-frames", "0"], "'--max-frames'"),
    (["tune", "--bogus"], "kipp tune: No such option '--bogus'"),
    (["replay"], "Missing argument 'FILE'"),
    (["nonsense"], "No such command 'nonsense'"),
    (["--bogus"], "No such option '--bogus'"),
])
def test_clicks_own_usage_errors_are_one_line(args, text):
    assert_user_error(run(*args), text)


def test_a_usage_error_of_the_installed_command_is_one_line_on_stderr():
    result = subprocess.run([sys.executable, "-m", "kipp", "game", "--seed", "-3"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "Error: kipp game: Invalid value for '--seed': -3 is not in the range x>=0."]


def test_help_still_works_and_says_what_matters():
    assert run("--help").exit_code == 0 and "Commands" in run("--help").output
    game_help = " ".join(run("game", "--help").output.split())
    assert "physics, fast, hybrid" in game_help
    assert "Every seat is played by a bot" in game_help
    replay_help = " ".join(run("replay", "--help").output.split())
    assert "referee it was recorded with" in replay_help
    for command in ("tune", "compare"):
        assert "physics, fast, hybrid" in " ".join(run(command, "--help").output.split())


def test_the_recorded_referee_is_the_one_rebuilt_by_replay_check(tmp_path):
    made = []

    def counted(params):
        made.append(params)
        return ThresholdReferee(seed=1, crash_rate=0.05, ship=params.ship)

    with registered_referee("counted", counted):
        result = run("game", "--seed", "1", "--json", "--referee", "counted")
        assert json.loads(result.output.splitlines()[0])["referee"] == "counted"
        path = tmp_path / "counted.jsonl"
        path.write_text(result.output)
        assert run("replay", str(path), "--check").exit_code == 0
        assert len(made) == 2  # one referee for the game, one for its check
    assert "counted" not in referee_names()
    refused = run("replay", str(path), "--check")
    assert refused.exit_code == 2 and 'unknown referee "counted"' in refused.output, refused.output
