"""The side view's geometry, without drawing: the sea line, where the next barrel hangs, the tower's top.

World frame as :mod:`viewer.scene` draws it: the 2D slice the physics runs in, x along the
slice, y up, metres, origin at the tower spot on the deck's top surface. The game side of
the viewer (:mod:`viewer.controller`, :mod:`viewer.crash`) reads these without pygame.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.params import BarrelSpec
from sim.world import CM_PER_M, TowerWorld

SEA_LEVEL_M = -0.030
"""World height of the calm sea surface (the deck's top surface is at 0)."""
HANG_GAP_M = 0.030
"""How far above the tower the next barrel hangs before it is released."""


@dataclass(frozen=True)
class Hanging:
    """A barrel held above the tower before release, at world pose (x m, y m, angle rad)."""

    spec: BarrelSpec
    x_m: float
    y_m: float
    angle_rad: float


def hang_pose(world: TowerWorld, spec: BarrelSpec, s_m: float, gap_m: float) -> tuple[float, float, float]:
    """World pose of ``spec`` held ``gap_m`` above the top of the tower at deck coordinate ``s_m``.

    Aligned with the top face as :meth:`TowerWorld.drop_barrel` aligns it, so lowering the
    gap to the drop height ends exactly where the physics releases it.
    """
    deck = world.deck
    if world.barrels:
        top = world.barrels[-1]
        face = top.body.local_to_world((0.0, top.spec.height_m / 2 * CM_PER_M))
        base_z = deck.world_to_local(face)[1] / CM_PER_M
        tilt = top.body.angle - deck.angle
    else:
        base_z, tilt = world.floor_height_m(s_m), 0.0
    z = base_z + gap_m + spec.height_m / 2
    x, y = deck.local_to_world((s_m * CM_PER_M, z * CM_PER_M))
    return x / CM_PER_M, y / CM_PER_M, deck.angle + tilt


def tower_top_m(world: TowerWorld) -> float:
    """Height (world y, m) of the highest barrel top still above the sea."""
    top = 0.0
    for barrel in world.barrels:
        y = barrel.body.position.y / CM_PER_M + barrel.spec.height_m / 2
        if y > SEA_LEVEL_M:
            top = max(top, y)
    return top
