"""The project's one way from a seed to random numbers: a root seed and named spawn keys.

Every random draw of the project (games, sweeps, benchmark sets, synthetic measurements,
fits) comes from ``numpy.random.SeedSequence(root, spawn_key=key)``, where ``key`` is a
path of stream names (:data:`STREAMS`, each a fixed integer) and indices. A stream depends
on nothing but the root seed and its path: not on how many other streams were drawn, on the
number of workers, or on the order in which tasks run. Two paths that differ anywhere are
independent streams.

The paths in use (``i``, ``k``, ``g`` indices):

- a game from its seed: ``("die",)``, ``("shuffle",)``, ``("bot", i)`` for seat ``i``;
- ``kipp compare``: game ``g`` of every arm plays from the seed ``derived_seed(root, "game", g)``;
- ``kipp tune``: round ``k`` draws from ``("round", k, "die")``, ``("round", k, "place")`` and
  ``("round", k, "wild")``; a sample of orders from ``("order sample",)``; the physics-quality
  estimate's anchor round ``j`` from ``("anchor", j, ...)`` (its order from
  ``("anchor", j, "order sample")``) and the coverage check's reference rounds from
  ``("holdout", k, ...)``; the panel of top-up round ``j`` of stage ``s`` from
  ``("topup panel", s, j)``; the confirmation of a sweep's extremes
  (:mod:`kipp.analysis.difficulty.confirm`) from ``("confirm", k, ...)``;
- ``kipp sensitivity`` and ``kipp design``: round ``k`` of every arm draws from
  ``("sensitivity", k, ...)`` (as ``kipp tune``'s), its line from ``("sensitivity line", k, barrels)``;
  the fixed panel of orders from ``("sensitivity panel", barrels)`` under a fixed root; bootstrap
  resamples from ``("bootstrap",)``; the design's arms from ``("design", ...)``;
- the benchmark situations: their games from ``derived_seed(root, "benchmark game", g)``,
  their selection from ``("benchmark selection",)``; the physics turn situations from
  ``("turn situation", i)``;
- calibration: a synthetic measurement set from ``("synthetic",)``, a likelihood fit's
  Monte Carlo draws from ``("likelihood",)``.
- ``python -m lab.train_player``: the optimiser's draws from ``("training",)``; ``python -m
  lab.order_effect``: its orders from ``("order effect", "order sample")``, order ``i``'s rounds from
  ``("order effect", i * rounds + k, ...)``.

>>> def die(k):
...     return int(stream(7, "round", k, "die").integers(1000))
>>> die(3) == die(3), die(3) == die(4)
(True, False)
"""

from __future__ import annotations

import numpy as np

STREAMS: dict[str, int] = {name: code for code, name in enumerate((
    "die", "shuffle", "bot", "game", "round", "place", "wild", "order sample", "benchmark game",
    "benchmark selection", "turn situation", "synthetic", "likelihood", "anchor", "holdout", "paired",
    "topup panel", "confirm", "training",
    "sensitivity", "sensitivity line", "sensitivity panel", "bootstrap", "design", "order effect"), start=1)}
"""Stream name -> the integer it stands for in a spawn key (fixed: results depend on them)."""


def _key(path: tuple[str | int, ...]) -> tuple[int, ...]:
    key = []
    for part in path:
        if isinstance(part, str):
            if part not in STREAMS:
                raise ValueError(f"unknown random stream {part!r}; known: {', '.join(STREAMS)}")
            key.append(STREAMS[part])
        else:
            if int(part) != part or part < 0:
                raise ValueError(f"a stream index must be a whole number >= 0, got {part!r}")
            key.append(int(part))
    return tuple(key)


def seed_sequence(root: int, *path: str | int) -> np.random.SeedSequence:
    """The seed sequence of the stream at ``path`` under the ``root`` seed."""
    return np.random.SeedSequence(int(root), spawn_key=_key(path))


def stream(root: int, *path: str | int) -> np.random.Generator:
    """The generator of the stream at ``path`` under the ``root`` seed."""
    return np.random.default_rng(seed_sequence(root, *path))


def derived_seed(root: int, *path: str | int) -> int:
    """A plain integer seed (0 <= seed < 2**63) for the thing at ``path``: what a command's
    ``--seed`` takes, so that e.g. game ``g`` of ``kipp compare`` is ``kipp game --seed S``."""
    return int(seed_sequence(root, *path).generate_state(1, dtype="uint64")[0] >> 1)
