"""The pygame viewer: play Kipp, Kipp, Ahoi! on screen (``kipp play``, ``kipp replay FILE``).

Modules: :mod:`viewer.controller` runs a game frame by frame (rules from :mod:`kipp`,
physics decisions from :mod:`sim` animated through :mod:`viewer.referee_bridge`), without
pygame; :class:`viewer.frame.FrameView` is what one frame shows, read off it once.
:mod:`viewer.scene`, :mod:`viewer.inset`, :mod:`viewer.die`, :mod:`viewer.hud` and
:mod:`viewer.end_screen` draw that view into the rectangles of :mod:`viewer.layout`; the cards
over the game (:mod:`viewer.card`: :mod:`viewer.start`, :mod:`viewer.help`,
:mod:`viewer.question`) take the input while they are up; :mod:`viewer.keys` is the key table;
:mod:`viewer.app` is the window and main loop. pygame-ce comes with the ``[viewer]`` extra.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
