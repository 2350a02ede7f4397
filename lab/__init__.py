"""The project measuring its own model: studies runnable as ``python -m lab.NAME`` (see lab/README.md)."""
