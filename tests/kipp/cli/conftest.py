"""Command-line tests: headless (SDL's dummy video driver, set before pygame is imported, as
in ``tests/viewer``), and a ``fast_referee`` fixture that swaps physics for the threshold
referee where a test is about the command, not the physics."""

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture
def fast_referee(monkeypatch):
    import kipp.cli.options
    from tests.kipp.kipp_referees import ThresholdReferee

    monkeypatch.setattr(kipp.cli.options, "make_referee",
                        lambda name, params: ThresholdReferee(seed=1, crash_rate=0.05, ship=params.ship))
