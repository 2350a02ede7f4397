"""One seeding scheme: a stream depends only on the root seed and its path."""

from __future__ import annotations

import numpy as np
import pytest

from sim.seeds import STREAMS, derived_seed, seed_sequence, stream


def test_a_stream_is_its_path_whatever_else_was_drawn():
    first = stream(5, "round", 2, "die").random(4)
    stream(5, "round", 1, "die").random(1000)  # drawing elsewhere changes nothing
    assert np.array_equal(first, stream(5, "round", 2, "die").random(4))


def test_paths_that_differ_anywhere_are_different_streams():
    paths = [("die",), ("shuffle",), ("bot", 0), ("bot", 1), ("round", 0, "die"), ("round", 0, "place"),
             ("round", 1, "die")]
    draws = {tuple(stream(3, *p).integers(0, 2**62, size=2)) for p in paths}
    assert len(draws) == len(paths)
    assert stream(3, "die").integers(2**62) != stream(4, "die").integers(2**62)


def test_a_stream_is_a_numpy_spawned_child():
    """The key is numpy's own spawn mechanism: the k-th child of the path's parent."""
    parent = seed_sequence(9, "round")
    assert seed_sequence(9, "round", 3).generate_state(2).tolist() == parent.spawn(4)[3].generate_state(2).tolist()


def test_derived_seeds_are_plain_non_negative_integers():
    seeds = {derived_seed(0, "game", g) for g in range(100)}
    assert len(seeds) == 100 and all(isinstance(s, int) and 0 <= s < 2**63 for s in seeds)


@pytest.mark.parametrize("path, problem", [(("dice",), "unknown random stream"), (("bot", -1), "whole number"),
                                           (("bot", 1.5), "whole number")])
def test_bad_paths_are_refused(path, problem):
    with pytest.raises(ValueError, match=problem):
        stream(0, *path)


def test_stream_codes_are_distinct():
    assert len(set(STREAMS.values())) == len(STREAMS)
