"""The bots' margins of many aims (sim.aim_margins) are the static check's balance margins of whole towers.

The reference is :func:`sim.static_check.balance_margins` on packed towers (rays through discs
by dot products, every barrel's centre of mass summed in numpy), and the closed form of a
centred stack: a single box-like barrel of end radius r whose centre of mass is H above the
deck tips at atan(r / H), so on a level deck its balance margin is that angle.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

import sim.aim_margins
from sim.aim_margins import Slopes, balance_margins_of_aims, margins_at_slopes
from sim.params import load_params
from sim.static_check import SizeTable, balance_margins, pack
from sim.tower import BarrelPose

PARAMS = load_params()
TABLE = SizeTable.from_params(PARAMS)
SIZES = ("large", "medium", "small")


def random_tower(rng: np.random.Generator, count: int, offset_m: float) -> list[BarrelPose]:
    """A stack of ``count`` random sizes on the deck, each offset from the one below by ~``offset_m``."""
    poses, z, x, y = [], 0.0, 0.0, 0.0
    for _ in range(count):
        size = str(rng.choice(SIZES))
        h = PARAMS.barrel(size).height_m
        x, y = x + rng.normal(0, offset_m), y + rng.normal(0, offset_m)
        poses.append(BarrelPose(size, x, y, z + h / 2))
        z += h
    return poses


def reference(barrels, size, aims, gradients, direction) -> np.ndarray:
    """(G, K) balance margins of the packed towers, the new barrel on the top face."""
    z = (barrels[-1].z_m + PARAMS.barrel(barrels[-1].size).height_m / 2) if barrels else 0.0
    z += PARAMS.barrel(size).height_m / 2
    towers = [list(barrels) + [BarrelPose(size, x, y, z)] for x, y in aims for _ in gradients]
    batch = pack(TABLE, towers, [g for _ in aims for g in gradients], [direction] * len(towers))
    return balance_margins(TABLE, batch).reshape(len(aims), len(gradients)).T


@pytest.mark.parametrize("seed", range(6))
def test_the_margins_of_aims_are_the_static_checks_margins_of_the_whole_towers(seed):
    """Random towers (0 to 11 barrels below), aims near the top and far off it (rays that miss a
    disc: the empty lens), level and tilted gradients."""
    rng = np.random.default_rng(seed)
    for _ in range(25):
        barrels = random_tower(rng, int(rng.integers(0, 12)), 0.002)
        size = str(rng.choice(SIZES))
        top = barrels[-1] if barrels else BarrelPose(size, 0.0, 0.0, 0.0)
        spread = 0.004 if rng.random() < 0.7 else 0.08
        aims = np.array([top.x_m, top.y_m]) + rng.normal(0, spread, (int(rng.integers(1, 40)), 2))
        gradients = rng.normal(0, 0.05, (int(rng.integers(1, 5)), 2))
        if rng.random() < 0.3:
            gradients[0] = 0.0  # a level deck: the level direction stands in for downhill
        direction = float(rng.uniform(-math.pi, math.pi))
        top_z = (top.z_m + PARAMS.barrel(top.size).height_m / 2) if barrels else 0.0
        fast = balance_margins_of_aims(TABLE, barrels, size, top_z, aims, gradients, direction)
        assert fast.shape == (len(gradients), len(aims))
        assert fast == pytest.approx(reference(barrels, size, aims, gradients, direction), abs=1e-12)


def test_a_lone_barrel_on_a_level_deck_tips_at_atan_r_over_h():
    """The closed form: centred on a level deck, its margin is atan(r / H) (H = half its height)."""
    for size in SIZES:
        spec = PARAMS.barrel(size)
        margin = margins_at_slopes(TABLE, [], size, 0.0, np.zeros((1, 2)), Slopes.of([(0.0, 0.0)], 0.0))
        assert margin[0, 0] == pytest.approx(math.atan2(spec.end_diameter_m / 2, spec.height_m / 2), abs=1e-12)


def test_module_doctest():
    assert doctest.testmod(sim.aim_margins).failed == 0
