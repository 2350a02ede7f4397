"""Command-line tests that open the viewer run headless: SDL's dummy video driver, set
before pygame is imported (as in ``tests/viewer``)."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
