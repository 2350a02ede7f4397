"""The balance judgement: aims uphill of the coming tilt, stays on the barrel below, agrees with the static check."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kipp.players.balance import AIM_REACH, BalanceJudge
from kipp.players.bots import Bot, pass_threshold
from kipp.rules.actions import Pass, Play, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState
from sim.aim_margins import balance_margins_of_aims
from sim.params import SCREWS, load_params
from sim.static_check import balance_margins
from sim.tower import BarrelPose, TowerState
from tests.kipp.kipp_referees import ScriptedReferee

PARAMS = load_params()
JUDGE = BalanceJudge(PARAMS)
SIZES = ("large", "medium", "small")


def straight_tower(sizes, turns=(0.0, 0.0, 0.0)) -> TowerState:
    """A centred stack of ``sizes`` (bottom first) standing on the recess floor."""
    z = -PARAMS.ship.recess_depth_m
    poses = []
    for size in sizes:
        h = PARAMS.barrel(size).height_m
        poses.append(BarrelPose(size, 0.0, 0.0, z + h / 2))
        z += h
    return TowerState(turns=turns, barrels=tuple(poses))


def uphill_offset(tower: TowerState, size: str, sailor: str, fraction: float) -> float:
    """How far (m) the balance aim lies from the top centre toward where the deck rises after the turn."""
    x, y, _, _ = JUDGE.aim(tower, size, [sailor], fraction)
    gx, gy = JUDGE.gradient_after(tower, sailor, fraction)
    top_x, top_y = tower.top_xy()
    return ((x - top_x) * gx + (y - top_y) * gy) / math.hypot(gx, gy)


towers = st.lists(st.sampled_from(SIZES), min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(sizes=towers, size=st.sampled_from(SIZES), sailor=st.sampled_from(SCREWS), extra=st.integers(1, 3))
def test_the_aim_leans_uphill_of_the_coming_tilt_more_for_taller_towers_and_larger_tilts(sizes, size, sailor, extra):
    tower = straight_tower(sizes)
    half, full = uphill_offset(tower, size, sailor, 0.5), uphill_offset(tower, size, sailor, 1.0)
    assert half > 0.0 and full > 0.0, "a level deck about to tilt: lean uphill of the coming tilt"
    assert full >= half - 1e-4, "a larger coming tilt: at least as far uphill (within the search's spacing)"
    taller = straight_tower([sizes[0]] * extra + sizes)  # more barrels below, the same top (and reach)
    assert uphill_offset(taller, size, sailor, 1.0) >= full - 1e-4, "a taller tower: at least as far uphill"


def test_strictly_further_uphill_somewhere():
    """The monotonicity above is not a plateau at the reach: short towers and small tilts lean less."""
    tower = straight_tower(["large"])
    assert uphill_offset(tower, "medium", "red", 0.5) < uphill_offset(tower, "medium", "red", 1.0) - 2e-4
    assert uphill_offset(tower, "medium", "red", 0.5) < uphill_offset(straight_tower(["large"] * 4), "medium",
                                                                      "red", 0.5) - 2e-4


@settings(max_examples=40, deadline=None)
@given(sizes=towers, size=st.sampled_from(SIZES), sailors=st.lists(st.sampled_from(SCREWS), min_size=1, max_size=3,
                                                                    unique=True),
       turns=st.tuples(*[st.sampled_from([0.0, 0.5, 1.0, 2.0])] * 3), seed=st.integers(0, 2**16))
def test_the_aim_never_leaves_the_barrel_below(sizes, size, sailors, turns, seed):
    rng = np.random.default_rng(seed)
    tower = straight_tower(sizes, turns)
    shifted = tuple(replace(b, x_m=b.x_m + rng.normal(0, 0.001), y_m=b.y_m + rng.normal(0, 0.001))
                    for b in tower.barrels)
    tower = replace(tower, barrels=shifted)
    x, y, sailor, _ = JUDGE.aim(tower, size, sailors, 1.0)
    top = tower.barrels[-1]
    reach = AIM_REACH * min(PARAMS.barrel(size).end_diameter_m, PARAMS.barrel(top.size).end_diameter_m) / 2
    assert math.hypot(x - top.x_m, y - top.y_m) <= reach + 1e-12
    assert sailor in sailors


def test_the_search_judges_as_the_static_check_does():
    """balance_margins_of_aims (the bots' fast form) equals balance_margins on packed towers,
    and the balance aim is, by balance_margins itself, at least as well balanced as the centre."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        sizes = list(rng.choice(SIZES, size=int(rng.integers(1, 11))))
        turns = tuple(float(t) for t in rng.choice([0.0, 0.5, 1.0, 1.5], size=3))
        tower = straight_tower(sizes, turns)
        size = str(rng.choice(SIZES))
        aims = np.array(tower.top_xy()) + rng.normal(0, 0.004, (15, 2))
        gradients = np.array([JUDGE.gradient(tower.turns_by_sailor()), JUDGE.gradient_after(tower, "blue", 1.0)])
        fast = balance_margins_of_aims(JUDGE.table, tower.barrels, size, tower.top_height_m(PARAMS), aims,
                                       gradients, tower.slice_direction_rad)
        packed = balance_margins(JUDGE.table, JUDGE._with_barrel(tower, size, aims, list(map(tuple, gradients))))
        assert fast == pytest.approx(packed.reshape(len(aims), 2).T, abs=1e-12)

        x, y, _, worst = JUDGE.aim(tower, size, ["blue"], 1.0)
        chosen_and_centre = JUDGE._with_barrel(tower, size, np.array([[x, y], tower.top_xy()]),
                                               list(map(tuple, gradients)))
        judged = balance_margins(JUDGE.table, chosen_and_centre).reshape(2, 2).min(axis=1)
        assert judged[0] == pytest.approx(worst, abs=1e-4), "the aim's margin is the static check's"
        assert judged[0] >= judged[1] - 1e-9, "the chosen aim is at least as well balanced as the centre"


def grid_uphill(tower: TowerState, sailors, fraction: float) -> list[tuple[float, float]]:
    """The directions the fine grid runs along: uphill after each sailor's turn, and halfway
    between that and today's uphill (unit vectors, from the deck gradients)."""
    def unit(g):
        norm = math.hypot(*g)
        return (g[0] / norm, g[1] / norm) if norm > 1e-12 else None
    now = unit(JUDGE.gradient(tower.turns_by_sailor()))
    out = []
    for sailor in sailors:
        up = unit(JUDGE.gradient_after(tower, sailor, fraction))
        if up is not None:
            out.append(up)
            if now is not None and (mid := unit((up[0] + now[0], up[1] + now[1]))) is not None:
                out.append(mid)
    return out


def test_the_aim_is_the_best_pair_of_its_fine_grid_by_the_static_check():
    """On random leaning towers the chosen aim and sailor are, by balance_margins of the whole
    towers, as well balanced as the best pair of the fine grid (the top centre and the
    uphill rays; ties to the centre by _TIE_RAD) through today's tilt and the sailor's turn."""
    from kipp.players.balance import _TIE_RAD

    rng = np.random.default_rng(29)
    for _ in range(40):
        sizes = list(rng.choice(SIZES, size=int(rng.integers(1, 12))))
        turns = tuple(float(t) for t in rng.choice([0.0, 0.5, 1.0, 2.0], size=3))
        tower = straight_tower(sizes, turns)
        tower = replace(tower, barrels=tuple(replace(b, x_m=b.x_m + rng.normal(0, 0.0015),
                                                      y_m=b.y_m + rng.normal(0, 0.0015)) for b in tower.barrels))
        size, fraction = str(rng.choice(SIZES)), float(rng.choice([0.5, 1.0]))
        sailors = list(SCREWS) if rng.random() < 0.4 else [str(rng.choice(SCREWS))]
        aims, share = JUDGE.candidate_aims(tower, size, grid_uphill(tower, sailors, fraction))
        gradients = [JUDGE.gradient(tower.turns_by_sailor())] + [JUDGE.gradient_after(tower, s, fraction)
                                                                  for s in sailors]
        judged = balance_margins(JUDGE.table, JUDGE._with_barrel(tower, size, aims, gradients)).reshape(len(aims), -1)
        best = (np.minimum(judged[:, :1], judged[:, 1:]) - _TIE_RAD * share[:, None]).max()

        aim = JUDGE.aim(tower, size, sailors, fraction)
        (x, y, sailor, margin) = aim
        assert (aim.x_m, aim.y_m, aim.sailor, aim.margin_rad) == (x, y, sailor, margin)
        i = 1 + sailors.index(sailor)
        chosen = balance_margins(JUDGE.table, JUDGE._with_barrel(tower, size, np.array([[x, y]]),
                                                                 [gradients[0], gradients[i]]))
        reach_share = math.hypot(x - tower.top_xy()[0], y - tower.top_xy()[1]) / JUDGE.reach_m(tower, size)
        assert chosen.min() - _TIE_RAD * reach_share == pytest.approx(best, abs=1e-9)
        assert margin == pytest.approx(best, abs=1e-9)


def test_on_an_empty_deck_the_aim_is_the_tower_spot_with_nothing_to_tip():
    aim = JUDGE.aim(TowerState(), "large", ["yellow", "blue"], 1.0)
    assert (aim.x_m, aim.y_m, aim.sailor) == (0.0, 0.0, "yellow") and aim.margin_rad == math.inf


def test_the_wild_choice_is_the_sailor_the_static_check_balances_best():
    rng = np.random.default_rng(7)
    for _ in range(40):
        tower = straight_tower(list(rng.choice(SIZES, size=int(rng.integers(1, 12)))),
                               tuple(float(t) for t in rng.choice([0.0, 1.0, 2.0], size=3)))
        tower = replace(tower, barrels=tuple(replace(b, x_m=b.x_m + rng.normal(0, 0.002)) for b in tower.barrels))
        sailors = list(SCREWS) if rng.random() < 0.7 else list(rng.choice(SCREWS, size=2, replace=False))
        judged = balance_margins(JUDGE.table, JUDGE._with_barrel(
            tower, None, np.zeros((1, 2)), [JUDGE.gradient_after(tower, s, 1.0) for s in sailors]))
        chosen = sailors.index(JUDGE.best_sailor(tower, sailors, 1.0))
        assert judged[chosen] == pytest.approx(judged.max(), abs=1e-12)


def sea_dogs_state(barrels: int, turns) -> GameState:
    line = ("large",) * 4 + ("medium",) * 4 + ("small",) * 4
    state = GameState(GameConfig(players=("A", "B"), sea_dogs=True), ScriptedReferee())
    state.apply_action(Shuffle(line))
    state.tower = replace(straight_tower(line[:barrels], turns), slice_direction_rad=0.0)
    state.placed = barrels
    state._begin_turn()  # the turn starts on this tower: a pass is possible once a barrel stands
    return state


def test_the_risk_rule_passes_when_a_crash_is_likely_and_plays_when_it_is_not():
    expert = Bot(aim="balance", wild="joint", passing="risk", sigma_mm=0.5, params=PARAMS)
    level = sea_dogs_state(3, (0.0, 0.0, 0.0))
    leaning = sea_dogs_state(11, (3.0, 0.0, 0.0))
    assert expert.crash_probability(level) < 0.1
    assert expert.crash_probability(leaning) > 0.5
    rng = np.random.default_rng(0)
    assert expert.act(level, rng) == Play()
    assert expert.act(leaning, rng) == Pass()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_pass_threshold_is_where_passing_and_playing_are_worth_the_same(players):
    """Chips against the average of the others, counted outcome by outcome: playing loses 2
    with probability p; passing loses 1, then the next player crashes (loses 2) with the
    same p or takes the passed chip. Below the threshold playing is the better bet, above it passing."""
    def relative(p: float, passing: bool) -> float:
        others = players - 1
        if not passing:
            return p * -2.0
        return -1.0 + p * (2.0 / others) + (1 - p) * (-1.0 / others)

    threshold = pass_threshold(players, 2)
    assert relative(threshold, True) == pytest.approx(relative(threshold, False))
    assert relative(threshold - 0.05, True) < relative(threshold - 0.05, False)
    assert relative(threshold + 0.05, True) > relative(threshold + 0.05, False)
    assert 0.4 <= threshold < 0.5


def test_joint_needs_the_balance_aim():
    with pytest.raises(ValueError, match="joint"):
        Bot(wild="joint", params=PARAMS)


def test_the_standing_margin_is_the_static_check_of_the_tower_as_it_stands():
    """The viewer's balance gauge reads it: the fast referee's own static check, at today's tilt."""
    from sim.static_check import static_margin_one

    assert JUDGE.standing_margin(TowerState()) == math.inf
    for turns in ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 1.0, 0.0)):
        tower = straight_tower(["large", "medium", "small", "large"], turns=turns)
        expected, _ = static_margin_one(PARAMS, JUDGE.table, tower.barrels, JUDGE.gradient(tower.turns_by_sailor()),
                                        tower.slice_direction_rad, JUDGE._wall_rad)
        assert JUDGE.standing_margin(tower) == pytest.approx(expected, abs=1e-9)
    level, tilted = straight_tower(["large"] * 4), straight_tower(["large"] * 4, turns=(1.0, 0.0, 0.0))
    assert JUDGE.standing_margin(tilted) < JUDGE.standing_margin(level), "a tilt uses up some of the margin"
