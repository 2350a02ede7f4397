"""The referees by name: the one place that maps ``--referee NAME`` to an object.

Every referee implements :class:`sim.tower.Referee`. ``physics`` is the ground truth;
faster referees register here as they arrive.
"""

from __future__ import annotations

from typing import Callable

from sim.params import Params
from sim.tower import Referee


def _physics(params: Params) -> Referee:
    from sim.physics_referee import PhysicsReferee

    return PhysicsReferee(params)


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
