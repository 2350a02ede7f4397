"""Turns whose outcome rigid statics settles: the tower stands through them, or cannot stand after them.

While a sailor turns, the deck's gradient g = (dz/dx, dz/dy) moves along a straight
segment from ``gradient_before`` to ``gradient_after`` (the screw heights are linear in the
turns, and the deck plane is linear in the heights, :func:`sim.geometry.deck_plane`). In
the deck frame (x toward the bow, y to port, metres), the gravity line through the centre
of mass p of the stack above an interface, a lever H above it, meets the interface at
q(g) = p - H g (:mod:`sim.slice_contact`): linear in g. The signed distance from q to the
edge of a disc, or of a lens of two discs (a convex region), is concave in q; so over the
whole turn the gravity line comes closest to the edge of its contact at one of the turn's
two ends. The slope angle atan(|g|) is largest at an end too (|g| is convex along the
segment).

- :func:`certain_to_stand`: the tower at rest keeps a static margin (:func:`margin_rad`: at
  every interface atan(d / H), d the distance from where the gravity line meets the interface
  to the edge of its contact, H the stack's lever, the angle by which gravity could turn, in
  any direction, before its line leaves the contact; and the slope's angle below the friction
  angle) of :data:`STAND_MARGIN_RAD` plus the tilt of the deck's own angular acceleration over
  the whole turn. In the converged limit nothing then moves in the deck frame: the turn hands
  on the tower as it was. The bottom barrel counts on its own bottom disc (a barrel in the
  deck's round recess may also lean on the recess wall's edge, which can only add to the
  margin).
- :func:`certain_to_fall`: after the turn, the gravity line of some stack lies outside its
  contact lens (:func:`sim.slice_contact.tower_leans`, with the recess wall's edge holding a
  bottom barrel in the recess) by more than :data:`FALL_MARGIN_RAD`: exact statics says the
  tower cannot stand once the turn is done, so the turn crashes.

The turns that crash under the physics referee keep far less than :data:`STAND_MARGIN_RAD`, and
most turns of casual and skilled play keep more; ``python -m lab.rigid_turns`` measures what
skipping them changes (verdicts, phases, towers handed on, rounds) and what it saves.
"""

from __future__ import annotations

import math
from typing import Sequence

from sim.geometry import Gradient
from sim.params import Params
from sim.slice_contact import Lean, tower_leans
from sim.tower import BarrelPose
from sim.turn_profile import turn_duration_s

STAND_MARGIN_RAD = math.radians(3.0)
"""The static margin (radians) a turn must keep all along its path, on top of the deck's own
acceleration, to stand for certain: three times a half turn's dynamic deficit, and the angle
from which a phase runs in the deck's downhill plane (:data:`sim.slice_contact.NEAR_TIPPING_RAD`)."""

FALL_MARGIN_RAD = math.radians(0.5)
"""How far (radians, seen from the stack's centre of mass) a gravity line must lie outside its
contact lens after a turn for the turn to crash for certain."""


def margin_rad(params: Params, barrels: Sequence[BarrelPose], gradient: Gradient) -> float:
    """The static margin (radians) of the tower ``barrels`` (deck frame, m) on a deck of ``gradient``:
    the smallest over its interfaces of atan(d / H) (see above; a centred stack of end radius r
    on a slope tan(theta): atan(r / H - tan(theta)), zero where it tips), or the slope's angle
    below the friction angle if that is smaller. ``inf`` for an empty deck."""
    if not barrels:
        return math.inf
    bottom = barrels[0]
    leans = tower_leans(params, barrels, gradient)
    qx, qy = leans[0].point_xy_m
    inside = params.barrel(bottom.size).end_diameter_m / 2 - math.hypot(qx - bottom.x_m, qy - bottom.y_m)
    tipping = min([math.atan2(inside, leans[0].lever_m)] + [lean.angle_rad for lean in leans[1:]])
    return min(tipping, math.atan(params.mu) - math.atan(math.hypot(*gradient)))


def turn_margin_rad(params: Params, barrels: Sequence[BarrelPose], gradient_before: Gradient,
                    gradient_after: Gradient) -> float:
    """The smallest :func:`margin_rad` (radians) over a turn from ``gradient_before`` to
    ``gradient_after``: the smaller of its two ends' (see above)."""
    return min(margin_rad(params, barrels, gradient_before), margin_rad(params, barrels, gradient_after))


def acceleration_tilt_rad(params: Params, barrels: Sequence[BarrelPose], gradient_before: Gradient,
                          gradient_after: Gradient, revolutions: float) -> float:
    """The tilt (radians) the deck's largest angular acceleration during a smooth turn adds at
    the top of the tower: atan(alpha_max h / g), with alpha_max = 2 pi (tilt change) / duration^2
    for the ``smooth`` profile and h the top face's height (m) above the deck."""
    duration = turn_duration_s(revolutions, params.turn.rate_rev_per_s)
    if duration <= 0.0:
        return math.pi / 2
    change = math.hypot(gradient_after[0] - gradient_before[0], gradient_after[1] - gradient_before[1])
    top = barrels[-1].z_m + params.barrel(barrels[-1].size).height_m / 2 if barrels else 0.0
    alpha = 2 * math.pi * math.atan(change) / duration ** 2
    return math.atan(alpha * top / params.solver.gravity_m_s2)


def certain_to_stand(params: Params, barrels: Sequence[BarrelPose], gradient_before: Gradient,
                     gradient_after: Gradient, revolutions: float) -> bool:
    """Does the tower at rest ride the whole turn rigidly, for certain, without simulating it?

    Only for the ``smooth`` turn profile (a ``constant`` one starts with a jump of velocity
    and makes the stack rock): when :func:`turn_margin_rad` exceeds :data:`STAND_MARGIN_RAD`
    plus :func:`acceleration_tilt_rad`."""
    if params.turn.profile != "smooth":
        return False
    needed = STAND_MARGIN_RAD + acceleration_tilt_rad(params, barrels, gradient_before, gradient_after, revolutions)
    return turn_margin_rad(params, barrels, gradient_before, gradient_after) > needed


def certain_to_fall(leans_after: Sequence[Lean]) -> Lean | None:
    """The lowest interface whose gravity line lies outside its contact lens by more than
    :data:`FALL_MARGIN_RAD` once the deck has reached its gradient after the turn, the tower
    unmoved (``leans_after``: :func:`sim.slice_contact.tower_leans` there); ``None`` if there is
    none (the turn must then be simulated, or stands for certain)."""
    for lean in leans_after:
        if lean.angle_rad < -FALL_MARGIN_RAD:
            return lean
    return None
