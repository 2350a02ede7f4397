"""The visual ``kipp replay``: the viewer replays a recording to the same outcome, or refuses it in one line."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.cli.options import UserError
from kipp.cli.replay import show_replay
from kipp.rules.replay import HEADER_ONLY
from kipp.rules.transcript import parse_json_lines
from sim.params import load_params
from viewer.controller import GameController
from viewer.script import ReplayScript


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
    from kipp.rules.replay import config_from_header

    controller = GameController(config_from_header(events[0]), load_params(), script=ReplayScript(events))
    for _ in range(40000):
        if controller.state.is_terminal() and controller.mode == "idle":
            break
        controller.update()
    assert controller.state.is_terminal() and controller.error is None
    recorded = [{k: v for k, v in e.items() if k not in HEADER_ONLY} for e in events]
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
    import kipp.cli.replay

    result = CliRunner().invoke(main, ["game", "--json", "--seed", "5", "--players", "Ann,Ben",
                                       "--sea-dogs", "--referee", "fast"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "fast.jsonl"
    path.write_text(result.output, encoding="utf-8")
    built = []
    monkeypatch.setattr(kipp.cli.replay, "run_viewer", lambda new_controller, *_: built.append(new_controller(0)))
    show_replay(str(path), max_frames=1)
    controller = built[0]
    assert type(controller.referee.base).__name__ == "FastReferee"
    play_to_the_end(controller)
    events = parse_json_lines(path.read_text(encoding="utf-8"))
    recorded = [{k: v for k, v in e.items() if k not in HEADER_ONLY} for e in events]
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
