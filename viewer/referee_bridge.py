"""Let the rules engine's referee calls be animated frame by frame.

The rules engine (:class:`kipp.rules.state.GameState`) asks its referee synchronously. The
viewer wants to show the decision as it happens, one 60 Hz frame of physics per drawn
frame. :class:`AnimatingReferee` bridges the two without touching a rule:

1. The viewer applies an action to a *clone* of the state. If that needs a decision
   the referee has not made yet, :meth:`AnimatingReferee.decide` raises
   :class:`DecisionPending` carrying the exact request (tower, placement, turn); the
   clone is thrown away.
2. The viewer runs the request with the real referee's :meth:`start` (a
   :class:`sim.referees.loop.DecisionRun`), advancing one frame per drawn frame.
3. Once decided, :meth:`AnimatingReferee.provide` stores the decision and the viewer
   applies the action again; this time ``decide`` returns it.

So the state receives exactly the Decision the animation showed. A referee without
``start`` (e.g. a scripted one in tests) is decided at once (:class:`InstantRun`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.tower import Decision, Placement, Referee, TowerState, Turn


@dataclass(frozen=True)
class Request:
    """One referee call: the arguments of :meth:`sim.tower.Referee.decide`."""

    tower: TowerState
    placement: Placement | None
    turn: Turn | None


class DecisionPending(Exception):
    """Raised inside a cloned state's ``apply_action``: this decision must be animated first."""

    def __init__(self, request: Request) -> None:
        super().__init__(f"decision pending for {request}")
        self.request = request


class AnimatingReferee:
    """The referee the viewer's game state holds (implements :class:`sim.tower.Referee`)."""

    def __init__(self, base: Referee) -> None:
        self.base = base
        self._ready: dict[Request, Decision] = {}

    def new_tower(self) -> TowerState:
        return self.base.new_tower()

    def decide(self, tower: TowerState, placement: Placement | None, turn: Turn | None) -> Decision:
        request = Request(tower, placement, turn)
        decision = self._ready.pop(request, None)
        if decision is None:
            raise DecisionPending(request)
        return decision

    def provide(self, request: Request, decision: Decision) -> None:
        """The animated decision for ``request``; the next matching ``decide`` returns it."""
        self._ready[request] = decision

    def start(self, request: Request):
        """Begin animating ``request``: a DecisionRun, or an :class:`InstantRun`."""
        start = getattr(self.base, "start", None)
        if start is None:
            return InstantRun(self.base.decide(request.tower, request.placement, request.turn))
        return start(request.tower, request.placement, request.turn)


class InstantRun:
    """A decision made at once, shaped like a DecisionRun without a world to draw."""

    world = None
    phase = "place"

    def __init__(self, decision: Decision) -> None:
        self.decision = decision

    def advance_frame(self) -> Decision:
        return self.decision
