"""Running many independent tasks on an executor: in-process, a process pool, or Dask.

The analyses are written against :class:`concurrent.futures.Executor`. ``--workers 1``
runs tasks in this process (:class:`InProcessExecutor`), ``--workers N`` in a
:class:`~concurrent.futures.ProcessPoolExecutor`, and ``--scheduler tcp://HOST:PORT`` on a
Dask cluster through ``Client(address).get_executor()`` (Dask is an optional extra,
imported only then).

Worker processes are started with ``spawn`` (safe whatever threads the parent runs), so a
script that calls the analyses with ``workers > 1`` needs the usual
``if __name__ == "__main__":`` guard; the ``kipp`` command and notebooks need nothing.

Reproducibility does not come from here: every random stream a task uses is derived from
the root seed and the *item* being simulated (a round index, a game index), never from
the chunk, the worker or the order in which results come back (:mod:`sim.seeds`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
from typing import Callable, Iterable, Iterator

DASK_CONNECT_TIMEOUT_S = 10
"""How long to try reaching a Dask scheduler before giving up, seconds."""


class ExecutorError(RuntimeError):
    """The executor cannot be set up (Dask missing, scheduler unreachable)."""


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class InProcessExecutor(cf.Executor):
    """An executor that runs each task at once, in the calling process (``--workers 1``)."""

    def __init__(self) -> None:
        self._shutdown = False

    def submit(self, fn, /, *args, **kwargs) -> cf.Future:
        if self._shutdown:
            raise RuntimeError("cannot schedule new futures after shutdown")
        future: cf.Future = cf.Future()
        try:
            result = fn(*args, **kwargs)
        except BaseException as error:  # noqa: BLE001 - handed to the caller via the future
            if not isinstance(error, Exception):
                raise  # KeyboardInterrupt and friends stop the run right here
            future.set_exception(error)
        else:
            future.set_result(result)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True


@contextlib.contextmanager
def open_executor(workers: int = 1, scheduler: str | None = None) -> Iterator[cf.Executor]:
    """The executor of ``--workers`` / ``--scheduler`` (a scheduler address wins)."""
    if scheduler:
        with _dask_executor(scheduler) as executor:
            yield executor
        return
    if workers < 1:
        raise ExecutorError(f"--workers must be at least 1, got {workers}")
    if workers == 1:
        yield InProcessExecutor()
        return
    # spawn: workers start clean, whatever threads (progress bar, Dask) the parent runs.
    pool = cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _dask_executor(address: str) -> Iterator[cf.Executor]:
    try:
        from distributed import Client
    except ImportError:
        raise ExecutorError("--scheduler needs Dask: pip install 'kipp-kipp-ahoi[dask]'") from None
    try:
        client = Client(address, timeout=f"{DASK_CONNECT_TIMEOUT_S}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        # pure=False: every submission runs (no hashing of the arguments into a task key).
        yield client.get_executor(pure=False)
    finally:
        client.close()


def run_tasks(executor: cf.Executor, fn: Callable, tasks: Iterable[tuple], *,
              max_in_flight: int, on_result: Callable[[object], None]) -> int:
    """Run ``fn(*task)`` for every task, at most ``max_in_flight`` at a time.

    ``on_result`` is called in this process with each result as it completes (in
    completion order), so results can be written away at once and memory stays flat
    however many tasks there are. A failing task stops the run: the tasks not yet
    started are cancelled and its exception propagates. Returns the number of tasks run.
    """
    if max_in_flight < 1:
        raise ValueError(f"max_in_flight must be at least 1, got {max_in_flight}")
    pending: set[cf.Future] = set()
    done_count = 0
    iterator = iter(tasks)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < max_in_flight:
                task = next(iterator, None)
                if task is None:
                    exhausted = True
                    break
                pending.add(executor.submit(fn, *task))
            if not pending:
                return done_count
            done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in done:
                on_result(future.result())
                done_count += 1
    finally:
        for future in pending:
            future.cancel()


def chunked(items: list, size: int) -> Iterator[list]:
    """``items`` in consecutive slices of ``size`` (the last may be shorter)."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def chunk_size(n_items: int, workers: int, *, per_worker: int = 8, largest: int = 64) -> int:
    """Items per task: enough tasks to keep ``workers`` busy and balanced, none too big."""
    return max(1, min(largest, -(-n_items // max(1, workers * per_worker))))


def run_with_progress(fn: Callable, tasks: Iterable[tuple], on_result: Callable[[object], int], *,
                      workers: int = 1, scheduler: str | None = None, progress: bool = False,
                      total: int, initial: int = 0, unit: str, desc: str) -> int:
    """Run ``fn(*task)`` for every task on the executor of ``workers`` / ``scheduler``
    (two tasks per worker in flight), with a progress bar on stderr (ETA included).

    ``on_result`` gets each result in this process as it completes (to write it away)
    and returns how many ``unit`` it finished; the bar counts them from ``initial``
    (what an earlier, interrupted run already did) to ``total``. Returns the number of
    tasks run.
    """
    import sys

    from tqdm import tqdm

    with open_executor(workers, scheduler) as executor:
        bar = tqdm(total=total, initial=initial, unit=unit, file=sys.stderr, disable=not progress,
                   desc=desc, dynamic_ncols=True)

        def record(result: object) -> None:
            bar.update(on_result(result))

        try:
            return run_tasks(executor, fn, tasks, max_in_flight=2 * max(1, workers), on_result=record)
        finally:
            bar.close()
