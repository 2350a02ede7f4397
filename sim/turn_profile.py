"""How a sailor turns in time: the velocity profile of one screw turn.

A turn of ``revolutions`` at ``rate_rev_per_s`` lasts ``|revolutions| / rate`` seconds.
The deck's slope follows the screw linearly, so the profile fixes the deck's motion:

- ``smooth`` (default): velocity ``(1 - cos(2 pi tau))`` times the mean velocity, with
  tau = t / duration in [0, 1]; it starts and stops with zero velocity and zero
  acceleration jumps in position, like a hand turning a screw.
- ``constant``: constant velocity with an abrupt start and stop.

The motion matters. Measured with the default solver (960 Hz x 60 iterations, slop
0.2 mm; 12 boxes 30 x 35 mm, mu 1, flat deck; ``sim.statics``, thresholds bisected to
0.005 deg): the stack topples at 4.126 deg when tilted quasi-statically (0.1 deg/s;
closed form 4.086 deg), from 3.689 deg when one smooth turn takes 1 s (a full turn:
a dynamic deficit of 0.44 deg) and from 3.044 deg when it takes 0.5 s (the half turn of
the younger-sailor variant at the same rate: deficit 1.08 deg). At 480 Hz x 60 the same
measurement gave 4.064 deg and deficits of 0.53 and 1.17 deg; at the unconverged 480 x 40
(slop 0.1 mm, before the rebuild took up the contacts' load) 3.934 deg, 0.48 and 1.02 deg.
With constant velocity (abrupt start and stop; measured at 480 x 60) the 1 s deficit was
0.92 deg, and there the outcome is not monotone in the final angle: the stack rocks.
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
