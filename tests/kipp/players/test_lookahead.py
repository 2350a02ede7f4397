"""The lookahead player: it asks the referee only about legal aims on the barrel below (within the
rules' limit and the balance judge's reach of the top barrel's centre), its hand still errs,
it turns a sailor the tower survives when one does, and it beats the skilled model on the same
rounds (the fast referee decides; the lookahead bot asks the same one)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kipp.analysis.orders import sample_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.skill_ceiling import format_ceiling, lookahead_round, skill_ceiling
from kipp.players.balance import AIM_REACH
from kipp.players.lookahead import LookaheadBot
from kipp.rules.actions import PLACE_LIMIT_MM
from sim.params import load_params
from sim.referees import shared_referee

PARAMS = load_params()


class Asked:
    """Wraps a referee: every question the bot asks, with the tower it was asked about."""

    def __init__(self, referee):
        self.referee, self.questions = referee, []

    def new_tower(self):
        return self.referee.new_tower()

    def decide(self, tower, placement, turn):
        self.questions.append((tower, placement, turn))
        return self.referee.decide(tower, placement, turn)


@pytest.mark.parametrize("barrels, half", [(12, False), (9, True)])
def test_it_never_asks_about_an_aim_the_rules_or_the_barrel_below_forbid(barrels, half):
    fast = shared_referee("fast", PARAMS)
    asked = Asked(fast)
    bot = LookaheadBot("Sailor", sigma_mm=1.0, aim="balance", params=PARAMS, referee=asked, journal=[])
    model = RoundModel(barrels, half)
    radius = {b.name: b.end_diameter_m / 2 for b in PARAMS.barrels}
    for k, order in enumerate(sample_orders(12, barrels, seed=3)):
        play_round(order, fast, bot, model.config(), 2, k)
    placements = [(t, p) for t, p, _ in asked.questions if p is not None]
    assert len(placements) > 500
    for tower, p in placements:
        assert abs(p.x_m) * 1000 <= PLACE_LIMIT_MM and abs(p.y_m) * 1000 <= PLACE_LIMIT_MM
        if not tower.barrels:
            assert (p.x_m, p.y_m) == (0.0, 0.0)  # the recess centres the first barrel
            continue
        top = tower.barrels[-1]
        reach = AIM_REACH * min(radius[p.size], radius[top.size])
        assert math.hypot(p.x_m - top.x_m, p.y_m - top.y_m) <= reach * (1 + 1e-9)
    turns = [t for _, p, t in asked.questions if t is not None]
    assert all(t.revolutions == (0.5 if half else 1.0) for t in turns)


@pytest.mark.parametrize("sigma_mm", [0.0, 1.0])
def test_it_sets_the_barrel_at_an_aim_it_asked_about_then_its_hand_errs(sigma_mm):
    """Without execution error every barrel after the first lands (to the micrometre) on an aim it
    asked about for that tower; with 1 mm it hardly ever does."""
    fast = shared_referee("fast", PARAMS)
    bot_asked, game = Asked(fast), Asked(fast)
    bot = LookaheadBot("Sailor", sigma_mm=sigma_mm, aim="balance", params=PARAMS, referee=bot_asked)
    for k, order in enumerate(sample_orders(4, 12, seed=1)):
        play_round(order, game, bot, RoundModel().config(), 5, k)
    on_an_aim = []
    for tower, p, _ in game.questions:
        if p is None or not tower.barrels:
            continue
        aims = [(q.x_m, q.y_m) for t, q, _ in bot_asked.questions if q is not None and t == tower]
        on_an_aim.append(min(math.hypot(p.x_m - x, p.y_m - y) for x, y in aims) <= 1e-6)
    assert on_an_aim and (all(on_an_aim) if sigma_mm == 0 else np.mean(on_an_aim) < 0.1)


def test_it_needs_a_referee():
    with pytest.raises(ValueError, match="hand it one"):
        LookaheadBot("Sailor", aim="balance", params=PARAMS)


def test_with_a_steady_hand_it_completes_more_than_the_skilled_model_on_the_same_rounds():
    """The lookahead bot knows the referee's verdict of every aim it tries: it must do better
    than a player who judges by eye, on the very same rounds."""
    rows = skill_ceiling(40, PARAMS, referee="fast", seed=1, variants=("standard",), sigmas_mm=(0.5,))
    (row,) = rows
    assert row.ceiling[0] > row.skilled[0]
    assert 0 <= row.luck[0] <= 1 - row.ceiling[0] + 1e-12  # luck counts lost rounds only
    assert "lookahead completes" in format_ceiling(rows, "fast")


def test_a_round_is_replayable_and_the_same_on_one_and_two_workers():
    fast = shared_referee("fast", PARAMS)
    bot = LookaheadBot("Sailor", sigma_mm=0.5, aim="balance", params=PARAMS, referee=fast, journal=[])
    line = sample_orders(1, 12, seed=9)[0]
    assert lookahead_round(line, bot, RoundModel(), 3, 4) == lookahead_round(line, bot, RoundModel(), 3, 4)
    one = skill_ceiling(12, PARAMS, seed=2, variants=("half turns",), sigmas_mm=(1.0,))
    two = skill_ceiling(12, PARAMS, seed=2, variants=("half turns",), sigmas_mm=(1.0,), workers=2)
    assert one == two and np.isfinite(one[0].ceiling[0])
