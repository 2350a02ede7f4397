"""Silence what C libraries print on standard error while SDL probes for devices.

SDL and the libraries under it write to file descriptor 2 when a device is missing (no
``XDG_RUNTIME_DIR`` when probing Wayland, ALSA's "cannot find card" when there is no sound
card): noise for a person who asked for a game, when the viewer goes on without that device.
"""

from __future__ import annotations

import contextlib
import os


@contextlib.contextmanager
def quiet_stderr():
    """Silence file descriptor 2 for the duration (Python's own ``sys.stderr`` included)."""
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
