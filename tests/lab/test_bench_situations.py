"""The benchmark situations: the shipped file, its generator and the margin fit on it."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from lab.bench_situations import DATA_FILE, BenchSituation, dumps, generate, load_situations
from lab.margin_fit import fit, read_situations
from sim.params import load_params, physics_fingerprint
from sim.referees.loop import LoopReferee


def test_shipped_set_matches_the_physics_parameters():
    params = load_params()
    stored = load_situations(check_params=params)
    assert len(stored) >= 300
    crashes = sum(s.crashed for s in stored)
    assert 0.2 < crashes / len(stored) < 0.8  # rich in turns near the threshold
    assert sum(abs(s.static_margin_deg) <= 1.5 for s in stored) >= len(stored) / 2
    assert any(s.placement is None for s in stored) and any(s.counterfactual for s in stored)
    assert all(BenchSituation.from_dict(s.to_dict()) == s for s in stored[:50])


def test_generator_labels_with_physics(tmp_path):
    params = load_params(overrides={"fast": {"place_margin_deg": 0.1}})
    data = generate(params, games=1, seed=3, count=6, near_deg=1.5)
    assert data["params"] == physics_fingerprint(params)
    assert data["generator"]["drawn_with_fast"]["place_margin_deg"] == 0.1  # the draw depends on them
    path = tmp_path / DATA_FILE
    path.write_text(dumps(data), encoding="utf-8")
    situations = load_situations(path, check_params=params)
    assert len(situations) == 6
    first = situations[0]
    assert LoopReferee(params).decide(*first.situation).crashed == first.crashed
    assert LoopReferee(params, plain=True).decide(*first.situation).crashed == first.crashed_plain


def test_loader_rejects_other_files_and_other_physics(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    with pytest.raises(ValueError, match="not a kipp-benchmark-situations"):
        load_situations(path)
    other = load_params(overrides={"friction": {"mu": 0.6}})
    with pytest.raises(ValueError, match="regenerate"):
        load_situations(check_params=other)


def test_margin_fit_reproduces_the_shipped_margins():
    """The fit on the shipped set gives the [fast] defaults (sim/default_params.toml)."""
    params = load_params()
    from lab.margin_fit import DEFAULT_SITUATIONS

    situations, labels = read_situations(DEFAULT_SITUATIONS)
    result = fit(params, situations, labels)
    fast = params.fast
    assert result.turn_margin_deg == pytest.approx(fast.turn_margin_deg, abs=0.01)
    assert result.turn_margin_deg_per_m == pytest.approx(fast.turn_margin_deg_per_m, abs=0.05)
    assert result.turn_margin_s2 == pytest.approx(fast.turn_margin_s2, abs=0.002)
    assert result.place_margin_deg == pytest.approx(fast.place_margin_deg, abs=0.01)
    assert result.hybrid_band_deg == pytest.approx(fast.hybrid_band_deg, abs=1e-9)
    assert result.hybrid_agreement >= 0.99 and result.fast_agreement > 0.9
    assert "[fast]" in result.toml()


def test_the_shipped_sets_draw_margins_leave_the_physics_alone():
    """``lab/data/benchmark_draw_params.toml`` (the margins the shipped set was drawn under)
    changes only the fast referee: the set's physics labels stand under it."""
    draw = load_params(resources.files("lab").joinpath("data", "benchmark_draw_params.toml"))
    assert draw.fast != load_params().fast
    load_situations(check_params=draw)  # same physics fingerprint
