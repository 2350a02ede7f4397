"""Running many independent tasks on an executor: in-process, a process pool, or Dask.

The analyses are written against :class:`concurrent.futures.Executor`. ``--workers 1``
runs tasks in this process (:class:`InProcessExecutor`), ``--workers N`` in a
:class:`~concurrent.futures.ProcessPoolExecutor`, and ``--scheduler tcp://HOST:PORT`` on a
Dask cluster through ``Client(address).get_executor()`` (Dask is an optional extra,
imported only then).

Worker processes are started with ``spawn`` (safe whatever threads the parent runs), so a
script that calls the analyses with ``workers > 1`` needs the usual
``if __name__ == "__main__":`` guard; the ``kipp`` command and notebooks need nothing.

A local pool survives the death of a worker process (SIGKILL, the out-of-memory killer):
:func:`run_tasks` starts a new pool and plays the tasks that were in flight again, their
results never having reached the caller; a task in flight at more than
:data:`POOL_RESTARTS_PER_TASK` such deaths stops the run. A Dask cluster does the same by itself
(its scheduler reschedules a dead worker's tasks, up to ``distributed.scheduler.allowed-failures``
times).

Pool workers end with the command that started them, whatever ends it: SIGTERM and Ctrl-C
unwind into :meth:`WorkerPool.terminate`, and a command killed outright (SIGKILL, the
out-of-memory killer), which runs no code of its own, takes its workers with it through
:func:`end_with_parent`, every worker's initializer: on Linux the kernel sends the worker
SIGKILL when the thread that started it ends (``prctl(PR_SET_PDEATHSIG)``; the pool is
driven from the thread that calls :func:`run_tasks`, and workers are started only from
there), and elsewhere a watcher thread in the worker ends it once its parent is gone.

Reproducibility does not come from here: every random stream a task uses is derived from
the root seed and the *item* being simulated (a round index, a game index), never from
the chunk, the worker or the order in which results come back (:mod:`sim.seeds`).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from kipp.language import Language

DASK_CONNECT_TIMEOUT_S = 10
"""How long to try reaching a Dask scheduler before giving up, seconds."""
POOL_RESTARTS_PER_TASK = 3
"""Local pools a task may see break under it (a worker process dying) and still be played again."""


@dataclass(frozen=True)
class Execution:
    """Where a run's tasks go and whether it shows its progress: ``--workers``, ``--scheduler``
    (a Dask scheduler's address, which wins) and the progress bar (``--no-progress`` off)."""

    workers: int = 1
    scheduler: str | None = None
    progress: bool | Language = False
    """Show the progress bar; a :class:`~kipp.language.Language`: show it, its label in that language."""


ONE_WORKER = Execution()
"""In this process, without a progress bar: what a library call runs on unless told otherwise."""


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
    pool = WorkerPool(workers)
    try:
        yield pool
    except BaseException:
        pool.terminate()  # the run stops (a failed task, Ctrl-C, SIGTERM): its workers' tasks are lost anyway
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class WorkerPool(cf.Executor):
    """``--workers N``: a pool of N spawned processes that :meth:`restart` replaces once one died.

    Spawned: workers start clean, whatever threads (progress bar, Dask) the parent runs, and adopt
    the referee names registered in the parent (:func:`sim.referees.adopt_referees`).
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._new()

    def _new(self) -> cf.ProcessPoolExecutor:
        from sim.referees import added_referees

        return cf.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                      initializer=start_worker, initargs=(os.getpid(), added_referees()))

    def submit(self, fn, /, *args, **kwargs) -> cf.Future:
        return self._pool.submit(fn, *args, **kwargs)

    def restart(self) -> str:
        """Replace the broken pool by a new one; return what ended the worker that died
        (``"signal 9"``, ``"exit code 1"``)."""
        processes = self._processes()
        self._pool.shutdown(wait=True)  # its other workers end by SIGTERM
        self._pool = self._new()
        codes = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
        code = next((c for c in codes if c != -signal.SIGTERM), codes[0] if codes else None)
        return "cause unknown" if code is None else f"signal {-code}" if code < 0 else f"exit code {code}"

    def terminate(self) -> None:
        """End the worker processes now (SIGTERM), their tasks unfinished, for a run that stops
        (:meth:`shutdown` then collects them). Without it a stopped run's workers would play
        their tasks to the end, minutes of them."""
        for process in self._processes():
            process.terminate()

    def _processes(self) -> list[multiprocessing.process.BaseProcess]:
        # The pool's processes are private; read to name a cause of death and to stop them.
        return list((getattr(self._pool, "_processes", None) or {}).values())

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when the thread that started it ends."""
PARENT_POLL_S = 0.5
"""Where the kernel cannot be asked to signal the worker: how often it checks its parent is alive, seconds."""


def start_worker(parent_pid: int, added: dict) -> None:
    """A pool worker's initializer: end with ``parent_pid`` (:func:`end_with_parent`) and adopt
    the referee names ``added`` registered in the parent (:func:`sim.referees.adopt_referees`)."""
    from sim.referees import adopt_referees

    end_with_parent(parent_pid)
    adopt_referees(added)


def end_with_parent(parent_pid: int) -> None:
    """Make this worker process end when ``parent_pid``, which started it, ends (a pool's initializer).

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` through ctypes, then a check that the parent
    did not die before that call (the worker would then have been adopted already). Other
    systems: a daemon thread that ends the worker once its parent pid changes.
    """
    if not _kill_me_with_parent():
        threading.Thread(target=_watch_parent, args=(parent_pid,), name="end-with-parent", daemon=True).start()
    if os.getppid() != parent_pid:
        os._exit(1)


def _kill_me_with_parent() -> bool:
    """Ask the Linux kernel for SIGKILL when the parent goes; False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


@contextlib.contextmanager
def _dask_executor(address: str) -> Iterator[cf.Executor]:
    try:
        from distributed import Client, KilledWorker
    except ImportError:
        raise ExecutorError("--scheduler needs Dask: pip install 'kipp-kipp-ahoi[dask]'") from None
    try:
        client = Client(address, timeout=f"{DASK_CONNECT_TIMEOUT_S}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        # pure=False: every submission runs (no hashing of the arguments into a task key).
        yield _AdoptingExecutor(client.get_executor(pure=False))
    except KilledWorker as error:  # the scheduler's allowed-failures ran out for one task
        raise ExecutorError(f"a Dask worker died each of the {error.allowed_failures + 1} times one task ran; "
                            "stopped the sweep (does that task crash its process?)") from None
    finally:
        client.close()


class _AdoptingExecutor(cf.Executor):
    """A Dask executor whose tasks first adopt the referee names registered in this process beyond the
    built-in ones (none outside tests), so a worker, restarted or not, builds what this process builds."""

    def __init__(self, inner: cf.Executor) -> None:
        from sim.referees import added_referees

        self.inner, self.added = inner, added_referees()

    def submit(self, fn, /, *args, **kwargs) -> cf.Future:
        if not self.added:
            return self.inner.submit(fn, *args, **kwargs)
        return self.inner.submit(_adopting, self.added, fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def _adopting(added: dict, fn: Callable, *args, **kwargs):
    from sim.referees import adopt_referees

    adopt_referees(added)
    return fn(*args, **kwargs)


def run_tasks(executor: cf.Executor, fn: Callable, tasks: Iterable[tuple], *,
              max_in_flight: int, on_result: Callable[[object], None],
              on_restart: Callable[[str], None] | None = None) -> int:
    """Run ``fn(*task)`` for every task, at most ``max_in_flight`` at a time.

    ``on_result`` is called in this process with each result as it completes (in
    completion order), so results can be written away at once and memory stays flat
    however many tasks there are. A failing task stops the run: the tasks not yet
    started are cancelled and its exception propagates. Returns the number of tasks run.

    When a worker process of a :class:`WorkerPool` dies, the pool is restarted and the
    tasks whose results had not come back are submitted again (``on_restart`` gets a
    line saying so); each result is still handed to ``on_result`` exactly once. A task
    in flight at more than :data:`POOL_RESTARTS_PER_TASK` deaths raises :class:`ExecutorError`.
    """
    if max_in_flight < 1:
        raise ValueError(f"max_in_flight must be at least 1, got {max_in_flight}")
    pending: dict[cf.Future, tuple[tuple, int]] = {}  # each future's task, and the pools it saw break
    again: list[tuple[tuple, int]] = []  # tasks of a broken pool, submitted before new ones
    done_count = 0
    iterator = iter(tasks)
    exhausted = False
    try:
        while True:
            broken = False
            while len(pending) < max_in_flight and (again or not exhausted):
                task, breaks = again.pop(0) if again else (next(iterator, None), 0)
                if task is None:
                    exhausted = True
                    break
                try:
                    pending[executor.submit(fn, *task)] = (task, breaks)
                except BrokenProcessPool:  # broke before its futures say so: they will
                    again.insert(0, (task, breaks))
                    broken = True
                    break
            if not pending and not again:
                return done_count
            if pending:
                done, _ = cf.wait(pending, return_when=cf.ALL_COMPLETED if broken else cf.FIRST_COMPLETED)
                if any(isinstance(f.exception(), BrokenProcessPool) for f in done):
                    done, _ = cf.wait(pending)  # a broken pool fails all its futures at once
                for future in done:
                    task, breaks = pending.pop(future)
                    if isinstance(future.exception(), BrokenProcessPool):
                        again.append((task, breaks + 1))
                        broken = True
                        continue
                    on_result(future.result())
                    done_count += 1
            if broken:
                _restart(executor, again, on_restart)
    finally:
        for future in pending:
            future.cancel()


def _restart(executor: cf.Executor, again: list[tuple[tuple, int]], on_restart: Callable[[str], None] | None) -> None:
    """Restart ``executor``'s broken pool for the tasks ``again`` (with the pools each saw break)."""
    if not isinstance(executor, WorkerPool):
        raise BrokenProcessPool("a process of a pool that cannot restart died")
    cause = executor.restart()
    most = max(breaks for _task, breaks in again)
    if most > POOL_RESTARTS_PER_TASK:
        raise ExecutorError(f"a worker process died ({cause}) each of the {most} times one task ran; "
                            "stopped the sweep (does that task crash its process?)")
    if on_restart is not None:
        played = sum(1 for _task, breaks in again if breaks)
        on_restart(f"a worker process died ({cause}); restarted the pool, {played} task"
                   f"{'s' if played != 1 else ''} played again")


def chunked(items: list, size: int, workers: int = 1) -> Iterator[list]:
    """``items`` in consecutive slices of ``size``; for more than one worker the last ones shrink.

    On ``workers`` > 1 a slice is at most a ``2 * workers``-th of the items left (and at least
    one item), so the last slices are small and the workers finish together instead of one of
    them playing a whole last slice alone. On one worker the last slice may be shorter.
    """
    start = 0
    while start < len(items):
        left = len(items) - start
        n = size if workers <= 1 else max(1, min(size, -(-left // (2 * workers))))
        yield items[start:start + n]
        start += n


def chunk_size(n_items: int, workers: int, *, per_worker: int = 8, largest: int = 64) -> int:
    """Items per task: enough tasks to keep ``workers`` busy and balanced, none too big."""
    return max(1, min(largest, -(-n_items // max(1, workers * per_worker))))


def progress_words(progress: bool | Language, desc: str) -> str:
    """A progress bar's label ``desc`` (English, marked with ``N_``) in the language of ``progress``
    (English unless it is a :class:`~kipp.language.Language`)."""
    return progress.gettext(desc) if isinstance(progress, Language) else desc


def run_with_progress(fn: Callable, tasks: Iterable[tuple], on_result: Callable[[object], int], *,
                      workers: int = 1, scheduler: str | None = None, progress: bool | Language = False,
                      total: int, initial: int = 0, unit: str, desc: str) -> int:
    """Run ``fn(*task)`` for every task on the executor of ``workers`` / ``scheduler``
    (two tasks per worker in flight), with a progress bar on stderr (ETA included).

    ``on_result`` gets each result in this process as it completes (to write it away)
    and returns how many ``unit`` it finished; the bar counts them from ``initial``
    (what an earlier, interrupted run already did) to ``total``. Returns the number of
    tasks run. ``progress``: show the bar; a :class:`~kipp.language.Language` shows it with its label
    ``desc`` (English, marked with ``N_``) in that language.
    """
    import sys

    from tqdm import tqdm

    desc = progress_words(progress, desc)

    with open_executor(workers, scheduler) as executor:
        bar = tqdm(total=total, initial=initial, unit=unit, file=sys.stderr, disable=not progress,
                   desc=desc, dynamic_ncols=True)

        def record(result: object) -> None:
            bar.update(on_result(result))

        try:
            return run_tasks(executor, fn, tasks, max_in_flight=2 * max(1, workers), on_result=record,
                             on_restart=lambda line: bar.write(line, file=sys.stderr))
        finally:
            bar.close()
