"""``kipp play``: the game on screen; and :func:`show_replay`, the visual ``kipp replay FILE``.

pygame and the viewer are imported inside the functions, so ``kipp --help`` stays light.
Without a display, ``kipp play`` says so in one line and points at ``kipp game`` (exit
2). pygame-ce falls back silently to its ``offscreen`` driver when there is no display,
so the driver is checked after initialising it (DESIGN.md section 6), unless the run
was asked to be headless (``--max-frames``/``--screenshot``, or ``SDL_VIDEODRIVER`` set
to ``dummy``/``offscreen`` on purpose).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import click

from kipp.cli_options import UserError, barrels_option, game_config, params_option, seed_option
from sim.params import Params, load_params

HEADLESS_DRIVERS = ("dummy", "offscreen")
NO_DISPLAY = ("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
              "`kipp game` plays a whole game headless")
_BOT_NAME = re.compile(r"bot\s*\d*", re.IGNORECASE)


def parse_seats(text: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``--players "Ann,Ben,bot"`` -> (names, indices of bot players).

    A name "bot" (or "bot 2", any case) makes a bot, named Bot 1, Bot 2, ... by seat
    order; every other name is a person. How many may play is
    :class:`kipp.config.GameConfig`'s to check.
    """
    names = [name.strip() for name in text.split(",")]
    if not text.strip() or any(not name for name in names):
        raise UserError(f"--players: expected comma-separated names such as \"Ann,Ben,bot\", got {text!r}")
    bots = tuple(i for i, name in enumerate(names) if _BOT_NAME.fullmatch(name))
    for k, i in enumerate(bots, start=1):
        names[i] = f"Bot {k}" if len(bots) > 1 else "Bot"
    return tuple(names), bots


@contextlib.contextmanager
def _quiet_stderr():
    """Silence file descriptor 2 (C libraries' messages) for the duration."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def ensure_display(headless: bool) -> None:
    """Raise UserError (one line, exit 2) when a window cannot be shown."""
    if headless or os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return
    import viewer  # noqa: F401  (silences pygame's banner)
    import pygame

    try:
        with _quiet_stderr():  # SDL complains about XDG_RUNTIME_DIR on stderr when probing Wayland
            pygame.display.init()
    except pygame.error:
        raise UserError(NO_DISPLAY) from None
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        pygame.display.quit()
        raise UserError(NO_DISPLAY)


def _run(new_controller, max_frames: int | None, screenshot: str | None) -> None:
    from viewer.app import ViewerApp

    if screenshot is not None:
        folder = Path(screenshot).resolve().parent
        if not folder.is_dir():
            raise UserError(f"--screenshot: folder {folder} does not exist")
    headless = max_frames is not None or screenshot is not None
    if headless and os.environ.get("SDL_VIDEODRIVER") is None and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    app = ViewerApp(new_controller, throttle=os.environ.get("SDL_VIDEODRIVER") not in HEADLESS_DRIVERS)
    app.run(max_frames=max_frames, screenshot=screenshot)


@click.command()
@click.option("--players", default="You,bot", show_default=True, metavar="NAMES",
              help='Comma-separated names in seating order; "bot" makes a bot: "Ann,Ben,bot" (1-4).')
@barrels_option
@click.option("--half-turn", is_flag=True, help="Sailors turn half a revolution (younger sailors).")
@click.option("--sea-dogs", is_flag=True, help="Old Sea Dogs: passing allowed, a crash costs 2 chips.")
@seed_option
@params_option
@click.option("--max-frames", type=click.IntRange(min=1), default=None, metavar="N",
              help="Quit after N frames (for documentation and tests; runs headless without a display).")
@click.option("--screenshot", default=None, metavar="PATH", help="Save the last frame as a PNG.")
def play(players: str, barrels: int, half_turn: bool, sea_dogs: bool, seed: int, params: Params | None,
         max_frames: int | None, screenshot: str | None) -> None:
    """Play Kipp, Kipp, Ahoi! in a window: people and bots, physics in real time.

    Space or a click on the die rolls; on a wild roll click a sailor (or 1/2/3); the
    next barrel follows the mouse (or the arrow keys) and a click (or Enter) lets it
    go; P passes in Old Sea Dogs; N starts a new game; Esc quits.
    """
    names, bot_seats = parse_seats(players)
    config = game_config(players=names, barrels=barrels, half_turn=half_turn, sea_dogs=sea_dogs)
    ensure_display(max_frames is not None or screenshot is not None)
    params = params if params is not None else load_params()

    from kipp.bots import Bot
    from viewer.controller import GameController

    bots = {i: Bot(names[i], params=params, passing="cautious" if sea_dogs else "never") for i in bot_seats}

    def new_controller(games: int) -> GameController:
        return GameController(config, params, seed=seed + games, bots=bots)

    _run(new_controller, max_frames, screenshot)


def show_replay(path: str, params: Params | None = None, *, max_frames: int | None = None,
                screenshot: str | None = None) -> None:
    """Show the game recorded in ``path`` (``kipp game --json``) with the viewer's animations.

    The game is decided by the referee it was recorded with (``game_start.referee``);
    a referee that cannot animate its decisions (``fast``) decides each at once.
    Raises :class:`UserError` for an unreadable transcript or header, parameters other
    than the recording's, or no display (unless ``max_frames``/``screenshot`` ask for a
    headless run).
    """
    from kipp.cli_game import read_recording
    from kipp.replay import ReplayMismatch, check_params, config_from_header, header_referee, header_seed
    from kipp.transcript import TranscriptError
    from sim.referees import make_referee

    events = read_recording(path)
    header = events[0]
    params = params if params is not None else load_params()
    try:
        config = config_from_header(header)
        referee_name = header_referee(header)
        check_params(header, params)
    except (TranscriptError, ReplayMismatch) as error:
        raise UserError(f"{path}: {error}") from None
    ensure_display(max_frames is not None or screenshot is not None)

    from viewer.controller import GameController
    from viewer.script import ReplayScript

    def new_controller(games: int) -> GameController:
        return GameController(config, params, seed=header_seed(header), referee=make_referee(referee_name, params),
                              script=ReplayScript(events))

    _run(new_controller, max_frames, screenshot)
