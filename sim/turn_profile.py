"""How a sailor turns in time: the velocity profile of one screw turn.

A turn of ``revolutions`` at ``rate_rev_per_s`` lasts ``|revolutions| / rate`` seconds.
The deck's slope follows the screw linearly, so the profile fixes the deck's motion:

- ``smooth`` (default): velocity ``(1 - cos(2 pi tau))`` times the mean velocity, with
  tau = t / duration in [0, 1]; it starts and stops with zero velocity and zero
  acceleration jumps in position, like a hand turning a screw.
- ``constant``: constant velocity with an abrupt start and stop.

The motion matters: a stack of boxes tilted by one smooth 1 s turn (a full turn) topples below
the angle at which it topples when tilted quasi-statically, by more when the turn takes 0.5 s
(the half turn of the younger-sailor variant at the same rate), and with constant velocity by
more still, where the outcome is no longer monotone in the final angle (the stack rocks). The
thresholds are bisected with :mod:`sim.statics`; ``tests/sim/test_dynamics.py`` holds that a
smooth 1 s turn topples a stack the same final angle reached slowly does not.
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
