"""The world's batched readout (pymunk.batch) gives exactly what pymunk's objects say."""

from sim.params import load_params
from sim.referees.loop import build_world
from sim.tower import BarrelPose, TowerState

PARAMS = load_params()


def leaning_tower_world(steps: int):
    """Five offset barrels on a tilted deck, stepped until they move and touch."""
    barrels, z = [], -PARAMS.ship.recess_depth_m
    for k, size in enumerate(["large", "medium", "large", "small", "medium"]):
        height = PARAMS.barrel(size).height_m
        barrels.append(BarrelPose(size, 0.001 * k, -0.0005 * k, z + height / 2 + 0.0002, 0.0))
        z += height + 0.0002
    world = build_world(PARAMS, TowerState(turns=(1.0, 0.0, 0.0), barrels=tuple(barrels)), 0.0)
    for _ in range(steps):
        world.step()
    return world


def test_barrel_states_are_the_bodies_own_values_bottom_first():
    world = leaning_tower_world(30)
    for barrel, state in zip(world.barrels, world.barrel_states(), strict=True):
        body = barrel.body
        assert state == (*body.position, body.angle, *body.velocity, body.angular_velocity)
    assert any(state[3] != 0.0 for state in world.barrel_states())  # moving, so a stale read would show


def test_barrel_states_follow_the_steps_and_new_barrels():
    world = leaning_tower_world(30)
    before = world.barrel_states()
    world.step()
    assert world.barrel_states() != before
    world.drop_barrel(PARAMS.barrel("small"), 0.0)
    assert len(world.barrel_states()) == len(world.barrels) == 6


def test_support_contacts_are_pymunks_contact_points_with_the_support():
    world = leaning_tower_world(60)
    contacts = world.support_contacts()
    for index, barrel in enumerate(world.barrels):
        support = set(world.deck.shapes) if index == 0 else {world.barrels[index - 1].shape}
        expected = []

        def collect(arbiter, support=support, expected=expected):
            if support & set(arbiter.shapes):
                expected.extend((p.point_a.x, p.point_a.y) for p in arbiter.contact_point_set.points)

        barrel.body.each_arbiter(collect)  # point_a: on this barrel's own shape
        assert expected, f"barrel {index} should rest on its support"
        assert sorted(contacts[index]) == sorted(expected)
