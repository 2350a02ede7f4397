"""Playing round k once per shared prefix gives every order exactly its own round k."""

from __future__ import annotations

import numpy as np
import pytest

from kipp.analysis.orders import all_orders, sample_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.shared_rounds import OrderTree, play_round_shared
from sim.params import load_params
from sim.referees import make_referee
from tests.kipp.kipp_referees import ThresholdReferee

PARAMS = load_params()


@pytest.mark.parametrize("player", ["casual", "skilled"])
def test_every_order_gets_its_own_round(player):
    referee = ThresholdReferee(seed=1, crash_rate=0.04, tilt_budget_deg=60.0, ship=PARAMS.ship)
    model = RoundModel(barrels=9, player=player)
    bot, config = model.bot(PARAMS), model.config()
    orders = list(all_orders(9))[::-1]  # not in tree order: results come back in the caller's
    tree = OrderTree(orders)
    for k in range(3):
        shared = play_round_shared(tree, referee, bot, config, PARAMS.ship, 7, k)
        alone = [play_round(o, referee, bot, config, 7, k) for o in orders]
        assert shared.completed.tolist() == [r.completed for r in alone]
        assert shared.stacked.tolist() == [r.stacked for r in alone]
        assert shared.nodes < sum(r.stacked + 1 for r in alone)  # the point: less work


def test_with_the_fast_referee_on_twelve_barrels():
    referee = make_referee("fast", PARAMS)
    model = RoundModel(player="skilled")
    bot, config = model.bot(PARAMS), model.config()
    orders = sample_orders(60, 12, seed=3)
    tree = OrderTree(orders)
    for k in range(2):
        shared = play_round_shared(tree, referee, bot, config, PARAMS.ship, 2, k, "anchor")
        alone = [play_round(o, referee, bot, config, 2, k, "anchor") for o in orders]
        assert np.array_equal(shared.stacked, [r.stacked for r in alone])
        assert np.array_equal(shared.completed, [r.completed for r in alone])


def test_a_tree_needs_orders_of_one_length():
    with pytest.raises(ValueError, match="one length"):
        OrderTree([("large",) * 3, ("large",) * 2])


@pytest.mark.slow
def test_with_the_physics_referee():
    """Physics rebuilds its world from the tower at every decision, so sharing prefixes is exact there too."""
    referee = make_referee("physics", PARAMS)
    model = RoundModel(barrels=9)
    bot, config = model.bot(PARAMS), model.config()
    orders = sample_orders(8, 9, seed=4)
    tree = OrderTree(orders)
    for k in range(2):
        shared = play_round_shared(tree, referee, bot, config, PARAMS.ship, 1, k, "holdout")
        assert shared.stacked.tolist() == [play_round(o, referee, bot, config, 1, k, "holdout").stacked for o in orders]
