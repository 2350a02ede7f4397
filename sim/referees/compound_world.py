"""A tower world in which barrels across *locked* interfaces share one rigid body.

An interface (barrel ``k`` on barrel ``k - 1``) whose static margin stays large through a
whole phase cannot open (:func:`sim.referees.physics.lock_plan` decides which). Barrels joined across such
interfaces become one pymunk body carrying one Poly shape per barrel (a compound): fewer
bodies and contacts make every solver step cheaper and let the chain converge with fewer
iterations. Everything a :class:`~sim.world.TowerWorld` hands out stays per barrel:
:meth:`CompoundWorld.barrel_states` derives each barrel's pose and velocity from its
body's by rigid-body kinematics (exact, so kinetic energy, fall detection and barriers in
:mod:`sim.energy` read the same quantities as for separate bodies).

Frames and units are those of :mod:`sim.world`: inside pymunk centimetres, grams and
seconds in the world frame of the slice (x along the slice, y up). A compound body's
origin is its centre of mass (pymunk's centre of gravity stays at the body origin, so its
velocity is that of the origin); its angle at build time is that of its lowest barrel.
Each barrel keeps a fixed offset (x, y in cm, angle in rad) in its body's frame.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pymunk
import pymunk.batch

from sim.barrel_shape import moment_of_inertia, outline
from sim.params import BarrelSpec, Params
from sim.slice_contact import Faces
from sim.world import CM_PER_M, G_PER_KG, BarrelPlacement, Fall, TowerWorld, _Barrel


class CompoundWorld(TowerWorld):
    """A :class:`~sim.world.TowerWorld` whose barrels may be grouped into rigid compounds.

    Build the tower with :meth:`add_tower` (all barrels at once, with the interfaces to
    lock), then optionally :meth:`drop_barrel` (always a body of its own).
    """

    def __init__(self, params: Params, deck_slope: float = 0.0) -> None:
        super().__init__(params, deck_slope)
        self._offsets: list[tuple[float, float, float]] = []
        """Per barrel: (x cm, y cm, angle rad) in its body's frame."""
        self._group_of: list[int] = []
        """Per barrel: the index of its body in ``_bodies``."""
        self._bodies: list[pymunk.Body] = []
        self._group_first: list[int] = []
        """Per body: its lowest barrel."""
        self.locked: list[bool] = []
        """Per barrel: whether its interface with its support is locked (never for barrel 0)."""
        self._free: list[int] = []
        """The barrels whose interface is not locked, bottom first."""

    # --- construction -------------------------------------------------------------

    def add_tower(self, barrels: Sequence[BarrelPlacement], locked: Sequence[bool]) -> None:
        """Put the barrels (bottom first) on the deck; ``locked[k]`` joins barrel ``k`` rigidly to
        barrel ``k - 1`` (``locked[0]`` is ignored: the deck is a body of its own)."""
        if self.barrels:
            raise ValueError("add_tower builds the whole tower; the world already holds barrels")
        groups: list[list[int]] = []
        for k in range(len(barrels)):
            if k > 0 and locked[k]:
                groups[-1].append(k)
            else:
                groups.append([k])
        for group in groups:
            self._add_group([barrels[k] for k in group], first=group[0])
        self.locked = [k > 0 and bool(locked[k]) for k in range(len(barrels))]
        self._free = [k for k, lock in enumerate(self.locked) if not lock]
        self._slots = None

    def _add_group(self, members: Sequence[BarrelPlacement], first: int) -> None:
        deck = self.deck
        # world poses (cm, rad) of the members
        poses = []
        for member in members:
            x, y = deck.local_to_world((member.s_m * CM_PER_M, member.z_m * CM_PER_M))
            poses.append((x, y, deck.angle + member.tilt_rad))
        masses = [m.spec.mass_kg * G_PER_KG for m in members]
        moments = [moment_of_inertia(m.spec) * G_PER_KG * CM_PER_M ** 2 for m in members]
        total = sum(masses)
        cx = sum(m * p[0] for m, p in zip(masses, poses)) / total
        cy = sum(m * p[1] for m, p in zip(masses, poses)) / total
        angle = poses[0][2]
        moment = sum(i + m * ((p[0] - cx) ** 2 + (p[1] - cy) ** 2) for m, i, p in zip(masses, moments, poses))
        body = pymunk.Body(total, moment)
        body.position = (cx, cy)
        body.angle = angle
        self.space.add(body)
        cos_a, sin_a = math.cos(angle), math.sin(angle)
        group = len(self._bodies)
        self._bodies.append(body)
        self._group_first.append(first)
        for member, (x, y, a), mass, inertia in zip(members, poses, masses, moments):
            dx, dy = x - cx, y - cy
            offset = (cos_a * dx + sin_a * dy, -sin_a * dx + cos_a * dy, a - angle)
            shape = self._offset_shape(body, member.spec, member.faces, offset)
            self.space.add(shape)
            self.barrels.append(_Barrel(member.spec, body, shape, member.cross_offset_m, member.faces, mass, inertia))
            self._offsets.append(offset)
            self._group_of.append(group)

    def _offset_shape(self, body: pymunk.Body, spec: BarrelSpec, faces: Faces,
                      offset: tuple[float, float, float]) -> pymunk.Poly:
        ox, oy, oa = offset
        cos_o, sin_o = math.cos(oa), math.sin(oa)
        points = []
        for x, y in outline(spec, top_half_width_m=faces.top_m, bottom_half_width_m=faces.bottom_m):
            x, y = x * CM_PER_M, y * CM_PER_M
            points.append((ox + cos_o * x - sin_o * y, oy + sin_o * x + cos_o * y))
        shape = pymunk.Poly(body, points)
        shape.friction = self._friction
        return shape

    def add_barrel(self, spec: BarrelSpec, s_m: float, z_m: float, tilt_rad: float = 0.0,
                   cross_offset_m: float = 0.0, faces: Faces | None = None) -> None:
        """A barrel of its own body on top (as :meth:`TowerWorld.add_barrel`)."""
        faces = faces or Faces(spec.end_diameter_m / 2, spec.end_diameter_m / 2)
        self._add_group([BarrelPlacement(spec, s_m, z_m, tilt_rad, cross_offset_m, faces)], first=len(self.barrels))
        self.locked.append(False)
        self._free.append(len(self.barrels) - 1)
        self._slots = None

    def drop_barrel(self, spec: BarrelSpec, s_m: float, cross_offset_m: float = 0.0,
                    faces: Faces | None = None) -> None:
        """As :meth:`TowerWorld.drop_barrel`, reading the top barrel's pose through its offset."""
        drop = self.params.settle.drop_height_m
        if self.barrels:
            top = self.barrels[-1]
            x, y, angle = self._barrel_world(len(self.barrels) - 1)
            half_h = top.spec.height_m / 2 * CM_PER_M
            face = (x - math.sin(angle) * half_h, y + math.cos(angle) * half_h)
            _, face_z = self.deck.world_to_local(face)
            tilt = angle - self.deck.angle
            base_z = face_z / CM_PER_M
        else:
            tilt, base_z = 0.0, self.floor_height_m(s_m)
        self.add_barrel(spec, s_m, base_z + drop + spec.height_m / 2, tilt, cross_offset_m, faces)

    # --- stepping -----------------------------------------------------------------

    def start_deck_motion(self, to_slope: float, duration_s: float, profile: str) -> None:
        """As :meth:`TowerWorld.start_deck_motion` (the deck's angle at the end of every step
        on the turn ``profile``), the profile evaluated for all steps at once in numpy."""
        from_angle, to_angle = self.deck.angle, math.atan(to_slope)
        count = max(1, math.ceil((duration_s - 1e-12) / self.dt_s - 1e-9))
        tau = np.minimum(np.arange(1, count + 1) * self.dt_s / duration_s, 1.0) if duration_s > 0 else np.ones(count)
        if profile == "smooth":
            progress = tau - np.sin(2 * np.pi * tau) / (2 * np.pi)
        elif profile == "constant":
            progress = tau
        else:
            raise ValueError(f"unknown turn profile {profile!r}; expected smooth or constant")
        targets = (from_angle + (to_angle - from_angle) * progress).tolist()
        targets[-1] = to_angle
        self._motion = targets
        self._motion_step = 0

    # --- inspection ---------------------------------------------------------------

    def _barrel_world(self, index: int) -> tuple[float, float, float]:
        """World pose (x cm, y cm, angle rad) of barrel ``index`` from its body's pose."""
        body = self._bodies[self._group_of[index]]
        ox, oy, oa = self._offsets[index]
        x, y = body.position
        angle = body.angle
        cos_a, sin_a = math.cos(angle), math.sin(angle)
        return x + cos_a * ox - sin_a * oy, y + sin_a * ox + cos_a * oy, angle + oa

    def _body_slots(self) -> list[int]:
        """Where each body's values start in a batch read, and the group of every body id."""
        if self._slots is None:
            buffer = self._buffer
            buffer.clear()
            pymunk.batch.get_space_bodies(self.space, pymunk.batch.BodyFields.BODY_ID, buffer)
            place = {body_id: i for i, body_id in enumerate(memoryview(buffer.int_buf()).cast("P").tolist())}
            self._slots = [place[body.id] * 6 for body in self._bodies]
            self._index_by_id = {body.id: g for g, body in enumerate(self._bodies)}
            self._index_by_id[self.deck.id] = -1
        return self._slots

    def barrel_states(self) -> list[tuple[float, ...]]:
        """(x, y, angle, vx, vy, angular velocity) of each barrel centre, bottom first (cm, rad,
        cm/s, rad/s; world frame of the slice), derived from its body's state: position
        p + R(angle) o, angle + its angle offset, velocity v + spin x R(angle) o."""
        if self._states_step == self._steps and self._slots is not None:
            return self._states
        slots = self._body_slots()
        values = self._body_values()
        cos, sin = math.cos, math.sin
        bodies = []
        for i in slots:
            angle = values[i + 2]
            bodies.append((values[i], values[i + 1], angle, values[i + 3], values[i + 4], values[i + 5],
                           cos(angle), sin(angle)))
        states = []
        append = states.append
        for group, (ox, oy, oa) in zip(self._group_of, self._offsets):
            x, y, angle, vx, vy, spin, cos_a, sin_a = bodies[group]
            if ox == 0.0 and oy == 0.0 and oa == 0.0:
                append((x, y, angle, vx, vy, spin))
            else:
                rx, ry = cos_a * ox - sin_a * oy, sin_a * ox + cos_a * oy
                append((x + rx, y + ry, angle + oa, vx - spin * ry, vy + spin * rx, spin))
        self._states = states
        self._states_step = self._steps
        return states

    def find_fall(self) -> Fall | None:
        """As :meth:`TowerWorld.find_fall`, checking only barrels on unlocked interfaces (a locked
        barrel keeps its pose on its support, fixed when the world was built)."""
        states = self.barrel_states()
        for index in self._free:
            fall = self.support_fall(index, states)
            if fall is not None:
                return fall
        return None

    def _no_contacts_yet(self) -> list[list[tuple[float, float]] | None]:
        """As :meth:`TowerWorld._no_contacts_yet`, with ``None`` for a locked interface (it has no
        contacts and cannot open)."""
        return [None if lock else [] for lock in self.locked]

    def _lowest_barrel_of_body(self) -> list[int]:
        """By body index (the compounds bottom first): its lowest barrel."""
        return self._group_first

    def poses(self) -> list[tuple[float, float, float]]:
        """Deck-frame pose (s_m, z_m, tilt_rad) of each barrel, bottom first."""
        result = []
        for index in range(len(self.barrels)):
            x, y, angle = self._barrel_world(index)
            s, z = self.deck.world_to_local((x, y))
            result.append((s / CM_PER_M, z / CM_PER_M, _wrap(angle - self.deck.angle)))
        return result

    def world_pose(self, index: int) -> tuple[float, float, float]:
        """Pose of barrel ``index`` in the slice's world frame (x m, y m up, angle rad)."""
        x, y, angle = self._barrel_world(index)
        return x / CM_PER_M, y / CM_PER_M, angle


def _wrap(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi
