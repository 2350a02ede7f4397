"""Reading, checking and writing the project's TOML files: one way for every file format.

The parameter files (:mod:`sim.params`) and the measurement files
(:mod:`calibration.measurements`) are both read with :func:`read_toml` and checked with
the same rules, so a mistake reads the same wherever it is made: one
:class:`TomlError` (a ``ValueError``) whose message names the file, the key and the
problem, e.g. ``my.toml: barrels.small.mass_g: must be > 0, got -5.3``. Each format keeps
its own subclass (``ParamsError``, ``MeasurementError``) so callers can tell them apart;
:func:`raising` turns every error raised inside it into that subclass, with the file's
name in front.

A file is refused before it is parsed if it cannot be read, is not a regular file (a
folder, a FIFO, a device: :func:`sim.user_files.read_user_file`), is larger than
:data:`MAX_FILE_BYTES` or is not UTF-8 text; after parsing, if it nests deeper or holds
longer numbers than :mod:`sim.user_files` allows. A value is checked by a spec:
:class:`Number` (finite; an integer if asked; a sign rule whose message stays the plain
``must be > 0``; then a plausible range), :class:`OneOf`, :class:`Text`; a schema is a
dict of specs and sub-schemas, and :class:`EachTable` stands for tables of any name
(``[barrels.NAME]``). :func:`merge` overlays a file's tables on a base, checking every
key against a schema; :func:`dump_toml` writes tables back as TOML text that
:func:`tomllib.loads` reads to the same values.

>>> schema = {"friction": {"mu": Number(sign=POSITIVE, low=0.01, high=2.0)}}
>>> merge({}, {"friction": {"mu": 0.45}}, schema)
{'friction': {'mu': 0.45}}
>>> try:
...     merge({}, {"friction": {"mu": 7}}, schema)
... except TomlError as error:
...     print(error)
friction.mu: must be between 0.01 and 2, got 7.0
>>> print(dump_toml({"friction": {"mu": 0.45}}), end="")
[friction]
mu = 0.45
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from sim.user_files import UserFileError, check_nesting, read_user_file

POSITIVE = "positive"
NON_NEGATIVE = "non-negative"

MAX_FILE_BYTES = 1_000_000
"""No parameter or measurement file is anywhere near this big (the defaults are 5 kB);
a bigger one is a wrong file (a picture, /dev/zero), refused before it is read whole."""


class TomlError(ValueError):
    """A TOML file (or a table) is unreadable, malformed or holds an impossible value.

    The message is ``[FILE: ]KEY: PROBLEM``, on one line.
    """

    def __init__(self, message: str, source: str | Path | None = None) -> None:
        self.detail = message
        self.source = None if source is None else str(source)
        super().__init__(message if source is None else f"{source}: {message}")


@contextlib.contextmanager
def raising(error_type: type[TomlError], source: str | Path | None = None) -> Iterator[None]:
    """Inside, every :class:`TomlError` becomes ``error_type``, prefixed with ``source``."""
    try:
        yield
    except TomlError as error:
        if isinstance(error, error_type) and (source is None or error.source is not None):
            raise
        if error.source is not None:  # it names its file already
            raise error_type(error.detail, error.source) from None
        raise error_type(str(error), source) from None


def read_toml(path: str | Path, what: str) -> dict:
    """The tables of the TOML file ``path``; :class:`TomlError` naming ``path`` if it cannot be read.

    ``what`` names the kind of file in the message ("parameter file").
    """
    try:
        data = read_user_file(path, what, MAX_FILE_BYTES)
    except UserFileError as error:
        raise TomlError(str(error), path) from None
    return loads_toml(data, path)


def loads_toml(data: bytes | str, source: str | Path | None = None) -> dict:
    """Parse TOML text (bytes must be UTF-8); :class:`TomlError` says where it is broken."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TomlError(f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}); "
                            "save it as UTF-8", source) from None
    try:
        tables = tomllib.loads(data)
    except tomllib.TOMLDecodeError as error:
        raise TomlError(f"not valid TOML ({error})", source) from None
    except RecursionError:
        raise TomlError("not valid TOML (nested too deeply)", source) from None
    except ValueError as error:  # an integer past Python's 4,300 digits
        raise TomlError(f"not valid TOML ({error})", source) from None
    try:
        check_nesting(tables)
    except UserFileError as error:
        raise TomlError(f"not a file of ours ({error})", source) from None
    return tables


# --- value specs ------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A finite number (``integer=True``: a whole one, TOML integer syntax).

    ``sign`` (:data:`POSITIVE` or :data:`NON_NEGATIVE`) is checked first, with its own
    plain message; then the plausible range ``low``..``high`` (inclusive), whose message
    may carry a ``why``.
    """

    sign: str | None = None
    low: float | None = None
    high: float | None = None
    integer: bool = False
    why: str = ""

    def check(self, key: str, value: Any) -> float | int:
        if isinstance(value, bool):
            raise TomlError(f"{key}: expected {'an integer' if self.integer else 'a number'}, got {value!r}")
        if self.integer:
            if not isinstance(value, int):
                raise TomlError(f"{key}: expected an integer, got {value!r}")
        else:
            if not isinstance(value, (int, float)):
                raise TomlError(f"{key}: expected a number, got {value!r}")
            value = float(value)
            if not math.isfinite(value):
                raise TomlError(f"{key}: must be a finite number, got {value!r}")
        if self.sign == POSITIVE and not value > 0:
            raise TomlError(f"{key}: must be > 0, got {value!r}")
        if self.sign == NON_NEGATIVE and not value >= 0:
            raise TomlError(f"{key}: must be >= 0, got {value!r}")
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        if not low <= value <= high:
            bound = (f"between {low:g} and {high:g}" if self.low is not None and self.high is not None
                     else f">= {low:g}" if self.low is not None else f"<= {high:g}")
            why = f" ({self.why})" if self.why else ""
            raise TomlError(f"{key}: must be {bound}, got {value!r}{why}")
        return value


@dataclass(frozen=True)
class OneOf:
    """One of a few strings."""

    options: tuple[str, ...]

    def check(self, key: str, value: Any) -> str:
        if value not in self.options:
            raise TomlError(f"{key}: must be one of {', '.join(self.options)}, got {value!r}")
        return value


@dataclass(frozen=True)
class Text:
    """Any string."""

    def check(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise TomlError(f"{key}: expected a string, got {value!r}")
        return value


@dataclass(frozen=True)
class EachTable:
    """A table of tables of any names, each following ``schema`` (e.g. ``[barrels.NAME]``)."""

    schema: Mapping[str, Any]


def number(key: str, value: Any, *, positive: bool = False, non_negative: bool = False) -> float:
    """A finite number, > 0 or >= 0 if asked."""
    return Number(sign=POSITIVE if positive else NON_NEGATIVE if non_negative else None).check(key, value)


def boolean(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TomlError(f"{key}: expected true or false, got {value!r}")
    return value


def table(key: str, value: Any) -> Mapping:
    if not isinstance(value, Mapping):
        raise TomlError(f"{key}: expected a table, got {value!r}")
    return value


def tables(key: str, value: Any) -> list[Mapping]:
    """An array of tables (``[[key]]``)."""
    if not isinstance(value, list):
        raise TomlError(f"{key}: expected an array of tables ([[{key}]]), got {value!r}")
    return [table(f"{key}[{i}]", item) for i, item in enumerate(value)]


def known(key: str, value: Mapping, allowed) -> None:
    """Every key of the table ``value`` is one of ``allowed``."""
    prefix = f"{key}." if key else ""
    for name in value:
        if name not in allowed:
            raise TomlError(f"{prefix}{name}: unknown key (expected one of: {', '.join(allowed)})")


def required(key: str, value: Mapping, name: str) -> Any:
    if name not in value:
        raise TomlError(f"{key}.{name}: missing" if key else f"{name}: missing")
    return value[name]


def merge(base: Mapping, override: Mapping, schema: Mapping[str, Any], prefix: str = "") -> dict:
    """Overlay ``override`` on ``base`` (raw TOML tables), checking every key of ``override``.

    Returns a new dict; values are converted by their spec (an integer 2 for a float key
    becomes 2.0).
    """
    merged = dict(base)
    for key, value in override.items():
        path = f"{prefix}{key}"
        if key not in schema:
            raise TomlError(f"{path}: unknown key (expected one of: {', '.join(sorted(schema))})")
        spec = schema[key]
        if isinstance(spec, EachTable):
            spec = {name: spec.schema for name in table(path, value)}
        if isinstance(spec, Mapping):
            merged[key] = merge(base.get(key, {}), table(path, value), spec, path + ".")
        else:
            merged[key] = spec.check(path, value)
    return merged


# --- writing ------------------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else json.dumps(name, ensure_ascii=False)


def scalar(value: Any, float_digits: int | None = None) -> str:
    """One TOML value: a bool, int, finite float (``float_digits``: rounded) or string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(round(value, float_digits) if float_digits is not None else value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # JSON's escapes are TOML basic-string escapes
    raise ValueError(f"cannot write {value!r} to a TOML file")


def dump_toml(values: Mapping, comments: Mapping[str, str] | None = None, *, float_digits: int | None = None,
              format_value: Callable[[Any], str] | None = None) -> str:
    """TOML text of nested tables: each table's values under its ``[a.b]`` header.

    ``comments`` maps dotted keys (``friction.mu``) to a comment written after the value.
    Floats are written exactly (``repr``) unless ``float_digits`` rounds them.
    """
    comments = comments or {}
    write = format_value or (lambda value: scalar(value, float_digits))
    lines: list[str] = []

    def walk(node: Mapping, path: tuple[str, ...]) -> None:
        values = [(k, v) for k, v in node.items() if not isinstance(v, Mapping)]
        if values and path:
            if lines:
                lines.append("")
            lines.append(f"[{'.'.join(_key(p) for p in path)}]")
        for key, value in values:
            note = comments.get(".".join(path + (key,)))
            lines.append(f"{_key(key)} = {write(value)}" + (f"  # {note}" if note else ""))
        for key, value in node.items():
            if isinstance(value, Mapping):
                walk(value, path + (key,))

    walk(values, ())
    return "\n".join(lines) + "\n" if lines else ""
