"""The registry: each name builds the class that answers to it, no two referees share a name, and a
registered name builds its factory (in a worker too) until it is undone."""

import importlib
import inspect
import pkgutil

import pytest

import sim.referees
from sim.params import load_params
from sim.referees import (
    BUILT_IN,
    added_referees,
    adopt_referees,
    make_referee,
    referee_names,
    register_referee,
    registered_referee,
    shared_referee,
    unregister_referee,
)


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


class Stub:
    """A referee that answers to a registered test name."""

    name = "stub"

    def __init__(self, params):
        self.params = params


def test_a_registered_name_builds_its_factory_and_goes_when_the_block_ends():
    params = load_params()
    with registered_referee("stub", Stub) as name:
        assert name in referee_names() and referee_names()[:4] == tuple(BUILT_IN)
        built = make_referee("stub", params)
        assert isinstance(built, Stub) and built.params is params
        assert shared_referee("stub", params) is shared_referee("stub", params)  # one per process
        assert added_referees() == {"stub": Stub}
    assert "stub" not in referee_names() and added_referees() == {}
    with pytest.raises(ValueError, match="unknown referee 'stub'; expected one of physics, fast, hybrid, loop"):
        make_referee("stub", params)


def test_a_stand_in_for_a_built_in_name_is_undone():
    params = load_params()
    with registered_referee("fast", Stub):
        assert isinstance(make_referee("fast", params), Stub)
        assert isinstance(shared_referee("fast", params), Stub)  # a registration empties the shared ones
    assert type(make_referee("fast", params)).__name__ == "FastReferee"
    assert type(shared_referee("fast", params)).__name__ == "FastReferee"


def test_a_taken_or_malformed_name_is_refused():
    with pytest.raises(ValueError, match="registered already"):
        register_referee("physics", Stub)
    for bad in ("", "two words", None):
        with pytest.raises(ValueError, match="non-empty word"):
            register_referee(bad, Stub)
    assert referee_names() == tuple(BUILT_IN)


def test_a_worker_adopts_what_its_parent_registered():
    with registered_referee("stub", Stub):
        added = added_referees()
    assert "stub" not in referee_names()
    try:
        adopt_referees(added)  # as a spawned worker's initializer does
        assert isinstance(make_referee("stub", load_params()), Stub)
    finally:
        unregister_referee("stub")
