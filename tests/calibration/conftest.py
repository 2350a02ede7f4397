import pytest

from calibration import SYNTHETIC_PATH, calibrate, load_measurements


@pytest.fixture(scope="session")
def synthetic():
    return load_measurements(SYNTHETIC_PATH)


@pytest.fixture(scope="session")
def synthetic_fit(synthetic):
    """The calibration of the SYNTHETIC set with the CLI's defaults (seed 0, 200 draws)."""
    return calibrate(synthetic, seed=0)
