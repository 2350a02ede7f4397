"""``kipp design`` on a stand-in referee whose answer is known: the round is completed with
probability exactly expit(A + B x) at thread pitch x mm, so the pitch for a target rate t is
(logit(t) - A) / B. Over repeated seeds the 95% interval covers it at about its nominal rate;
an unreachable target is said to be so; bad questions are one-line errors."""

from __future__ import annotations

import math
from dataclasses import replace
from statistics import NormalDist

import pytest
from click.testing import CliRunner

from kipp.analysis.executor import Execution
from kipp.analysis.parameters.design import DesignError, Unreachable, ask, design, fit_logistic, invert
from kipp.analysis.rounds import RoundModel
from kipp.cli import main
from sim.tower import Decision, TowerState
from tests.kipp.kipp_referees import _placed, standing_in

A, B = 4.0, -1.2
"""The stand-in's response: P(complete) = expit(A + B x), x the thread pitch in mm (0.73 at 2.5, 0.12 at 5)."""


def truth(target: float) -> float:
    return (math.log(target / (1 - target)) - A) / B


class LogisticReferee:
    """The first barrel's placement error u ~ N(0, sigma) (the bot's, per axis) makes Phi(u / sigma)
    uniform on (0, 1); the round crashes there when it exceeds expit(A + B x), else every later
    decision stands. So P(complete) is exactly expit(A + B x), and round k's luck is shared
    across pitches (a round completed at one pitch is completed at every easier one)."""

    def __init__(self, params):
        pitch_mm = params.ship.thread_pitch_m * 1000
        self.p = 1 / (1 + math.exp(-(A + B * pitch_mm)))
        self.sigma_m = params.placement.sigma_m

    def new_tower(self) -> TowerState:
        return TowerState()

    def decide(self, tower, placement, turn):
        if placement is not None:
            first = not tower.barrels
            tower = _placed(tower, placement)
            if first and NormalDist().cdf(placement.x_m / self.sigma_m) > self.p:
                return Decision(True, tower, "place", "stand-in")
        if turn is not None:
            tower = tower.with_turn(turn.sailor, turn.revolutions)
        return Decision(False, tower)


CASUAL = RoundModel(player="casual")


@pytest.fixture(autouse=True)
def _logistic_is_fast():
    """The questions of these tests are asked of the ``fast`` referee (their default): the stand-in."""
    with standing_in(LogisticReferee, ("fast",)):
        yield


def test_the_logistic_fit_recovers_a_known_response():
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.uniform(2.5, 5, 20000)
    done = (rng.uniform(size=x.size) < 1 / (1 + np.exp(-(A + B * x)))).astype(float)
    a, b = fit_logistic(x, done)
    assert a == pytest.approx(A, abs=0.15) and b == pytest.approx(B, abs=0.05)
    assert invert(a, b, 0.3) == pytest.approx(truth(0.3), abs=0.03)


def _coverage(seeds: int, rounds: int, target: float) -> tuple[int, list[float]]:
    covered, widths = 0, []
    for seed in range(seeds):
        answer = design(ask(CASUAL, "ship.thread_pitch_mm", target, seed=seed, rounds=rounds))
        covered += answer.low <= truth(target) <= answer.high
        widths.append(answer.high - answer.low)
    return covered, widths


def test_the_interval_covers_the_known_answer_at_about_its_nominal_rate():
    """40 seeds: at 95% nominal, 7 or more misses happen with probability 0.5%; at 80% coverage, 6 or
    fewer with 0.3, so a badly undercovering interval is likely caught."""
    covered, widths = _coverage(40, 60, 0.3)
    assert covered >= 34, f"{covered} of 40 covered"
    assert max(widths) < 1.0  # and the interval says something (the range is 2.5 mm)


@pytest.mark.slow
def test_the_interval_covers_the_known_answer_at_its_nominal_rate_over_many_seeds():
    """120 seeds at another target: 108 to 118 covered, the binomial band of 95% nominal coverage
    (outside it with probability 2.3%; an interval covering only 85% passes with probability 7.5%)."""
    covered, _ = _coverage(120, 80, 0.5)
    assert 108 <= covered <= 118, f"{covered} of 120"


def test_a_target_out_of_reach_is_said_to_be_so():
    with pytest.raises(Unreachable, match=r"--target 0.95: not reached for ship.thread_pitch_mm within 2.5 to 5"):
        design(ask(CASUAL, "ship.thread_pitch_mm", 0.95, seed=1, rounds=40))


def test_the_plausible_range_comes_from_the_sensitivity_table_else_the_file():
    assert (ask(CASUAL, "ship.thread_pitch_mm", 0.3).low, ask(CASUAL, "ship.thread_pitch_mm", 0.3).high) == (2.5, 5.0)
    q = ask(CASUAL, "barrels.large.mass_g", 0.3)
    assert (q.low, q.high) == pytest.approx((15.5 * 0.8, 15.5 * 1.2))
    q = ask(CASUAL, "settle.energy_fraction", 0.3)
    assert (q.low, q.high) == (0.0, 1.0)
    for key in ("ship.nope", "turn.profile", "solver.iterations"):
        with pytest.raises(DesignError):
            ask(CASUAL, key, 0.3)


def test_the_answer_does_not_depend_on_the_workers_and_resumes(tmp_path):
    question = ask(CASUAL, "ship.thread_pitch_mm", 0.3, seed=2, rounds=40)
    one = design(question, out=tmp_path / "d.sqlite")
    again = design(question, out=tmp_path / "d.sqlite")  # nothing left to play
    two = design(question, execution=Execution(workers=2))
    assert one == again == two
    assert replace(question, seed=3) != question


def test_cli_answer_and_errors():
    result = CliRunner().invoke(main, ["design", "--target", "0.3", "--games", "40", "--workers", "1",
                                       "--no-progress", "--referee", "fast"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ship.thread_pitch_mm = ") and "gives P(complete) = 0.3 for casual" in result.output
    for args, text in ((["--target", "0.99"], "--target 0.99: not reached"), ([], "--target: which completion rate"),
                       (["--target", "0.3", "--param", "ship.nope"], "--param: 'ship.nope' is not a numeric key"),
                       (["--target", "0.3", "--range", "5,2"], "--range: expected")):
        bad = CliRunner().invoke(main, ["design", "--games", "20", "--workers", "1", "--no-progress", *args])
        lines = bad.output.strip().splitlines()
        assert bad.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error:") and text in lines[0], \
            bad.output
