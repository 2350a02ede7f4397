"""Kill a sweep mid-run: the shared part of the SIGKILL resume tests."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def stored_rows(path: Path) -> int:
    """Rows in the results file's ``results`` table (0 before it exists; never creates the file)."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    except sqlite3.OperationalError:  # the file exists before its tables
        return 0


def sigkill_once_stored(script: str, path: Path, rows: int, timeout_s: float) -> int:
    """Run ``script`` in a child Python, SIGKILL it once ``path`` holds ``rows`` results (or at
    the timeout); return the child's exit code."""
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + timeout_s
        while stored_rows(path) < rows and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.05)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    return child.returncode
