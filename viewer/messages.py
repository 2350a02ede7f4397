"""Short messages over the scene, read off the rules engine's transcript events.

The words come from what the state logged (:meth:`kipp.rules.state.GameState.events`): a pass,
a crash and the chips it cost, a completed tower and its awards, a new round. Nothing
here decides anything; it only says what the state says happened.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Sequence

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
    """``name`` and a verb in the third person ("Ann starts"), agreeing with "You" ("You start")."""
    if name != "You":
        return f"{name} {verb}"
    base = {"is": "are", "has": "have"}.get(verb) or (verb[:-2] if verb.endswith(("sses", "shes")) else verb[:-1])
    return f"You {base}"


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def announce(names: Sequence[str], events: list[dict], current: Message | None) -> Message | None:
    """The message to show after ``events`` (those one action produced); ``current`` if none."""
    message = current
    awards = [e for e in events if e["event"] == "award"]
    tower = [a for a in awards if a.get("reason") == "completion"]
    passed = [a for a in awards if a.get("reason") == "pass"]
    for event in events:
        kind = event["event"]
        who = names[event["player"]] if "player" in event else ""
        if kind == "pass":
            message = Message(acts(who, "passes"), "returns a chip to the supply")
        elif kind == "crash":
            message = Message("Kaboom!", f"{acts(who, 'returns')} {_chips(event['chips_returned'])}",
                              Tone.BAD, big=True, frames_left=AFTERMATH_FRAMES)
        elif kind == "round_end" and event["completed"]:
            gains = " / ".join(f"{names[a['player']]} +{a['chips']}" for a in tower)
            if passed:
                gains += f" (and the passed chip to {names[passed[0]['player']]})"
            amounts = " / ".join(f"+{a['chips']}" for a in tower[:2]) or "no chips left"
            message = Message(f"Tower complete: {amounts}", gains, Tone.GOOD, big=True,
                              frames_left=CELEBRATION_FRAMES + 20)  # it fades as the deck is cleared
        elif kind == "round_start":
            message = Message(f"Round {event['round']}", acts(names[event["starter"]], "starts"))
    if passed and not any(e["event"] == "round_end" for e in events):
        message = Message(f"{acts(names[passed[0]['player']], 'receives')} the passed chip", "", Tone.GOOD)
    return message
