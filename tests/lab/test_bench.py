"""``kipp bench``: it runs (--quick) and its JSON carries every figure of DESIGN.md 7.

Benchmarks, not timed tests: the values are only checked to be sane.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kipp.cli import main
from lab.bench import agreement, table
from lab.bench_situations import load_situations
from sim.params import load_params
from sim.referees.hybrid import HybridReferee
from sim.tower import Decision


@pytest.fixture(scope="module")
def quick_json():
    result = CliRunner().invoke(main, ["bench", "--quick", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_quick_json_has_every_figure(quick_json):
    data = quick_json
    for key in ("physics_plain_turn_ms_median", "physics_turn_ms_median", "physics_turn_ms_p90"):
        assert isinstance(data[key], float) and 0 < data[key] < 10_000
    assert data["physics_turn_ms_median"] <= data["physics_turn_ms_p90"]
    for key in ("fast_decisions_per_s", "fast_batch_decisions_per_s"):
        assert isinstance(data[key], float) and data[key] > 100
    rounds = data["rounds_per_s_per_core"]
    assert set(rounds) == {"physics", "fast", "hybrid"}
    assert all(isinstance(v, float) and v > 0 for v in rounds.values())
    assert rounds["fast"] > rounds["physics"]
    assert set(data["agreement"]) >= {"fast", "hybrid"}
    assert all(0.0 <= v <= 1.0 for v in data["agreement"].values())
    assert data["agreement"]["hybrid"] >= 0.99
    for key in ("speedup_2_workers", "machine_speedup_2_processes"):
        assert isinstance(data[key], float) and 0.2 < data[key] < 4
    assert data["quick"] is True


class _StoredPhysics:
    """Stands in for physics on the benchmark set: each situation's stored physics decision.

    That is what :class:`~sim.referees.loop.LoopReferee` would decide again (it is
    deterministic, and the set's fingerprint ties the labels to these parameters), so the
    hybrid's decisions below are the real ones without running pymunk.
    """

    def __init__(self, stored):
        self.labels = {tuple(map(id, s.situation)): s.crashed for s in stored}
        self.calls = 0

    def decide(self, tower, placement, turn):
        self.calls += 1
        return Decision(self.labels[(id(tower), id(placement), id(turn))], tower, "stored", "stored physics")


def test_hybrid_agreement_comes_from_the_hybrids_own_routing():
    """HybridReferee.decide_batch routes the set itself; outside its band the fast decision must
    match the stored physics label often enough for >= 99% agreement, and the bench says the same."""
    params = load_params()
    stored = load_situations(check_params=params)
    physics = _StoredPhysics(stored)
    hybrid = HybridReferee(params, physics=physics)
    decisions = hybrid.decide_batch([s.situation for s in stored])
    agree = [d.crashed == s.crashed for d, s in zip(decisions, stored)]
    outside = [a for a, d in zip(agree, decisions) if d.phase != "stored"]
    assert 0 < physics.calls == hybrid.physics_calls < len(stored) / 2  # a set of close calls
    assert len(outside) == len(stored) - physics.calls and not all(outside)  # the fast part can disagree
    assert sum(agree) / len(stored) >= 0.99
    figures = agreement(params)
    assert figures["agreement"]["hybrid"] == sum(agree) / len(stored)
    assert figures["hybrid_physics_share"] == physics.calls / len(stored)


def test_table_names_every_figure(quick_json):
    text = table(quick_json)
    for words in ("plain loop", "p90", "batched", "rounds per CPU second, hybrid", "agreement with physics, fast",
                  "2 workers"):
        assert words in text


def test_installed_command_help():
    done = subprocess.run([sys.executable, "-m", "kipp", "bench", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "--quick" in done.stdout and "--json" in done.stdout


def test_bad_option_is_one_line_exit_2():
    result = CliRunner().invoke(main, ["bench", "--params", "/nonexistent.toml"])
    assert result.exit_code == 2
    assert "Error: --params" in result.output and "Traceback" not in result.output
