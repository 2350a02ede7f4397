"""Numerical calibration: do the solver settings still reproduce the closed-form statics?

For each calibrated barrel size, with the calibrated parameters (solver dt and
iterations included), :mod:`sim.statics` tilts a flat deck slowly and measures

- the toppling angle of ``n`` stacked barrels of that size, against tan(theta) = w / (n h)
  (w the end diameter: the stack pivots on the bottom barrel's end face, the bulge
  never touches the deck), tolerance :data:`TOPPLE_TOL_DEG`;
- the sliding angle of one barrel, against tan(theta) = mu, tolerance
  :data:`SLIDE_TOL_DEG`; skipped when mu > w / h (the barrel would tip before sliding).

``kipp calibrate`` warns for every check that fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.closed_forms import sliding_angle, toppling_angle
from sim.params import Params
from sim.statics import measure_sliding_angle, measure_toppling_angle

TOPPLE_TOL_DEG = 0.25
SLIDE_TOL_DEG = 0.1
STACK = 3
"""Barrels in the toppling check: tall enough to tip well before sliding."""


@dataclass(frozen=True)
class Check:
    size: str
    kind: str
    expected_deg: float
    measured_deg: float | None
    tolerance_deg: float

    @property
    def ok(self) -> bool:
        return self.measured_deg is not None and abs(self.measured_deg - self.expected_deg) <= self.tolerance_deg

    def text(self) -> str:
        measured = "never moved" if self.measured_deg is None else f"{self.measured_deg:.2f} deg"
        verdict = "ok" if self.ok else "FAILS"
        return (f"{self.size}: {self.kind} {measured}, closed form {self.expected_deg:.2f} deg "
                f"(tolerance {self.tolerance_deg} deg): {verdict}")


def numerical_check(params: Params, sizes: list[str] | tuple[str, ...], n: int = STACK,
                    slide: bool = True) -> list[Check]:
    """Physics against closed form for the barrel ``sizes`` of ``params`` (seconds of CPU per size)."""
    checks = []
    for size in sizes:
        spec = params.barrel(size)
        expected = math.degrees(toppling_angle(spec.end_diameter_m, spec.height_m, n))
        if math.tan(math.radians(expected)) < params.mu:
            measured = measure_toppling_angle(params, spec, n)
            checks.append(Check(size, f"topple of {n}", expected,
                                None if measured is None else math.degrees(measured), TOPPLE_TOL_DEG))
        if slide and params.mu < spec.end_diameter_m / spec.height_m:
            measured = measure_sliding_angle(params, spec)
            checks.append(Check(size, "slide", math.degrees(sliding_angle(params.mu)),
                                None if measured is None else math.degrees(measured), SLIDE_TOL_DEG))
    return checks
