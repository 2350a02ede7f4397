"""The answers over the unmeasured toy's parameters: ``kipp sensitivity`` and ``kipp design``.

- :mod:`~kipp.analysis.parameters.uncertain`: the uncertain parameters, their plausible ranges and how to
  measure each on a real set;
- :mod:`~kipp.analysis.parameters.sensitivity`: ``kipp sensitivity``, how the answers move over each range;
- :mod:`~kipp.analysis.parameters.design`: ``kipp design``, the value of one parameter that gives a target
  completion rate.
"""
