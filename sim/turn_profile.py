"""How a sailor turns in time: the velocity profile of one screw turn.

A turn of ``revolutions`` at ``rate_rev_per_s`` lasts ``|revolutions| / rate`` seconds.
The deck's slope follows the screw linearly, so the profile fixes the deck's motion:

- ``smooth`` (default): velocity ``(1 - cos(2 pi tau))`` times the mean velocity, with
  tau = t / duration in [0, 1]; it starts and stops with zero velocity and zero
  acceleration jumps in position, like a hand turning a screw.
- ``constant``: constant velocity with an abrupt start and stop.

The motion matters. Measured with the default solver (12 boxes 30 x 35 mm, mu 1, flat
deck; ``sim.statics``): the stack topples at 3.93 deg when tilted quasi-statically
(0.1 deg/s; closed form 4.09 deg), at 3.86 deg when one smooth turn takes 10 s, at
3.45 deg when it takes 1 s (a deficit of 0.48 deg), and near 3.15 deg with a 1 s
constant-velocity turn (a deficit near 0.8 deg; there the outcome is not monotone in the
final angle, the stack rocks). DESIGN.md 3 measured 0.5-0.7 deg and 0.7-1.4 deg.
"""

from __future__ import annotations

import math


def profile_progress(tau: float, profile: str = "smooth") -> float:
    """Fraction (0..1) of the turn done at normalised time ``tau`` in [0, 1]."""
    tau = min(max(tau, 0.0), 1.0)
    if profile == "smooth":
        return tau - math.sin(2 * math.pi * tau) / (2 * math.pi)
    if profile == "constant":
        return tau
    raise ValueError(f"unknown turn profile {profile!r}; expected smooth or constant")


def turn_duration_s(revolutions: float, rate_rev_per_s: float) -> float:
    """Seconds a turn of ``revolutions`` takes at ``rate_rev_per_s``."""
    return abs(revolutions) / rate_rev_per_s
