"""Reading a file a user hands in, within bounds: its kind, size, nesting and number lengths.

Every reader of a user's file (parameter and measurement files, recordings, the remembered
start-screen choices, order lists, a results file's stored options) goes through here, so
a wrong file is refused in one :class:`UserFileError` line instead of hanging, filling the
memory or ending in a traceback:

- :func:`read_user_file` opens without blocking and refuses anything but a regular file (a
  folder, a FIFO, which would wait for a writer for ever, a device such as ``/dev/zero``, a
  socket) and a file larger than its bound, before reading it whole.
- :func:`loads_json` parses JSON refusing nesting deeper than ``max_depth`` (Python's parser
  would end in ``RecursionError``), integers of more than :data:`MAX_DIGITS` digits (which
  Python refuses past 4,300 with a bare ``ValueError``), ``NaN`` and ``Infinity``, and text
  that is not Unicode (a lone surrogate, which nothing can print).
- :func:`check_nesting` bounds an already parsed value (a TOML file's tables) the same way.

>>> loads_json('{"barrels": [9, 12]}')
{'barrels': [9, 12]}
>>> try:
...     loads_json("[" * 100 + "]" * 100)
... except UserFileError as error:
...     print(error)
nested deeper than 32 levels
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

MAX_DEPTH = 32
"""Nesting of lists and tables at most (the project's formats nest at most four deep)."""
MAX_DIGITS = 40
"""Digits of a number at most (no quantity of the project needs more than 17 significant ones)."""


class UserFileError(ValueError):
    """A user's file cannot be read as one of ours: the message says why, on one line."""


def read_user_file(path: str | Path, what: str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    :class:`UserFileError` (naming ``what``, the kind of file expected) for a missing or
    unreadable file, a folder, a FIFO, a device or a socket (never opened for a blocking
    read), and a larger file (refused before it is read whole).
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise UserFileError(f"is a folder, not a {what}") from None
    except OSError as error:
        raise UserFileError(f"cannot read {what} ({error.strerror or error})") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise UserFileError(f"is a folder, not a {what}")
        if not stat.S_ISREG(mode):
            raise UserFileError(f"is {_kind(mode)}, not a {what}")
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise UserFileError(f"cannot read {what} ({error.strerror or error})") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise UserFileError(f"larger than {_size(max_bytes)}: not a {what}")
    return b"".join(chunks)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _size(n: int) -> str:
    return f"{n // 1_000_000} MB" if n >= 1_000_000 else f"{n // 1000} kB" if n >= 1000 else f"{n} bytes"


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise UserFileError(f"a number with {len(text.lstrip('-')):,} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 4 * MAX_DIGITS:
        raise UserFileError(f"a number written with {len(text):,} characters (at most {4 * MAX_DIGITS})")
    value = float(text)
    if not math.isfinite(value):
        raise UserFileError(f"a number too large ({text[:20]}...)")
    return value


def _constant(text: str):
    raise UserFileError(f"{text} is not a number JSON allows")


def loads_json(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads(text)`` within bounds (see the module docstring); :class:`UserFileError` otherwise,
    whose message says what is wrong (``json.JSONDecodeError``'s message for broken JSON)."""
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_float, parse_constant=_constant)
    except UserFileError:
        raise
    except RecursionError:
        raise UserFileError(f"nested deeper than {max_depth} levels") from None
    except json.JSONDecodeError as error:
        raise UserFileError(f"not JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
    except (ValueError, TypeError) as error:  # bytes that are not UTF-8, say
        raise UserFileError(f"not JSON ({error})") from None
    check_nesting(value, max_depth)
    return value


def check_nesting(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """:class:`UserFileError` if lists and dicts in ``value`` nest deeper than ``max_depth``, an
    integer in it has more than :data:`MAX_DIGITS` digits, or a text is not Unicode (JSON's
    ``"\\ud800"`` escape of half a character): checked without recursion."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= max_depth:
                raise UserFileError(f"nested deeper than {max_depth} levels")
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
        elif isinstance(item, str) and not is_unicode(item):
            raise UserFileError(f"text that is not Unicode (a lone surrogate in {item[:20]!r})")
        elif isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 10 ** MAX_DIGITS:
            raise UserFileError(f"a number with more than {MAX_DIGITS} digits")


def is_unicode(text: str) -> bool:
    """Is ``text`` Unicode that can be written out (no lone surrogate, which no encoder takes)?"""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
