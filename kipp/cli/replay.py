"""``kipp replay FILE``: a recorded game shown in the viewer, or re-played headless with ``--check``."""

from __future__ import annotations

import click

from kipp.cli.language_option import command_language, language_option
from kipp.cli.options import UserError, check_output, library_error, params_option, physics_errors
from kipp.cli.window import (
    ensure_display,
    max_frames_option,
    mute_option,
    require_pygame,
    run_viewer,
    screenshot_option,
)
from kipp.cli.words import Command, paragraphs
from kipp.language import N_, Language
from kipp.rules.replay import (
    ReplayMismatch,
    check_params,
    config_from_header,
    header_models,
    header_referee,
    header_seed,
)
from kipp.rules.replay import replay as replay_events
from kipp.rules.transcript import TranscriptError, parse_json_lines
from sim.params import Params, load_params
from sim.referees import make_referee


@click.command(cls=Command, help=paragraphs(
    N_("Replay a game recorded with `kipp game --json` or `kipp play --record`."),
    N_("A recording of a game stopped half-way is shown (and checked) up to where it stops."),
    N_("The game is decided by the referee it was recorded with (game_start.referee: physics, fast or hybrid). "
       "Without --check, show it in the viewer with the same animations as `kipp play`. With --check, re-play it "
       "headless from its recorded actions (shuffles, rolls, placements, chosen sailors, passes) and exit with "
       "an error naming the first line whose outcome differs. Use the --params the game was recorded with."),
))
@click.argument("file", metavar="FILE")
@click.option("--check", is_flag=True, help=N_("Re-run the game headless and fail if any outcome differs."))
@max_frames_option(N_("Without --check: stop after N frames (headless runs, documentation)"))
@screenshot_option(N_("Without --check: save the last frame as PNG."))
@mute_option
@params_option
@language_option
def replay(file: str, check: bool, max_frames: int | None, screenshot: str | None, mute: bool,
           params: Params, language: Language) -> None:
    """``kipp replay`` (its help is the ``help`` above): shown in the viewer, or checked headless."""
    if not check:
        show_replay(file, params, max_frames=max_frames, screenshot=screenshot, mute=mute, language=language)
        return
    for option, value in (("--max-frames", max_frames), ("--screenshot", screenshot)):
        if value is not None:
            raise UserError(language.gettext("{option}: only for the visual replay; --check runs headless and draws "
                                             "nothing").format(option=option))
    events = read_recording(file)
    state = check_recording(file, events, params)
    models = header_models(events[0])
    seats = ", ".join(f"{name} ({model})" if model else name for name, model in zip(state.config.players, models))
    if state.is_terminal():
        click.echo(language.gettext("{file}: replay matches ({events} events; {seats}; final chips {chips}).").format(
            file=file, events=len(events), seats=seats, chips=state.chips))
    else:
        click.echo(language.gettext("{file}: replay matches ({events} events; {seats}); the recording stops in round "
                                    "{round} of 3, before the game's end (chips then {chips}).").format(
            file=file, events=len(events), seats=seats, round=state.round, chips=state.chips))


def check_recording(file: str, events: list[dict], params: Params):
    """Re-play ``events`` headless with the recording's referee; the final state (not terminal
    for a game recorded as it was played and stopped half-way).

    A recording whose outcomes differ (or that is no game) is a :class:`UserError`, the
    one line that both ``--check`` and the visual replay give."""
    _ = command_language().gettext
    try:
        with physics_errors(_("{file}: the replay stopped").format(file=file), keep=(ReplayMismatch, TranscriptError)):
            referee = make_referee(header_referee(events[0]), params)
            state = replay_events(events, referee, params, unfinished=True)
            header_models(events[0])  # a malformed models list is a bad recording too
            return state
    except ReplayMismatch as error:
        raise UserError(_("{file}: replay differs: {problem}").format(file=file, problem=library_error(error))
                        ) from None
    except TranscriptError as error:
        raise UserError(f"{file}: {library_error(error)}") from None


MAX_RECORDING_BYTES = 20_000_000
"""A recording is one game, a few hundred lines of JSON; a file larger than this is not one."""


def read_recording(file: str) -> list[dict]:
    """The events of the transcript ``file``; :class:`UserError` if it cannot be read as one (a folder,
    a FIFO or a device, a file larger than :data:`MAX_RECORDING_BYTES`, not UTF-8, not a transcript)."""
    from sim.user_files import UserFileError, read_user_file

    try:
        data = read_user_file(file, N_("recording (a file of `kipp game --json`)"), MAX_RECORDING_BYTES)
    except UserFileError as error:
        raise UserError(f"{file}: {library_error(error)}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(command_language().gettext(
            "{file}: not UTF-8 text (byte {byte} at offset {offset}); not a recording of `kipp game --json`").format(
            file=file, byte=f"0x{data[error.start]:02x}", offset=error.start)) from None
    try:
        return parse_json_lines(text, file)
    except TranscriptError as error:
        raise UserError(library_error(error)) from None


def show_replay(path: str, params: Params | None = None, *, max_frames: int | None = None,
                screenshot: str | None = None, mute: bool = False, language: Language | None = None) -> None:
    """Show the game recorded in ``path`` (``kipp game --json``) with the viewer's animations.

    The game is decided by the referee it was recorded with (``game_start.referee``);
    a referee that cannot animate its decisions (``fast``) decides each at once.
    The recording is first re-played headless (:func:`check_recording`, as ``--check``
    does), so one that does not replay is refused before a window opens instead of
    showing a game that stops halfway.
    Raises :class:`UserError` for an unreadable transcript or header, parameters other
    than the recording's, a recording whose outcomes differ, or no display (unless
    ``max_frames``/``screenshot`` ask for a headless run). ``language``: the window's (default: the
    command line's).
    """
    require_pygame(N_("kipp replay (without --check)"))
    screenshot = check_output("--screenshot", screenshot, suffix=".png")
    events = read_recording(path)
    header = events[0]
    params = params if params is not None else load_params()
    try:
        config = config_from_header(header)
        referee_name = header_referee(header)
        check_params(header, params)
    except (TranscriptError, ReplayMismatch) as error:
        raise UserError(f"{path}: {library_error(error)}") from None
    ensure_display(max_frames is not None or screenshot is not None)
    check_recording(path, events, params)

    from viewer.controller import GameController
    from viewer.script import ReplayScript

    def new_controller(games: int) -> GameController:
        return GameController(config, params, seed=header_seed(header),
                              referee=make_referee(referee_name, params),
                              script=ReplayScript(events))

    language = language or command_language()
    prefix = language.gettext("{file}: replay differs: {problem}").format(file=path, problem="")
    run_viewer(new_controller, max_frames, screenshot, replay=True, failure_prefix=prefix, mute=mute,
               language=language)
