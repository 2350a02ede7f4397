"""Re-play a JSON transcript from its recorded actions and check every outcome.

The recorded actions are the chance outcomes (``round_start.order``, ``roll.face``) and
the players' decisions (``pass``, ``place.offset_mm``, the ``turn.sailor`` after a wild
roll; a ``roll`` where a pass was allowed means the player chose to play). Everything else
(turn counts, tilts, crashes, chips, awards, the end of rounds and of the game) is an
outcome: the replay recomputes it with the referee and compares it with the record, event
by event.

Both kinds of failure are ``ValueError``\\ s with a one-line message naming the line of the
transcript: :class:`ReplayMismatch` (the outcome differs) and
:class:`~kipp.rules.transcript.TranscriptError` (the file is not a valid transcript).
"""

from __future__ import annotations

import json

from kipp.rules.actions import Action, ChooseSailor, Pass, Place, Play, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState, IllegalActionError
from kipp.rules.transcript import TranscriptError
from sim.params import Params, params_fingerprint
from sim.referees import referee_names
from sim.tower import Referee

HEADER_ONLY = ("seed", "params", "referee", "models", "_line")
"""game_start fields that describe the recording rather than the game."""


class ReplayMismatch(ValueError):
    """The re-played game differs from the recorded one."""


def _normal(event: dict) -> dict:
    """An event as JSON would give it back, without the bookkeeping fields."""
    return json.loads(json.dumps({k: v for k, v in event.items() if k not in HEADER_ONLY}))


def _line(header: dict) -> int:
    return header.get("_line", 1)


def _bad_header(header: dict, problem: str) -> TranscriptError:
    return TranscriptError(f"line {_line(header)}: bad game_start ({problem})")


def config_from_header(header: dict) -> GameConfig:
    """The :class:`GameConfig` recorded in a ``game_start`` event.

    Also checks the recording's ``seed`` (if present: a whole number >= 0). Raises
    :class:`TranscriptError` naming the line for anything a game could not start from.
    """
    seed = header.get("seed", 0)
    if type(seed) is not int or seed < 0:
        raise _bad_header(header, f"seed must be a whole number >= 0, got {json.dumps(seed)}")
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise _bad_header(header, f"players must be a list of names, got {json.dumps(players)}")
    if not all(name.isprintable() for name in players):  # a NUL, a line break: no name to print or draw
        raise _bad_header(header, f"players must be printable names, got {json.dumps(players)}")
    variant = header.get("variant")
    if not isinstance(variant, dict):
        raise _bad_header(header, f"variant must be an object, got {json.dumps(variant)}")
    barrels = variant.get("barrels")
    if type(barrels) is not int:
        raise _bad_header(header, f"variant.barrels must be a whole number, got {json.dumps(barrels)}")
    for switch in ("half_turn", "sea_dogs"):
        if type(variant.get(switch)) is not bool:
            raise _bad_header(header, f"variant.{switch} must be true or false, got {json.dumps(variant.get(switch))}")
    faces = header.get("faces")
    if not isinstance(faces, list):
        raise _bad_header(header, f"faces must be a list, got {json.dumps(faces)}")
    try:
        return GameConfig(players=tuple(players), barrels=barrels, half_turn=variant["half_turn"],
                          sea_dogs=variant["sea_dogs"], faces=tuple(faces))
    except ValueError as error:  # GameConfig's own check: 1 to 4 players, known faces, ...
        raise _bad_header(header, str(error)) from None


def header_seed(header: dict) -> int:
    """The root seed recorded in a ``game_start`` event (0 if none; checked by :func:`config_from_header`)."""
    return header.get("seed", 0)


def header_models(header: dict) -> list[str | None]:
    """Each seat's player model as recorded in ``game_start.models`` (None for a person, or for
    every seat of a recording made before models were recorded).

    Raises :class:`TranscriptError` for a list of the wrong length or a name that is not a
    string (which models exist is the players' business, not the rules').
    """
    players = header.get("players")
    models = header.get("models")
    if models is None:
        return [None] * (len(players) if isinstance(players, list) else 0)
    if not isinstance(models, list) or not isinstance(players, list) or len(models) != len(players) or not all(
            m is None or isinstance(m, str) for m in models):
        raise _bad_header(header, "models must be a list of one model name (or null) per player")
    return models


def header_referee(header: dict) -> str:
    """The referee a ``game_start`` event was recorded with (``physics`` if it names none).

    Raises :class:`TranscriptError` for a name :func:`sim.referees.make_referee` does not know.
    """
    name = header.get("referee", "physics")
    if name not in referee_names():
        raise TranscriptError(f"line {_line(header)}: unknown referee {json.dumps(name)}; "
                              f"expected one of {', '.join(referee_names())}")
    return name


def check_params(header: dict, params: Params) -> None:
    """Raise :class:`ReplayMismatch` unless ``params`` are the ones the game was recorded with."""
    recorded = header.get("params")
    if recorded is not None and recorded != params_fingerprint(params):
        raise ReplayMismatch(f"line {_line(header)}: recorded with parameter set {recorded}, "
                             f"replaying with {params_fingerprint(params)} (use the same --params)")


def action_for(event: dict, state: GameState) -> Action | None:
    """The next action ``event`` stands for at ``state``, or None for a pure outcome.

    A ``roll`` where a pass was allowed stands for two actions: first :class:`Play` (the
    player chose to play; the transcript records no such event), then the :class:`Roll`.
    So the event is used up once the action returned is not a ``Play``.
    """
    kind = event["event"]
    if kind == "round_start":
        return Shuffle(tuple(event["order"]))
    if kind == "pass":
        return Pass()
    if kind == "roll":
        return Play() if state.pass_allowed() else Roll(event["face"])
    if kind == "place":
        x, y = event["offset_mm"]
        if isinstance(x, bool) or isinstance(y, bool):
            raise TypeError("offset_mm must be numbers")
        return Place(x, y)
    if kind == "turn" and state.current_player() >= 0 and isinstance(state.legal_actions()[0], ChooseSailor):
        return ChooseSailor(event["sailor"])
    return None


def replay(events: list[dict], referee: Referee, params: Params, *, unfinished: bool = False) -> GameState:
    """Re-play ``events`` (from :func:`kipp.rules.transcript.parse_json_lines`); return the final state.

    Raises :class:`ReplayMismatch` at the first outcome that differs, and
    :class:`TranscriptError` for a transcript that cannot be a game. With ``unfinished`` a
    recording may stop before the game's end (a game saved as it was played and stopped
    half-way), between two actions: every outcome of its last action must be there.
    """
    header = events[0]
    check_params(header, params)
    state = GameState(config_from_header(header), referee, params.ship)
    checked = 0  # state events already compared with the record
    for event in events:
        line = event["_line"]
        if state.is_terminal() and checked >= len(state.events()):
            raise TranscriptError(f"line {line}: event after the end of the game")
        try:
            action = action_for(event, state)
            if isinstance(action, Play):
                state.apply_action(action)
                action = action_for(event, state)
            if action is not None:
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
    if not state.is_terminal() and not unfinished:
        raise TranscriptError(f"the transcript ends at line {events[-1]['_line']} before the game is over")
    return state


def _diff(expected: dict, got: dict) -> str:
    if expected.get("event") != got.get("event"):
        return f"{expected.get('event')} but the replay gives {got.get('event')} {json.dumps(got)}"
    keys = [k for k in dict.fromkeys(list(expected) + list(got)) if expected.get(k) != got.get(k)]
    parts = [f"{k}={json.dumps(expected.get(k))} vs replay {json.dumps(got.get(k))}" for k in keys]
    return f"{expected['event']} differs: " + "; ".join(parts)
