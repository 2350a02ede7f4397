"""What ``kipp tune`` runs: the difficulty of barrel orders.

- :mod:`~kipp.analysis.difficulty.sweeps`: the command's sweeps (one referee, or the physics-quality
  estimate) into a results file, their summaries and the terminal table;
- :mod:`~kipp.analysis.difficulty.ranking`: the ranking row (:class:`~kipp.analysis.difficulty.ranking.Difficulty`)
  and whether a ranking tells its extremes apart;
- the physics-quality estimate, four modules of one name: :mod:`~kipp.analysis.difficulty.quality_estimate`
  (the estimator: its parts, its sums, its intervals), :mod:`~kipp.analysis.difficulty.quality_plan` (how many
  rounds of each kind), :mod:`~kipp.analysis.difficulty.quality_tasks` (the kinds of task that play them) and
  :mod:`~kipp.analysis.difficulty.quality_sweep` (the tasks run into the results file, read back and reported);
- :mod:`~kipp.analysis.difficulty.features`: the orders' features the estimate's correction may use;
- :mod:`~kipp.analysis.difficulty.racing`: ``kipp tune --find``, the hardest and easiest orders raced for;
- :mod:`~kipp.analysis.difficulty.confirm`: ``kipp tune --confirm``, a sweep's extremes measured again;
- :mod:`~kipp.analysis.difficulty.own_rounds`: picked orders on rounds of their own (the confirmation's and
  the coverage check's reference values).
"""
