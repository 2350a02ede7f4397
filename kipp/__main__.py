"""``python -m kipp``: the same as the ``kipp`` command (and named so in its messages)."""

from kipp.cli import main

main(prog_name="kipp")
