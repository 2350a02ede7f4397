"""The default solver is converged: close calls keep their verdicts when the step rate and
the solver iterations are both doubled (DESIGN.md 3: at most 1% of the benchmark set may
change; ``python -m lab.solver_sensitivity`` measures the whole set).

The close calls are the benchmark situations with the smallest static margin (the
benchmark set's own measure of closeness, :mod:`lab.bench_situations`): the 30 nearest.
At 480 Hz x 40 iterations and 0.1 mm slop (the setting shipped before) 2 of them flip. Not
every flip is among them: at the default, 3 of the 500 flip, at static-margin ranks 91, 151 and
152 (measured on the set with leaning towers, physics revision 3); a stratified sample of the set
is the slow test below, the whole set the ``full`` one (``pytest -m full``).
"""

from dataclasses import replace

import numpy as np
import pytest

from lab.bench_situations import load_situations, stratified_sample
from sim.params import Params, load_params
from sim.referees.loop import LoopReferee

PARAMS = load_params()
SITUATIONS = load_situations()
NEAREST = 30
"""How many of the closest calls the default-run checks judge."""


def doubled(params: Params) -> Params:
    solver = params.solver
    return replace(params, solver=replace(solver, steps_per_second=2 * solver.steps_per_second,
                                          iterations=2 * solver.iterations))


def closest(count: int) -> list:
    """The ``count`` situations with the smallest static margin (either sign), nearest first."""
    margins = np.abs([s.static_margin_deg for s in SITUATIONS])
    return [SITUATIONS[i] for i in np.argsort(margins, kind="stable")[:count]]


def changed(params: Params, situations) -> list[int]:
    """Indices (into ``situations``) whose verdict changes when rate and iterations double."""
    coarse, fine = LoopReferee(params), LoopReferee(doubled(params))
    return [i for i, s in enumerate(situations)
            if coarse.decide(*s.situation).crashed != fine.decide(*s.situation).crashed]


def test_close_calls_keep_their_verdicts_when_rate_and_iterations_double():
    sample = closest(NEAREST)
    crashes = sum(LoopReferee(PARAMS).decide(*s.situation).crashed for s in sample)
    assert 0 < crashes < len(sample)  # close calls indeed: both outcomes occur
    # the whole set may change on 1% (below); of these nearest, at most 1 (at the default: none)
    assert len(changed(PARAMS, sample)) <= 1, changed(PARAMS, sample)


def test_the_check_can_fail_at_the_setting_shipped_before():
    # 480 Hz x 40 iterations, slop 0.1 mm flips 2 of these 30 (measured; 14 of the 500 of the casual set before)
    old = replace(PARAMS, solver=replace(PARAMS.solver, steps_per_second=480, iterations=40, collision_slop_m=0.0001))
    assert len(changed(old, closest(NEAREST))) > 1


@pytest.mark.slow
def test_a_stratified_sample_of_the_benchmark_set_changes_on_at_most_1_percent():
    """The whole-set check below on a smaller budget: the 260 closest calls and every 10th of the
    other 240 (:func:`lab.bench_situations.stratified_sample`), the estimated count of changed
    verdicts over the set within 1% (at the default: the 3 flips, ranks 91, 151 and 152, all among
    the closest; one flip among the others would count 10 and fail)."""
    sample = stratified_sample(SITUATIONS)
    flips = changed(PARAMS, [s.situation for s in sample])
    assert sum(sample[i].weight for i in flips) <= len(SITUATIONS) // 100, flips


@pytest.mark.slow
@pytest.mark.full
def test_the_whole_benchmark_set_changes_on_at_most_1_percent():
    assert len(changed(PARAMS, SITUATIONS)) <= len(SITUATIONS) // 100
