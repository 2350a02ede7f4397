"""Command-line tests: headless (SDL's dummy video driver, set before pygame is imported, as
in ``tests/viewer``), and a ``fast_referee`` fixture that swaps physics for the threshold
referee where a test is about the command, not the physics."""

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def threshold(params):
    """The stand-in of :func:`fast_referee`."""
    from tests.kipp.kipp_referees import ThresholdReferee

    return ThresholdReferee(seed=1, crash_rate=0.05, ship=params.ship)


@pytest.fixture
def fast_referee():
    """Every referee name builds :func:`threshold` (no physics) for the test."""
    from tests.kipp.kipp_referees import standing_in

    with standing_in(threshold):
        yield
