"""The analyses for game designers, one room per concern, over a shared floor.

The shared floor (this package's top-level modules; it imports none of the rooms):
:mod:`~kipp.analysis.rounds` (one round of a barrel line played to its end by a bot, its random
streams), :mod:`~kipp.analysis.shared_rounds` (round ``k`` of many orders, once per shared prefix),
:mod:`~kipp.analysis.orders` (orders as text, the sets of orders swept), :mod:`~kipp.analysis.executor`
(tasks in this process, a process pool or on Dask), :mod:`~kipp.analysis.results_store` (the SQLite
results file), :mod:`~kipp.analysis.resumable` (a run into a results file that skips what is done),
:mod:`~kipp.analysis.stats` (intervals), :mod:`~kipp.analysis.export` (CSV and JSON) and
:mod:`~kipp.analysis.plots`.

The rooms, each importing the floor and not each other:

- :mod:`kipp.analysis.difficulty`: what ``kipp tune`` runs, the difficulty of barrel orders;
- :mod:`kipp.analysis.parameters`: ``kipp sensitivity`` and ``kipp design``, the answers over the
  unmeasured toy's parameters;
- :mod:`kipp.analysis.compare`: ``kipp compare``, the standard game against its variants;
- :mod:`kipp.analysis.skill_ceiling`: how often the lookahead player completes a tower.

The studies of the model itself live in ``lab/``.
"""
