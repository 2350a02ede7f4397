"""The state of a game of Kipp, Kipp, Ahoi!, OpenSpiel style (DESIGN.md sections 2 and 4).

A :class:`GameState` is a node of the game tree. :meth:`~GameState.current_player` says
who acts: a player index (0 = first in :attr:`GameConfig.players`, seating clockwise),
:data:`CHANCE` (the barrel line is shuffled at each round's start, the die is rolled
before each turn) or :data:`TERMINAL`. Physical outcomes come from a referee handed in
(:class:`sim.tower.Referee`); with a deterministic referee a game is replayed exactly from
its list of actions (:meth:`~GameState.history`).

A turn (DESIGN.md section 4): in Old Sea Dogs a player with a chip whose predecessor did
not just pass chooses :class:`Play` or :class:`Pass` (once the round's first barrel
stands); chance rolls the die; red/yellow: the player places, then that sailor turns;
blue: blue turns with no barrel and no decision, except on a round's first turn, which
always places first; wild: the player places, then chooses the sailor. Crashes, awards,
the passed chip and the next round's starter follow the rulebook; after three rounds the
game is over.

Everything that happens is also logged as transcript events (:meth:`~GameState.events`,
the vocabulary of :mod:`kipp.rules.transcript`).

>>> from dataclasses import replace
>>> from kipp.rules.actions import Shuffle, Roll, Place
>>> from sim.tower import BarrelPose, Decision, TowerState
>>> class Steady:  # a referee under which nothing ever falls
...     def new_tower(self): return TowerState()
...     def decide(self, tower, placement, turn):
...         if placement: tower = replace(tower, barrels=tower.barrels + (
...             BarrelPose(placement.size, placement.x_m, placement.y_m, 0.0),))
...         if turn: tower = tower.with_turn(turn.sailor, turn.revolutions)
...         return Decision(False, tower)
>>> state = GameState(GameConfig(players=("Ann", "Ben")), Steady())
>>> state.current_player() == CHANCE
True
>>> state.apply_action(Shuffle(("small",) * 4 + ("medium",) * 4 + ("large",) * 4))
>>> state.apply_action(Roll("blue"))
>>> state.legal_actions()
[PlaceAnywhere('small', top_mm=(0.0, 0.0))]
>>> state.apply_action(Place(0.0, 0.0))
>>> state.current_player(), state.turns_by_sailor()
(-1, {'red': 0.0, 'yellow': 0.0, 'blue': 1.0})
"""

from __future__ import annotations

from functools import lru_cache

from kipp.rules.actions import (
    PLACE_LIMIT_MM,
    Action,
    ChooseSailor,
    Pass,
    Place,
    PlaceAnywhere,
    Play,
    Roll,
    Shuffle,
    place_within,
)
from kipp.rules.config import ROUNDS, GameConfig, distinct_lines
from sim.die import RollMeaning, roll_meaning
from sim.geometry import deck_tilt_deg
from sim.params import SCREWS, ShipParams, load_params
from sim.tower import Decision, Placement, Referee, TowerState, Turn

CHANCE = -1
"""``current_player()`` at a chance node (shuffle or die roll)."""
TERMINAL = -4
"""``current_player()`` once the game is over."""

_SHUFFLE, _DECIDE_PASS, _ROLL, _PLACE, _CHOOSE, _OVER = (
    "shuffle", "pass-or-play", "roll", "place", "choose-sailor", "over")


class IllegalActionError(ValueError):
    """An action that the rules do not allow in this state; the message names both."""


@lru_cache(maxsize=1)
def _default_ship() -> ShipParams:
    return load_params().ship


class GameState:
    """One node of a game: chips, round, barrel line, tower, whose turn and what is due.

    ``ship`` (default: the shipped parameters) is used only to report the deck's tilt in
    the turn events; physical outcomes are the ``referee``'s.
    """

    def __init__(self, config: GameConfig, referee: Referee, ship: ShipParams | None = None) -> None:
        self.config = config
        self.referee = referee
        self.ship = ship if ship is not None else _default_ship()
        n = config.n_players
        self.chips = [config.start_chips] * n
        """Chips per player, by player index."""
        self.supply = config.total_chips - config.start_chips * n
        self.round = 1
        """The current round, 1-3 (3 once the game is over)."""
        self.starter = 0
        """Who started the current round."""
        self.player = 0
        """Whose turn it is (meaningful while the game runs)."""
        self.line: tuple[str, ...] = ()
        """The round's barrel line (sizes, bottom first)."""
        self.placed = 0
        """How many barrels of the line have been put on the ship this round."""
        self.tower: TowerState = TowerState()
        self.face: str | None = None
        """The die face of the turn in progress (None before the roll)."""
        self.sailor: str | None = None
        """The sailor to turn once the barrel is placed (None: wild, chosen after placing)."""
        self.passed = False
        """Did the previous turn end with a pass? (then this player may not pass)."""
        self.owed_pass_chip = False
        """Does the current player receive the passed chip if the turn ends without a crash?"""
        self.last_decision: Decision | None = None
        """The referee's most recent verdict."""
        self._phase = _SHUFFLE
        self._history: list[Action] = []
        self._events: list[dict] = []
        self._log("game_start", players=list(config.players), variant=config.variant(),
                  faces=list(config.faces), chips=list(self.chips), supply=self.supply)

    # --- the OpenSpiel-like interface ----------------------------------------------------

    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""
        if self._phase == _OVER:
            return TERMINAL
        if self._phase in (_SHUFFLE, _ROLL):
            return CHANCE
        return self.player

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_kind(self) -> str | None:
        """``"shuffle"`` or ``"roll"`` at a chance node, else None."""
        return {_SHUFFLE: "shuffle", _ROLL: "roll"}.get(self._phase)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """(outcome, probability) pairs at a chance node; ``[]`` elsewhere.

        The die: each distinct face with its share of the faces. The round's shuffle:
        every distinct barrel line, equally likely (a uniform shuffle of the barrels gives
        a uniform distinct order); 34,650 of them for 12 barrels, so samplers may prefer
        :func:`kipp.rules.play.sample_chance`.
        """
        if self._phase == _ROLL:
            faces = self.config.faces
            return [(Roll(face), faces.count(face) / len(faces)) for face in dict.fromkeys(faces)]
        if self._phase == _SHUFFLE:
            orders = distinct_lines(self.config.barrel_set())
            return [(Shuffle(order), 1.0 / len(orders)) for order in orders]
        return []

    def legal_actions(self) -> list:
        """The actions allowed now, in a fixed order.

        At a placement this is ``[PlaceAnywhere(...)]``, a description of the continuous
        set of legal :class:`Place` actions; at a shuffle node it is every distinct line.
        """
        if self._phase in (_SHUFFLE, _ROLL):
            return [outcome for outcome, _ in self.chance_outcomes()]
        if self._phase == _DECIDE_PASS:
            return [Play(), Pass()]
        if self._phase == _PLACE:
            x, y = self.tower.top_xy()
            return [PlaceAnywhere(self.line[self.placed], (x * 1000.0, y * 1000.0))]
        if self._phase == _CHOOSE:
            return [ChooseSailor(sailor) for sailor in SCREWS]
        return []

    def apply_action(self, action: Action, player: int | None = None) -> None:
        """Apply ``action``; ``player``, if given, must be :meth:`current_player`.

        Raises :class:`IllegalActionError` (a ``ValueError``) naming the action and the state.
        """
        reason = self._why_illegal(action)
        if reason is None and player is not None and player != self.current_player():
            reason = f"it is not player {player}'s turn"
        if reason is not None:
            raise IllegalActionError(f"illegal action {action!r}: {reason}; state: {self}")
        self._history.append(action)
        getattr(self, "_apply_" + type(action).__name__.lower())(action)

    def returns(self) -> list[float]:
        """Per player: 1/k for each of the k players sharing the most chips, 0 for the others.

        Zero for everyone until the game is over; once over the returns sum to 1.
        """
        if not self.is_terminal():
            return [0.0] * self.config.n_players
        winners = self.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.config.n_players)]

    def winners(self) -> list[int]:
        """The players with the most chips (ties share)."""
        best = max(self.chips)
        return [p for p, c in enumerate(self.chips) if c == best]

    def clone(self) -> "GameState":
        """An independent copy (sharing the config, the referee and the immutable tower)."""
        other = object.__new__(GameState)
        other.__dict__.update(self.__dict__)
        other.chips = list(self.chips)
        other._history = list(self._history)
        other._events = list(self._events)
        return other

    def history(self) -> list[Action]:
        """Every action applied so far, chance outcomes included."""
        return list(self._history)

    def events(self) -> list[dict]:
        """The transcript events so far (see :mod:`kipp.rules.transcript`)."""
        return list(self._events)

    def last_round_end(self) -> dict | None:
        """The ``round_end`` event of the latest finished round (None before one ends)."""
        return next((e for e in reversed(self._events) if e["event"] == "round_end"), None)

    # --- what players look at ---------------------------------------------------------

    def turns_by_sailor(self) -> dict[str, float]:
        """Revolutions each sailor has turned this round."""
        return self.tower.turns_by_sailor()

    def next_barrel(self) -> str | None:
        """Size of the next barrel in the line (None when none is left)."""
        return self.line[self.placed] if self.placed < len(self.line) else None

    def roll_meaning(self, face: str) -> RollMeaning:
        """What a roll of ``face`` asks for now (:func:`sim.die.roll_meaning`): whether a barrel
        goes on first (every face but blue once the round's first barrel is on) and which sailors
        may turn (the face's own, or any of the three on a wild roll). Asked before the roll (a
        bot weighing the die) or of the face just rolled (``self.face``)."""
        return roll_meaning(face, self.placed)

    def pass_allowed(self) -> bool:
        return self._phase == _DECIDE_PASS

    def __str__(self) -> str:
        if self._phase == _OVER:
            where = "game over"
        else:
            who = self.config.players[self.player]
            where = f"round {self.round}, player {self.player} ({who}), phase {self._phase}"
            if self.face is not None:
                where += f", rolled {self.face}"
        return (f"<{where}, barrels {self.placed}/{len(self.line)}, chips {self.chips}, "
                f"supply {self.supply}>")

    __repr__ = __str__

    # --- validation ----------------------------------------------------------------------

    def _why_illegal(self, action: object) -> str | None:
        phase = self._phase
        if phase == _OVER:
            return "the game is over"
        if isinstance(action, Shuffle):
            if phase != _SHUFFLE:
                return "the barrels are shuffled only at the start of a round"
            if sorted(action.order) != sorted(self.config.barrel_set()):
                return f"the line must hold exactly the barrels {self.config.barrel_set()}"
            return None
        if isinstance(action, Roll):
            if phase != _ROLL:
                return "the die is not to be rolled now"
            if action.face not in self.config.faces:
                return f"the die has no face {action.face!r}"
            return None
        if isinstance(action, (Play, Pass)):
            if phase == _DECIDE_PASS:
                return None
            if not self.config.sea_dogs:
                return "passing (and Play/Pass) is only for Old Sea Dogs"
            if phase != _ROLL:
                return "Play/Pass is chosen before rolling"
            if self._history and isinstance(self._history[-1], Play):
                return "the player has already chosen to play this turn; the die is to be rolled"
            if self.passed:
                return "the player after a pass may not pass"
            if self.placed == 0:
                return "nobody may pass before the first barrel of the round stands"
            return "passing costs a chip and the player has none"
        if isinstance(action, Place):
            if phase != _PLACE:
                return "no barrel is to be placed now"
            if not place_within(action, PLACE_LIMIT_MM):
                return f"a placement needs finite coordinates within {PLACE_LIMIT_MM} mm"
            return None
        if isinstance(action, ChooseSailor):
            if phase != _CHOOSE:
                return "a sailor is chosen only after placing on a wild roll"
            if action.sailor not in SCREWS:
                return f"unknown sailor {action.sailor!r}; expected one of {', '.join(SCREWS)}"
            return None
        return "not an action of this game"

    # --- transitions -----------------------------------------------------------------------

    def _apply_shuffle(self, action: Shuffle) -> None:
        self.line = action.order
        self.placed = 0
        self.tower = self.referee.new_tower()
        self.player = self.starter
        self.passed = self.owed_pass_chip = False
        self._log("round_start", round=self.round, order=list(self.line), starter=self.starter)
        self._begin_turn()

    def _begin_turn(self) -> None:
        self.face = self.sailor = None
        # "Pass if you're sure you can't add another barrel": never so before the first one stands
        can_pass = self.config.sea_dogs and not self.passed and self.chips[self.player] >= 1 and self.placed > 0
        self._phase = _DECIDE_PASS if can_pass else _ROLL

    def _apply_play(self, action: Play) -> None:
        self._phase = _ROLL

    def _apply_pass(self, action: Pass) -> None:
        self.chips[self.player] -= 1
        self.supply += 1
        self._log("pass", player=self.player)
        self._next_player(passed=True)

    def _apply_roll(self, action: Roll) -> None:
        self.face = action.face
        self._log("roll", player=self.player, face=action.face)
        meaning = self.roll_meaning(action.face)
        if not meaning.places_barrel:
            self._decide(None, Turn(meaning.sailors[0], self.config.fraction))
            return
        self.sailor = meaning.sailors[0] if len(meaning.sailors) == 1 else None  # None: chosen after placing
        self._phase = _PLACE

    def _apply_place(self, action: Place) -> None:
        size = self.line[self.placed]
        self.placed += 1
        self._log("place", player=self.player, barrel=size, index=self.placed,
                  offset_mm=[action.x_mm, action.y_mm])
        x_m, y_m = action.xy_m
        turn = Turn(self.sailor, self.config.fraction) if self.sailor is not None else None
        self._decide(Placement(size, x_m, y_m), turn)

    def _apply_choosesailor(self, action: ChooseSailor) -> None:
        self.sailor = action.sailor
        self._decide(None, Turn(action.sailor, self.config.fraction))

    def _decide(self, placement: Placement | None, turn: Turn | None) -> None:
        decision = self.referee.decide(self.tower, placement, turn)
        self.last_decision = decision
        if turn is not None and decision.phase != "place":
            # The counts the turn leaves (the referee's tower may stop mid-turn on a crash).
            turns = self.tower.with_turn(turn.sailor, turn.revolutions).turns_by_sailor()
            self._log("turn", player=self.player, sailor=turn.sailor, fraction=turn.revolutions,
                      turns=turns, tilt_deg=round(deck_tilt_deg(self.ship, turns), 3))
        self.tower = decision.tower
        if decision.crashed:
            self._crash()
        elif turn is None:
            self._phase = _CHOOSE  # placed on a wild roll: the sailor is chosen next
        else:
            self._turn_survived()

    def _crash(self) -> None:
        returned = min(self.config.crash_penalty, self.chips[self.player])
        self.chips[self.player] -= returned
        self.supply += returned
        self._log("crash", player=self.player, chips_returned=returned, phase=self.last_decision.phase)
        stood = self.placed - (1 if self.last_decision.phase == "place" else 0)
        self._end_round(completed=False, stacked=stood)

    def _turn_survived(self) -> None:
        if self.owed_pass_chip:
            self._award(self.player, 1, "pass")
        # A turn that ends with the whole line placed placed the last barrel itself: the
        # round would have ended after any earlier turn.
        if self.placed == len(self.line):
            n = self.config.n_players
            for k in range(n):
                player = (self.player + k) % n
                self._award(player, 2 if k == 0 else 1, "completion")
            self._end_round(completed=True, stacked=self.placed)
        else:
            self._next_player(passed=False)

    def _award(self, player: int, due: int, reason: str) -> None:
        """Pay ``due`` chips from the supply while it lasts; ``reason``: "completion" or "pass"."""
        given = min(due, self.supply)
        if given > 0:
            self.chips[player] += given
            self.supply -= given
            self._log("award", player=player, chips=given, reason=reason)

    def _next_player(self, passed: bool) -> None:
        self.owed_pass_chip = passed
        self.passed = passed
        self.player = (self.player + 1) % self.config.n_players
        self._begin_turn()

    def _end_round(self, completed: bool, stacked: int) -> None:
        self._log("round_end", round=self.round, completed=completed, stacked=stacked)
        self.face = self.sailor = None
        if self.round == ROUNDS:
            self._phase = _OVER
            self._log("game_end", chips=list(self.chips), supply=self.supply, winners=self.winners())
            return
        self.round += 1
        self.starter = (self.player + 1) % self.config.n_players
        self._phase = _SHUFFLE

    def _log(self, event: str, **fields) -> None:
        self._events.append({"event": event, **fields})

