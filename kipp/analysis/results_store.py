"""A results file (SQLite) that a long sweep writes as it goes and resumes from.

The file holds the options of the run (table ``meta``) and one row per finished item
(table ``results``; the columns are the analysis's), and optionally running totals (table
``totals``: named integer arrays that every task adds to, so the file stays the same size
however many tasks run). Every task's rows and totals are written in one transaction, so
an interrupted run (even SIGKILL) leaves only whole tasks behind, and a rerun skips the
items already in the file. A rerun with different options is refused: mixing results of
two set-ups would be silently wrong.

One process writes a file at a time: :meth:`ResultsStore.open` takes the file's writer lock
(:mod:`kipp.analysis.results_lock`, which says how it behaves on a network file system) and
holds it until :meth:`~ResultsStore.close`; a second writer is refused at once with
:class:`ResultsFileBusy`, naming the holder. A write that fails (a full disk, a folder made
read-only or removed under the run) raises :class:`ResultsWriteError`: its transaction is
rolled back, so the file keeps every whole task written before and a rerun resumes from
them. What the file says about itself is read within bounds (:data:`MAX_META_CHARS`, the
options a JSON object of bounded nesting: :func:`sim.user_files.loads_json`); anything else
is a :class:`ResultsFileError`, as is a file SQLite cannot read.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "r.sqlite")
>>> store = ResultsStore.open(path, "demo", {"seed": 1}, [("value", "INTEGER")])
>>> store.add([(3, 30), (4, 40)])
>>> sorted(store.done_keys()), store.count()
([3, 4], 2)
>>> store.close()
>>> with ResultsStore.read(path, "demo") as store:
...     list(store.rows())
[(3, 30), (4, 40)]
>>> try:
...     ResultsStore.open(path, "demo", {"seed": 2}, [("value", "INTEGER")])
... except ResultsFileError as error:
...     print(str(error).split(": ", 1)[1])
was written with other options (seed: 1 in the file, 2 now); use another --out, or the same options to resume
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from kipp.analysis import results_lock
from sim.user_files import UserFileError, loads_json

SCHEMA_VERSION = 1
MAX_META_CHARS = 1_000_000
"""A value of the ``meta`` table longer than this is not one a run wrote (the options are a few hundred)."""
MAX_META_ROWS = 1000


class ResultsFileError(ValueError):
    """The results file cannot be used: not ours, another analysis, or other options."""


class ResultsFileBusy(ResultsFileError):
    """Another process is writing the results file (:mod:`kipp.analysis.results_lock`)."""


class ResultsWriteError(ResultsFileError):
    """Writing the results file failed (disk full, no permission, the file gone); the file keeps
    the whole tasks written before."""


@contextlib.contextmanager
def writer_lock(path: str | Path) -> Iterator[None]:
    """Hold the one-writer lock of the results file ``path`` (re-entrant in a process): a command
    holds it for its whole run. :class:`ResultsFileBusy` if another process holds it."""
    try:
        key = results_lock.acquire(path)
    except results_lock.LockHeld as error:
        raise ResultsFileBusy(str(error)) from None
    except OSError as error:
        raise ResultsWriteError(f"{path}: cannot take its writer lock {results_lock.lock_path(path)} "
                                f"({error.strerror or error})") from None
    try:
        yield
    finally:
        results_lock.release(key)


class ResultsStore:
    """One analysis's results file; create or resume with :meth:`open`."""

    def __init__(self, connection: sqlite3.Connection, path: str, columns: Sequence[tuple[str, str]]):
        self._db = connection
        self.path = path
        self.columns = tuple(name for name, _ in columns)
        self._identity: tuple[int, int] | None = None  # (device, inode) of the file a writer opened
        self._lock: contextlib.ExitStack | None = None

    @classmethod
    def open(cls, path: str | Path, kind: str, options: dict,
             columns: Sequence[tuple[str, str]]) -> "ResultsStore":
        """Open ``path`` for the analysis ``kind`` run with ``options`` (JSON-able).

        A new file is created with the options; an existing one must hold the same kind
        and options, else :class:`ResultsFileError` says what differs.
        """
        path = str(path)
        options = json.loads(json.dumps(options))  # as the file will give them back
        with contextlib.ExitStack() as hold:
            hold.enter_context(writer_lock(path))
            db, meta = _connect(path, existing=Path(path).exists(), writer=True)
            store = cls(db, path, columns)
            hold.callback(db.close)
            if meta is None:
                store._create(kind, options, columns)
            else:
                store._check_kind(meta, kind)
                store._check_options(meta, options)
            store._identity = _identity(path)
            store._lock = hold.pop_all()  # closed with the store: the connection, then the lock
        return store

    @classmethod
    def read(cls, path: str | Path, kind: str) -> "ResultsStore":
        """Open the existing results file ``path`` of the analysis ``kind`` to read its :meth:`rows`."""
        path = str(path)
        if not Path(path).is_file():
            raise ResultsFileError(f"{path}: no such results file")
        db, meta = _connect(path, existing=True)
        try:
            store = cls(db, path, [])
            with store._reading():
                columns = [(row[1], row[2]) for row in db.execute("PRAGMA table_info(results)")][1:]
            store.columns = tuple(name for name, _ in columns)
            store._check_kind(meta, kind)
        except BaseException:
            db.close()
            raise
        return store

    def _create(self, kind: str, options: dict, columns: Sequence[tuple[str, str]]) -> None:
        body = ", ".join(f"{name} {sqltype} NOT NULL" for name, sqltype in columns)
        with self._transaction():
            self._db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute(f"CREATE TABLE results (key INTEGER PRIMARY KEY, {body})")
            self._db.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("kind", kind), ("schema", str(SCHEMA_VERSION)),
                ("options", json.dumps(options, sort_keys=True))])

    def _check_kind(self, meta: dict, kind: str) -> None:
        if "options" not in meta:
            raise ResultsFileError(f"{self.path}: not a results file of ours (it stores no options); use another --out")
        if meta.get("kind") != kind or meta.get("schema") != str(SCHEMA_VERSION):
            raise ResultsFileError(f"{self.path}: holds {meta.get('kind', 'something else')!r} results "
                                   f"(schema {meta.get('schema')}), not {kind!r}; use another --out")

    def _check_options(self, meta: dict, options: dict) -> None:
        stored = loads_json(meta["options"])  # checked to be an object when the file was opened
        differ = [f"{key}: {stored.get(key)!r} in the file, {options.get(key)!r} now"
                  for key in sorted(set(stored) | set(options)) if stored.get(key) != options.get(key)]
        if differ:
            raise ResultsFileError(f"{self.path}: was written with other options ({'; '.join(differ)}); "
                                   "use another --out, or the same options to resume")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """All or nothing; a failed write (SQLite's error, or the file gone from its path) is a
        :class:`ResultsWriteError` after the rollback, which keeps the file as it was."""
        self._check_file()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # SQLite rolls some failures back by itself
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise ResultsWriteError(f"{self.path}: cannot write ({error}); the tasks written before are kept: "
                                    "make room (or fix the folder) and rerun the same command to resume") from None

    def _check_file(self) -> None:
        """The file this store writes is still the one at its path (not removed, with its folder or alone)."""
        if self._identity is not None and _identity(self.path) != self._identity:
            raise ResultsWriteError(f"{self.path}: the results file was removed or replaced while this run wrote "
                                    "it; stopped (the tasks written to it went with it)")

    def add(self, rows: Iterable[Sequence], totals: dict[str, np.ndarray] | None = None) -> None:
        """Write rows ``(key, *columns)`` and add ``totals`` (name -> int64 array) to the running
        totals, in one transaction (all or nothing). Integer totals are exact, so they do not
        depend on the order in which tasks finish."""
        marks = ", ".join("?" * (1 + len(self.columns)))
        with self._transaction():
            self._db.executemany(f"INSERT INTO results VALUES ({marks})", rows)
            if totals:
                self._db.execute("CREATE TABLE IF NOT EXISTS totals (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
                for name, value in totals.items():
                    value = np.asarray(value, dtype=np.int64)
                    row = self._db.execute("SELECT value FROM totals WHERE name = ?", (name,)).fetchone()
                    if row is not None:
                        if not isinstance(row[0], bytes) or len(row[0]) != value.nbytes:
                            raise ResultsFileError(f"{self.path}: its total {name!r} has another shape than "
                                                   "this run's; not this run's results file")
                        value = value + np.frombuffer(row[0], dtype=np.int64).reshape(value.shape)
                    self._db.execute("INSERT OR REPLACE INTO totals VALUES (?, ?)", (name, value.tobytes()))

    def totals(self) -> dict[str, np.ndarray]:
        """The running totals (flat int64 arrays) by name; empty before any were added."""
        if not self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'totals'").fetchone():
            return {}
        totals = {}
        with self._reading():
            for name, value in self._db.execute("SELECT name, value FROM totals"):
                if not isinstance(value, bytes) or len(value) % 8:
                    raise ResultsFileError(f"{self.path}: its total {name!r} is not an array of integers; "
                                           "not a results file of ours")
                totals[name] = np.frombuffer(value, dtype=np.int64).copy()
        return totals

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite's refusal to read (a damaged file, a disk error) as a :class:`ResultsFileError`."""
        try:
            yield
        except sqlite3.Error as error:
            raise ResultsFileError(f"{self.path}: cannot read it ({error})") from None

    def write_meta(self, key: str, value: str) -> None:
        """Record a fact about the run (wall time, say) in the ``meta`` table (not an option)."""
        if key in ("kind", "schema", "options"):
            raise ValueError(f"meta key {key!r} is reserved")
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self) -> dict[str, str]:
        """The ``meta`` table: kind, schema, options (JSON) and the facts written with :meth:`write_meta`."""
        with self._reading():
            return _read_meta(self._db, self.path)

    def done_keys(self) -> set[int]:
        """Keys of the items already in the file."""
        with self._reading():
            return {key for (key,) in self._db.execute("SELECT key FROM results")}

    def count(self) -> int:
        with self._reading():
            return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def rows(self) -> Iterator[tuple]:
        """Every row ``(key, *columns)`` by key, streamed."""
        with self._reading():
            yield from self._db.execute("SELECT * FROM results ORDER BY key")

    def close(self) -> None:
        """Close the file (and give back the writer lock of a store made by :meth:`open`)."""
        if self._lock is not None:
            lock, self._lock = self._lock, None
            lock.close()  # closes the connection, then gives back the lock
        else:
            self._db.close()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _connect(path: str, *, existing: bool, writer: bool = False) -> tuple[sqlite3.Connection, dict | None]:
    """A connection to ``path`` and its ``meta`` table (None for a new file), checked to be a results file's.

    For a ``writer`` (who holds the file's lock) a file without a single table is a new one."""
    db = None
    try:
        db = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
        db.execute("PRAGMA synchronous = FULL")
        if existing and writer and not db.execute("SELECT 1 FROM sqlite_master").fetchone():
            existing = False  # a writer killed between making the file and its first table: start afresh
        meta = _read_meta(db, path) if existing else None
    except sqlite3.DatabaseError as error:
        if db is not None:
            db.close()
        raise ResultsFileError(f"{path}: not a results file ({error})") from None
    except BaseException:
        if db is not None:
            db.close()
        raise
    return db, meta


def _read_meta(db: sqlite3.Connection, path: str) -> dict:
    """The ``meta`` table, read within bounds; ``options``, when present, checked to be a JSON object."""
    rows = db.execute("SELECT key, typeof(value), substr(value, 1, ?) FROM meta LIMIT ?",
                      (MAX_META_CHARS + 1, MAX_META_ROWS + 1)).fetchall()
    if len(rows) > MAX_META_ROWS:
        raise ResultsFileError(f"{path}: not a results file (its meta table has over {MAX_META_ROWS} rows)")
    meta = {}
    for key, kind, value in rows:
        if not isinstance(key, str) or kind != "text" or len(value) > MAX_META_CHARS:
            raise ResultsFileError(f"{path}: not a results file (its meta entry {str(key)[:40]!r} is not a "
                                   f"text of at most {MAX_META_CHARS:,} characters)")
        meta[key] = value
    if "options" in meta:
        try:
            options = loads_json(meta["options"])
        except UserFileError as error:
            raise ResultsFileError(f"{path}: not a results file of ours (its stored options: {error})") from None
        if not isinstance(options, dict):
            raise ResultsFileError(f"{path}: not a results file of ours (its stored options are not a JSON object)")
    return meta
