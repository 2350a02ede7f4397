"""Which way the side view looks at the ship, and how it turns from one slice to the next.

The physics runs in the vertical plane along the deck's steepest slope (DESIGN.md 3.2),
so from turn to turn the slice points a different way. Shown as it is, the ship would be
seen from a different side every turn with no cue to which end is the bow. So:

- The *view direction* (the ship direction the right-hand edge of the side view points
  to, radians from the bow toward port) is the slice direction or its opposite, whichever
  end the top view (bow up) shows on its right, so downhill in the side view is on the side
  the top view's arrow points to; a slice along the ship keeps the bow on the right
  (:func:`fold`). Looking at the slice from the other side is a mirror image, which is still
  the same physics (gravity is vertical).
- When the slice changes, the view turns to the new direction over a few frames
  (:class:`ViewTurn`); the side view draws the slice squeezed by ``cos(view - slice)``,
  which is exactly how a plane picture looks from a camera turned by that angle, and
  mirrored where that cosine is negative.
- Both ends of the view are named after the ship's sides (:func:`end_name`), and the same
  end markers are drawn at the ends of the slice line in the top view.
"""

from __future__ import annotations

import math

from kipp.language import N_

FORE_AFT_SIN = math.sin(math.radians(15))
"""A slice within 15 degrees of the ship's length runs up and down the top view: keep the bow on the right."""
KEEP_SIN = math.sin(math.radians(30))
"""Within 30 degrees of the ship's length the view keeps the side it had (so it does not flip to and fro)."""
TURN_FRAMES_MIN = 12
TURN_FRAMES_PER_PI = 30
"""A view turn lasts 12 frames plus 30 per half revolution (0.2 s to 0.7 s at 60 Hz)."""
MIN_SQUASH = 0.06
"""The squeezed picture never gets thinner than this (edge-on it would vanish)."""

_NAMES = (N_("bow"), N_("bow / port"), N_("port"), N_("stern / port"), N_("stern"), N_("stern / starboard"),
          N_("starboard"), N_("bow / starboard"))


def wrap(angle: float) -> float:
    """``angle`` in (-pi, pi]."""
    angle = math.fmod(angle + math.pi, 2 * math.pi)
    if angle <= 0:
        angle += 2 * math.pi
    return angle - math.pi


def fold(slice_rad: float, previous_view_rad: float | None = None) -> float:
    """The view direction for a slice: the slice or its opposite, whichever end the top view
    (bow up, port left) shows on the right, so that both views agree on which way is downhill.

    A slice within 15 degrees of the ship's length runs up and down the top view, where neither
    end is on its right: the bow goes on the right. Between 15 and 30 degrees the end that was on
    the right (the one of the two closer to ``previous_view_rad``) stays there, so the view does
    not flip to and fro between nearby slices.
    """
    forward, backward = wrap(slice_rad), wrap(slice_rad + math.pi)
    across = abs(math.sin(slice_rad))  # how far from the ship's length, as the top view shows it
    if across < FORE_AFT_SIN:
        return forward if math.cos(slice_rad) >= 0 else backward
    if across < KEEP_SIN and previous_view_rad is not None:
        return min((forward, backward), key=lambda v: abs(wrap(v - previous_view_rad)))
    return forward if math.sin(forward) < 0 else backward  # the starboard end: on the top view's right


def end_name(direction_rad: float) -> str:
    """What lies that way from the tower spot: bow, port, stern, starboard or between two (English,
    marked for the catalogue: the scene shows it in the window's language)."""
    sector = round(wrap(direction_rad) / (math.pi / 4)) % 8
    return _NAMES[sector]


def squash(view_rad: float, slice_rad: float) -> float:
    """Horizontal factor of the slice picture seen from ``view_rad``: cos of the angle between
    them (negative: mirrored), never thinner than :data:`MIN_SQUASH`."""
    k = math.cos(view_rad - slice_rad)
    if abs(k) < MIN_SQUASH:
        return MIN_SQUASH if k >= 0 else -MIN_SQUASH
    return k


class ViewTurn:
    """The view direction frame by frame: eases to the folded slice direction when it changes."""

    def __init__(self, slice_rad: float = 0.0) -> None:
        self.rad = fold(slice_rad)
        """The view direction shown this frame."""
        self.target = self.rad
        self._from = self.rad
        self._frames = 0
        self._total = 0
        self._mirrored = False

    @property
    def turning(self) -> bool:
        return self._frames < self._total

    @property
    def mirrored(self) -> bool:
        """Is screen-right the slice's uphill end (the picture a mirror image of the slice)?"""
        return self._mirrored

    def follow(self, slice_rad: float) -> None:
        """Aim at the view for ``slice_rad`` (call every frame, then :meth:`step`)."""
        target = fold(slice_rad, self.target)
        self._mirrored = math.cos(target - slice_rad) < 0
        if abs(wrap(target - self.target)) < 1e-9:
            return
        self.target = target
        self._from = self.rad
        angle = abs(wrap(target - self.rad))
        if angle < math.radians(1.0):
            self.rad, self._frames, self._total = target, 0, 0
            return
        self._frames, self._total = 0, round(TURN_FRAMES_MIN + TURN_FRAMES_PER_PI * angle / math.pi)

    def step(self) -> None:
        """One frame of the turn (smoothstep in angle)."""
        if not self.turning:
            self.rad = self.target
            return
        self._frames += 1
        t = self._frames / self._total
        ease = t * t * (3 - 2 * t)
        self.rad = wrap(self._from + wrap(self.target - self._from) * ease)
