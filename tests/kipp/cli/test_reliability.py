"""Nothing a user does breaks a results file: one writer per file (two real processes), a write that
fails (disk full, permission lost, the folder removed) ends in one line and leaves the file resumable,
a full standard output is one line too, and a sweep's worker processes end with it when it is killed."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kipp.cli import main
from tests.kipp.cli.test_stop import _alive, _pool_workers

KIPP = [sys.executable, "-m", "kipp"]


def _environment() -> dict:
    return {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _one_error_line(stderr: str, *parts: str) -> str:
    lines = stderr.strip().splitlines()
    assert "Traceback" not in stderr, stderr
    assert len(lines) == 1 and lines[0].startswith("Error: "), stderr
    for part in parts:
        assert part in lines[0], stderr
    return lines[0]


def _wait_for(condition, timeout: float, process: subprocess.Popen | None = None) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(0.02)
    return condition()


# --- one writer per results file -----------------------------------------------------------------------

SWEEPS = {
    "tune-physics-quality": ["tune", "--orders", "sample:8", "--rounds", "4", "--physics-rounds", "2", "--anchors",
                             "4"],
    "tune-fast": ["tune", "--orders", "sample:20", "--rounds", "400", "--referee", "fast"],
    "compare": ["compare", "--games", "60", "--referee", "fast"],
}


FAST_TUNE = ["tune", "--orders", "sample:120", "--rounds", "2", "--referee", "fast", "--workers", "1",
             "--no-progress"]


def _rows(path: Path) -> tuple[int, int]:
    """(rows, distinct labels or keys) of a results file's ``results`` table."""
    with sqlite3.connect(path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(results)")]
        label = "label" if "label" in columns else "key"
        return db.execute(f"SELECT COUNT(*), COUNT(DISTINCT {label}) FROM results").fetchone()


@pytest.mark.parametrize("name", list(SWEEPS))
def test_a_second_writer_of_one_results_file_is_refused_at_once_and_the_first_goes_on(tmp_path, name):
    out = tmp_path / "r.sqlite"
    command = [*KIPP, *SWEEPS[name], "--workers", "2", "--no-progress", "--out", str(out)]
    with (tmp_path / "first.txt").open("w") as stdout, (tmp_path / "first-err.txt").open("w") as stderr:
        first = subprocess.Popen(command, cwd=tmp_path, stdout=stdout, stderr=stderr, env=_environment())
    try:
        assert _wait_for(lambda: out.exists(), 60, first), "the first run did not start writing"
        began = time.monotonic()
        second = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                                env=_environment())
        refused_in = time.monotonic() - began
        still_running = first.poll() is None
        assert first.wait(timeout=300) == 0, (tmp_path / "first-err.txt").read_text()
    finally:
        first.kill()
        first.wait()
    assert still_running, "the first run ended before the second was refused: the test proves nothing"
    assert second.returncode == 2, second.stderr
    _one_error_line(second.stderr, str(out), f"pid {first.pid} on ")
    assert second.stdout == "" and refused_in < 30
    rows, distinct = _rows(out)
    assert rows == distinct > 0, "rows written twice"
    assert not Path(f"{out}.lock").exists()
    # nothing lost: a rerun finds every task done and prints the same table
    again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=_environment())
    assert again.returncode == 0, again.stderr
    assert _rows(out) == (rows, distinct)
    assert _without_wall_times(again.stdout) == _without_wall_times((tmp_path / "first.txt").read_text())


def _without_wall_times(text: str) -> list[str]:
    return [line for line in text.splitlines() if " s " not in line and "wall" not in line]


def _some_rows(path: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0] > 0
    except sqlite3.Error:
        return False


def test_a_killed_writer_leaves_no_lock_behind(tmp_path):
    out = tmp_path / "r.sqlite"
    command = [*KIPP, *FAST_TUNE, "--out", str(out)]
    first = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=_environment())
    try:
        assert _wait_for(lambda: out.exists() and _some_rows(out), 120, first)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    finally:
        first.kill()
        first.wait()
    resumed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=_environment())
    assert resumed.returncode == 0, resumed.stderr
    assert _rows(out) == (120, 120)


def test_a_results_file_a_writer_left_without_tables_is_started_afresh(tmp_path, monkeypatch):
    """A writer killed between SQLite making the file and its first table leaves an empty file; the rerun
    starts it afresh instead of refusing it as not a results file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.sqlite").write_bytes(b"")
    result = CliRunner().invoke(main, [*FAST_TUNE, "--orders", "sample:3", "--out", "r.sqlite"])
    assert result.exit_code == 0, result.output
    assert _rows(tmp_path / "r.sqlite") == (3, 3)


# --- a write that fails ---------------------------------------------------------------------------------


def _capped(monkeypatch, pages: int) -> None:
    """Every results file opened from now on may grow to ``pages`` pages of SQLite only: a disk that fills."""
    from kipp.analysis import results_store

    connect = results_store._connect

    def capped(path, **how):
        db, meta = connect(path, **how)
        db.execute(f"PRAGMA max_page_count = {pages}")
        return db, meta

    monkeypatch.setattr(results_store, "_connect", capped)


def _integrity(path: Path) -> tuple[str, int]:
    with sqlite3.connect(path) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
        return check, db.execute("SELECT COUNT(*) FROM results").fetchone()[0]


def test_a_full_disk_ends_in_one_line_and_the_file_resumes_to_the_same_results(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    clean = CliRunner().invoke(main, [*FAST_TUNE, "--out", "clean.sqlite"])
    assert clean.exit_code == 0, clean.output
    with monkeypatch.context() as patch:
        _capped(patch, 5)
        full = CliRunner().invoke(main, [*FAST_TUNE, "--out", "r.sqlite"])
    assert full.exit_code == 2, full.output
    _one_error_line(full.output, "r.sqlite", "database or disk is full", "rerun")
    check, kept = _integrity(tmp_path / "r.sqlite")
    assert check == "ok" and 0 < kept < 120
    resumed = CliRunner().invoke(main, [*FAST_TUNE, "--out", "r.sqlite"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.output.replace("r.sqlite", "clean.sqlite") == clean.output


class _ReadOnlyAfter(sqlite3.Connection):
    """A connection whose writes fail after a few, as when the folder's permission is taken away mid-run
    (root, who runs CI's containers, ignores permission bits, so the loss is injected at the write)."""

    writes = 0

    def executemany(self, sql, rows):
        type(self).writes += 1
        if type(self).writes > 3:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return super().executemany(sql, rows)


def test_a_permission_lost_mid_run_ends_in_one_line_and_the_file_resumes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    connect = sqlite3.connect
    with monkeypatch.context() as patch:
        patch.setattr(sqlite3, "connect", lambda *a, **k: connect(*a, factory=_ReadOnlyAfter, **k))
        lost = CliRunner().invoke(main, [*FAST_TUNE, "--out", "r.sqlite"])
    assert lost.exit_code == 2, lost.output
    _one_error_line(lost.output, "r.sqlite", "readonly", "rerun")
    check, kept = _integrity(tmp_path / "r.sqlite")
    assert check == "ok" and 0 < kept < 120
    resumed = CliRunner().invoke(main, [*FAST_TUNE, "--out", "r.sqlite"])
    assert resumed.exit_code == 0, resumed.output
    assert _integrity(tmp_path / "r.sqlite") == ("ok", 120)


def test_the_folder_removed_mid_run_ends_in_one_line(tmp_path, monkeypatch):
    from kipp.analysis.results_store import ResultsStore

    folder = tmp_path / "results"
    folder.mkdir()
    add, calls = ResultsStore.add, []

    def add_then_remove(store, rows, totals=None):
        calls.append(1)
        if len(calls) == 3:
            shutil.rmtree(folder)
        return add(store, rows, totals)

    monkeypatch.setattr(ResultsStore, "add", add_then_remove)
    result = CliRunner().invoke(main, [*FAST_TUNE, "--out", str(folder / "r.sqlite")])
    assert result.exit_code == 2, result.output
    _one_error_line(result.output, "r.sqlite", "removed")


def test_a_full_standard_output_is_one_line_exit_2(tmp_path):
    with open("/dev/full", "w") as full:
        result = subprocess.run([*KIPP, "game", "--json", "--referee", "fast", "--seed", "1"], stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=120, env=_environment(), cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    _one_error_line(result.stderr, "No space left on device")


# --- worker processes end with their command ----------------------------------------------------------


def test_pool_workers_end_when_their_command_is_killed(tmp_path):
    command = [*KIPP, "tune", "--orders", "sample:20", "--referee", "fast", "--rounds", "100000", "--workers", "2",
               "--no-progress", "--out", str(tmp_path / "t.sqlite")]
    child = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=_environment())
    workers: list[int] = []
    try:
        assert _wait_for(lambda: len(_pool_workers(child.pid)) >= 2, 60, child), "no workers started"
        workers = _pool_workers(child.pid)
        time.sleep(1.0)  # their first tasks are under way: minutes of play each
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert len(workers) == 2
    _wait_for(lambda: not [pid for pid in workers if _alive(pid)], 3.0)
    assert not [pid for pid in workers if _alive(pid)], "pool workers outlived their killed command"
