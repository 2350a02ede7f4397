"""The compound physics path: rigid compounds read out per barrel, and verdicts measured
against the converged plain loop (1920 steps/s x 80 iterations), not against itself."""

from __future__ import annotations

import math

import pytest

from lab.bench_situations import load_situations, stratified_sample
from sim.energy import kinetic_energy, smallest_barrier
from sim.params import load_params
from sim.referees import make_referee
from sim.referees.compound_world import CompoundWorld
from sim.referees.loop import LoopReferee
from sim.referees.physics import CompoundReferee, ConfirmReferee, PhysicsReferee, lock_plan
from sim.slice_contact import Faces
from sim.static_check import SizeTable
from sim.tower import BarrelPose, Placement, Turn
from sim.world import BarrelPlacement

PARAMS = load_params()
FULL_FACES = Faces(PARAMS.barrel("large").end_diameter_m / 2, PARAMS.barrel("large").end_diameter_m / 2)
CONVERGED = PARAMS
"""The default [solver] is the converged setting (tests/sim/test_convergence.py)."""


def _stack(world: CompoundWorld, locked: list[bool], slope_offset_m: float = 0.0) -> None:
    spec = PARAMS.barrel("large")
    z, members = 0.0, []
    for k in range(len(locked)):
        z_centre = (-PARAMS.ship.recess_depth_m if k == 0 else z) + spec.height_m / 2
        members.append(BarrelPlacement(spec, slope_offset_m * k, z_centre, 0.0, 0.0, FULL_FACES))
        z = z_centre + spec.height_m / 2
    world.add_tower(members, locked)


def test_compound_barrels_keep_their_poses_on_their_support():
    world = CompoundWorld(PARAMS, deck_slope=0.03)
    _stack(world, [False, True, True, False, True], slope_offset_m=0.001)
    assert len(world._bodies) == 2  # barrels 0-2 (barrel 0 on the deck stays free), barrels 3-4
    def relative(k):  # barrel k's pose in the frame of barrel k - 1 (m, rad)
        x0, y0, a0 = world.world_pose(k - 1)
        x1, y1, a1 = world.world_pose(k)
        c, s_ = math.cos(a0), math.sin(a0)
        return c * (x1 - x0) + s_ * (y1 - y0), -s_ * (x1 - x0) + c * (y1 - y0), a1 - a0

    before = [relative(k) for k in (1, 2, 4)]
    world.start_deck_motion(0.05, 0.3, "smooth")
    world.steps(400)
    assert abs(world.world_pose(0)[2] - world.deck.angle) > 1e-6  # the tower did move on the deck
    for rel_before, rel_after in zip(before, [relative(k) for k in (1, 2, 4)]):
        assert rel_after == pytest.approx(rel_before, abs=1e-12)


def test_kinetic_energy_of_compounds_is_that_of_their_bodies():
    world = CompoundWorld(PARAMS, deck_slope=0.0)
    _stack(world, [False, False, True, True])
    body = world._bodies[1]
    body.velocity, body.angular_velocity = (3.0, -1.0), 0.7  # cm/s, rad/s
    world._states_step = -1
    # Chipmunk's cpBodyKineticEnergy is m v^2 + I w^2 (no one half)
    expected = 0.5 * sum(b.kinetic_energy for b in world._bodies)
    assert kinetic_energy(world) == pytest.approx(expected, rel=1e-12)


def test_locked_interfaces_have_no_barrier_to_cross():
    world = CompoundWorld(PARAMS, deck_slope=0.0)
    _stack(world, [False, True, True])
    world.steps(60)
    contacts = world.support_contacts()
    assert contacts[1] is None and contacts[2] is None and contacts[0]
    assert smallest_barrier(world) > 0.0


def test_steps_match_single_steps_bit_for_bit():
    worlds = []
    for fast in (True, False):
        world = CompoundWorld(PARAMS, deck_slope=0.01)
        _stack(world, [False, True, False, True], slope_offset_m=0.002)
        world.start_deck_motion(0.04, 0.5, "smooth")
        if fast:
            world.steps(300)
        else:
            for _ in range(300):
                world.step()
        worlds.append(world.barrel_states())
    assert worlds[0] == worlds[1]


def test_compound_world_without_locks_decides_as_the_loop():
    situations = load_situations()[::50]
    default_solver = (PARAMS.solver.steps_per_second, PARAMS.solver.iterations)
    loop = LoopReferee(PARAMS)
    compound = CompoundReferee(PARAMS, solver=default_solver, lock_margin_deg=1e9, rigid_turns=False)
    for s in situations:
        a, b = loop.decide(*s.situation), compound.decide(*s.situation)
        assert a.crashed == b.crashed and a.phase == b.phase
        if a.crashed:  # the loop decides the compound pass's crashes again; one statics fells is not simulated
            continue
        for pa, pb in zip(a.tower.barrels, b.tower.barrels):
            assert abs(pa.x_m - pb.x_m) + abs(pa.z_m - pb.z_m) < 1e-6


def test_the_confirm_run_decides_the_closest_calls_as_the_loop():
    """The 15 crashing and the 15 standing benchmark situations nearest tipping (by the loop's
    labels): the confirm run, whose verdicts the physics referee returns for every crash of its
    cheap pass, decides each as the early-exit loop does, verdict, phase and the lowest barrel
    that fell, and sees every crash in the 2D world (none settled by statics)."""
    nearest = sorted(load_situations(), key=lambda s: abs(s.static_margin_deg))
    chosen = [s for s in nearest if s.crashed][:15] + [s for s in nearest if not s.crashed][:15]
    loop, confirm = LoopReferee(PARAMS), ConfirmReferee(PARAMS)
    for s in chosen:
        a, b = loop.decide(*s.situation), confirm.decide(*s.situation)
        assert (a.crashed, a.phase) == (b.crashed, b.phase) == (s.crashed, s.phase)
        if a.crashed:
            assert a.fallen.lowest == b.fallen.lowest and b.fallen.in_slice and b.simulated_s > 0.0


def test_lock_plan_never_locks_the_bottom_or_a_small_margin():
    table = SizeTable.from_params(PARAMS)
    spec = PARAMS.barrel("medium")
    barrels = [BarrelPose("medium", 0.004 * k, 0.0, -PARAMS.ship.recess_depth_m + spec.height_m * (k + 0.5))
               for k in range(6)]
    plan = lock_plan(PARAMS, table, barrels, 0.0, [0.0, 0.04], math.radians(0.5))
    assert plan[0] is False
    assert any(plan) and not all(plan[1:])  # the leaning lower part stays free, the top locks


def test_decisions_are_deterministic():
    s = load_situations()[7]
    referee = PhysicsReferee(CONVERGED)
    assert referee.decide(*s.situation) == PhysicsReferee(CONVERGED).decide(*s.situation)


def test_the_physics_referee_by_name_is_the_fast_path():
    referee = make_referee("physics", CONVERGED)
    assert isinstance(referee, PhysicsReferee) and referee.name == "physics"
    tower = referee.new_tower()
    decision = referee.decide(tower, Placement("large", 0.0, 0.0), Turn("red", 1.0))
    assert not decision.crashed and len(decision.tower.barrels) == 1


def _disagreements(situations, weights=None):
    """(crashes where the plain loop stands, stands where it crashes), each situation counting
    ``weights[i]`` (default 1)."""
    plain, fast = LoopReferee(CONVERGED, plain=True), PhysicsReferee(CONVERGED)
    crash_more = stand_more = 0
    for s, weight in zip(situations, weights or [1] * len(situations)):
        reference, decided = plain.decide(*s.situation).crashed, fast.decide(*s.situation).crashed
        crash_more += weight * (decided and not reference)
        stand_more += weight * (reference and not decided)
    return crash_more, stand_more


def test_fast_path_verdicts_equal_the_converged_plain_loop_on_a_sample():
    """20 of the 500 benchmark situations (5 crash in the plain loop); ~15 s, mostly the reference."""
    assert _disagreements(load_situations()[::25]) == (0, 0)


@pytest.mark.slow
def test_fast_path_agrees_with_the_converged_plain_loop_on_99_percent_of_a_stratified_sample():
    """The whole-set check below on a smaller budget: the 260 closest calls and every 10th of the
    other 240 (:func:`lab.bench_situations.stratified_sample`), the estimated count of
    disagreements over the set at most 1% (at the default: 4, ranks 151, 152, 212 and 242, all
    among the closest, all standing where the loop crashes; one among the others would count 10
    and fail)."""
    sample = stratified_sample(load_situations())
    crash_more, stand_more = _disagreements([s.situation for s in sample], [s.weight for s in sample])
    assert crash_more + stand_more <= 5, (crash_more, stand_more)


@pytest.mark.slow
@pytest.mark.full
def test_fast_path_agrees_with_the_converged_plain_loop_on_99_percent():
    """All 500 benchmark situations (several minutes): at most 1% differ, in either direction."""
    crash_more, stand_more = _disagreements(load_situations())
    assert crash_more + stand_more <= 5, (crash_more, stand_more)
