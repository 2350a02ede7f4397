"""The pass rule's calibration check records every turn of a round and its outcome."""

from __future__ import annotations

import pytest

from lab.pass_calibration import ALLOWANCES_DEG, report, turns_of_round


@pytest.mark.parametrize("k", [0, 1, 2])
def test_every_turn_is_recorded_and_only_the_last_can_crash(k):
    turns = turns_of_round("skilled", "fast", seed=3, k=k)
    assert turns, "a round has at least one turn"
    assert all(crashed == 0 for _, crashed in turns[:-1])
    for estimates, _ in turns:
        assert len(estimates) == len(ALLOWANCES_DEG) and all(0.0 <= p <= 1.0 for p in estimates)
        # less tilt to spare after the turn can only make the static check fail less often
        assert list(estimates) == sorted(estimates)


def test_report_counts_the_turns_the_rule_would_pass():
    """At two players the rule passes above 0.4 (kipp.players.bots.pass_threshold): 0.45 passes."""
    n = len(ALLOWANCES_DEG)
    turns = [((0.9,) * n, 1), ((0.9,) * n, 0), ((0.45,) * n, 0), ((0.1,) * n, 0)]
    r = report(turns)["allowances"]["0.5"]
    assert r["would_pass"] == 3 and r["crash_rate_when_passing"] == pytest.approx(1 / 3)
    assert r["crash_rate_when_playing"] == 0.0
    assert r["brier"] == pytest.approx((0.1**2 + 0.9**2 + 0.45**2 + 0.1**2) / 4)
