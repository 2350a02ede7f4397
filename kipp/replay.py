"""Re-play a JSON transcript from its recorded actions and check every outcome.

The recorded actions are the chance outcomes (``round_start.order``, ``roll.face``) and
the players' decisions (``pass``, ``place.offset_mm``, the ``turn.sailor`` after a wild
roll; a ``roll`` where a pass was allowed means the player chose to play). Everything else
(turn counts, tilts, crashes, chips, awards, the end of rounds and of the game) is an
outcome: the replay recomputes it with the referee and compares it with the record, event
by event.

Both kinds of failure are ``ValueError``\\ s with a one-line message naming the line of the
transcript: :class:`ReplayMismatch` (the outcome differs) and
:class:`~kipp.transcript.TranscriptError` (the file is not a valid transcript).
"""

from __future__ import annotations

import hashlib
import json

from kipp.actions import ChooseSailor, Pass, Place, Play, Roll, Shuffle
from kipp.config import GameConfig
from kipp.state import GameState, IllegalActionError
from kipp.transcript import TranscriptError
from sim.params import Params
from sim.tower import Referee

HEADER_ONLY = ("seed", "params", "referee", "_line")
"""game_start fields that describe the recording rather than the game."""


class ReplayMismatch(ValueError):
    """The re-played game differs from the recorded one."""


def params_fingerprint(params: Params) -> str:
    """A short hash of a parameter set (recorded in ``game_start.params``)."""
    return hashlib.sha256(repr(params).encode()).hexdigest()[:16]


def _normal(event: dict) -> dict:
    """An event as JSON would give it back, without the bookkeeping fields."""
    return json.loads(json.dumps({k: v for k, v in event.items() if k not in HEADER_ONLY}))


def config_from_header(header: dict) -> GameConfig:
    """The :class:`GameConfig` recorded in a ``game_start`` event."""
    try:
        variant = header["variant"]
        return GameConfig(players=tuple(header["players"]), barrels=variant["barrels"],
                          half_turn=bool(variant["half_turn"]), sea_dogs=bool(variant["sea_dogs"]),
                          faces=tuple(header["faces"]))
    except (KeyError, TypeError, ValueError) as error:
        raise TranscriptError(f"line {header.get('_line', 1)}: bad game_start ({error})") from None


def _action_for(event: dict, state: GameState):
    """The recorded action an event stands for, or None for a pure outcome."""
    kind = event["event"]
    if kind == "round_start":
        return Shuffle(tuple(event["order"]))
    if kind == "pass":
        return Pass()
    if kind == "roll":
        return Roll(event["face"])
    if kind == "place":
        x, y = event["offset_mm"]
        if isinstance(x, bool) or isinstance(y, bool):
            raise TypeError("offset_mm must be numbers")
        return Place(x, y)
    if kind == "turn" and state.current_player() >= 0 and isinstance(state.legal_actions()[0], ChooseSailor):
        return ChooseSailor(event["sailor"])
    return None


def replay(events: list[dict], referee: Referee, params: Params) -> GameState:
    """Re-play ``events`` (from :func:`kipp.transcript.parse_json_lines`); return the final state.

    Raises :class:`ReplayMismatch` at the first outcome that differs, and
    :class:`TranscriptError` for a transcript that cannot be a game.
    """
    header = events[0]
    recorded_params = header.get("params")
    if recorded_params is not None and recorded_params != params_fingerprint(params):
        raise ReplayMismatch(f"line {header['_line']}: recorded with parameter set {recorded_params}, "
                             f"replaying with {params_fingerprint(params)} (use the same --params)")
    state = GameState(config_from_header(header), referee, params.ship)
    checked = 0  # state events already compared with the record
    for event in events:
        line = event["_line"]
        if state.is_terminal() and checked >= len(state.events()):
            raise TranscriptError(f"line {line}: event after the end of the game")
        try:
            action = _action_for(event, state)
            if action is not None:
                if isinstance(action, Roll) and state.pass_allowed():
                    state.apply_action(Play())
                state.apply_action(action)
        except IllegalActionError as error:
            raise ReplayMismatch(f"line {line}: {error}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise TranscriptError(f"line {line}: bad {event['event']} event ({error!s})") from None
        produced = state.events()
        if checked >= len(produced):
            raise ReplayMismatch(f"line {line}: recorded {event['event']} did not happen in the replay")
        expected, got = _normal(event), _normal(produced[checked])
        if expected != got:
            raise ReplayMismatch(f"line {line}: recorded {_diff(expected, got)}")
        checked += 1
    if checked < len(state.events()):
        missing = state.events()[checked]
        raise ReplayMismatch(f"after line {events[-1]['_line']}: the replay has a {missing['event']} event "
                             f"the record lacks ({json.dumps(_normal(missing))})")
    if not state.is_terminal():
        raise TranscriptError(f"the transcript ends at line {events[-1]['_line']} before the game is over")
    return state


def _diff(expected: dict, got: dict) -> str:
    if expected.get("event") != got.get("event"):
        return f"{expected.get('event')} but the replay gives {got.get('event')} {json.dumps(got)}"
    keys = [k for k in dict.fromkeys(list(expected) + list(got)) if expected.get(k) != got.get(k)]
    parts = [f"{k}={json.dumps(expected.get(k))} vs replay {json.dumps(got.get(k))}" for k in keys]
    return f"{expected['event']} differs: " + "; ".join(parts)
