"""``kipp game`` (a whole game headless, bots only) and ``kipp replay`` (check a recording).

Referees come from :mod:`sim.referees`, which imports pymunk only when one is made, so
``kipp --help`` stays light.
"""

from __future__ import annotations

from pathlib import Path

import click

from kipp.bots import Bot
from kipp.cli_options import (UserError, barrels_option, game_config, params_option, player_count,
                              referee_option, seed_option)
from kipp.play import play_game
from kipp.state import IllegalActionError
from kipp.replay import ReplayMismatch, header_referee, params_fingerprint, replay as replay_events
from kipp.transcript import Narrator, TranscriptError, json_line, parse_json_lines, with_header
from sim.params import Params, load_params
from sim.referees import make_referee


def _make_referee(name: str, params: Params):
    """The referee called ``name`` (tests replace this function to avoid physics)."""
    return make_referee(name, params)


def parse_players(text: str) -> tuple[str, ...]:
    """``--players``: a number N (names Bot 1 .. Bot N) or comma-separated names.

    How many players a game may have is :class:`kipp.config.GameConfig`'s to check.
    """
    text = text.strip()
    if text.isdigit():
        return tuple(f"Bot {i}" for i in range(1, player_count(int(text)) + 1))
    names = tuple(name.strip() for name in text.split(","))
    if not text or any(not name for name in names):
        raise UserError(f"--players: expected a number or comma-separated names, got {text!r}")
    return names


@click.command()
@click.option("--players", default="2", show_default=True, metavar="N|NAMES",
              help='How many players (1-4), or their names: "Ann,Ben". Every seat is played by a bot; '
                   "names only label the bots (people play with `kipp play`).")
@seed_option
@barrels_option
@click.option("--half-turn", is_flag=True, help="Sailors turn half a revolution (younger sailors).")
@click.option("--sea-dogs", is_flag=True, help="Old Sea Dogs: passing allowed, a crash costs 2 chips.")
@params_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line (the replay format).")
@referee_option("physics")
def game(players: str, seed: int, barrels: int, half_turn: bool, sea_dogs: bool,
         params: Params | None, as_json: bool, referee_name: str) -> None:
    """Play a whole game headless with bots and print its transcript.

    Every player is a bot (the parameter set's placement error, 1.5 mm by default;
    levels the deck on a wild roll; passes cautiously in Old Sea Dogs). The same seed
    and options give the same transcript; save the --json output to check it later
    with `kipp replay FILE --check`.
    """
    names = parse_players(players)
    config = game_config(players=names, barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)
    params = params if params is not None else load_params()
    referee = _make_referee(referee_name, params)
    bots = [Bot(name, params=params, passing="cautious" if sea_dogs else "never") for name in names]
    header = {"seed": seed, "params": params_fingerprint(params), "referee": referee_name}
    shown = 0
    narrator = Narrator(list(names))

    def show(state, action) -> None:
        nonlocal shown
        events = list(with_header(state.events()[shown:], **header))
        shown += len(events)
        lines = (json_line(e) for e in events) if as_json else narrator.lines(events)
        for line in lines:
            click.echo(line)

    try:
        play_game(config, referee, bots, seed, params=params, observer=show)
    except IllegalActionError:
        raise  # a bug in a bot, not the user's mistake: keep the traceback
    except ValueError as error:  # a referee refusing an impossible situation, e.g. NaN physics
        raise UserError(f"the game stopped: {error}") from None


@click.command()
@click.argument("file", metavar="FILE")
@click.option("--check", is_flag=True, help="Re-run the game headless and fail if any outcome differs.")
@click.option("--max-frames", type=click.IntRange(min=1), default=None, metavar="N",
              help="Without --check: stop after N frames (headless runs, documentation).")
@click.option("--screenshot", metavar="PATH", default=None,
              help="Without --check: save the last frame as PNG.")
@params_option
def replay(file: str, check: bool, max_frames: int | None, screenshot: str | None,
           params: Params | None) -> None:
    """Replay a game recorded with `kipp game --json`.

    The game is decided by the referee it was recorded with (game_start.referee:
    physics, fast or hybrid). Without --check, show it in the viewer with the same
    animations as `kipp play`. With --check, re-play it headless from its recorded
    actions (shuffles, rolls, placements, chosen sailors, passes) and exit with an
    error naming the first line whose outcome differs. Use the --params the game was
    recorded with.
    """
    if not check:
        from kipp.cli_play import show_replay

        show_replay(file, params, max_frames=max_frames, screenshot=screenshot)
        return
    for option, value in (("--max-frames", max_frames), ("--screenshot", screenshot)):
        if value is not None:
            raise UserError(f"{option}: only for the visual replay; --check runs headless and draws nothing")
    events = read_recording(file)
    params = params if params is not None else load_params()
    try:
        referee = _make_referee(header_referee(events[0]), params)
        state = replay_events(events, referee, params)
    except ReplayMismatch as error:
        raise UserError(f"{file}: replay differs: {error}") from None
    except TranscriptError as error:
        raise UserError(f"{file}: {error}") from None
    click.echo(f"{file}: replay matches ({len(events)} events; final chips {state.chips}).")


def read_recording(file: str) -> list[dict]:
    """The events of the transcript ``file``; :class:`UserError` if it cannot be read as one."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"{file}: cannot read ({getattr(error, 'strerror', None) or error})") from None
    try:
        return parse_json_lines(text, file)
    except TranscriptError as error:
        raise UserError(str(error)) from None
