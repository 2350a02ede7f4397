"""``python -m kipp``: the same as the ``kipp`` command (and named so in its messages)."""

from kipp.cli import run

run(prog_name="kipp")
