"""Can the tower still fall? Kinetic energy against the smallest potential barrier.

Once the deck has stopped, nothing feeds energy into the tower. For the part of the
tower above any interface to topple over an edge of its contact, its centre of mass
(mass M, at horizontal distance d and height h from that edge) must first rise to
stand above the edge: a barrier of ``M g (sqrt(d^2 + h^2) - h)``. If the kinetic energy
of all barrels together is well below the smallest such barrier, no interface can
topple: the decision "stands" is already certain, and the simulation may stop. A centre
of mass already outside its contact has no barrier at all.

The edges are the contact points pymunk reports between each barrel and its support
(:meth:`~sim.world.TowerWorld.support_contacts`),
so the recess wall, narrowed faces and offsets are all accounted for. Values are in the
world's internal units (grams, centimetres, seconds); only the ratio matters.
"""

from __future__ import annotations

import math

from sim.world import CM_PER_M, TowerWorld


def kinetic_energy(world: TowerWorld) -> float:
    """Total kinetic energy of the barrels (translation + rotation), g cm^2 / s^2."""
    total = 0.0
    for barrel, (_, _, _, vx, vy, spin) in zip(world.barrels, world.barrel_states()):
        total += barrel.mass * (vx * vx + vy * vy) + barrel.moment * spin ** 2
    return 0.5 * total


def barrier_bound(world: TowerWorld) -> float:
    """An upper bound (g cm^2 / s^2) of :func:`smallest_barrier`, without contact queries.

    The top barrel alone must not topple, and its barrier M g (sqrt(d^2 + h^2) - h) is
    below M g d, with d no more than its end radius (its contact lies within its end face).
    """
    if not world.barrels:
        return math.inf
    top = world.barrels[-1]
    return top.mass * -world.space.gravity.y * top.spec.end_diameter_m / 2 * CM_PER_M


def smallest_barrier(world: TowerWorld) -> float:
    """The smallest potential barrier (g cm^2 / s^2) against toppling at any interface;
    0 when some part of the tower has no contact below it or stands outside its contact.
    Interfaces the world reports as locked (contacts ``None``) have no barrier to cross."""
    gravity = -world.space.gravity.y
    barrels = world.barrels
    # centres of mass of every sub-stack, from the top down
    mass, moment_x, moment_y = 0.0, 0.0, 0.0
    sub_stacks = []
    for barrel, (x, y, *_) in zip(reversed(barrels), reversed(world.barrel_states())):
        mass += barrel.mass
        moment_x += barrel.mass * x
        moment_y += barrel.mass * y
        sub_stacks.append((mass, moment_x / mass, moment_y / mass))
    sub_stacks.reverse()
    smallest = math.inf
    for points, (m, cx, cy) in zip(world.support_contacts(), sub_stacks):
        if points is None:  # a locked interface (sim.referees.compound_world): it cannot open
            continue
        if not points:
            return 0.0
        low, high = min(points), max(points)
        if not low[0] <= cx <= high[0]:
            return 0.0
        for edge_x, edge_y in (low, high):
            distance, height = cx - edge_x, cy - edge_y
            smallest = min(smallest, m * gravity * (math.hypot(distance, height) - height))
    return smallest
