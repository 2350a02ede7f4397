"""Every order's difficulty as a CSV table (gzip-compressed when the name ends in ``.gz``).

Columns: ``order``, ``p_complete``, ``p_low``, ``p_high``, ``mean_stacked``, ``stacked_low``,
``stacked_high`` (95% intervals) and ``large_position``, one row per order, in the sweep's
order of the orders. A first comment line (``# ...``) says how the values were made.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path
from typing import Sequence

FIELDS = ("p_complete", "p_low", "p_high", "mean_stacked", "stacked_low", "stacked_high", "large_position")


def write_csv(rows: Sequence, path: str | Path, about: str) -> None:
    """Write ``rows`` (objects with ``line`` and :data:`FIELDS`) to ``path``, ``about`` as the comment line."""
    path = Path(path)
    buffer = io.StringIO()
    buffer.write(f"# {about}\n")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("order", *FIELDS))
    for row in rows:
        writer.writerow((row.line, *(f"{getattr(row, name):.5f}" for name in FIELDS)))
    data = buffer.getvalue().encode("utf-8")
    if path.suffix == ".gz":
        data = gzip.compress(data, mtime=0)  # mtime 0: the same table gives the same bytes
    path.write_bytes(data)


def write_json(report: dict, path: str | Path) -> None:
    """A report (a command's measurements) as indented JSON."""
    Path(path).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def read_csv(path: str | Path) -> list[dict]:
    """The rows of a file of :func:`write_csv` as dicts (numbers as floats)."""
    path = Path(path)
    raw = path.read_bytes()
    text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    return [{k: (v if k == "order" else float(v)) for k, v in row.items()} for row in csv.DictReader(lines)]
