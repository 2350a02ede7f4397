"""Transcripts of a game: JSON lines for machines and replays, prose for people.

One JSON object per line, each with an ``event`` field (DESIGN.md section 6). Players are
indices into ``game_start.players`` (seating order, clockwise); rounds count from 1.

- ``game_start``: seed, players (names), variant {barrels, half_turn, sea_dogs}, faces (the
  die), chips (per player), supply, params (a fingerprint of the parameter set), referee.
- ``round_start``: round, order (the barrel line as sizes, bottom first), starter.
- ``roll``: player, face. ``pass``: player.
- ``place``: player, barrel (size), index (1-based position in the line = height in the
  stack), offset_mm ([x, y] of the barrel's centre in the deck frame from the tower spot,
  mm, exact: bots place on a micrometre grid and JSON floats round-trip).
- ``turn``: player, sailor, fraction (revolutions), turns ({red, yellow, blue} after the
  turn), tilt_deg (the deck's tilt after the turn, rounded to 0.001 deg).
- ``crash``: player, chips_returned, phase (``place`` or ``turn``: when the tower fell).
- ``round_end``: round, completed, stacked (barrels that stood after being placed).
- ``award``: player, chips, reason (``completion``: the round's tower was completed;
  ``pass``: the chip passed by the previous player). ``game_end``: chips (per player), supply, winners.

The same seed and options give byte-identical output: keys keep their insertion order and
every float is an exact input or rounded.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator

from sim.user_files import UserFileError, loads_json

EVENTS = ("game_start", "round_start", "roll", "pass", "place", "turn", "crash", "round_end",
          "award", "game_end")


class TranscriptError(ValueError):
    """A transcript that cannot be read: not JSON lines, or not this vocabulary."""


def with_header(events: Iterable[dict], **header) -> Iterator[dict]:
    """The events with ``header`` fields (seed, params, referee) added to ``game_start``."""
    for event in events:
        if event["event"] == "game_start":
            event = {"event": "game_start", **header,
                     **{k: v for k, v in event.items() if k != "event"}}
        yield event


def json_line(event: dict) -> str:
    """One event as a line of JSON (no trailing newline)."""
    return json.dumps(event, ensure_ascii=False, allow_nan=False)


def parse_json_lines(text: str, source: str = "transcript") -> list[dict]:
    """Read a JSON-lines transcript, checking each line is an object with a known ``event``.

    Raises :class:`TranscriptError` naming the line for anything else.
    """
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = loads_json(line)  # bounded: nesting, number lengths (sim.user_files)
        except UserFileError as error:
            raise TranscriptError(f"{source} line {number}: {error}") from None
        if not isinstance(event, dict) or event.get("event") not in EVENTS:
            raise TranscriptError(f"{source} line {number}: not an event of the transcript vocabulary")
        event["_line"] = number
        events.append(event)
    if not events or events[0]["event"] != "game_start":
        raise TranscriptError(f"{source}: does not start with a game_start event")
    return events


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _turns(turns: dict) -> str:
    return ", ".join(f"{sailor} {count:g}" for sailor, count in turns.items())


class Narrator:
    """Turns events into prose for people, one or two lines per event.

    Keeps the players' names and chip counts between calls, so a game can be narrated
    as it is played (``for line in narrator.lines(new_events)``).
    """

    def __init__(self, players: list[str] | None = None) -> None:
        self.names = list(players or [])
        self.chips: list[int] = [0] * len(self.names)

    def lines(self, events: Iterable[dict]) -> Iterator[str]:
        names, chips = self.names, self.chips
        for e in events:
            kind = e["event"]
            who = names[e["player"]] if "player" in e and e["player"] < len(names) else ""
            if kind == "game_start":
                names[:] = e["players"]
                chips[:] = e["chips"]
                v = e["variant"]
                variant = [f"{v['barrels']} barrels", "half turns" if v["half_turn"] else "full turns"]
                if v["sea_dogs"]:
                    variant.append("Old Sea Dogs")
                seed = f", seed {e['seed']}" if "seed" in e else ""
                yield f"Kipp, Kipp, Ahoi!{seed}: {', '.join(names)} ({', '.join(variant)})."
                yield f"Everyone gets {_chips(chips[0]) if chips else '0 chips'}; {e['supply']} stay in the supply."
            elif kind == "round_start":
                yield ""
                yield f"Round {e['round']}. Barrel line: {' '.join(size for size in e['order'])}."
                yield f"{names[e['starter']]} starts."
            elif kind == "roll":
                yield f"  {who} rolls {e['face'].upper()}."
            elif kind == "pass":
                chips[e["player"]] -= 1
                yield f"  {who} passes and hands back a chip ({_chips(chips[e['player']])} left)."
            elif kind == "place":
                x, y = e["offset_mm"]
                yield (f"    places barrel {e['index']} ({e['barrel']}) at x {x:+.1f} mm, "
                       f"y {y:+.1f} mm.")
            elif kind == "turn":
                amount = {1.0: "a full turn", 0.5: "half a turn"}.get(e["fraction"], f"{e['fraction']:g} turns")
                yield (f"    turns the {e['sailor']} sailor {amount}: the deck tilts "
                       f"{e['tilt_deg']:.1f} deg ({_turns(e['turns'])}).")
            elif kind == "crash":
                chips[e["player"]] -= e["chips_returned"]
                when = {"place": " as the barrel goes on", "turn": " as the ship tilts"}.get(e.get("phase"), "")
                pay = (f"{who} gives back {_chips(e['chips_returned'])} ({_chips(chips[e['player']])} left)"
                       if e["chips_returned"] else f"{who} has no chip left to give back")
                yield f"  Kaboom! The tower comes crashing down{when}. {pay}."
            elif kind == "award":
                chips[e["player"]] += e["chips"]
                why = {"completion": " for the completed tower", "pass": " passed by the previous player"
                       }.get(e.get("reason"), "")
                yield f"  {who} receives {_chips(e['chips'])}{why} (now {chips[e['player']]})."
            elif kind == "round_end":
                how = "all barrels stacked!" if e["completed"] else f"{e['stacked']} barrels stood"
                yield f"End of round {e['round']}: {how}"
            elif kind == "game_end":
                yield ""
                yield "Game over. " + ", ".join(f"{n} {c}" for n, c in zip(names, e["chips"])) + "."
                winners = [names[p] for p in e["winners"]]
                yield (f"{winners[0]} wins!" if len(winners) == 1
                       else f"{' and '.join(winners)} share the win!")
