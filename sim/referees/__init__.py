"""The referee family, and the one place that maps ``--referee NAME`` to an object.

- :mod:`sim.referees.loop`: :class:`~sim.referees.loop.LoopReferee` (``loop``), the reference loop
  (pymunk, frame by frame; ``plain=True`` without early exits) and its
  :class:`~sim.referees.loop.DecisionRun`: what ``kipp play`` animates, so a game recorded in the
  window names it and replays under it (under ``physics`` the handed-on poses differ slightly, and
  a game can replay to another outcome).
- :mod:`sim.referees.physics`: :class:`~sim.referees.physics.PhysicsReferee` (``physics``), a
  cheap compound pass (:class:`~sim.referees.physics.CompoundReferee`, in the rigid compounds of
  :mod:`sim.referees.compound_world`) whose crashes a compound run at the loop's solver setting
  confirms (:class:`~sim.referees.physics.ConfirmReferee`).
- :mod:`sim.referees.fast`: :class:`~sim.referees.fast.FastReferee` (``fast``), the static check
  with margins fitted to physics.
- :mod:`sim.referees.hybrid`: :class:`~sim.referees.hybrid.HybridReferee` (``hybrid``), fast far
  from the threshold, physics near it.

Every referee implements :class:`sim.tower.Referee`; each built here answers to its name here
(``referee.name``), and no other class answers to one of these names (the cheap pass's is
``compound``). ``physics`` is the ground truth, decided by the cheap pass and its confirm run
(:mod:`sim.referees.physics`, whose docstring lists when a decision ends in a crash, and the
commands that measure its agreement with the plain loop and its cost); the plain loop itself
stays the reference (``LoopReferee(plain=True)``).
"""

from __future__ import annotations

from typing import Callable

from sim.params import Params
from sim.tower import Referee


def _physics(params: Params) -> Referee:
    from sim.referees.physics import PhysicsReferee

    return PhysicsReferee(params)  # the fast path; verdicts as the converged loop's


def _loop(params: Params) -> Referee:
    from sim.referees.loop import LoopReferee

    return LoopReferee(params)  # the reference loop with early exits: what the viewer animates


def _fast(params: Params) -> Referee:
    from sim.referees.fast import FastReferee

    return FastReferee(params)


def _hybrid(params: Params) -> Referee:
    from sim.referees.hybrid import HybridReferee

    return HybridReferee(params)


REFEREE_FACTORIES: dict[str, Callable[[Params], Referee]] = {
    "physics": _physics,
    "fast": _fast,
    "hybrid": _hybrid,
    "loop": _loop,
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
