"""The player models' family words (the start screen's): plain words, no claims of strength.

The technical one-line description (``describe``, used by ``--help``) keeps the engineering
words; the family words must not use them, must not rank the models beyond what the models
are made of (the hand's error), and are German in the catalogue.
"""

from __future__ import annotations

import re

import pytest

from kipp.language import Language
from kipp.players.models import MODELS
from sim.params import load_params

TECHNICAL = ("mm", "parameter", "sigma", "policy", "gymnasium", "cma", "estimate", "n/(2n+1)", "weights",
             "centre", "leveler", "joint", "referee", "physics")
"""Words of :meth:`~kipp.players.models.PlayerModel.describe` and of the code a family does not use."""
STRENGTH = ("better", "best", "stronger", "strongest", "weaker", "weakest", "beats", "wins more", "always wins",
            "rarely", "never falls", "unbeatable")
"""Claims of strength (or of how often a tower falls): none of them was measured for every model."""


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z/()+0-9]+", text.lower()))


@pytest.mark.parametrize("name", list(MODELS))
def test_family_words_are_plain_and_claim_no_strength(name):
    words = MODELS[name].family_words
    assert words and words[0].isupper() and words.endswith("."), f"{name}: one or two sentences"
    assert len(words) <= 160, f"{name}: short enough for three lines of the start screen"
    found = _words(words)
    assert not [w for w in TECHNICAL if w in found], f"{name}: {words}"
    assert not [w for w in STRENGTH if w in words.lower()], f"{name}: {words}"
    assert words != MODELS[name].describe()


def test_the_hand_words_follow_the_hands():
    """"steadiest" only for the models with the smallest placement error, "shaky" only for the largest."""
    default = load_params().placement.sigma_m * 1000.0
    sigma = {name: m.sigma_mm if m.sigma_mm is not None else default for name, m in MODELS.items()}
    steadiest = {name for name, m in MODELS.items() if "steadiest" in m.family_words}
    shaky = {name for name, m in MODELS.items() if "shaky" in m.family_words}
    assert steadiest == {name for name, s in sigma.items() if s == min(sigma.values())}
    assert shaky == {name for name, s in sigma.items() if s == max(sigma.values())}


@pytest.mark.parametrize("name", list(MODELS))
def test_family_words_are_german_in_the_catalogue(name):
    english = MODELS[name].family_words
    assert Language("de").gettext(english) != english
