"""The die's colour faces are told apart by shape alone, as a colour-blind player needs."""

from __future__ import annotations

import itertools

import numpy as np
import pygame
import pytest

from viewer.die import paint_face
from viewer.symbols import SAILOR_SYMBOLS, SYMBOL_FILL


def _symbol_mask(face: str, side: int = 120) -> np.ndarray:
    surface = pygame.Surface((side, side), pygame.SRCALPHA)
    paint_face(surface, face)
    rgb = pygame.surfarray.array3d(surface).astype(int)
    return np.all(np.abs(rgb - np.array(SYMBOL_FILL)) <= 8, axis=2)


def test_every_sailor_has_its_own_shape():
    assert set(SAILOR_SYMBOLS) == {"red", "yellow", "blue"}
    assert len(set(SAILOR_SYMBOLS.values())) == 3


@pytest.mark.parametrize("a, b", list(itertools.combinations(sorted(SAILOR_SYMBOLS), 2)))
def test_two_faces_differ_in_the_shape_they_show(a, b):
    mask_a, mask_b = _symbol_mask(a), _symbol_mask(b)
    assert mask_a.sum() > 0.05 * mask_a.size and mask_b.sum() > 0.05 * mask_b.size  # a symbol is drawn, and large
    overlap = (mask_a & mask_b).sum() / (mask_a | mask_b).sum()
    assert overlap < 0.7, f"{a} and {b} symbols overlap {overlap:.0%}: too alike without colour"
