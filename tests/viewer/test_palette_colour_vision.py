"""The colours that carry meaning stay apart for people with a colour-vision deficiency.

Red-green colour blindness touches about 8% of boys and men: at a family table of four,
one in six or so. Every pair that must be told apart (the three barrel sizes, the three
sailors' caps and die faces, the gauge's three levels) differs by at least
:data:`MIN_DIFFERENCE` CIEDE2000 with normal vision and under simulated protanopia,
deuteranopia and tritanopia.
"""

from __future__ import annotations

import itertools

import pytest

from tests.viewer.colour_difference import DEFICIENCIES, ciede2000, seen_lab
from viewer import palette
from viewer.hud import LEVEL_COLOURS

MIN_DIFFERENCE = 20.0
"""CIEDE2000: far beyond the just-noticeable ~2, two colours a child names differently."""

# Sharma, Wu and Dalal (2005), Table 1: pairs 1, 2, 3, 7, 17, 18, 19, 20, 25 and their published differences
SHARMA_PAIRS = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
]


@pytest.mark.parametrize("lab1, lab2, published", SHARMA_PAIRS)
def test_ciede2000_gives_the_published_differences(lab1, lab2, published):
    assert ciede2000(lab1, lab2) == pytest.approx(published, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(published, abs=1e-4)


def _barrels_by_size() -> dict[str, tuple[int, int, int]]:
    from sim.params import load_params

    return {spec.name: palette.barrel_rgb(spec.colour) for spec in load_params().barrels}


GROUPS = {
    "barrels": _barrels_by_size,
    "sailor caps and die faces": lambda: dict(palette.SAILOR_CAPS),
    "balance gauge": lambda: dict(LEVEL_COLOURS),
}


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
@pytest.mark.parametrize("group", GROUPS)
def test_every_pair_that_carries_meaning_stays_apart(group, deficiency):
    colours = GROUPS[group]()
    assert len(colours) == 3
    close = {f"{a}/{b}": round(ciede2000(seen_lab(colours[a], deficiency), seen_lab(colours[b], deficiency)), 1)
             for a, b in itertools.combinations(colours, 2)}
    assert min(close.values()) >= MIN_DIFFERENCE, (group, deficiency or "normal vision", close)
