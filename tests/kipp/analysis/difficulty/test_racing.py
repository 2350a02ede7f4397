"""The race finds planted hardest and easiest orders, sure at the stated confidence, for
fewer rounds than a uniform sweep."""

from __future__ import annotations

import numpy as np
import pytest

from kipp.analysis.difficulty.racing import FindError, Question, parse_find, race


def _planted(n=400, seed=0):
    rng = np.random.default_rng(seed)
    mu = rng.uniform(5.0, 7.0, n)
    order = rng.permutation(n)
    hardest, easiest = order[:5], order[5:10]
    mu[hardest] = 3.0 + 0.2 * np.arange(5)  # clearly below the field, and ordered
    mu[easiest] = 9.0 + 0.2 * np.arange(5)

    def play(indices, rounds):
        out = []
        for k in rounds:  # a round's luck shared by all orders (common random numbers)
            r = np.random.default_rng([seed, k])
            luck, noise = r.normal(0, 1.5), r.normal(0, 0.8, n)
            out.append(np.rint(np.clip(mu + luck + noise, 0, 12))[indices])
        return np.array(out)

    return mu, hardest, easiest, play


def test_finds_the_planted_orders_surely_for_fewer_rounds():
    mu, hardest, easiest, play = _planted()
    result = race(len(mu), play, Question(hardest=5, easiest=5))
    assert result.sure
    assert sorted(result.hardest) == sorted(hardest.tolist())
    assert sorted(result.easiest) == sorted(easiest.tolist())
    assert result.rounds_played < result.uniform_rounds / 2


def test_stops_unsure_at_the_round_limit_when_two_orders_tie():
    mu, hardest, easiest, play = _planted()
    mu[easiest[0]] = mu[hardest[4]]  # a sixth order exactly as hard as the fifth hardest: never decided
    result = race(len(mu), play, Question(hardest=5), tolerance=0.0, max_rounds=256)
    assert not result.sure
    assert len(result.hardest) == 5


def test_a_tie_within_the_tolerance_is_decided_either_way():
    mu, hardest, easiest, play = _planted()
    mu[easiest[0]] = mu[hardest[4]]
    result = race(len(mu), play, Question(hardest=5), tolerance=0.3, max_rounds=4096)
    assert result.sure
    assert set(hardest[:4].tolist()) <= set(result.hardest)
    assert set(result.hardest) - set(hardest[:4].tolist()) <= {int(hardest[4]), int(easiest[0])}


def test_each_list_is_measured_against_its_own_field():
    """Hard orders shrug off the round's luck and easy ones follow it (as towers that fall early
    and towers that stand do): against a field of both, the hard orders' deviations would carry
    the easy ones' luck. Two near-tied hard orders, 0.06 apart, are told apart only when each
    list has its own field: with the noise alone (0.3 per round, 0.42 for a difference) 4,096
    rounds resolve 0.06 at Bonferroni confidence; with the luck (1.5 per round) they do not."""
    n, rng = 200, np.random.default_rng(3)
    mu = rng.uniform(5.0, 7.0, n)
    hard = np.arange(3)
    mu[hard] = [2.0, 2.5, 2.56]
    follows = np.where(np.arange(n) < 20, 0.0, 1.0)  # the 20 hardest-looking ones ignore the luck
    mu[3:20] = 3.5

    def play(indices, rounds):
        out = []
        for k in rounds:
            r = np.random.default_rng([3, k])
            luck, noise = r.normal(0, 1.5), r.normal(0, 0.3, n)
            out.append((mu + follows * luck + noise)[indices])
        return np.array(out)

    result = race(n, play, Question(hardest=2, easiest=1), tolerance=0.0, max_rounds=4096)
    assert result.sure
    assert sorted(result.hardest) == [0, 1]


@pytest.mark.parametrize("text, problem", [("hardest:0", "whole number"), ("worst:3", "hardest:N"),
                                           ("", "hardest:N, easiest:N"), ("easiest:400", "only 400")])
def test_bad_find_texts_say_what_is_expected(text, problem):
    with pytest.raises(FindError, match=problem):
        parse_find(text, 400)


def test_find_text_parts():
    assert parse_find("hardest:20, easiest:3", 100) == Question(20, 3)
    assert parse_find("easiest:2", 100) == Question(0, 2)
