"""The analyses a designer reads: difficulty of barrel orders, variants compared, sweeps on
any executor, results files, statistics, plots, and the benchmarks of the referees."""
