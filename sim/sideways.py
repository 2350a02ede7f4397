"""Falls across the slice: the one way a tower falls that the 2D slice cannot simulate.

The physics runs in the vertical plane along the deck's downhill direction (DESIGN.md 3.2)
and keeps each barrel's offset across that plane fixed. Across it the deck is level (the
slice runs along the steepest slope), so gravity's line through the centre of mass of
barrels ``k`` and up is vertical there, at their mass-weighted mean offset across. Those
barrels stand only if that line meets the contact under barrel ``k``: the lens where
barrel ``k``'s bottom disc meets the top disc of the barrel below (for ``k = 0``, barrel
0's own disc on the deck). The slice sees where the line falls *along* the slice (the
barrels tip there); where it falls *across* is this static condition, exact for rigid
barrels: the stack falls sideways when its mean offset lies outside the lens's extent
across the slice, ``[max(a_k - r_k, a_(k-1) - r_(k-1)), min(a_k + r_k, a_(k-1) + r_(k-1))]``
(``a`` offsets across, ``r`` end radii).

It happens when a tower that leaned into one tilt (barrels set uphill, as a good player
sets them) is turned so that the deck falls away in another direction: what was along
the old slice is across the new one. Without this check the slice keeps such a tower
standing on a sliver of a contact (:func:`sim.barrel_shape.chord_half_width` never
narrows a face below a tenth of its radius), where the static check
(:mod:`sim.static_check`, the bots' judgement and the fast referee) sees it fall.

>>> k, shortfall = sideways_fall([0.0155, 0.0095], [0.013, 0.011], [0.0, 0.014])  # a medium 14 mm across a large
>>> k, round(shortfall * 1000, 6)                                                   # interface 1, 1 mm beyond the rim
(1, 1.0)
>>> sideways_fall([0.0155, 0.0095], [0.013, 0.011], [0.0, 0.012]) is None           # 12 mm: still on it
True
"""

from __future__ import annotations

from typing import Sequence


def sideways_fall(masses_kg: Sequence[float], radii_m: Sequence[float],
                  across_m: Sequence[float]) -> tuple[int, float] | None:
    """The lowest interface whose stack falls across the slice, or None if none does.

    Barrels bottom first: masses (kg), end radii (m) and centre offsets across the slice
    (m). Returns ``(k, shortfall_m)``: interface ``k`` (under barrel ``k``; 0 is the deck)
    and how far (m) the centre of mass of barrels ``k`` and up lies outside its contact.
    """
    fallen, mass, moment = None, 0.0, 0.0
    for k in range(len(masses_kg) - 1, -1, -1):  # from the top down: each stack's centre of mass
        mass += masses_kg[k]
        moment += masses_kg[k] * across_m[k]
        com = moment / mass
        low, high = across_m[k] - radii_m[k], across_m[k] + radii_m[k]
        if k > 0:
            low, high = max(low, across_m[k - 1] - radii_m[k - 1]), min(high, across_m[k - 1] + radii_m[k - 1])
        shortfall = max(low - com, com - high)
        if shortfall > 0.0:
            fallen = k, shortfall  # the lowest such interface is the one that falls
    return fallen
