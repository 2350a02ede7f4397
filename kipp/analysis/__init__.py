"""The analyses behind `kipp tune` and `kipp compare`: difficulty of barrel orders, variants compared,
sweeps on any executor, results files, statistics, plots (the studies of the model itself live in lab/)."""
