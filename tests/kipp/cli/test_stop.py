"""Stopping ``kipp`` from outside: SIGTERM (a job scheduler's, ``kill``) stops a sweep as Ctrl-C
does, its worker processes with it, instead of leaving them to play their tasks on as orphans."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path


def _pool_workers(pid: int) -> list[int]:
    """The spawned worker processes among ``pid``'s children (Linux /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(c) for c in children if b"spawn_main" in _cmdline(int(c))]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_stops_a_sweep_and_its_worker_processes(tmp_path):
    command = [sys.executable, "-m", "kipp", "tune", "--orders", "sample:20", "--referee", "fast", "--rounds",
               "100000", "--workers", "2", "--no-progress", "--out", str(tmp_path / "t.sqlite")]
    errors = tmp_path / "stderr.txt"
    with errors.open("w") as stderr:
        child = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while len(workers := _pool_workers(child.pid)) < 2 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        assert len(workers) == 2, "the sweep's two workers did not start"
        time.sleep(1.0)  # their first tasks are under way: at 100,000 rounds each, minutes of play
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 128 + signal.SIGTERM
    finally:
        child.kill()
        child.wait()
    assert "Traceback" not in errors.read_text()
    deadline = time.monotonic() + 10
    while [pid for pid in workers if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "worker processes outlived the stopped sweep"
