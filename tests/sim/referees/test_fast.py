"""The fast referee: the static check against closed forms, the tower moved forward, batches."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from lab.bench_situations import load_situations
from sim.closed_forms import box_spec, sliding_angle, toppling_angle
from sim.geometry import deck_gradient, downhill_direction
from sim.params import load_params
from sim.referees import make_referee
from sim.referees.fast import FastReferee
from sim.referees.hybrid import HybridReferee
from sim.static_check import SizeTable, pack, static_margin_one, static_margins
from sim.statics import flat_deck
from sim.tower import BarrelPose, Placement, TowerState, Turn

W, H = 0.03, 0.035  # box width and height, metres (DESIGN.md 3)


def _boxes(mu: float = 1.0):
    params = replace(flat_deck(load_params()), barrels=(box_spec(W, H),), mu=mu)
    return params, SizeTable.from_params(params)


def _margin(params, table, poses, theta_rad, direction=0.0):
    """Static margin (rad) with the deck leaning toward ``direction`` by ``theta_rad``."""
    slope = math.tan(theta_rad)
    gradient = (-slope * math.cos(direction), -slope * math.sin(direction))
    batch = pack(table, [poses], [gradient], [direction])
    margin, interface = static_margins(params, table, batch, 0.0)
    one = static_margin_one(params, table, poses, gradient, direction, 0.0)
    assert one[0] == pytest.approx(margin[0], abs=1e-12) and one[1] == interface[0]
    return float(margin[0]), int(interface[0])


def _stack(offsets):
    return [BarrelPose("box", x, y, H * (k + 0.5)) for k, (x, y) in enumerate(offsets)]


@pytest.mark.parametrize("n", [1, 4, 12])
def test_centred_stack_topples_at_w_over_n_h(n):
    """Closed form: N equal boxes topple about the bottom corner at tan(theta) = w / (N h)."""
    params, table = _boxes()
    critical = toppling_angle(W, H, n)
    margin, interface = _margin(params, table, _stack([(0.0, 0.0)] * n), critical)
    assert margin == pytest.approx(0.0, abs=1e-12)
    assert interface == 0
    assert _margin(params, table, _stack([(0.0, 0.0)] * n), critical - 1e-3)[0] > 0
    assert _margin(params, table, _stack([(0.0, 0.0)] * n), critical + 1e-3)[0] < 0


def test_offset_top_box_moves_the_centre_of_mass():
    """Two boxes, the top one d downhill: the deck interface tips at tan = (w - d) / (2 h),
    the top box on the bottom one at tan = (w/2 - d) / (h/2); the margin is the smaller."""
    params, table = _boxes()
    d = 0.004
    poses = _stack([(0.0, 0.0), (d, 0.0)])
    deck = math.atan((W - d) / (2 * H))
    top = math.atan((W / 2 - d) / (H / 2))
    margin, interface = _margin(params, table, poses, 0.01)
    assert margin == pytest.approx(min(deck, top) - 0.01, abs=1e-12)
    assert interface == (0 if deck < top else 1)
    # leaning the other way the offset helps: the deck interface has w + d
    margin_uphill, _ = _margin(params, table, poses, 0.01, direction=math.pi)
    assert margin_uphill == pytest.approx(math.atan((W + d) / (2 * H)) - 0.01, abs=1e-12)


def test_offset_across_the_slope_shortens_the_lever_to_the_chord():
    """A centre of mass q across the downhill direction tips over the chord sqrt(r^2 - q^2):
    the top box, q across, on the bottom one; the pair, q/2 across, on the deck."""
    params, table = _boxes()
    q = 0.006
    margin, interface = _margin(params, table, _stack([(0.0, 0.0), (0.0, q)]), 0.0)
    deck = math.atan(math.sqrt((W / 2) ** 2 - (q / 2) ** 2) / H)
    top = math.atan(math.sqrt((W / 2) ** 2 - q * q) / (H / 2))
    assert (margin, interface) == (pytest.approx(min(deck, top), abs=1e-12), 0 if deck < top else 1)
    margin_top, interface = _margin(params, table, _stack([(0.0, 0.0), (0.0, q)])[1:], 0.0)
    assert margin_top == pytest.approx(math.atan(W / 2 / (H / 2)), abs=1e-12)


def test_box_slides_at_tan_mu():
    """Closed form: sliding at tan(theta) = mu, whatever the shape (a flat deck, no recess)."""
    params, table = _boxes(mu=0.2)
    poses = _stack([(0.0, 0.0)])
    assert _margin(params, table, poses, sliding_angle(0.2))[0] == pytest.approx(0.0, abs=1e-12)
    assert _margin(params, table, poses, sliding_angle(0.2) + 1e-4)[0] < 0


def test_recess_wall_edge_carries_a_bottom_barrel_pressed_against_it():
    """A medium barrel 3 mm downhill in the 28 mm recess rests on the wall's top edge: it
    stands up to atan(14 mm / centre height) instead of pivoting on its bottom corner."""
    params = load_params()
    table = SizeTable.from_params(params)
    spec = params.barrel("medium")
    z = -params.ship.recess_depth_m + spec.height_m / 2
    batch = pack(table, [[BarrelPose("medium", 0.003, 0.0, z)]], [(-0.01, 0.0)], [0.0])
    margin, _ = static_margins(params, table, batch, math.radians(1.0))
    expected = math.atan2(0.014 - 0.003, z) - math.atan(0.01)
    assert margin[0] == pytest.approx(expected, abs=1e-9)
    corner_only, _ = static_margins(params, table, batch, -1.0)
    assert corner_only[0] < margin[0]


def test_tower_moves_forward_with_the_creep_of_physics():
    referee = FastReferee()
    params = referee.params
    lean, placed_offset = params.fast.creep_lean_rad, params.fast.creep_placed_mm / 1000
    assert lean > 0 and placed_offset > 0  # physics towers drift downhill (lab.creep_fit)
    tower = referee.new_tower()
    decision = referee.decide(tower, Placement("small", 0.010, 0.0), None)  # clamped into the recess
    first = decision.tower.barrels[0]
    assert (first.x_m, first.y_m) == pytest.approx((0.005, 0.0))  # level deck: no creep
    assert first.z_m == pytest.approx(-params.ship.recess_depth_m + 0.012)
    # red (at the bow) rises: the deck runs downhill toward the stern, -x
    decision = referee.decide(decision.tower, Placement("large", 0.0051, 0.0003), Turn("red", 1.0))
    assert not decision.crashed
    bottom, second = decision.tower.barrels
    assert bottom == first, "the bottom barrel never creeps"
    assert (second.x_m, second.y_m, second.tilt_rad) == pytest.approx((0.0051 - placed_offset, 0.0003, 0.0))
    assert second.z_m == pytest.approx(first.z_m + 0.012 + 0.018)
    assert decision.tower.turns == (1.0, 0.0, 0.0)
    gradient = deck_gradient(params.ship, {"red": 1.0})
    assert decision.tower.slice_direction_rad == pytest.approx(downhill_direction(gradient))
    # a turn alone: the tower leans further, in proportion to each barrel's height above the bottom one
    turned = referee.decide(decision.tower, None, Turn("red", 1.0)).tower
    assert turned.barrels[0] == first
    assert turned.barrels[1].x_m == pytest.approx(second.x_m - lean * (second.z_m - first.z_m))
    assert turned.barrels[1].y_m == pytest.approx(second.y_m)
    # level again after yellow and blue: nothing creeps, and the slice direction stays where it was
    yellow = referee.decide(decision.tower, None, Turn("yellow", 1.0)).tower
    level = referee.decide(yellow, None, Turn("blue", 1.0))
    assert level.tower.turns == (1.0, 1.0, 1.0)
    assert level.tower.barrels == yellow.barrels
    assert level.tower.slice_direction_rad == yellow.slice_direction_rad


def test_without_creep_offsets_stay_where_they_were_placed():
    referee = FastReferee(load_params(overrides={"fast": {"creep_lean_rad": 0.0, "creep_placed_mm": 0.0}}))
    tower = referee.decide(referee.new_tower(), Placement("small", 0.0, 0.0), None).tower
    decision = referee.decide(tower, Placement("large", 0.0011, 0.0003), Turn("red", 1.0))
    assert not decision.crashed
    assert (decision.tower.barrels[1].x_m, decision.tower.barrels[1].y_m) == (0.0011, 0.0003)


def test_a_crash_hands_on_the_tower_without_creep():
    referee = FastReferee()
    tower = referee.new_tower()
    for size in ("large", "medium", "small") * 3 + ("large", "medium"):
        tower = referee.decide(tower, Placement(size, *tower.top_xy()), None).tower
    turned = referee.decide(tower, None, Turn("red", 3.0))
    assert turned.crashed and turned.phase == "turn"
    assert turned.tower.barrels == tower.barrels


def test_crash_phases_and_thresholds():
    referee = FastReferee()
    tower = referee.new_tower()
    for size in ("large", "medium", "small") * 3 + ("large", "medium"):
        tower = referee.decide(tower, Placement(size, *tower.top_xy()), None).tower
    missed = referee.decide(tower, Placement("small", tower.top_xy()[0] + 0.015, 0.0), Turn("red", 1.0))
    assert missed.crashed and missed.phase == "place" and missed.tower.turns == (0.0, 0.0, 0.0)
    # as many red turns as the centred 12-stack stands (its static margin on a level deck
    # is its critical tilt), then one more while the 12th barrel goes on: that turn tips it
    params = referee.params
    twelve = referee.decide(tower, Placement("small", *tower.top_xy()), None).tower
    critical, _ = static_margin_one(params, SizeTable.from_params(params), twelve.barrels, (0.0, 0.0), 0.0,
                                    math.radians(params.fast.recess_wall_contact_deg))
    per_turn = math.atan(math.hypot(*deck_gradient(params.ship, {"red": 1.0})))
    tilted = tower
    for _ in range(int(critical // per_turn)):
        tilted = referee.turn(tilted, Turn("red", 1.0))
    steep = referee.decide(tilted, Placement("small", *tilted.top_xy()), Turn("red", 1.0))
    assert steep.crashed and steep.phase == "turn"
    assert "static margin" in steep.reason


def test_batch_equals_one_by_one_on_the_benchmark_set():
    referee = FastReferee()
    situations = [s.situation for s in load_situations()]
    assert referee.decide_batch(situations) == [referee.decide(*s) for s in situations]
    towers = [s[0] for s in situations]
    margins, interfaces = referee.margins_deg(towers)
    for tower, margin, interface in zip(towers, margins, interfaces):
        assert referee._margin_one(tower) == (pytest.approx(margin, abs=1e-9), interface)


def test_games_are_deterministic_and_registered():
    params = load_params()
    config = GameConfig(players=("A", "B"))

    def events(name):
        referee = make_referee(name, params)
        bots = [Bot(n, params=params) for n in config.players]
        return play_game(config, referee, bots, 5, params=params).events()

    assert isinstance(make_referee("fast", params), FastReferee)
    assert isinstance(make_referee("hybrid", params), HybridReferee)
    first = events("fast")
    assert first == events("fast")
    assert any(e["event"] == "round_end" for e in first)


def test_empty_tower_and_nothing_to_do():
    referee = FastReferee()
    tower = TowerState()
    assert not referee.decide(tower, None, None).crashed
    assert referee.margins_deg([tower])[0][0] == np.inf
    assert referee.decide(tower, None, Turn("red", 1.0)).tower.turns == (1.0, 0.0, 0.0)


def test_gradient_matches_geometry():
    referee = FastReferee()
    for turns in [(1.0, 0.0, 0.0), (0.5, 2.0, -1.0), (3.0, 3.0, 3.0)]:
        expected = deck_gradient(referee.params.ship, dict(zip(("red", "yellow", "blue"), turns)))
        assert referee.gradient(turns) == pytest.approx(expected, abs=1e-15)


def test_turn_acceleration_is_the_slice_angle_change_over_the_duration_squared():
    # From level, one red turn tilts the deck atan(pitch/105 mm) toward the stern in 1 s; half a
    # turn tilts it atan(pitch/2/105 mm) in 0.5 s: twice the acceleration scale for half the angle.
    params = load_params()
    pitch_mm = params.ship.thread_pitch_m * 1000
    referee = FastReferee(params)
    level = referee.new_tower()
    full = referee.turn(level, Turn("red", 1.0))
    half = referee.turn(level, Turn("red", 0.5))
    assert referee.turn_acceleration_deg_s2(level, full) == pytest.approx(-math.degrees(math.atan(pitch_mm / 105)))
    assert referee.turn_acceleration_deg_s2(level, half) == pytest.approx(
        -math.degrees(math.atan(pitch_mm / 2 / 105)) / 0.25)
    assert referee.turn_acceleration_deg_s2(level, level) == 0.0
