"""The viewer's window for ``kipp play`` and the visual ``kipp replay``: is pygame there, is there a
display, and run it.

pygame and the viewer are imported inside the functions, so ``kipp --help`` stays light, and
every other command runs without pygame installed. pygame-ce comes with the ``[viewer]``
extra; without it :func:`require_pygame` says in one line what to install (exit 2).
Without a display, a command says so in one line and points at ``kipp game`` (exit 2).
pygame-ce falls back silently to its ``offscreen`` driver when it cannot open a window --
no ``DISPLAY``/``WAYLAND_DISPLAY`` at all, or one that names a server nobody runs
(``DISPLAY=:99`` without an X server) -- so the driver actually in use is checked after
initialising it. A headless driver is refused unless the run was
asked to be headless (``--max-frames``/``--screenshot``, or ``SDL_VIDEODRIVER`` set to
``dummy``/``offscreen`` on purpose).

The options' help and these one-line refusals are in the command line's language
(:func:`kipp.cli.language_option.command_language`), marked for the catalogue here.
"""

from __future__ import annotations

import os

import click

from kipp.cli.language_option import command_language
from kipp.cli.options import UserError, check_output
from kipp.cli.words import Number, Text
from kipp.language import N_, Language

HEADLESS_DRIVERS = ("dummy", "offscreen")
VIEWER_EXTRA = N_("pip install 'kipp-kipp-ahoi[viewer]' (in a checkout: pip install -e '.[viewer]')")
"""How to install the window (marked: translated where it is said)."""


def no_window_message(environ=None, language: Language | None = None) -> str:
    """The one-line reason a window could not be opened, naming the display that failed, in ``language``
    (default: the command line's)."""
    environ = os.environ if environ is None else environ
    _ = (language or command_language()).gettext
    named = [f"{key}={environ[key]}" for key in ("DISPLAY", "WAYLAND_DISPLAY") if environ.get(key)]
    if not named:
        return _("no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset); "
                 "`kipp game` plays a whole game headless")
    return _("cannot open a window on {displays} (no display server answers there); "
             "`kipp game` plays a whole game headless").format(displays=" / ".join(named))


FPS = 60
"""The window's frames per second on a real display (:data:`viewer.frame.FPS`, not imported here: the
CLI imports the viewer only to open a window)."""
MAX_FRAMES = 1_000_000
"""``--max-frames`` at most: about 4.6 hours at :data:`FPS` (a headless run of more is a typo, and
would run for days)."""


def max_frames_option(text: str):
    """``--max-frames N`` (1 .. :data:`MAX_FRAMES`) with the command's help ``text`` (marked with ``N_``)."""
    return click.option("--max-frames", type=click.IntRange(min=1, max=MAX_FRAMES), default=None, metavar="N",
                        help=Text(N_("{text}; at most {max_frames} ({hours} hours at {fps} fps)."), text=Text(text),
                                  max_frames=Number(MAX_FRAMES), hours=Number(MAX_FRAMES / FPS / 3600, 1), fps=FPS))


mute_option = click.option("--mute", is_flag=True, help=N_("Start with the sound off (M turns it on and off). "
                                                           "Without an audio device the game plays silently."))


def screenshot_option(text: str):
    """``--screenshot FILE.png`` with the command's help ``text`` (marked with ``N_``); checked before the
    viewer starts (:func:`kipp.cli.options.check_output`)."""
    return click.option("--screenshot", default=None, metavar="FILE.png", help=text)


def require_pygame(command: str) -> None:
    """Raise UserError (one line, exit 2) naming the ``[viewer]`` extra when pygame cannot be imported.

    ``command``: what needs the window, as the user typed it (marked with ``N_`` when it has words)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame  # noqa: F401
    except ImportError:
        _ = command_language().gettext
        raise UserError(_("{command} opens a window, which needs pygame-ce: {install}").format(
            command=_(command), install=_(VIEWER_EXTRA))) from None


def _headless_on_purpose() -> bool:
    return os.environ.get("SDL_VIDEODRIVER", "").lower() in HEADLESS_DRIVERS


def ensure_display(headless: bool) -> None:
    """Raise UserError (one line, exit 2) when a window cannot be shown.

    Leaves pygame's display initialised when it can (the window opens on it next).
    """
    if headless or _headless_on_purpose():
        return
    import pygame

    from viewer.quiet import quiet_stderr  # (importing viewer also silences pygame's banner)

    try:
        with quiet_stderr():  # SDL complains about XDG_RUNTIME_DIR on stderr when probing Wayland / X
            pygame.display.init()
    except pygame.error:
        raise UserError(no_window_message()) from None
    if pygame.display.get_driver() in HEADLESS_DRIVERS:  # SDL fell back: no real window possible
        pygame.display.quit()
        raise UserError(no_window_message())


def run_viewer(new_controller, max_frames: int | None, screenshot: str | None, *, replay: bool = False,
               help_at_start: bool = False, failure_prefix: str = "", hints: bool = False,
               games=None, setup=None, start_screen: bool = False, mute: bool = False,
               record: str | None = None, language=None) -> None:
    """Open the window and run it; the loop is held to 60 fps only on a real display.

    ``replay``: a recording is shown (REPLAY banner, pause, step, speed). ``help_at_start``:
    open on the how-to-play screen (on a real display only). ``hints``: the balance hint
    is on from the start. ``games``, ``setup``, ``start_screen``: new games are set up on the
    start screen (:class:`viewer.app.ViewerApp`), which the window opens on if ``start_screen``.
    ``mute``: start with the sound off (M turns it on). ``record``: write every game to this
    file as it goes (:mod:`viewer.recorder`). ``language``: the window's
    :class:`kipp.language.Language` (default: the system's locale).
    A viewer that stops on an
    error (a recording that does not replay) raises it as a :class:`UserError`, after
    ``failure_prefix``."""
    from viewer.app import ViewerApp

    screenshot = check_output("--screenshot", screenshot, suffix=".png")
    headless = max_frames is not None or screenshot is not None
    if headless and os.environ.get("SDL_VIDEODRIVER") is None and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    import pygame

    from viewer.quiet import quiet_stderr

    with quiet_stderr():
        pygame.display.init()
    real_window = pygame.display.get_driver() not in HEADLESS_DRIVERS
    app = ViewerApp(new_controller, throttle=real_window, replay=replay,
                    help_at_start=help_at_start and real_window, hints=hints, games=games, setup=setup,
                    start_screen=start_screen, mute=mute, record=record, language=language)
    app.run(max_frames=max_frames, screenshot=screenshot)
    if app.failure is not None:
        raise UserError(failure_prefix + app.failure)
