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
from sim.referees import make_referee
from viewer.controller import GameController
from viewer.question import Question
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
    monkeypatch.setattr(kipp.cli.replay, "run_viewer", lambda new_controller, *_, **__: built.append(new_controller(0)))
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


@pytest.fixture(scope="module")
def fast_recording(tmp_path_factory):
    """A fast-referee game (decisions at once: the viewer has nothing to animate)."""
    result = CliRunner().invoke(main, ["game", "--json", "--seed", "7", "--players", "2", "--barrels", "9",
                                       "--half-turn", "--referee", "fast"])
    assert result.exit_code == 0, result.output
    path = tmp_path_factory.mktemp("fast") / "fast.jsonl"
    path.write_text(result.output, encoding="utf-8")
    return path


def replay_app(path):
    import pygame  # noqa: F401

    from kipp.rules.replay import config_from_header
    from viewer.app import ViewerApp

    events = parse_json_lines(path.read_text(encoding="utf-8"))
    params = load_params()
    return ViewerApp(lambda games: GameController(config_from_header(events[0]), params,
                                                  referee=make_referee("fast", params),
                                                  script=ReplayScript(events)), throttle=False, replay=True)


def key(app, code, char=""):
    import pygame

    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=char, scancode=0))
    app.step()


def test_a_visual_replay_is_labelled_and_pauses_steps_and_speeds_up(fast_recording):
    import pygame

    from viewer import palette

    app = replay_app(fast_recording)
    try:
        c = app.controller
        app.step()
        scene = app.layout.scene
        banner = app.surface.get_at((scene.x + app.layout.px(16), scene.bottom - app.layout.px(20)))
        assert all(abs(a - b) < 16 for a, b in zip(banner[:3], palette.KABOOM)), "the red REPLAY banner"
        assert c.prompt() is None
        key(app, pygame.K_SPACE)
        assert app.paused
        frame, done = c.frame, len(c.state.history())
        for _ in range(50):
            app.step()
        assert c.frame == frame and len(c.state.history()) == done, "paused: nothing moves"
        for step in range(1, 4):
            key(app, pygame.K_RIGHT if step % 2 else pygame.K_s)
            for _ in range(400):
                if app.playback.step_from is None:
                    break
                app.step()
            assert len(c.state.history()) == done + step, "one recorded action per step"
            frame = c.frame
            app.step()
            assert c.frame == frame, "and paused again"
        key(app, pygame.K_SPACE)
        key(app, pygame.K_PLUS, "+")
        assert app.speed == 2
        frame = c.frame
        app.step()
        assert c.frame == frame + 2
        key(app, pygame.K_4)
        frame = c.frame
        app.step()
        assert c.frame == frame + 4
        key(app, pygame.K_MINUS, "-")
        assert app.speed == 2
        key(app, pygame.K_1)
        assert app.speed == 1
        key(app, pygame.K_n)
        assert app.card.question is Question.NEW_GAME and app.card.words()[0] == "Restart the replay?"
        key(app, pygame.K_y)
        assert app.controller is not c and len(app.controller.state.history()) <= 1, "from the first shuffle"
    finally:
        app.close()


def tampered(path, tmp_path, change):
    """A copy of the recording with one outcome changed (the first turn's tilt)."""
    import json

    lines = path.read_text(encoding="utf-8").splitlines()
    for k, line in enumerate(lines):
        event = json.loads(line)
        if event["event"] == "turn":
            change(event)
            lines[k] = json.dumps(event)
            break
    bad = tmp_path / "tampered.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bad


def test_a_recording_that_does_not_replay_is_the_same_one_line_error_as_check(fast_recording, tmp_path):
    bad = tampered(fast_recording, tmp_path, lambda e: e.update(tilt_deg=e["tilt_deg"] + 1.0))
    checked = CliRunner().invoke(main, ["replay", str(bad), "--check"])
    shown = CliRunner().invoke(main, ["replay", str(bad), "--max-frames", "50"])
    assert checked.exit_code == 2 and shown.exit_code == 2
    assert shown.output == checked.output
    lines = shown.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {bad}: replay differs: line ")


def test_a_replay_that_stops_in_the_window_ends_it_with_the_error(fast_recording, tmp_path):
    """Should the window's game ever stop on a recorded action (an illegal one), the app quits
    with the error instead of showing a frozen picture."""
    import json

    lines = fast_recording.read_text(encoding="utf-8").splitlines()
    first_place = next(k for k, line in enumerate(lines) if json.loads(line)["event"] == "place")
    event = json.loads(lines[first_place])
    event["offset_mm"] = [600.0, 0.0]  # beyond the 500 mm any placement may be from the tower spot: illegal
    lines[first_place] = json.dumps(event)
    bad = tmp_path / "illegal.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    app = replay_app(bad)
    try:
        for _ in range(3000):
            if not app.running:
                break
            app.step()
        assert not app.running and app.failure is not None and "cannot apply" in app.failure
    finally:
        app.close()
    result = CliRunner().invoke(main, ["replay", str(bad), "--max-frames", "3000"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_a_paused_replay_steps_to_a_whole_picture_and_quitting_it_loses_nothing(fast_recording):
    import pygame

    app = replay_app(fast_recording)
    try:
        c = app.controller
        key(app, pygame.K_SPACE)
        turned = 0
        for _ in range(16):
            key(app, pygame.K_RIGHT)
            for _ in range(600):
                if app.playback.step_from is None:
                    break
                app.step()
                turned += c.view.turning
            assert abs(abs(c.view_squash()) - 1.0) < 1e-9, "a step never stops with the ship drawn squeezed"
        assert turned > 0, "the steps did turn the view"
        key(app, pygame.K_ESCAPE)
        question, detail = app.card.words()
        assert question == "Quit the replay?" and "lost" not in detail
    finally:
        app.close()
