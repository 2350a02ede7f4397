"""The statics floor, over towers that skilled and expert players build (DESIGN.md 3, turn 3).

At rest, the physics never hands on a tower that exact rigid statics says must tip: above the
bottom barrel, the gravity line of every interface's stack meets its contact lens (the overlap
of the two end discs), within :func:`sim.referees.loop.statics_tolerance_m`. And it holds
because the 2D world lets such towers fall where they can be seen, not because the closed-form
guard at the end of a phase felled them: at most 5% of crashes are the guard's.

The lens distance here is computed independently of :mod:`sim.slice_contact`: by sampling
both circles' arcs that bound the lens (the nearest lens point from outside lies on them).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from sim.geometry import deck_gradient
from sim.params import load_params
from sim.referees import make_referee
from sim.referees.loop import statics_tolerance_m

PARAMS = load_params()
ARC = np.linspace(0.0, 2 * math.pi, 7200, endpoint=False)


def outside_lens_m(q, a, ra, b, rb) -> float:
    """How far (m) point ``q`` lies outside the lens of discs (a, ra) and (b, rb); 0 inside."""
    q = np.asarray(q)
    if np.hypot(*(q - a)) <= ra and np.hypot(*(q - b)) <= rb:
        return 0.0
    points = []
    for centre, radius, other, other_r in ((a, ra, b, rb), (b, rb, a, ra)):
        circle = np.stack([centre[0] + radius * np.cos(ARC), centre[1] + radius * np.sin(ARC)], axis=1)
        points.append(circle[np.hypot(*(circle - other).T) <= other_r])
    boundary = np.concatenate(points)
    return float(np.min(np.hypot(*(boundary - q).T)))


def worst_shortfall_m(tower) -> float:
    """The largest distance (m) by which an interface's gravity line misses its lens, above the bottom barrel."""
    gx, gy = deck_gradient(PARAMS.ship, tower.turns_by_sailor())
    barrels = tower.barrels
    specs = [PARAMS.barrel(b.size) for b in barrels]
    worst = 0.0
    for k in range(1, len(barrels)):
        mass = sum(s.mass_kg for s in specs[k:])
        com = [sum(s.mass_kg * getattr(b, axis) for s, b in zip(specs[k:], barrels[k:])) / mass
               for axis in ("x_m", "y_m", "z_m")]
        lever = com[2] - (barrels[k].z_m - specs[k].height_m / 2)
        q = (com[0] - lever * gx, com[1] - lever * gy)
        worst = max(worst, outside_lens_m(q, (barrels[k].x_m, barrels[k].y_m), specs[k].end_diameter_m / 2,
                                          (barrels[k - 1].x_m, barrels[k - 1].y_m), specs[k - 1].end_diameter_m / 2))
    return worst


class Recorder:
    def __init__(self, inner) -> None:
        self.inner, self.decisions = inner, []

    def new_tower(self):
        return self.inner.new_tower()

    def decide(self, tower, placement, turn):
        decision = self.inner.decide(tower, placement, turn)
        self.decisions.append(decision)
        return decision


def skilled_and_expert_decisions(games: int) -> list:
    """Every decision of ``games`` seeded two-bot games (a skilled and an expert bot; full turns
    and half turns alternating) refereed by physics."""
    decisions = []
    for g in range(games):
        recorder = Recorder(make_referee("physics", PARAMS))
        config = GameConfig(players=("A", "B"), half_turn=g % 2 == 1)
        bots = [make_bot("skilled", "A", PARAMS), make_bot("expert", "B", PARAMS)]
        play_game(config, recorder, bots, 5000 + g, params=PARAMS)
        decisions += recorder.decisions
    return decisions


def check_floor(decisions, standing_at_least: int) -> None:
    standing = [d for d in decisions if not d.crashed]
    crashes = [d for d in decisions if d.crashed]
    assert len(standing) >= standing_at_least
    beyond = [w for w in map(worst_shortfall_m, (d.tower for d in standing)) if w > statics_tolerance_m(PARAMS) + 2e-5]
    assert not beyond, f"{len(beyond)} standing towers beyond the lens, up to {max(beyond) * 1000:.2f} mm"
    guarded = sum(1 for d in crashes if not d.fallen.in_slice)
    assert guarded <= 0.05 * len(crashes), f"{guarded} of {len(crashes)} crashes not simulated in the 2D world"


def test_no_standing_tower_leans_off_its_lens_in_skilled_and_expert_games_sample():
    check_floor(skilled_and_expert_decisions(8), standing_at_least=250)


@pytest.mark.slow
def test_no_standing_tower_leans_off_its_lens_in_skilled_and_expert_games():
    check_floor(skilled_and_expert_decisions(60), standing_at_least=2000)


def test_the_sampled_lens_distance_is_the_closed_form():
    """Two unit discs 1 apart: the lens's corners are at (0.5, +-sqrt(3)/2)."""
    assert outside_lens_m((0.5, 2.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0) == pytest.approx(2 - math.sqrt(3) / 2, abs=1e-6)
    assert outside_lens_m((-0.5, 0.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0) == pytest.approx(0.5, abs=1e-6)
    assert outside_lens_m((0.5, 0.0), (0.0, 0.0), 1.0, (1.0, 0.0), 1.0) == 0.0
