"""The pygame viewer: play Kipp, Kipp, Ahoi! on screen (``kipp play``, ``kipp replay FILE``).

Modules: :mod:`viewer.controller` runs a game frame by frame (rules from :mod:`kipp`,
physics decisions from :mod:`sim` animated through :mod:`viewer.referee_bridge`);
:mod:`viewer.scene`, :mod:`viewer.inset`, :mod:`viewer.die` and :mod:`viewer.hud` draw it
into the rectangles of :mod:`viewer.layout`; :mod:`viewer.app` is the window and main loop.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
