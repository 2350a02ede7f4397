"""The ``kipp`` command line: one module per subcommand, the shared options, the group.

A command module parses its options and calls the library; :mod:`kipp.cli.main` is the
group that imports each subcommand lazily. Only this package imports ``viewer`` and
``calibration``, inside the commands that need them.
"""

from kipp.cli.main import main, run

__all__ = ["main", "run"]
