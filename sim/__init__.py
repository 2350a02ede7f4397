"""Physics and geometry of the Kipp, Kipp, Ahoi! ship: screws, deck, barrels, tower.

Knows nothing of players, chips, dice or rounds. The pure modules (``params``,
``geometry``, ``tower``, ``barrel_shape``) import no physics engine, so the rules core can
use their value types; ``world`` and the referees of ``referees`` (``loop``, ``physics``) run pymunk.
"""
