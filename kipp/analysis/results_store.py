"""A results file (SQLite) that a long sweep writes as it goes and resumes from.

The file holds the options of the run (table ``meta``) and one row per finished item
(table ``results``; the columns are the analysis's), and optionally running totals (table
``totals``: named integer arrays that every task adds to, so the file stays the same size
however many tasks run). Every task's rows and totals are written in one transaction, so
an interrupted run (even SIGKILL) leaves only whole tasks behind, and a rerun skips the
items already in the file. A rerun with different options is refused: mixing results of
two set-ups would be silently wrong.

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
import sqlite3
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

SCHEMA_VERSION = 1


class ResultsFileError(ValueError):
    """The results file cannot be used: not ours, another analysis, or other options."""


class ResultsStore:
    """One analysis's results file; create or resume with :meth:`open`."""

    def __init__(self, connection: sqlite3.Connection, path: str, columns: Sequence[tuple[str, str]]):
        self._db = connection
        self.path = path
        self.columns = tuple(name for name, _ in columns)

    @classmethod
    def open(cls, path: str | Path, kind: str, options: dict,
             columns: Sequence[tuple[str, str]]) -> "ResultsStore":
        """Open ``path`` for the analysis ``kind`` run with ``options`` (JSON-able).

        A new file is created with the options; an existing one must hold the same kind
        and options, else :class:`ResultsFileError` says what differs.
        """
        path = str(path)
        options = json.loads(json.dumps(options))  # as the file will give them back
        db, meta = _connect(path, existing=Path(path).exists())
        store = cls(db, path, columns)
        try:
            if meta is None:
                store._create(kind, options, columns)
            else:
                store._check_kind(meta, kind)
                store._check_options(meta, options)
        except BaseException:
            db.close()
            raise
        return store

    @classmethod
    def read(cls, path: str | Path, kind: str) -> "ResultsStore":
        """Open the existing results file ``path`` of the analysis ``kind`` to read its :meth:`rows`."""
        path = str(path)
        if not Path(path).is_file():
            raise ResultsFileError(f"{path}: no such results file")
        db, meta = _connect(path, existing=True)
        try:
            columns = [(row[1], row[2]) for row in db.execute("PRAGMA table_info(results)")][1:]
            store = cls(db, path, columns)
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
        if meta.get("kind") != kind or meta.get("schema") != str(SCHEMA_VERSION):
            raise ResultsFileError(f"{self.path}: holds {meta.get('kind', 'something else')!r} results "
                                   f"(schema {meta.get('schema')}), not {kind!r}; use another --out")

    def _check_options(self, meta: dict, options: dict) -> None:
        stored = json.loads(meta["options"])
        differ = [f"{key}: {stored.get(key)!r} in the file, {options.get(key)!r} now"
                  for key in sorted(set(stored) | set(options)) if stored.get(key) != options.get(key)]
        if differ:
            raise ResultsFileError(f"{self.path}: was written with other options ({'; '.join(differ)}); "
                                   "use another --out, or the same options to resume")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

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
                        value = value + np.frombuffer(row[0], dtype=np.int64).reshape(value.shape)
                    self._db.execute("INSERT OR REPLACE INTO totals VALUES (?, ?)", (name, value.tobytes()))

    def totals(self) -> dict[str, np.ndarray]:
        """The running totals (flat int64 arrays) by name; empty before any were added."""
        try:
            return {name: np.frombuffer(value, dtype=np.int64).copy()
                    for name, value in self._db.execute("SELECT name, value FROM totals")}
        except sqlite3.OperationalError:  # no totals table yet
            return {}

    def write_meta(self, key: str, value: str) -> None:
        """Record a fact about the run (wall time, say) in the ``meta`` table (not an option)."""
        if key in ("kind", "schema", "options"):
            raise ValueError(f"meta key {key!r} is reserved")
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self) -> dict[str, str]:
        """The ``meta`` table: kind, schema, options (JSON) and the facts written with :meth:`write_meta`."""
        return dict(self._db.execute("SELECT key, value FROM meta"))

    def done_keys(self) -> set[int]:
        """Keys of the items already in the file."""
        return {key for (key,) in self._db.execute("SELECT key FROM results")}

    def count(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def rows(self) -> Iterator[tuple]:
        """Every row ``(key, *columns)`` by key, streamed."""
        yield from self._db.execute("SELECT * FROM results ORDER BY key")

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _connect(path: str, *, existing: bool) -> tuple[sqlite3.Connection, dict | None]:
    """A connection to ``path`` and its ``meta`` table (None for a new file)."""
    db = None
    try:
        db = sqlite3.connect(path, isolation_level=None)  # transactions are explicit
        db.execute("PRAGMA synchronous = FULL")
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall()) if existing else None
    except sqlite3.DatabaseError as error:
        if db is not None:
            db.close()
        raise ResultsFileError(f"{path}: not a results file ({error})") from None
    return db, meta
