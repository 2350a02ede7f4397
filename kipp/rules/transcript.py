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

from kipp.language import SOURCE_LANGUAGE, Language
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


class Narrator:
    """Turns events into prose for people, one or two lines per event, in ``language``.

    Keeps the players' names and chip counts between calls, so a game can be narrated
    as it is played (``for line in narrator.lines(new_events)``). The JSON lines do not
    depend on the language; only this prose does, its numbers too (millimetres, degrees
    and turns as the language writes them: ``-0.6 mm``, German ``-0,6 mm``;
    :meth:`kipp.language.Language.decimal`).
    """

    def __init__(self, players: list[str] | None = None, language: Language | None = None) -> None:
        self.names = list(players or [])
        self.chips: list[int] = [0] * len(self.names)
        self.language = language or Language(SOURCE_LANGUAGE)

    def _chips(self, count: int) -> str:
        return self.language.ngettext("{count} chip", "{count} chips", count).format(count=count)

    def _sailor(self, sailor: str) -> str:
        _ = self.language.gettext
        return {"red": _("red"), "yellow": _("yellow"), "blue": _("blue")}.get(sailor, sailor)

    def _the_sailor(self, sailor: str) -> str:
        _ = self.language.gettext
        return {"red": _("the red sailor"), "yellow": _("the yellow sailor"), "blue": _("the blue sailor")
                }.get(sailor, sailor)

    def _barrel(self, size: str) -> str:
        _ = self.language.gettext
        return {"large": _("large"), "medium": _("medium"), "small": _("small")}.get(size, size)

    def _face(self, face: str) -> str:
        _ = self.language.gettext
        return {"red": _("RED"), "yellow": _("YELLOW"), "blue": _("BLUE"), "wild": _("WILD")}.get(face, face.upper())

    def lines(self, events: Iterable[dict]) -> Iterator[str]:
        _ = self.language.gettext
        names, chips = self.names, self.chips
        for e in events:
            kind = e["event"]
            who = names[e["player"]] if "player" in e and e["player"] < len(names) else ""
            if kind == "game_start":
                names[:] = e["players"]
                chips[:] = e["chips"]
                v = e["variant"]
                variant = [_("{barrels} barrels").format(barrels=v["barrels"]),
                           _("half turns") if v["half_turn"] else _("full turns")]
                if v["sea_dogs"]:
                    variant.append(_("Old Sea Dogs"))
                seed = _(", seed {seed}").format(seed=e["seed"]) if "seed" in e else ""
                yield _("Kipp, Kipp, Ahoi!{seed}: {players} ({variant}).").format(
                    seed=seed, players=", ".join(names), variant=", ".join(variant))
                yield _("Everyone gets {chips}; {supply} stay in the supply.").format(
                    chips=self._chips(chips[0] if chips else 0), supply=e["supply"])
            elif kind == "round_start":
                yield ""
                yield _("Round {number}. Barrel line: {line}.").format(
                    number=e["round"], line=" ".join(self._barrel(size) for size in e["order"]))
                yield _("{name} starts.").format(name=names[e["starter"]])
            elif kind == "roll":
                yield "  " + _("{name} rolls {face}.").format(name=who, face=self._face(e["face"]))
            elif kind == "pass":
                chips[e["player"]] -= 1
                yield "  " + _("{name} passes and hands back a chip ({left} left).").format(
                    name=who, left=self._chips(chips[e["player"]]))
            elif kind == "place":
                x, y = e["offset_mm"]
                number = self.language.decimal
                yield "    " + _("places barrel {index} ({size}) at x {x} mm, y {y} mm.").format(
                    index=e["index"], size=self._barrel(e["barrel"]),
                    x=number(x, 1, sign=True), y=number(y, 1, sign=True))
            elif kind == "turn":
                number = self.language.decimal
                amount = {1.0: _("a full turn"), 0.5: _("half a turn")}.get(
                    e["fraction"], _("{fraction} turns").format(fraction=number(float(e["fraction"]))))
                turns = ", ".join(f"{self._sailor(sailor)} {number(float(count))}"
                                  for sailor, count in e["turns"].items())
                yield "    " + _("turns {sailor} {amount}: the deck tilts {tilt} deg ({turns}).").format(
                    sailor=self._the_sailor(e["sailor"]), amount=amount, tilt=number(e["tilt_deg"], 1), turns=turns)
            elif kind == "crash":
                chips[e["player"]] -= e["chips_returned"]
                when = {"place": _(" as the barrel goes on"), "turn": _(" as the ship tilts")}.get(e.get("phase"), "")
                pay = (_("{name} gives back {chips} ({left} left)").format(
                           name=who, chips=self._chips(e["chips_returned"]), left=self._chips(chips[e["player"]]))
                       if e["chips_returned"] else _("{name} has no chip left to give back").format(name=who))
                yield "  " + _("Kaboom! The tower comes crashing down{when}. {pay}.").format(when=when, pay=pay)
            elif kind == "award":
                chips[e["player"]] += e["chips"]
                why = {"completion": _(" for the completed tower"), "pass": _(" passed by the previous player")
                       }.get(e.get("reason"), "")
                yield "  " + _("{name} receives {chips}{why} (now {total}).").format(
                    name=who, chips=self._chips(e["chips"]), why=why, total=chips[e["player"]])
            elif kind == "round_end":
                how = (_("all barrels stacked!") if e["completed"]
                       else _("{stacked} barrels stood").format(stacked=e["stacked"]))
                yield _("End of round {number}: {how}").format(number=e["round"], how=how)
            elif kind == "game_end":
                yield ""
                yield _("Game over. {standings}.").format(
                    standings=", ".join(f"{n} {c}" for n, c in zip(names, e["chips"])))
                winners = [names[p] for p in e["winners"]]
                yield (_("{name} wins!").format(name=winners[0]) if len(winners) == 1
                       else _("{names} share the win!").format(names=_(" and ").join(winners)))
