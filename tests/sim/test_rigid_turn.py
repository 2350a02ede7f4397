"""Turns rigid statics settles (sim.rigid_turn), checked against the converged reference loop.

The benchmark set's situations carry the plain fixed-length loop's verdicts (``crashed_plain``,
lab.bench_situations): every turn-only situation the statics settles must have that verdict.
"""

import math
from dataclasses import replace

import numpy as np
import pytest

from lab.bench_situations import load_situations
from sim.geometry import deck_gradient
from sim.params import load_params
from sim.referees.loop import LoopReferee, rigid_in_slice, statics_tolerance_m
from sim.referees.physics import CompoundReferee, PhysicsReferee
from sim.rigid_turn import certain_to_fall, certain_to_stand, margin_rad, turn_margin_rad
from sim.slice_contact import tower_leans
from sim.tower import BarrelPose

PARAMS = load_params()


def _turn_only():
    """The benchmark set's turn-only situations (the tower at rest, as the turn starts), with
    the deck's gradients before and after the turn."""
    for labelled in load_situations(check_params=PARAMS):
        tower, placement, turn = labelled.situation
        if placement is None and turn is not None:
            before = deck_gradient(PARAMS.ship, tower.turns_by_sailor())
            after = deck_gradient(PARAMS.ship, tower.with_turn(turn.sailor, turn.revolutions).turns_by_sailor())
            yield labelled, before, after


TURN_ONLY = list(_turn_only())


def test_a_turns_smallest_margin_is_at_one_of_its_ends():
    """The gravity line's meeting point moves linearly with the gradient and the distance to a
    lens's edge is concave: sampling the path finely never finds less than the ends."""
    assert len(TURN_ONLY) > 50
    for labelled, before, after in TURN_ONLY:
        barrels = labelled.situation.tower.barrels
        ends = turn_margin_rad(PARAMS, barrels, before, after)
        path = [margin_rad(PARAMS, barrels, tuple(np.add(before, s * np.subtract(after, before))))
                for s in np.linspace(0.0, 1.0, 41)]
        assert min(path) >= ends - 1e-12


def test_the_margin_is_the_closed_form_of_a_centred_stack():
    """Two centred large barrels on a deck sloping along x: the stack above an interface tips
    when tan(theta) = r / H (H its centre of mass above the interface), and the margin is
    atan(r / H - tan(theta)), zero exactly there; the lower interface (H = h) is the weaker."""
    large = PARAMS.barrel("large")
    h, r = large.height_m, large.end_diameter_m / 2
    barrels = (BarrelPose("large", 0.0, 0.0, h / 2), BarrelPose("large", 0.0, 0.0, 1.5 * h))
    for slope in (0.0, 0.05, r / h):
        assert margin_rad(PARAMS, barrels, (slope, 0.0)) == pytest.approx(math.atan(r / h - slope), abs=1e-12)


def test_turns_statics_settles_have_the_reference_loops_verdicts():
    settled = 0
    for labelled, before, after in TURN_ONLY:
        tower, _, turn = labelled.situation
        if certain_to_stand(PARAMS, tower.barrels, before, after, turn.revolutions):
            assert not labelled.crashed_plain
            settled += 1
        elif certain_to_fall(tower_leans(PARAMS, tower.barrels, after)) is not None:
            assert labelled.crashed_plain
            settled += 1
    assert settled >= 20


def test_a_tower_certain_to_stand_barely_moves_in_the_converged_loop():
    """The loop simulates the turn; the tower it hands on is the unmoved one to within half the
    solver's collision slop (contacts rest up to the slop inside each other)."""
    loop = LoopReferee(PARAMS)
    checked = 0
    for labelled, before, after in TURN_ONLY:
        tower, placement, turn = labelled.situation
        if not certain_to_stand(PARAMS, tower.barrels, before, after, turn.revolutions) or checked == 8:
            continue
        decision = loop.decide(tower, placement, turn)
        rigid = rigid_in_slice(tower.with_turn(turn.sailor, turn.revolutions), decision.tower.slice_direction_rad)
        assert not decision.crashed
        for moved, still in zip(decision.tower.barrels, rigid.barrels):
            assert math.dist((moved.x_m, moved.y_m, moved.z_m), (still.x_m, still.y_m, still.z_m)) \
                < statics_tolerance_m(PARAMS)
        checked += 1
    assert checked == 8


def test_the_physics_referee_skips_a_settled_turn_and_the_loop_simulates_it():
    labelled, before, after = next((x for x in TURN_ONLY if certain_to_stand(
        PARAMS, x[0].situation.tower.barrels, x[1], x[2], x[0].situation.turn.revolutions)))
    situation = labelled.situation
    skipped = PhysicsReferee(PARAMS).decide(*situation)
    assert not skipped.crashed and skipped.simulated_s == 0.0
    for referee in (PhysicsReferee(PARAMS, rigid_turns=False), LoopReferee(PARAMS)):  # the viewer animates every turn
        simulated = referee.decide(*situation)
        assert simulated.simulated_s >= situation.turn.revolutions / PARAMS.turn.rate_rev_per_s


def test_a_turn_statics_fells_is_decided_once_more_in_the_plane_it_falls_in():
    """The cheap pass does not simulate a turn statics fells; the physics referee's decision of
    that crash is the confirm run's, simulated in the 2D world like every crash, as the loop's."""
    labelled, _, after = next(x for x in TURN_ONLY
                              if certain_to_fall(tower_leans(PARAMS, x[0].situation.tower.barrels, x[2])))
    cheap = CompoundReferee(PARAMS).decide(*labelled.situation)
    assert cheap.crashed and cheap.phase == "turn" and cheap.simulated_s == 0.0 and not cheap.fallen.in_slice
    decision = PhysicsReferee(PARAMS).decide(*labelled.situation)
    loop = LoopReferee(PARAMS).decide(*labelled.situation)
    assert decision.crashed and decision.phase == "turn" and decision.fallen.in_slice and decision.simulated_s > 0.0
    assert (loop.crashed, loop.phase, loop.fallen.lowest) == (True, "turn", decision.fallen.lowest)


def test_no_certificate_for_an_abrupt_turn():
    """A ``constant`` profile starts with a jump of velocity: the stack rocks, statics cannot
    settle it in advance."""
    abrupt = replace(PARAMS, turn=replace(PARAMS.turn, profile="constant"))
    barrels = (BarrelPose("large", 0.0, 0.0, PARAMS.barrel("large").height_m / 2),)
    assert certain_to_stand(PARAMS, barrels, (0.0, 0.0), (0.01, 0.0), 1.0)
    assert not certain_to_stand(abrupt, barrels, (0.0, 0.0), (0.01, 0.0), 1.0)
