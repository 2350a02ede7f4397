"""Features of a barrel order that a designer can read, as design matrices.

:func:`features` (the *layout*), per order: an intercept; which size sits at each position
(one column per position but the top one and per size but ``small``: a position's size is the
reference ``small`` when both of its columns are 0, and the top position is fixed by the others); and three
counts of neighbouring pairs: a small barrel directly on a large one, a large barrel
directly on a small one, two barrels of one size on each other. Used to pool the physics
correction over similar orders (:mod:`kipp.analysis.difficulty.quality_estimate`) and to explain
difficulty in the notebook.

:func:`summary_features`, per order: an intercept; the mean position of the large barrels and
of the medium ones; and which size stands at the bottom, on the deck. Four slopes instead of 25,
so the sampled correction can try them on 100 sampled orders instead of 520; they carry the part
of the physics correction that orders built alike share. How much of it they explain in each
committed sweep is in that sweep's record (``notebooks/results/sweeps.json``, ``correction``).

>>> names = feature_names(12)
>>> len(names), names[:3], names[-3:]
(26, ['intercept', 'L at 1', 'M at 1'], ['S on L', 'L on S', 'same on same'])
>>> row = features([("large",) * 4 + ("medium",) * 4 + ("small",) * 4])[0]
>>> [int(v) for v in row[-3:]]
[0, 0, 9]
>>> summary_features([("medium", "large", "small", "large")]).tolist()
[[1.0, 3.0, 1.0, 0.0, 1.0]]
"""

from __future__ import annotations

import numpy as np

from kipp.analysis.orders import mean_position

_CODE = {"large": 0, "medium": 1, "small": 2}


SUMMARY_NAMES = ["intercept", "L mean position", "M mean position", "L at bottom", "M at bottom"]
"""Column names of :func:`summary_features` (positions from 1 = bottom)."""


def feature_names(length: int) -> list[str]:
    """Column names of :func:`features` for orders of ``length`` barrels (positions from 1 = bottom)."""
    positions = [f"{letter} at {j + 1}" for j in range(length - 1) for letter in ("L", "M")]
    return ["intercept", *positions, "S on L", "L on S", "same on same"]


def features(orders: list[tuple[str, ...]]) -> np.ndarray:
    """The design matrix (orders x :func:`feature_names`), float."""
    codes = np.array([[_CODE[size] for size in order] for order in orders], dtype=np.int8)
    n, length = codes.shape
    columns = [np.ones(n)]
    for j in range(length - 1):
        columns += [codes[:, j] == 0, codes[:, j] == 1]
    below, above = codes[:, :-1], codes[:, 1:]
    columns += [((below == 0) & (above == 2)).sum(axis=1), ((below == 2) & (above == 0)).sum(axis=1),
                (below == above).sum(axis=1)]
    return np.column_stack(columns).astype(float)


def summary_features(orders: list[tuple[str, ...]]) -> np.ndarray:
    """The design matrix (orders x :data:`SUMMARY_NAMES`), float: mean positions from 1 = bottom
    (:func:`kipp.analysis.orders.mean_position`)."""
    return np.array([(1.0, mean_position(order, "large"), mean_position(order, "medium"), order[0] == "large",
                      order[0] == "medium") for order in orders], dtype=float)


CORRECTION_FEATURES = {"summary": summary_features, "layout": features}
"""The feature sets the physics correction can use, by name
(:attr:`kipp.analysis.difficulty.quality_plan.Plan.correction_features`)."""
