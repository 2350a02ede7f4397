"""The hybrid referee: fast where the margin is clear, physics in the band; agreement >= 99%."""

from __future__ import annotations

import numpy as np

from lab.bench_situations import load_situations
from sim.params import load_params
from sim.referees import make_referee
from sim.referees.fast import FastReferee
from sim.referees.hybrid import HybridReferee
from sim.tower import Decision


class _CountingPhysics:
    """Stands in for physics: every decision a crash in phase ``"stub"``, and counted."""

    def __init__(self):
        self.calls = []

    def decide(self, tower, placement, turn):
        self.calls.append((tower, placement, turn))
        return Decision(True, tower, "stub", "stub physics")


def test_hybrid_agrees_with_physics_on_the_benchmark_set():
    """On the stored set, physics decides the band (its stored label), fast the rest."""
    params = load_params()
    stored = load_situations(check_params=params)
    referee = HybridReferee(params, physics=_CountingPhysics())
    decisions = referee.decide_batch([s.situation for s in stored])
    fast = FastReferee(params).decide_batch([s.situation for s in stored])
    fast_agreement = np.mean([d.crashed == s.crashed for d, s in zip(fast, stored)])
    hybrid_agreement = np.mean([(d.phase == "stub") or (d.crashed == s.crashed) for d, s in zip(decisions, stored)])
    assert hybrid_agreement >= 0.99
    assert fast_agreement >= 0.9
    # the set is mostly close calls by construction (about 8% of decisions in games go to physics);
    # still, the hybrid must decide most of it without physics
    assert 0 < referee.physics_calls < len(stored) / 2


def test_physics_only_inside_the_band_and_batch_equals_one_by_one():
    params = load_params()
    situations = [s.situation for s in load_situations()][:120]
    closest = FastReferee(params).assess_batch(situations).closest_deg()
    one = HybridReferee(params, physics=_CountingPhysics())
    singles = [one.decide(*s) for s in situations]
    batch = HybridReferee(params, physics=_CountingPhysics())
    assert batch.decide_batch(situations) == singles
    in_band = closest < params.fast.hybrid_band_deg
    assert [d.phase == "stub" for d in singles] == list(in_band)
    assert one.physics_calls == batch.physics_calls == int(in_band.sum()) == len(one.physics.calls)
    assert one.decisions == len(situations)


def test_band_decisions_are_the_physics_referees():
    params = load_params()
    stored = load_situations()
    situations = [s.situation for s in stored]
    closest = FastReferee(params).assess_batch(situations).closest_deg()
    pick = int(np.argmax(closest < params.fast.hybrid_band_deg))
    hybrid = HybridReferee(params)
    decision = hybrid.decide(*situations[pick])
    assert hybrid.physics_calls == 1
    assert decision == make_referee("physics", params).decide(*situations[pick])  # the physics of --referee physics
    assert decision.crashed == stored[pick].crashed
