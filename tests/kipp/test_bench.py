"""``kipp bench``: it runs (--quick) and its JSON carries every figure of DESIGN.md 7.

Benchmarks, not timed tests: the values are only checked to be sane.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kipp.bench import table
from kipp.cli import main


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
    assert isinstance(data["speedup_2_workers"], float) and 0.2 < data["speedup_2_workers"] < 4
    assert data["quick"] is True


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
