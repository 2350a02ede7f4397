"""The referee family, and the one registry that maps a referee's name to the object.

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

A referee travels by its name: a command, a results file, a recording and a worker's task carry
the name, and whoever decides builds it here (:func:`make_referee`, or :func:`shared_referee` for
the one per process that a sweep's tasks share). :func:`register_referee` adds a name (a test's
stand-in, a new model); a local pool's spawned workers adopt the registrations of the process
that starts them (:func:`added_referees`, :func:`adopt_referees`), and so do the tasks a Dask
cluster runs for it. :func:`registered_referee` registers a name for the
length of a ``with`` block (a test).
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Callable, Iterator

from sim.params import Params
from sim.tower import Referee

RefereeFactory = Callable[[Params], Referee]
"""What a name is registered with: the parameter set -> a new referee (a module-level function
or class, so that it pickles by reference to a spawned worker)."""


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


BUILT_IN: dict[str, RefereeFactory] = {
    "physics": _physics,
    "fast": _fast,
    "hybrid": _hybrid,
    "loop": _loop,
}
"""The names every process knows, with their factories."""

_registry: dict[str, RefereeFactory] = dict(BUILT_IN)


def referee_names() -> tuple[str, ...]:
    """The names :func:`make_referee` accepts, built-in first, then in the order registered."""
    return tuple(_registry)


def register_referee(name: str, factory: RefereeFactory, *, replace: bool = False) -> RefereeFactory | None:
    """From now on ``make_referee(name, params)`` builds ``factory(params)``; return the factory the
    name had before (None for a new name).

    A name that is taken is refused (``ValueError``) unless ``replace`` is true (a test standing a
    quick referee in for ``physics`` says so). A name is a non-empty word without spaces: it is
    written to results files and recordings.
    """
    if not isinstance(name, str) or not name or any(c.isspace() for c in name):
        raise ValueError(f"a referee's name is a non-empty word without spaces, got {name!r}")
    if name in _registry and not replace:
        raise ValueError(f"a referee called {name!r} is registered already (replace=True to stand in for it)")
    before = _registry.get(name)
    _registry[name] = factory
    shared_referee.cache_clear()
    return before


def unregister_referee(name: str) -> None:
    """Forget a name :func:`register_referee` added (a built-in name goes back to its own factory)."""
    if name in BUILT_IN:
        _registry[name] = BUILT_IN[name]
    else:
        _registry.pop(name, None)
    shared_referee.cache_clear()


@contextmanager
def registered_referee(name: str, factory: RefereeFactory) -> Iterator[str]:
    """Within the ``with`` block, ``name`` builds ``factory(params)`` (a new name, or a stand-in for
    a registered one); afterwards the name is what it was. Yields the name. What tests use."""
    before = register_referee(name, factory, replace=True)
    try:
        yield name
    finally:
        if before is None:
            unregister_referee(name)
        else:
            register_referee(name, before, replace=True)


def make_referee(name: str, params: Params) -> Referee:
    """A new referee called ``name`` for ``params``; ``ValueError`` naming the known ones otherwise."""
    try:
        factory = _registry[name]
    except KeyError:
        raise ValueError(f"unknown referee {name!r}; expected one of {', '.join(referee_names())}") from None
    return factory(params)


@lru_cache(maxsize=4)
def shared_referee(name: str, params: Params) -> Referee:
    """The one referee called ``name`` for ``params`` in this process, built on first use: what the
    tasks of a sweep share (building a physics world is not free). A registration empties it."""
    return make_referee(name, params)


def added_referees() -> dict[str, RefereeFactory]:
    """The registrations beyond the built-in ones (new names, and stand-ins for built-in names):
    what a spawned worker must adopt to build what this process builds."""
    return {name: factory for name, factory in _registry.items() if BUILT_IN.get(name) is not factory}


def adopt_referees(added: dict[str, RefereeFactory]) -> None:
    """Register ``added`` (:func:`added_referees` of the starting process) in this one: the
    initializer of a local pool's workers."""
    for name, factory in added.items():
        if _registry.get(name) != factory:  # adopted before: keep the referees already built
            register_referee(name, factory, replace=True)
