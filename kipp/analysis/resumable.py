"""A resumable run: the items of an analysis not yet in its results file, played in tasks and
stored as each task finishes.

The analyses that write a results file (``kipp tune``'s sweep with one referee and its
physics-quality sweep, ``kipp compare``, ``kipp sensitivity``, ``kipp design``) run this way.
The caller opens its :class:`~kipp.analysis.results_store.ResultsStore` (which refuses a file
of other options) and hands :func:`run_remaining` every item of the run, each with a key that
names it in the file. The items whose key the file already holds are skipped; the others are
grouped into tasks (one item each, or runs of several: :class:`Chunks`) and run on the
executor of an :class:`~kipp.analysis.executor.Execution`, with a progress bar that starts
at what the file held. Each task's result comes back to this process, where ``record`` turns
it into a :class:`Stored` (rows, running totals, units of progress) that goes to the file in
one transaction. So an interrupted run leaves whole tasks behind and a rerun plays the rest;
what the file holds does not depend on the workers.

>>> import os, tempfile
>>> from kipp.analysis.executor import Execution
>>> from kipp.analysis.results_store import ResultsStore
>>> path = os.path.join(tempfile.mkdtemp(), "squares.sqlite")
>>> def play(n):
...     return n, n * n
>>> def squares(limit):
...     with ResultsStore.open(path, "squares", {}, [("square", "INTEGER")]) as store:
...         ran = run_remaining(store, range(limit), play, lambda n: (n,), lambda r: Stored([r]), Execution())
...         return ran, [square for _key, square in store.rows()]
>>> squares(3)
([0, 1, 2], [0, 1, 4])
>>> squares(5)
([3, 4], [0, 1, 4, 9, 16])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Collection, Hashable, Iterator, Sequence, TypeVar

import numpy as np

from kipp.analysis.executor import Execution, chunk_size, chunked, run_with_progress
from kipp.analysis.results_store import ResultsStore

Item = TypeVar("Item")


@dataclass(frozen=True)
class Stored:
    """What one finished task writes to the results file, in one transaction."""

    rows: Sequence[Sequence]
    """Rows ``(key, *columns)`` (:meth:`~kipp.analysis.results_store.ResultsStore.add`)."""
    units: int = 1
    """How far it moves the progress bar (the run's ``size`` counts the same units)."""
    totals: dict[str, np.ndarray] | None = field(default=None)
    """Running totals it adds, by name (None: none)."""


@dataclass(frozen=True)
class Chunks:
    """Several items per task: ``size`` each, or (None) enough tasks to keep the workers busy and
    balanced, at most ``largest`` items each (:func:`~kipp.analysis.executor.chunk_size`); the
    last tasks shrink on more than one worker (:func:`~kipp.analysis.executor.chunked`)."""

    largest: int = 64
    size: int | None = None

    def split(self, todo: list, workers: int) -> Iterator[list]:
        return chunked(todo, self.size or chunk_size(len(todo), workers, largest=self.largest), workers)


def run_remaining(store: ResultsStore, items: Sequence[Item], fn: Callable, args: Callable[..., tuple],
                  record: Callable[[object], Stored], execution: Execution, *,
                  done: Collection[Hashable] | None = None, key: Callable[[Item], Hashable] = lambda item: item,
                  size: Callable[[Item], int] | int = 1, chunks: Chunks | None = None, unit: str = "item",
                  desc: str = "") -> list[Item]:
    """Run ``fn(*args(task))`` for the ``items`` whose ``key`` is not in ``done`` (default: the
    keys of ``store``'s rows), storing ``record(result)`` of each task as it finishes; return
    the items this call ran (in the order of ``items``).

    A task is one item, or with ``chunks`` a list of items. ``size`` is an item's units of
    progress (rounds, games; the bar's total is the items' sum, and it starts at the sum of
    those ``done``). Tasks are made only as the executor takes them.
    """
    done = store.done_keys() if done is None else done
    todo = [item for item in items if key(item) not in done]
    if not todo:
        return todo
    size_of = size if callable(size) else (lambda _item: size)
    total = sum(size_of(item) for item in items)
    batches = chunks.split(todo, execution.workers) if chunks is not None else iter(todo)

    def write(result: object) -> int:
        stored = record(result)
        store.add(stored.rows, totals=stored.totals)
        return stored.units

    run_with_progress(fn, (args(batch) for batch in batches), write, workers=execution.workers,
                      scheduler=execution.scheduler, progress=execution.progress, total=total,
                      initial=total - sum(size_of(item) for item in todo), unit=unit, desc=desc)
    return todo
