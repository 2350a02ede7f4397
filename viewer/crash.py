"""A crash played out on screen: the barrels that fell are seen to fall, the way they fell.

A physics decision that ends in a crash says what fell (:class:`sim.tower.FallenStack`):
barrel ``lowest`` and every barrel above it, toward the deck-frame direction
``direction_rad`` (radians from the bow toward port). When the 2D world simulated the fall
(``in_slice``), its world is already falling and the aftermath simply runs it on. When a
closed form decided it (a fall across the slice, which the 2D world cannot tip), the
referee's world shows a standing tower; so the aftermath rebuilds the tower as it stood
(:func:`sim.referees.loop.build_world`) in the vertical plane through the fall's
direction, where the fall is a fall in the plane, and starts the falling stack turning
about the downhill edge of the contact it fell from (:data:`TIP_RATE_RAD_PER_S`), held
together as the closed form sees it, one rigid stack, until it has tipped
(:data:`GLUE_RELEASE_RAD`). From there the same pymunk physics carries it over and off the
deck; the side view turns to that plane (the view follows the slice) and the top view draws
the same bodies.

:func:`fall_words` says what fell as a family would: "the top four barrels tipped over to
port" -- what the closed form decided, or, for a fall the world simulated, what is seen to
fall (:meth:`CrashScene.seen`).
"""

from __future__ import annotations

import math

import pymunk

from kipp.language import N_, Language
from sim.params import Params
from sim.referees.loop import build_world, tower_from_world
from sim.tower import BarrelPose, Decision, FallenStack
from sim.world import CM_PER_M, TowerWorld
from viewer.geometry import SEA_LEVEL_M
from viewer.orientation import wrap
from viewer.words import ENGLISH

TIP_RATE_RAD_PER_S = 0.6
"""How fast a stack that a closed form saw fall starts turning over its edge, rad/s. The
closed form says its centre of mass is already beyond that edge, so gravity would tip it
from rest; the start only makes it visible at once (the top of a 30 cm stack moves at about
18 cm/s), where a fall from rest just past a balance point takes a long while to get going."""

_COUNT_WORDS = (N_("no"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
                N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"))


SEEN_MOVE_M = 0.010
SEEN_TURN_RAD = math.radians(20)
"""A barrel has visibly fallen once it moved 10 mm or turned 20 degrees (:meth:`CrashScene.seen`)."""
GLUE_RELEASE_RAD = math.radians(25)
"""The falling stack tips as one until its lowest barrel has turned this far (or
:data:`GLUE_RELEASE_FRAMES` have passed); then each barrel falls on its own."""
GLUE_RELEASE_FRAMES = 90


class CrashScene:
    """The world a crash's aftermath runs, the slice it lies in (rad from the bow toward port)
    and what fell; :meth:`advance_frame` runs it on."""

    def __init__(self, world: TowerWorld, slice_direction_rad: float, fallen: FallenStack | None,
                 glue: tuple = ()) -> None:
        self.world = world
        self.slice_direction_rad = slice_direction_rad
        self.fallen = fallen
        self._glue = list(glue)
        self._frames = 0
        self._start = deck_poses(world, slice_direction_rad)
        self._start_angle = world.barrels[fallen.lowest].body.angle if glue else 0.0

    def seen(self) -> FallenStack | None:
        """What is seen to have fallen so far: the lowest barrel that moved (10 mm, or turned 20 degrees)
        and the deck-frame direction its stack's centre of mass moved in (None: nothing moved yet).

        A fall the 2D world simulated is first detected at one interface, and the stack may then break
        lower down and fall the other way as a whole: the words a family reads describe this."""
        now = deck_poses(self.world, self.slice_direction_rad)
        moved = [i for i, (a, b) in enumerate(zip(self._start, now))
                 if math.dist((a.x_m, a.y_m, a.z_m), (b.x_m, b.y_m, b.z_m)) > SEEN_MOVE_M
                 or abs(b.tilt_rad - a.tilt_rad) > SEEN_TURN_RAD]
        if not moved:
            return None
        lowest = moved[0]
        masses = [barrel.spec.mass_kg for barrel in self.world.barrels[lowest:]]
        dx = sum(m * (b.x_m - a.x_m) for m, a, b in zip(masses, self._start[lowest:], now[lowest:]))
        dy = sum(m * (b.y_m - a.y_m) for m, a, b in zip(masses, self._start[lowest:], now[lowest:]))
        return FallenStack(lowest, math.atan2(dy, dx), in_slice=True)

    def advance_frame(self, steps: int) -> None:
        """One drawn frame: ``steps`` physics steps; the stack's glue comes off once it has tipped."""
        self.world.steps(steps)
        self._frames += 1
        if self._glue:
            turned = abs(self.world.barrels[self.fallen.lowest].body.angle - self._start_angle)
            if turned >= GLUE_RELEASE_RAD or self._frames >= GLUE_RELEASE_FRAMES:
                self.world.space.remove(*self._glue)
                self._glue = []


def crash_scene(params: Params, decision: Decision, world: TowerWorld | None,
                slice_direction_rad: float) -> CrashScene | None:
    """The aftermath of crashed ``decision``, whose referee run ended with ``world`` in the
    slice ``slice_direction_rad`` (None: a referee without a world, e.g. a recording's fast one).

    None when there is nothing to show (no world, and nothing known of what fell)."""
    fallen = decision.fallen
    if fallen is not None and (not fallen.in_slice or world is None) and decision.tower.barrels:
        world = build_world(params, decision.tower, fallen.direction_rad)
        world.take_up_load()
        lowest = min(fallen.lowest, len(world.barrels) - 1)
        fallen = FallenStack(lowest, fallen.direction_rad, fallen.in_slice)
        glue = glue_stack(world, lowest)
        start_tipping(world, lowest)
        return CrashScene(world, fallen.direction_rad, fallen, glue)
    if world is None:
        return None
    return CrashScene(world, slice_direction_rad, fallen)


def glue_stack(world: TowerWorld, lowest: int) -> tuple:
    """Join barrels ``lowest`` and up into one rigid stack (a pivot at the centre of each contact
    and a gear holding the angle), as the closed form that decided the fall sees them: it tips as
    one about the edge under barrel ``lowest``. Returns the constraints (to remove later)."""
    joints = []
    for below, above in zip(world.barrels[lowest:], world.barrels[lowest + 1:]):
        contact = below.body.local_to_world((0.0, below.spec.height_m / 2 * CM_PER_M))
        joints.append(pymunk.PivotJoint(below.body, above.body, contact))
        joints.append(pymunk.GearJoint(below.body, above.body, above.body.angle - below.body.angle, 1.0))
    if joints:
        world.space.add(*joints)
    return tuple(joints)


def start_tipping(world: TowerWorld, lowest: int, rate_rad_per_s: float = TIP_RATE_RAD_PER_S) -> None:
    """Set barrels ``lowest`` and up turning together over the +x edge of the contact under
    barrel ``lowest`` (the slice's forward end: the nearer of its own bottom edge and the top
    edge of the barrel below), at ``rate_rad_per_s``: a rigid rotation."""
    base = world.barrels[lowest]
    half_w, half_h = base.spec.end_diameter_m / 2 * CM_PER_M, base.spec.height_m / 2 * CM_PER_M
    edge = half_w
    if lowest > 0:
        below = world.barrels[lowest - 1]
        top_edge = below.body.local_to_world((below.faces.top_m * CM_PER_M, below.spec.height_m / 2 * CM_PER_M))
        edge = min(half_w, base.body.world_to_local(top_edge).x)
    pivot = base.body.local_to_world((edge, -half_h))
    omega = -rate_rad_per_s  # clockwise: the top moves toward +x
    for barrel in world.barrels[lowest:]:
        rx, ry = barrel.body.position - pivot
        barrel.body.velocity = (-omega * ry, omega * rx)
        barrel.body.angular_velocity = omega


def deck_poses(world: TowerWorld, slice_direction_rad: float) -> tuple[BarrelPose, ...]:
    """Every barrel of ``world`` in the deck frame ((x, y) metres), bottom first."""
    return tower_from_world(world, (0.0, 0.0, 0.0), slice_direction_rad).barrels


def afloat(world: TowerWorld) -> list[int]:
    """Indices of the barrels of ``world`` not yet sunk below the sea (the top view draws those)."""
    return [i for i, barrel in enumerate(world.barrels)
            if barrel.body.position.y / CM_PER_M + barrel.spec.height_m / 2 > SEA_LEVEL_M]


_DIRECTIONS = (N_("toward the bow"), N_("toward the bow and port"), N_("to port"), N_("toward the stern and port"),
               N_("toward the stern"), N_("toward the stern and starboard"), N_("to starboard"),
               N_("toward the bow and starboard"))


def direction_words(direction_rad: float, language: Language = ENGLISH) -> str:
    """Where a deck-frame direction points, in a sailor's words a child follows:
    "to port", "toward the bow", "toward the stern and starboard" (in ``language``)."""
    sector = round(wrap(direction_rad) / (math.pi / 4)) % 8
    return language.gettext(_DIRECTIONS[sector])


def fall_words(fallen: FallenStack, barrels: int, language: Language = ENGLISH) -> str:
    """What fell, as a sentence: "the top four barrels tipped over to port", of a tower of
    ``barrels`` barrels (the one just placed included), in ``language``."""
    _ = language.gettext
    count = max(1, barrels - fallen.lowest)
    direction = direction_words(fallen.direction_rad, language)
    if fallen.lowest == 0:
        if count > 1:
            return _("the whole tower fell over {direction}").format(direction=direction)
        return _("the barrel fell over {direction}").format(direction=direction)
    if count == 1:
        return _("the top barrel tipped over {direction}").format(direction=direction)
    number = _(_COUNT_WORDS[count]) if count < len(_COUNT_WORDS) else str(count)
    return _("the top {number} barrels tipped over {direction}").format(number=number, direction=direction)
