"""``python -m kipp``: the same as the ``kipp`` command."""

from kipp.cli import main

main()
