"""The registry: each name builds the class that answers to it, and no two referees share a name."""

import importlib
import inspect
import pkgutil

import pytest

import sim.referees
from sim.params import load_params
from sim.referees import make_referee, referee_names


def referee_classes() -> list[type]:
    """Every class of the family that decides (has ``decide`` and a ``name``)."""
    found = []
    for info in pkgutil.iter_modules(sim.referees.__path__, "sim.referees."):
        module = importlib.import_module(info.name)
        found += [c for _, c in inspect.getmembers(module, inspect.isclass)
                  if c.__module__ == module.__name__ and hasattr(c, "decide") and hasattr(c, "name")]
    return found


@pytest.mark.parametrize("name", referee_names())
def test_each_name_builds_a_referee_that_answers_to_it(name):
    referee = make_referee(name, load_params())
    assert referee.name == name
    assert type(referee).__name__.lower().startswith(name)  # findable from its name: physics -> PhysicsReferee


def test_no_two_referee_classes_answer_to_the_same_name():
    names = [c.name for c in referee_classes()]
    assert len(names) >= 5  # loop, compound, physics, fast, hybrid
    assert len(names) == len(set(names)), sorted(names)


def test_an_unknown_name_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="physics, fast, hybrid"):
        make_referee("exact", load_params())
