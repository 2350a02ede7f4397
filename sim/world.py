"""The tower world: a pymunk space holding the deck and the barrels in one 2D slice.

The slice is the vertical plane through the tower spot along a horizontal direction of
the deck (DESIGN.md 3.2). In it, the world's x axis runs along that direction and y up.
Positions handed in and out are in the **deck frame of the slice**: ``s_m`` along the deck
surface from the tower spot, ``z_m`` along the deck normal from the deck's top surface,
``tilt_rad`` relative to the deck (metres and radians).

Inside, pymunk runs in centimetres and grams (g = 981 cm/s^2): pymunk's collision slop
and sleeping thresholds are absolute lengths, and in SI the default slop is larger than
a barrel (DESIGN.md 3). Conversion happens at this module's boundary (and in
:mod:`sim.energy`, which reads the world's internal units).

The deck is a kinematic body driven by velocity, never by setting its angle: a
kinematic body moved by position does not carry the bodies resting on it, and one that
moves keeps them awake. It rotates about the tower spot; the deck's vertical motion at
the tower spot (a third of the pitch per turn, accelerations below 0.1% of g) is left out.

Chipmunk multiplies the friction of the two shapes in contact, so every shape carries
sqrt(mu) and every pair gets mu.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import pymunk
import pymunk.batch
from pymunk._chipmunk_cffi import lib as _lib

from sim.barrel_shape import chord_half_width, moment_of_inertia, outline
from sim.params import BarrelSpec, Params
from sim.slice_contact import Faces
from sim.turn_profile import profile_progress

CM_PER_M = 100.0
G_PER_KG = 1000.0
MAX_SPEED_M_S = 10.0
"""Faster than anything falling off this ship could move: a sign the solver blew up."""


_BODY_FIELDS = (pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.ANGLE
                | pymunk.batch.BodyFields.VELOCITY | pymunk.batch.BodyFields.ANGULAR_VELOCITY)
_VALUES_PER_BODY = 6
"""x, y, angle, vx, vy, angular velocity: the float fields of ``_BODY_FIELDS``, in pymunk's order."""
_ARBITER_INTS = (pymunk.batch.ArbiterFields.BODY_A_ID | pymunk.batch.ArbiterFields.BODY_B_ID
                 | pymunk.batch.ArbiterFields.CONTACT_COUNT)
_ARBITER_POINTS = (pymunk.batch.ArbiterFields.POINT_A_1 | pymunk.batch.ArbiterFields.POINT_B_1
                   | pymunk.batch.ArbiterFields.POINT_A_2 | pymunk.batch.ArbiterFields.POINT_B_2)
"""Per arbiter: body ids and contact count (ints); point on A and on B of contacts 1 and 2
(floats, x y each, zeros for an absent second contact)."""


class PhysicsError(RuntimeError):
    """The simulation produced NaN or a runaway speed: no decision can be made."""


@dataclass
class _Barrel:
    spec: BarrelSpec
    body: pymunk.Body
    shape: pymunk.Poly
    cross_offset_m: float
    faces: Faces
    """Half-widths (m) of its end faces in this slice."""
    mass: float
    """g, as pymunk holds it."""
    moment: float
    """g cm^2, as pymunk holds it."""


@dataclass(frozen=True)
class BarrelPlacement:
    """A barrel to put in the world: its spec and deck-frame pose in the slice (m, rad),
    its offset across the slice (m) and its end faces' half-widths in the slice."""

    spec: BarrelSpec
    s_m: float
    z_m: float
    tilt_rad: float
    cross_offset_m: float
    faces: Faces


@dataclass(frozen=True)
class Fall:
    """A barrel that no longer rests on its support (DESIGN.md 3.4)."""

    index: int
    reason: str


class TowerWorld:
    """Deck and barrels in one slice; advance with :meth:`step`, inspect with :meth:`find_fall`.

    ``deck_slope`` is the deck's slope dz/ds along the slice (dimensionless); the deck
    starts at rest at that slope.
    """

    def __init__(self, params: Params, deck_slope: float = 0.0) -> None:
        self.params = params
        self.dt_s = params.solver.dt_s
        self.time_s = 0.0
        self.space = pymunk.Space()
        self.space.iterations = params.solver.iterations
        self.space.gravity = (0.0, -params.solver.gravity_m_s2 * CM_PER_M)
        self.space.collision_slop = params.solver.collision_slop_m * CM_PER_M
        self.space.collision_bias = params.solver.collision_bias
        self.space.damping = params.solver.damping
        self._friction = math.sqrt(params.mu)
        self.deck = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        self.deck.angle = math.atan(deck_slope)
        self.space.add(self.deck, *self._deck_shapes())
        self.barrels: list[_Barrel] = []
        self._motion: list[float] | None = None  # the deck's target angle (rad) after each step
        self._motion_step = 0
        self._steps = 0
        self._buffer = pymunk.batch.Buffer()
        self._slots: list[int] | None = None  # each barrel's place among the space's bodies
        self._index_by_id: dict[int, int] = {}  # barrel index by pymunk body id; -1 for the deck
        self._states: list[tuple[float, ...]] = []
        self._states_step = -1

    # --- construction -------------------------------------------------------------

    def _deck_shapes(self) -> list[pymunk.Poly]:
        ship = self.params.ship
        half, thick = ship.deck_half_length_m * CM_PER_M, ship.deck_thickness_m * CM_PER_M
        depth, radius = ship.recess_depth_m * CM_PER_M, ship.recess_diameter_m * CM_PER_M / 2
        boxes = [(-half, -thick, half, -depth)]
        if depth > 0:  # the round recess at the tower spot: raised deck either side of it
            boxes += [(-half, -depth, -radius, 0.0), (radius, -depth, half, 0.0)]
        shapes = []
        for x0, y0, x1, y1 in boxes:
            shape = pymunk.Poly(self.deck, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
            shape.friction = self._friction
            shapes.append(shape)
        return shapes

    def floor_height_m(self, s_m: float) -> float:
        """Height (m, deck frame) of the surface a bottom barrel stands on at ``s_m``."""
        ship = self.params.ship
        return -ship.recess_depth_m if abs(s_m) <= ship.recess_diameter_m / 2 else 0.0

    def add_barrel(self, spec: BarrelSpec, s_m: float, z_m: float, tilt_rad: float = 0.0,
                   cross_offset_m: float = 0.0, faces: Faces | None = None) -> None:
        """Put a barrel on top of the tower at rest at the given deck-frame pose.

        ``cross_offset_m`` is the barrel centre's offset across the slice (m); ``faces`` the
        half-widths of its end faces in the slice (:func:`sim.slice_contact.slice_faces`;
        default: the full end radius).
        """
        faces = faces or Faces(spec.end_diameter_m / 2, spec.end_diameter_m / 2)
        body = pymunk.Body(spec.mass_kg * G_PER_KG, moment_of_inertia(spec) * G_PER_KG * CM_PER_M ** 2)
        body.position = self.deck.local_to_world((s_m * CM_PER_M, z_m * CM_PER_M))
        body.angle = self.deck.angle + tilt_rad
        shape = self._make_shape(body, spec, faces)
        self.space.add(body, shape)
        self.barrels.append(_Barrel(spec, body, shape, cross_offset_m, faces, body.mass, body.moment))
        self._slots = None

    def drop_barrel(self, spec: BarrelSpec, s_m: float, cross_offset_m: float = 0.0,
                    faces: Faces | None = None) -> None:
        """Release a barrel from rest, aligned with the top face it falls on, the drop
        height above the top of the tower, with its centre at ``s_m`` along the deck
        (``cross_offset_m`` and ``faces`` as in :meth:`add_barrel`)."""
        drop = self.params.settle.drop_height_m
        if self.barrels:
            top = self.barrels[-1]
            half_h = top.spec.height_m / 2
            face = top.body.local_to_world((0.0, half_h * CM_PER_M))
            _, face_z = self.deck.world_to_local(face)
            tilt = top.body.angle - self.deck.angle
            base_z = face_z / CM_PER_M
        else:
            tilt, base_z = 0.0, self.floor_height_m(s_m)
        self.add_barrel(spec, s_m, base_z + drop + spec.height_m / 2, tilt, cross_offset_m, faces)

    def take_up_load(self) -> None:
        """Start the world as a standing tower rests: every support contact already carries
        its static share of the weight above it.

        A world built from poses knows nothing of the impulses its contacts carried, and
        the iterative solver needs hundreds of steps to find them again: the first step
        of a fresh world stops barely any of the gravity, every interface sinks in, the
        downhill contacts (which carry more) deeper, and the tower leans and creeps
        downhill while the solver catches up (0.58 mm at the top per idle decision of a
        12-barrel tower on a 2.18 deg deck, at 480 Hz x 40 iterations; pinning the poses
        and iterating instead converges far too slowly, 20,000 iterations for 0.02 mm/s).

        So one step, with position correction off and no time counted, finds the contacts;
        the barrels keep their poses and rest; then each contact between a barrel and its
        support gets the impulse of statics: the sub-stack above that interface (mass M,
        centre of mass at horizontal x_c) is held up by M g, shared between the extreme
        contact points by the lever rule (x_c between them) and pointing straight up. The
        next step warm-starts from these impulses (Chipmunk applies cached impulses before
        iterating), so a tower at rest stays at rest. A barrel without contact below gets
        nothing and settles as before. Only pymunk's own (pickling) access to cached
        arbiters is used; the arithmetic is deterministic.
        """
        space = self.space
        bias = space.collision_bias
        space.collision_bias = 1.0  # no position correction in this step: nothing moves
        space.step(self.dt_s)  # positions are integrated with the velocities before the step: zero
        space.collision_bias = bias
        for barrel in self.barrels:
            barrel.body.velocity = (0.0, 0.0)
            barrel.body.angular_velocity = 0.0
        self._states_step = -1
        count = len(self.barrels)
        if not count:
            return
        # a body's lowest and highest barrel (one and the same unless barrels share a rigid body,
        # as in sim.referees.compound_world); the deck is -1
        lowest: dict = {self.deck._body: -1}
        highest: dict = {self.deck._body: -1}
        body_of: dict = {self.deck._body: self.deck}
        for i, barrel in enumerate(self.barrels):
            lowest.setdefault(barrel.body._body, i)
            highest[barrel.body._body] = i
            body_of[barrel.body._body] = barrel.body
        mass_above, centre_x = [0.0] * count, [0.0] * count
        mass, moment = 0.0, 0.0
        for i in range(count - 1, -1, -1):
            barrel = self.barrels[i]
            mass += barrel.mass
            moment += barrel.mass * barrel.body.position.x
            mass_above[i], centre_x[i] = mass, moment / mass
        contacts: list[list[tuple[float, object, int, float]]] = [[] for _ in range(count)]
        for arbiter in space._get_arbiters():
            a, b = arbiter.body_a, arbiter.body_b
            if a not in lowest or b not in lowest:
                continue
            if lowest[a] == highest[b] + 1 and lowest[a] >= 0:  # a rests on b: the impulse on a is minus the arbiter's
                upper, sign = lowest[a], -1.0
            elif lowest[b] == highest[a] + 1 and lowest[b] >= 0:
                upper, sign = lowest[b], 1.0
            else:
                continue
            origin = body_of[a].position
            for k in range(arbiter.count):
                contacts[upper].append((origin.x + arbiter.contacts[k].r1.x, arbiter, k, sign))
        gravity_impulse = -space.gravity.y * self.dt_s
        for upper, points in enumerate(contacts):
            if not points:
                continue
            low = min(x for x, *_ in points)
            high = max(x for x, *_ in points)
            span = high - low
            at_low = sum(1 for x, *_ in points if x == low)
            at_high = sum(1 for x, *_ in points if x == high)
            up_share = 0.0 if span <= 0.0 else min(max((centre_x[upper] - low) / span, 0.0), 1.0)
            for x, arbiter, k, sign in points:
                if span <= 0.0:
                    share = 1.0 / len(points)
                elif x == high:
                    share = up_share / at_high
                elif x == low:
                    share = (1.0 - up_share) / at_low
                else:
                    share = 0.0
                lift = share * mass_above[upper] * gravity_impulse  # straight up, on the upper barrel
                normal = arbiter.n  # from body a to body b; the cached impulse is (n, perp n) . (jn, jt)
                contact = arbiter.contacts[k]
                contact.jnAcc = max(sign * lift * normal.y, 0.0)
                contact.jtAcc = sign * lift * normal.x

    def _make_shape(self, body: pymunk.Body, spec: BarrelSpec, faces: Faces) -> pymunk.Poly:
        points = outline(spec, top_half_width_m=faces.top_m, bottom_half_width_m=faces.bottom_m)
        shape = pymunk.Poly(body, [(x * CM_PER_M, y * CM_PER_M) for x, y in points])
        shape.friction = self._friction
        return shape

    # --- the deck's motion --------------------------------------------------------

    def start_deck_motion(self, to_slope: float, duration_s: float, profile: str) -> None:
        """Tilt the deck from its current slope to ``to_slope`` over ``duration_s`` seconds
        along the turn ``profile`` (see :mod:`sim.turn_profile`)."""
        start, from_angle, to_angle = self.time_s, self.deck.angle, math.atan(to_slope)
        targets = []  # the deck's angle at the end of each step of the motion
        t = self.time_s
        while True:
            t_next = t + self.dt_s - start
            if t_next >= duration_s - 1e-12:
                targets.append(to_angle)
                break
            targets.append(from_angle + (to_angle - from_angle) * profile_progress(t_next / duration_s, profile))
            t += self.dt_s
        self._motion = targets
        self._motion_step = 0

    @property
    def deck_moving(self) -> bool:
        return self._motion is not None

    # --- stepping and inspection --------------------------------------------------

    def step(self) -> None:
        """Advance one fixed physics step (``params.solver.dt_s`` seconds)."""
        if self._motion is not None:
            target = self._motion[self._motion_step]
            self._motion_step += 1
            # the velocity that lands the deck exactly on the profile at the end of this step
            self.deck.angular_velocity = (target - self.deck.angle) / self.dt_s
            self.space.step(self.dt_s)
            if self._motion_step == len(self._motion):
                self._motion = None
                self.deck.angular_velocity = 0.0
        else:
            self.space.step(self.dt_s)
        self.time_s += self.dt_s
        self._steps += 1

    def steps(self, count: int) -> None:
        """Advance ``count`` steps, as ``count`` calls of :meth:`step`, with Chipmunk called
        directly: pymunk's per-step bookkeeping (bodies to check, deferred adds and removals,
        post-step callbacks) has nothing to do while a phase runs; it cost as much as the step
        of a small compound world (:mod:`sim.referees.compound_world`), and 6% of the reference
        loop's decisions on 80 benchmark situations (``farm-bench``, 5 runs paired). The
        first step of a world, and the first after a body was added, goes through pymunk,
        which also runs its mass checks. The same Chipmunk calls with the same arguments:
        the same numbers (the loop's and the physics referee's decisions on 200 benchmark
        situations are identical to the last bit)."""
        if count <= 0:
            return
        if self._steps == 0 or self._slots is None:
            self.step()
            count -= 1
        space, deck, dt = self.space._space, self.deck._body, self.dt_s
        step, get_angle, set_spin = _lib.cpSpaceStep, _lib.cpBodyGetAngle, _lib.cpBodySetAngularVelocity
        motion = self._motion
        for _ in range(count):
            if motion is not None:
                target = motion[self._motion_step]
                self._motion_step += 1
                set_spin(deck, (target - get_angle(deck)) / dt)
                step(space, dt)
                if self._motion_step == len(motion):
                    self._motion = motion = None
                    set_spin(deck, 0.0)
            else:
                step(space, dt)
            self.time_s += dt
            self._steps += 1

    def _body_values(self) -> list[float]:
        """``_BODY_FIELDS`` of every body of the space, in one batched read (pymunk's order;
        :meth:`_body_slots` says where each barrel's body starts)."""
        buffer = self._buffer
        buffer.clear()
        pymunk.batch.get_space_bodies(self.space, _BODY_FIELDS, buffer)
        return memoryview(buffer.float_buf()).cast("d").tolist()

    def barrel_states(self) -> list[tuple[float, ...]]:
        """(x, y, angle, vx, vy, angular velocity) of each barrel, bottom first, in the world's
        internal units (cm, rad, cm/s, rad/s; world frame of the slice).

        Read for all bodies in one call (:mod:`pymunk.batch`) and kept until the next step or
        barrel added: the per-frame checks read every barrel, and one property access per
        value cost more than the reading itself. The values are the bodies' own doubles.
        """
        if self._states_step == self._steps and self._slots is not None:
            return self._states
        slots = self._body_slots()
        values = self._body_values()
        self._states = [tuple(values[i:i + _VALUES_PER_BODY]) for i in slots]
        self._states_step = self._steps
        return self._states

    def _body_slots(self) -> list[int]:
        """Where each barrel's values start in a batch read of all bodies (and, alongside,
        the barrel index of every body id). Bodies are only ever added, so their order in
        the space stays; it is looked up again after a barrel is added."""
        if self._slots is None:
            buffer = self._buffer
            buffer.clear()
            pymunk.batch.get_space_bodies(self.space, pymunk.batch.BodyFields.BODY_ID, buffer)
            place = {body_id: i for i, body_id in enumerate(memoryview(buffer.int_buf()).cast("P").tolist())}
            self._slots = [place[barrel.body.id] * _VALUES_PER_BODY for barrel in self.barrels]
            self._index_by_id = {barrel.body.id: i for i, barrel in enumerate(self.barrels)}
            self._index_by_id[self.deck.id] = -1
        return self._slots

    def support_contacts(self) -> list[list[tuple[float, float]] | None]:
        """For each barrel, bottom first: the world (x, y) (cm) of every contact point on its
        shape with its support (the deck for the bottom barrel, else the barrel below), from
        the last step's contacts (all read in one :mod:`pymunk.batch` call); ``None`` for an
        interface that cannot open (:class:`~sim.referees.compound_world.CompoundWorld` locks some)."""
        self._body_slots()  # keeps the body index of every body id current
        index_by_id = self._index_by_id
        buffer = self._buffer
        buffer.clear()
        pymunk.batch.get_space_arbiters(self.space, _ARBITER_INTS | _ARBITER_POINTS, buffer)
        ints = memoryview(buffer.int_buf()).cast("P").tolist()
        floats = memoryview(buffer.float_buf()).cast("d").tolist()
        contacts = self._no_contacts_yet()
        lowest = self._lowest_barrel_of_body()
        for arbiter in range(len(ints) // 3):
            a, b = index_by_id.get(ints[3 * arbiter], -2), index_by_id.get(ints[3 * arbiter + 1], -2)
            if a == b + 1 and a >= 0:  # body a rests on body b: take the points on a's shape
                offset, upper = 0, lowest[a]
            elif b == a + 1 and b >= 0:
                offset, upper = 2, lowest[b]
            else:
                continue
            base = 8 * arbiter + offset
            for point in range(ints[3 * arbiter + 2]):
                start = base + 4 * point
                contacts[upper].append((floats[start], floats[start + 1]))
        return contacts

    def _no_contacts_yet(self) -> list[list[tuple[float, float]] | None]:
        """:meth:`support_contacts`' list before the arbiters are read: one empty list per barrel."""
        return [[] for _ in self.barrels]

    def _lowest_barrel_of_body(self) -> Sequence[int]:
        """By body index (bodies bottom first, as :meth:`_body_slots` numbers them): its lowest barrel."""
        return range(len(self.barrels))

    def check_sane(self) -> None:
        """Raise :class:`PhysicsError` on NaN or a runaway speed."""
        limit = MAX_SPEED_M_S * CM_PER_M
        for index, (barrel, (_, _, _, vx, vy, _)) in enumerate(zip(self.barrels, self.barrel_states())):
            speed = math.hypot(vx, vy)
            if not speed <= limit:  # also catches NaN, which the solver spreads to every velocity
                raise PhysicsError(f"barrel {index} ({barrel.spec.name}) reached speed {speed / CM_PER_M:.3g} m/s "
                                   f"at t = {self.time_s:.3f} s: the solver diverged")

    def find_fall(self) -> Fall | None:
        """The lowest barrel that no longer rests on its support, or ``None``.

        Fallen means (DESIGN.md 3.4): turned more than ``crash.max_relative_tilt_rad``
        against its support, its bottom-face centre lifted more than ``crash.max_lift_m``
        off the support's top face or beyond that face's edge, or off the deck.
        Runs once per frame, so poses are read in one batch (:meth:`barrel_states`) and transformed here.
        """
        states = self.barrel_states()
        for index in range(len(self.barrels)):
            fall = self.support_fall(index, states)
            if fall is not None:
                return fall
        return None

    def support_fall(self, index: int, states: list[tuple[float, ...]]) -> Fall | None:
        """Has barrel ``index`` left its support (the barrel below, or the deck)? ``states`` are
        :meth:`barrel_states` (world units), read once per frame by the caller."""
        crash = self.params.crash
        barrel = self.barrels[index]
        x, y, angle = states[index][:3]
        if index == 0:
            support_angle = self.deck.angle
            support_x, support_y = self.deck.position
        else:
            support_x, support_y, support_angle = states[index - 1][:3]
        relative = _wrap(angle - support_angle)
        if abs(relative) > crash.max_relative_tilt_rad:
            return Fall(index, f"barrel {index + 1} ({barrel.spec.name}) turned "
                               f"{math.degrees(relative):+.1f} deg against its support")
        # bottom-face centre in the support's frame, cm
        half = barrel.spec.height_m / 2 * CM_PER_M
        dx = x + math.sin(angle) * half - support_x
        dy = y - math.cos(angle) * half - support_y
        cos_s, sin_s = math.cos(support_angle), math.sin(support_angle)
        along, up = cos_s * dx + sin_s * dy, cos_s * dy - sin_s * dx
        if index == 0:
            edge_m, face_m = self.params.ship.deck_half_length_m, self.floor_height_m(along / CM_PER_M)
            where = "the deck"
        else:
            support = self.barrels[index - 1]
            edge_m = chord_half_width(support.spec.end_diameter_m / 2, barrel.cross_offset_m - support.cross_offset_m)
            face_m = support.spec.height_m / 2
            where = f"barrel {index}"
        if abs(along) > edge_m * CM_PER_M:
            return Fall(index, f"barrel {index + 1} ({barrel.spec.name}) slid off {where}")
        lift = up - face_m * CM_PER_M
        if lift > crash.max_lift_m * CM_PER_M:
            return Fall(index, f"barrel {index + 1} ({barrel.spec.name}) lifted "
                               f"{lift * 10:.1f} mm off {where}")
        return None

    def fall_side(self, index: int) -> float:
        """+1 if the centre of mass of barrels ``index`` and up lies ahead of its support's centre
        along the slice (the world's +x), else -1: the side a stack falling from ``index`` falls to."""
        states = self.barrel_states()
        mass = sum(b.mass for b in self.barrels[index:])
        com_x = sum(b.mass * state[0] for b, state in zip(self.barrels[index:], states[index:])) / mass
        support_x = states[index - 1][0] if index > 0 else self.deck.position.x
        return 1.0 if com_x >= support_x else -1.0

    def poses(self) -> list[tuple[float, float, float]]:
        """Deck-frame pose (s_m, z_m, tilt_rad) of each barrel, bottom first."""
        result = []
        for barrel in self.barrels:
            s, z = self.deck.world_to_local(barrel.body.position)
            result.append((s / CM_PER_M, z / CM_PER_M, _wrap(barrel.body.angle - self.deck.angle)))
        return result

    def cross_offsets_m(self) -> list[float]:
        """Offset across the slice of each barrel's centre, metres."""
        return [barrel.cross_offset_m for barrel in self.barrels]

    def world_pose(self, index: int) -> tuple[float, float, float]:
        """Pose of barrel ``index`` in the slice's world frame (x m, y m up, angle rad)."""
        body = self.barrels[index].body
        return body.position.x / CM_PER_M, body.position.y / CM_PER_M, body.angle


def _wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi
