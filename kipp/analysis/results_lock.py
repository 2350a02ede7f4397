"""One writer per results file: an exclusive operating-system lock on a sidecar ``FILE.lock``.

A sweep that writes ``FILE`` holds :func:`writer_lock` for as long as it writes; a second
process asking for the same file is refused at once (:class:`LockHeld`, naming the holder's
pid and host, which the sidecar holds as ``pid host``), never made to wait and never let
in to write beside the first.

The lock is ``flock(LOCK_EX | LOCK_NB)`` on a file of its own beside the results file:

- ``flock`` belongs to the open file, so the kernel drops it when the holder's process
  ends, however it ends (SIGKILL, the out-of-memory killer): a stale lock never needs
  removing by hand. A sidecar left by a killed holder is simply locked again.
- A sidecar, not the SQLite file itself: SQLite takes POSIX (``fcntl``) byte-range locks on
  the database, and POSIX locks of a process are all dropped when it closes *any*
  descriptor of that file; on NFS, Linux turns ``flock`` into a whole-file POSIX lock, which
  on the database would collide with SQLite's own. The sidecar is touched by nobody else.
  It also exists before the database does, so two runs that create a new file at the same
  moment are told apart too.
- The lock is re-entrant within a process (a command holds it for the whole run while the
  results file is opened and closed several times under it); the sidecar is removed when
  the last hold ends (unlinked while still locked; a process that locked a sidecar removed
  meanwhile notices that its file is no longer the one at the path and tries again).

On a network file system: Linux NFS clients implement ``flock`` as an ``fcntl`` lock over
the whole file that the server arbitrates (NLM for NFSv3, the protocol's own locks for
NFSv4), so the lock also excludes a writer on another host, as long as the share is
mounted with locking (a ``nolock`` mount keeps locks local to each client: two hosts could
then both write) and the server is reachable. The lock of a host that crashes is released
by the server when its lease expires (NFSv4, 90 s by default) or NLM recovers it. SQLite
itself advises against databases on NFS: keep results files on a local disk if you can.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "r.sqlite")
>>> with writer_lock(path):
...     with writer_lock(path):  # the same process again: fine
...         os.path.exists(path + ".lock")
True
>>> os.path.exists(path + ".lock")
False
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

LOCK_SUFFIX = ".lock"
HOLDER_BYTES = 256
"""At most this much of a sidecar is read for the holder's name (it holds ``pid host``)."""


class LockHeld(Exception):
    """Another process holds the results file; ``holder`` says who (``pid N on HOST``)."""

    def __init__(self, path: str, holder: str) -> None:
        self.path, self.holder = path, holder
        super().__init__(f"{path}: in use by another run ({holder}); wait for it to finish, or use another --out")


@dataclass
class _Hold:
    fd: int
    lock_path: str
    count: int = 1


_held: dict[str, _Hold] = {}
"""This process's holds, by the sidecar's absolute path."""


def lock_path(path: str | Path) -> str:
    """The sidecar of the results file ``path``."""
    return f"{path}{LOCK_SUFFIX}"


@contextlib.contextmanager
def writer_lock(path: str | Path) -> Iterator[None]:
    """Hold the one-writer lock of the results file ``path`` inside; :class:`LockHeld` if another process does.

    ``OSError`` if the sidecar cannot be made (a folder that cannot be written)."""
    key = acquire(path)
    try:
        yield
    finally:
        release(key)


def acquire(path: str | Path) -> str:
    """Take (or take again, in this process) the lock of ``path``; return the key :func:`release` wants."""
    sidecar = lock_path(path)
    key = os.path.abspath(sidecar)
    if key in _held:
        _held[key].count += 1
        return key
    for _attempt in range(100):  # a holder removing its sidecar just as we opened it: open the new one
        fd = os.open(sidecar, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise LockHeld(str(path), holder) from None
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, sidecar):
            _write_holder(fd)
            _held[key] = _Hold(fd, sidecar)
            return key
        os.close(fd)  # we locked a sidecar its holder had just removed
    raise OSError(f"{sidecar}: could not be locked (it keeps being replaced)")


def release(key: str) -> None:
    """Give back one hold taken by :func:`acquire`; the last one removes the sidecar and unlocks."""
    hold = _held[key]
    hold.count -= 1
    if hold.count:
        return
    del _held[key]
    with contextlib.suppress(OSError):
        if _same_file(hold.fd, hold.lock_path):
            os.unlink(hold.lock_path)
    os.close(hold.fd)


def _same_file(fd: int, path: str) -> bool:
    try:
        there = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    here = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _write_holder(fd: int) -> None:
    text = f"pid {os.getpid()} on {socket.gethostname()}\n".encode("utf-8", "replace")[:HOLDER_BYTES]
    with contextlib.suppress(OSError):  # the name is a courtesy; the lock holds without it
        os.ftruncate(fd, 0)
        os.pwrite(fd, text, 0)


def _holder(fd: int) -> str:
    """Who holds the lock, as its sidecar says (read a few times: the holder writes it just after locking)."""
    import time

    for _attempt in range(20):
        try:
            text = os.pread(fd, HOLDER_BYTES, 0).decode("utf-8", "replace").strip()
        except OSError:
            text = ""
        if text.startswith("pid "):
            return " ".join(text.split())
        time.sleep(0.01)
    return "a process that did not say which"
