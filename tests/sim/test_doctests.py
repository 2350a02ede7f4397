"""Every example in the physics package's docstrings runs and prints what it says."""

import doctest
import importlib
import pkgutil

import pytest

import sim

MODULES = sorted(info.name for info in pkgutil.walk_packages(sim.__path__, "sim."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    assert doctest.testmod(module).failed == 0
