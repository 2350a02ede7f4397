"""Executors and seeding: the same sweep stores identical counts with 1 worker, 2 worker
processes and a Dask LocalCluster, because seeds depend only on round indices; a task that
kills its worker every time stops the run with one clear error."""

from __future__ import annotations

import os
import signal
import sqlite3

import pytest

from kipp.analysis.difficulty.sweeps import TuneRun, run_sweep
from kipp.analysis.executor import (
    POOL_RESTARTS_PER_TASK,
    ExecutorError,
    InProcessExecutor,
    chunk_size,
    chunked,
    open_executor,
    run_tasks,
)
from kipp.analysis.orders import parse_order
from kipp.analysis.rounds import RoundModel
from sim.params import load_params

ORDERS = [parse_order(t) for t in ("LLLLMMMMSSSS", "SMLSMLSMLSML", "SSSSMMMMLLLL")]


def _square(x):
    return x * x


def test_run_tasks_bounds_the_tasks_in_flight_and_sees_every_result():
    seen = []
    in_flight_max = 0

    class Counting(InProcessExecutor):
        submitted = 0

        def submit(self, fn, *args):
            nonlocal in_flight_max
            self.submitted += 1  # this task included: submitted and its result not yet handed over
            in_flight_max = max(in_flight_max, self.submitted - len(seen))
            return super().submit(fn, *args)

    tasks = ((i,) for i in range(10))
    assert run_tasks(Counting(), _square, tasks, max_in_flight=3, on_result=seen.append) == 10
    assert sorted(seen) == [i * i for i in range(10)] and in_flight_max == 3


def test_a_failing_task_stops_the_run():
    def fail(x):
        raise RuntimeError(f"task {x} failed")

    with pytest.raises(RuntimeError, match="task 0 failed"):
        run_tasks(InProcessExecutor(), fail, [(0,), (1,)], max_in_flight=1, on_result=print)


def test_process_pool_runs_tasks():
    with open_executor(2) as executor:
        seen = []
        run_tasks(executor, _square, [(i,) for i in range(6)], max_in_flight=4, on_result=seen.append)
    assert sorted(seen) == [0, 1, 4, 9, 16, 25]


def _square_but_3_kills_its_process(x):
    if x == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return x * x


@pytest.mark.xdist_group("worker deaths")  # 2 worker processes each: one test at a time
def test_a_task_that_kills_its_worker_every_time_stops_the_run():
    """The pool restarts POOL_RESTARTS_PER_TASK times (the other tasks finish), then gives up."""
    seen, restarts = [], []
    with open_executor(2) as executor:
        with pytest.raises(ExecutorError, match=r"^a worker process died \(signal 9\) each of the 4 times one task"):
            run_tasks(executor, _square_but_3_kills_its_process, [(i,) for i in range(8)], max_in_flight=4,
                      on_result=seen.append, on_restart=restarts.append)
    assert len(restarts) == POOL_RESTARTS_PER_TASK
    assert all(line.startswith("a worker process died (signal 9); restarted the pool") for line in restarts)
    assert 3 * 3 not in seen and len(seen) == len(set(seen))


@pytest.mark.xdist_group("worker deaths")
def test_a_task_that_kills_its_dask_worker_every_time_stops_the_run():
    """The scheduler gives up on the task after its allowed-failures (1 here, to be quick)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=":0") as cluster:
        with pytest.raises(ExecutorError, match=r"^a Dask worker died each of the 2 times one task ran"):
            with open_executor(2, cluster.scheduler_address) as executor:
                run_tasks(executor, _square_but_3_kills_its_process, [(i,) for i in range(8)], max_in_flight=4,
                          on_result=print)


def test_chunks_shrink_at_the_end_on_more_than_one_worker():
    """Every item once, in order; on 2 workers no slice is more than a quarter of what is left,
    so the last ones are single items (no worker plays a whole slice alone at the end)."""
    items = list(range(100))
    assert [len(c) for c in chunked(items, 16)] == [16] * 6 + [4]
    slices = list(chunked(items, 16, workers=2))
    assert [i for c in slices for i in c] == items
    assert [len(c) for c in slices] == [16, 16, 16, 13, 10, 8, 6, 4, 3, 2, 2, 1, 1, 1, 1]


def test_chunk_size_keeps_workers_busy():
    assert chunk_size(3, 2) == 1
    assert chunk_size(34650, 2) == 64
    assert chunk_size(100, 2) == 7


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    monkeypatch.setattr("kipp.analysis.executor.DASK_CONNECT_TIMEOUT_S", 1)
    with pytest.raises(ExecutorError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with open_executor(1, "tcp://127.0.0.1:9"):
            pass


def _counts(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT * FROM results ORDER BY key").fetchall()


def test_physics_counts_identical_for_1_worker_2_workers_and_dask(tmp_path):
    """Real physics, 3 orders x 2 rounds, run with chunks of 1 and 2 orders on three executors."""
    from distributed import LocalCluster

    params = load_params()
    run = TuneRun(RoundModel(), seed=11, rounds=2, referee_name="physics", params_id="default",
                  orders_spec="test")
    paths = {name: str(tmp_path / f"{name}.sqlite") for name in ("one", "two", "dask")}
    run_sweep(run, ORDERS, params, paths["one"], workers=1, chunk=1)
    run_sweep(run, ORDERS, params, paths["two"], workers=2, chunk=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as cluster:
        run_sweep(run, ORDERS, params, paths["dask"], workers=2, scheduler=cluster.scheduler_address, chunk=2)
    one = _counts(paths["one"])
    assert len(one) == 3 and all(row[2] == 2 for row in one)
    assert _counts(paths["two"]) == one
    assert _counts(paths["dask"]) == one
