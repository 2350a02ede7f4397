"""Barrel orders (lines) as text, and the sets of orders an analysis sweeps.

An order is the round's line of barrels, bottom of the tower first, written one letter
per barrel: ``L`` large, ``M`` medium, ``S`` small, e.g. ``LLMSMSLMSLMS``. The index of an
order is its rank in :func:`kipp.rules.config.distinct_lines` (lexicographic by size name), so
it names the same order in every run and results file.

>>> order_text(parse_order("llmsmslmslms"))
'LLMSMSLMSLMS'
>>> len(all_orders(12)), len(all_orders(9))
(34650, 1680)
>>> order_index(parse_order("LLLLMMMMSSSS"))
0
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import numpy as np

from kipp.rules.config import GameConfig, distinct_lines
from sim.seeds import stream
from sim.user_files import UserFileError, read_user_file

MAX_ORDERS_FILE_BYTES = 10_000_000
"""Every distinct order of twelve barrels fits in half a megabyte; a larger file is not a list of orders."""

LETTERS = {"L": "large", "M": "medium", "S": "small"}
"""Order letters -> barrel sizes of the catalogue."""
_SIZE_LETTER = {size: letter for letter, size in LETTERS.items()}



class OrderError(ValueError):
    """An order that is not a line of this game's barrels; the message says why."""


def barrel_set(barrels: int) -> tuple[str, ...]:
    """The barrels of a round (12 or 9) as sizes."""
    return GameConfig(barrels=barrels).barrel_set()


def all_orders(barrels: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct order of ``barrels`` barrels, by index: 34,650 for 12, 1,680 for 9."""
    return distinct_lines(barrel_set(barrels))


@lru_cache(maxsize=2)
def _indices(barrels: int) -> dict[tuple[str, ...], int]:
    return {order: i for i, order in enumerate(all_orders(barrels))}


def order_index(order: tuple[str, ...]) -> int:
    """The rank of ``order`` among :func:`all_orders` of its length."""
    return _indices(len(order))[tuple(order)]


def order_text(order: tuple[str, ...]) -> str:
    """``('large', 'medium', ...)`` -> ``'LM...'``."""
    return "".join(_SIZE_LETTER[size] for size in order)


def parse_order(text: str, barrels: int | None = None) -> tuple[str, ...]:
    """An order from its letters (case and surrounding blanks ignored).

    ``barrels`` (12 or 9; default: the length of ``text`` if that is 12 or 9) fixes the
    expected length. Raises :class:`OrderError` naming the problem: a bad letter, the
    wrong length, or the wrong number of some size.
    """
    letters = text.strip().upper()
    bad = sorted({ch for ch in letters if ch not in LETTERS})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        raise OrderError(f"{text.strip()!r}: bad letter {shown} (expected L, M or S)")
    if barrels is None:
        barrels = len(letters) if len(letters) in (12, 9) else 12
    if len(letters) != barrels:
        raise OrderError(f"{text.strip()!r}: {len(letters)} letters, expected {barrels}")
    counts = Counter(letters)
    each = barrels // len(LETTERS)
    if any(counts[letter] != each for letter in LETTERS):
        have = ", ".join(f"{counts[letter]} {letter}" for letter in LETTERS)
        raise OrderError(f"{letters!r}: {have}; expected {each} of each")
    return tuple(LETTERS[ch] for ch in letters)


def read_orders_file(path: str | Path, barrels: int) -> list[tuple[str, ...]]:
    """Orders from a file: one per line; blank lines and ``#`` comments are skipped.

    Raises :class:`OrderError` naming the file and line of the first bad or repeated
    order, an empty file, or one that cannot be read (or is not a regular file of at most
    :data:`MAX_ORDERS_FILE_BYTES`); ``UnicodeDecodeError`` if it is not UTF-8.
    """
    try:  # a regular file of bounded size (a FIFO would block the read for ever)
        text = read_user_file(path, "file of orders", MAX_ORDERS_FILE_BYTES).decode("utf-8")
    except UserFileError as error:
        raise OrderError(f"cannot read {path} ({error})") from None
    orders: list[tuple[str, ...]] = []
    seen: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        try:
            order = parse_order(content, barrels)
        except OrderError as error:
            raise OrderError(f"{path} line {number}: {error}") from None
        if order in seen:
            raise OrderError(f"{path} line {number}: {content!r} repeats line {seen[order]}")
        seen[order] = number
        orders.append(order)
    if not orders:
        raise OrderError(f"{path}: no orders (one per line, like {'LMS' * (barrels // 3)})")
    return orders


def sample_orders(n: int, barrels: int, seed: int) -> list[tuple[str, ...]]:
    """``n`` distinct orders drawn uniformly without replacement, in index order.

    The draw depends only on (``seed``, ``n``, ``barrels``), from a stream kept apart from
    the rounds' streams.
    """
    orders = all_orders(barrels)
    if not 1 <= n <= len(orders):
        raise OrderError(f"sample:{n}: expected 1 to {len(orders)} orders of {barrels} barrels")
    rng = stream(seed, "order sample")
    picked = np.sort(rng.choice(len(orders), size=n, replace=False))
    return [orders[int(i)] for i in picked]


def resolve_orders(spec: str, barrels: int, seed: int) -> list[tuple[str, ...]]:
    """The orders of ``--orders``: ``all``, ``sample:N`` or a file name.

    Raises :class:`OrderError` for a bad spec or file (``OSError`` if unreadable).
    """
    if spec == "all":
        return list(all_orders(barrels))
    if spec.startswith("sample:"):
        count = spec.removeprefix("sample:")
        if not (count.isascii() and count.isdigit()) or len(count) > 9:
            raise OrderError(f"{spec!r}: expected sample:N with N a whole number")
        return sample_orders(int(count), barrels, seed)
    return read_orders_file(spec, barrels)


def mean_position(order: tuple[str, ...], size: str = "large") -> float:
    """Mean 1-based position (1 = bottom) of the barrels of ``size`` in ``order``."""
    positions = [i + 1 for i, s in enumerate(order) if s == size]
    return sum(positions) / len(positions)
