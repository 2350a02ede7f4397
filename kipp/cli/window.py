"""The viewer's window for ``kipp play`` and the visual ``kipp replay``: is there a display, and run it.

pygame and the viewer are imported inside the functions, so ``kipp --help`` stays light.
Without a display, a command says so in one line and points at ``kipp game`` (exit 2).
pygame-ce falls back silently to its ``offscreen`` driver when there is no display, so
the driver is checked after initialising it (the driver's name, and neither DISPLAY nor
WAYLAND_DISPLAY set), unless the run was asked to be headless (``--max-frames``/
``--screenshot``, or ``SDL_VIDEODRIVER`` set to ``dummy``/``offscreen`` on purpose).
"""

from __future__ import annotations

import contextlib
import os

import click

from kipp.cli.options import UserError, check_output

HEADLESS_DRIVERS = ("dummy", "offscreen")
NO_DISPLAY = ("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
              "`kipp game` plays a whole game headless")


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


MAX_FRAMES = 1_000_000
"""``--max-frames`` at most: about 4.6 hours at 60 frames per second (a headless run of
more is a typo, and would run for days)."""


def max_frames_option(text: str):
    """``--max-frames N`` (1 .. :data:`MAX_FRAMES`) with the command's help ``text``."""
    return click.option("--max-frames", type=click.IntRange(min=1, max=MAX_FRAMES), default=None, metavar="N",
                        help=f"{text}; at most {MAX_FRAMES:,} (4.6 hours at 60 fps).")


def screenshot_option(text: str):
    """``--screenshot FILE.png``; checked before the viewer starts (:func:`kipp.cli.options.check_output`)."""
    return click.option("--screenshot", default=None, metavar="FILE.png", help=f"{text}.")


def ensure_display(headless: bool) -> None:
    """Raise UserError (one line, exit 2) when a window cannot be shown."""
    if headless or os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS:
        return
    import pygame

    import viewer  # noqa: F401  (silences pygame's banner)

    try:
        with _quiet_stderr():  # SDL complains about XDG_RUNTIME_DIR on stderr when probing Wayland
            pygame.display.init()
    except pygame.error:
        raise UserError(NO_DISPLAY) from None
    driver = pygame.display.get_driver()
    if driver in HEADLESS_DRIVERS and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        pygame.display.quit()
        raise UserError(NO_DISPLAY)


def run_viewer(new_controller, max_frames: int | None, screenshot: str | None) -> None:
    from viewer.app import ViewerApp

    screenshot = check_output("--screenshot", screenshot, suffix=".png")
    headless = max_frames is not None or screenshot is not None
    if headless and os.environ.get("SDL_VIDEODRIVER") is None and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    app = ViewerApp(new_controller, throttle=os.environ.get("SDL_VIDEODRIVER") not in HEADLESS_DRIVERS)
    app.run(max_frames=max_frames, screenshot=screenshot)
