"""How a sailor turns in time: the velocity profile of one screw turn.

A turn of ``revolutions`` at ``rate_rev_per_s`` lasts ``|revolutions| / rate`` seconds.
The deck's slope follows the screw linearly, so the profile fixes the deck's motion:

- ``smooth`` (default): velocity ``(1 - cos(2 pi tau))`` times the mean velocity, with
  tau = t / duration in [0, 1]; it starts and stops with zero velocity and zero
  acceleration jumps in position, like a hand turning a screw.
- ``constant``: constant velocity with an abrupt start and stop.

The motion matters. Measured with the default solver (480 Hz x 60 iterations, slop
0.2 mm; 12 boxes 30 x 35 mm, mu 1, flat deck; ``sim.statics``, thresholds bisected to
0.005 deg): the stack topples at 4.064 deg when tilted quasi-statically (0.1 deg/s;
closed form 4.086 deg), from 3.977 deg when one smooth turn takes 10 s (a deficit of
0.09 deg), from 3.533 deg when it takes 1 s (a full turn: deficit 0.53 deg) and from
2.899 deg when it takes 0.5 s (the half turn of the younger-sailor variant at the same
rate: deficit 1.17 deg). With constant velocity, 1 s: from 3.142 deg (deficit 0.92 deg;
there the outcome is not monotone in the final angle, the stack rocks: it stood at
3.26 deg), 0.5 s: from 2.905 deg (1.16 deg). At 480 x 40 (slop 0.1 mm) the same
measurement gave 3.934 quasi-static and deficits of 0.48 deg (1 s smooth) and 1.02 deg
(0.5 s smooth). DESIGN.md 3 measured 0.5-0.7 deg (smooth) and 0.7-1.4 deg (abrupt).
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
