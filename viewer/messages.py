"""Short messages over the scene, read off the rules engine's transcript events.

The words come from what the state logged (:meth:`kipp.rules.state.GameState.events`): a pass,
a crash and the chips it cost, a completed tower and its awards, a new round. Nothing
here decides anything; it only says what the state says happened.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

from kipp.language import N_, Language
from viewer.words import ENGLISH, chips, said, shown_name

MESSAGE_FRAMES = 150
CELEBRATION_FRAMES = 200
"""How long a completed tower stands with its banner before the deck is cleared, frames (3.3 s)."""
AFTERMATH_FRAMES = 150
"""How long barrels are left falling after a crash, frames (2.5 s)."""


class Tone(enum.Enum):
    """What kind of news a message is, which its headline's colour shows (:data:`viewer.hud.TONE_COLOURS`)."""

    PLAIN = "plain"
    BAD = "bad"
    GOOD = "good"


@dataclass
class Message:
    """A short message over the scene (``big`` ones are the round's headlines)."""

    title: str
    subtitle: str = ""
    tone: Tone = Tone.PLAIN
    big: bool = False
    frames_left: int = MESSAGE_FRAMES


def acts(name: str, verb: str) -> str:
    """``name`` and an English verb in the third person ("Ann starts"), agreeing with "You" ("You start").

    English's own rule; sentences for the window are whole sentences in a language (:func:`viewer.words.said`)."""
    if name != "You":
        return f"{name} {verb}"
    base = {"is": "are", "has": "have"}.get(verb) or (verb[:-2] if verb.endswith(("sses", "shes")) else verb[:-1])
    return f"You {base}"


def announce(names: Sequence[str], events: list[dict], current: Message | None,
             language: Language = ENGLISH) -> Message | None:
    """The message to show after ``events`` (those one action produced), in ``language``; ``current`` if none."""
    _ = language.gettext
    message = current
    awards = [e for e in events if e["event"] == "award"]
    tower = [a for a in awards if a.get("reason") == "completion"]
    passed = [a for a in awards if a.get("reason") == "pass"]
    for event in events:
        kind = event["event"]
        who = names[event["player"]] if "player" in event else ""
        if kind == "pass":
            message = Message(said(language, who, N_("{name} passes"), N_("You pass")),
                              _("returns a chip to the supply"))
        elif kind == "crash":
            message = Message(_("Kaboom!"), said(language, who, N_("{name} returns {chips}"), N_("You return {chips}"),
                                                 chips=chips(event["chips_returned"], language)),
                              Tone.BAD, big=True, frames_left=AFTERMATH_FRAMES)
        elif kind == "round_end" and event["completed"]:
            gains = " / ".join(f"{shown_name(names[a['player']], language)} +{a['chips']}" for a in tower)
            if passed:
                gains += " " + _("(and the passed chip to {name})").format(
                    name=shown_name(names[passed[0]["player"]], language))
            amounts = " / ".join(f"+{a['chips']}" for a in tower[:2]) or _("no chips left")
            message = Message(_("Tower complete: {amounts}").format(amounts=amounts), gains, Tone.GOOD, big=True,
                              frames_left=CELEBRATION_FRAMES + 20)  # it fades as the deck is cleared
        elif kind == "round_start":
            message = Message(_("Round {number}").format(number=event["round"]),
                              said(language, names[event["starter"]], N_("{name} starts"), N_("You start")))
    if passed and not any(e["event"] == "round_end" for e in events):
        message = Message(said(language, names[passed[0]["player"]], N_("{name} receives the passed chip"),
                               N_("You receive the passed chip")), "", Tone.GOOD)
    return message
