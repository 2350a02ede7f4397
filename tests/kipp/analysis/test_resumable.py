"""A resumable run plays only what its results file lacks, stores whole tasks, and ends where an
uninterrupted run ends, whatever the workers."""

from __future__ import annotations

import pytest

from kipp.analysis.executor import Execution
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.resumable import Chunks, Stored, run_remaining

COLUMNS = [("square", "INTEGER")]


def squares(numbers: list[int]) -> list[tuple[int, int]]:
    """A task: (n, n * n) for every n of a chunk."""
    return [(n, n * n) for n in numbers]


def square(n: int) -> tuple[int, int]:
    return n, n * n


def _rows(path) -> list[tuple]:
    with ResultsStore.read(path, "squares") as store:
        return list(store.rows())


ONE_WORKER = Execution()


def _run(path, items, *, execution=ONE_WORKER, chunks=None, record=None, fn=None):
    with ResultsStore.open(path, "squares", {"power": 2}, COLUMNS) as store:
        if chunks is None:
            return run_remaining(store, items, fn or square, lambda n: (n,), record or (lambda r: Stored([r])),
                                 execution)
        return run_remaining(store, items, fn or squares, lambda chunk: (chunk,),
                             record or (lambda rs: Stored(rs, units=len(rs))), execution, chunks=chunks)


def test_a_rerun_plays_only_the_items_missing_from_the_file(tmp_path):
    path = tmp_path / "r.sqlite"
    assert _run(path, [0, 1, 2]) == [0, 1, 2]
    played = []
    ran = _run(path, range(6), fn=lambda n: played.append(n) or square(n))
    assert ran == [3, 4, 5] and played == [3, 4, 5]
    assert _rows(path) == [(n, n * n) for n in range(6)]
    assert _run(path, range(6)) == []  # nothing left: no task at all


def test_an_interrupted_run_leaves_whole_tasks_and_resumes_to_the_uninterrupted_result(tmp_path):
    whole = tmp_path / "whole.sqlite"
    _run(whole, range(10), chunks=Chunks(size=3))
    cut = tmp_path / "cut.sqlite"
    stored = []

    def record(rows):
        if len(stored) == 2:
            raise KeyboardInterrupt  # stopped while the third task's rows come back
        stored.append(rows)
        return Stored(rows, units=len(rows))

    with pytest.raises(KeyboardInterrupt):
        _run(cut, range(10), chunks=Chunks(size=3), record=record)
    assert [key for key, _ in _rows(cut)] == [0, 1, 2, 3, 4, 5]  # two whole tasks, nothing of the third
    assert _run(cut, range(10), chunks=Chunks(size=3)) == [6, 7, 8, 9]
    assert _rows(cut) == _rows(whole)


def test_chunks_group_the_items_left_into_tasks(tmp_path):
    tasks = []
    _run(tmp_path / "r.sqlite", range(7), chunks=Chunks(size=3), fn=lambda chunk: tasks.append(chunk) or squares(chunk))
    assert tasks == [[0, 1, 2], [3, 4, 5], [6]]


def test_done_and_key_say_what_the_file_already_holds(tmp_path):
    """Items named otherwise than by their row's key (as ``kipp compare``'s games, whose rows are
    game x arms + arm) are skipped by the identities the caller reads from the file."""
    path = tmp_path / "r.sqlite"
    with ResultsStore.open(path, "squares", {"power": 2}, COLUMNS) as store:
        ran = run_remaining(store, ["a", "bb", "ccc"], lambda word: (len(word), len(word) ** 2),
                            lambda word: (word,), lambda r: Stored([r]), Execution(),
                            done={"b"}, key=lambda word: word[0])
    assert ran == ["a", "ccc"] and _rows(path) == [(1, 1), (3, 9)]


def test_a_task_that_fails_stops_the_run_and_stores_nothing_of_it(tmp_path):
    path = tmp_path / "r.sqlite"

    def failing(n):
        if n == 2:
            raise RuntimeError("task 2 failed")
        return square(n)

    with pytest.raises(RuntimeError, match="task 2 failed"):
        _run(path, range(4), fn=failing)
    stored = _rows(path)
    assert (0, 0) in stored and all(row == (n, n * n) and n != 2 for n, row in ((r[0], r) for r in stored))
    _run(path, range(4))  # the rerun plays what is missing, task 2 included
    assert _rows(path) == [(n, n * n) for n in range(4)]


def test_two_workers_store_what_one_worker_stores(tmp_path):
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    _run(one, range(9), chunks=Chunks(size=2))
    _run(two, range(9), chunks=Chunks(size=2), execution=Execution(workers=2))
    assert _rows(one) == _rows(two) == [(n, n * n) for n in range(9)]


def test_module_doctests():
    import doctest

    import kipp.analysis.resumable
    import kipp.analysis.stats

    for module in (kipp.analysis.resumable, kipp.analysis.stats):
        assert doctest.testmod(module).failed == 0, module.__name__
