"""The referees by name: the one place that maps ``--referee NAME`` to an object.

Every referee implements :class:`sim.tower.Referee`. ``physics`` is the ground truth, decided
by the physics referee's compound fast path (:mod:`sim.compound_referee`: verdicts as the
converged plain loop's on 498 of the 500 benchmark situations, the other 2 standing where the
loop crashes; a median 12-barrel turn decision about 9x cheaper than the loop's early exits);
the plain loop itself stays the reference (``PhysicsReferee(plain=True)``). ``exact`` is the
physics referee's loop with early exits, without the compound fast path: the referee ``kipp
play`` animates, so a game recorded in the window replays under it (under ``physics`` the
handed-on poses differ slightly and 5 of 16 bot games of every model, seeds 0-3, replayed to
another outcome, measured 2026-12-02).
"""

from __future__ import annotations

from typing import Callable

from sim.params import Params
from sim.tower import Referee


def _physics(params: Params) -> Referee:
    from sim.compound_referee import ConfirmingReferee

    return ConfirmingReferee(params)  # the fast path; verdicts as the converged loop's


def _exact(params: Params) -> Referee:
    from sim.physics_referee import PhysicsReferee

    return PhysicsReferee(params)  # the loop with early exits, unaccelerated: what the viewer animates


def _fast(params: Params) -> Referee:
    from sim.fast_referee import FastReferee

    return FastReferee(params)


def _hybrid(params: Params) -> Referee:
    from sim.hybrid_referee import HybridReferee

    return HybridReferee(params)


REFEREE_FACTORIES: dict[str, Callable[[Params], Referee]] = {
    "physics": _physics,
    "fast": _fast,
    "hybrid": _hybrid,
    "exact": _exact,
}
"""Name -> factory taking the parameter set."""


def referee_names() -> tuple[str, ...]:
    """The names ``make_referee`` accepts."""
    return tuple(REFEREE_FACTORIES)


def make_referee(name: str, params: Params) -> Referee:
    """The referee called ``name`` for ``params``; ``ValueError`` naming the choices otherwise."""
    try:
        factory = REFEREE_FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown referee {name!r}; expected one of {', '.join(referee_names())}") from None
    return factory(params)
