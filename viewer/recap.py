"""What happened in each round, read off the rules engine's transcript events (for the end screen).

Nothing is decided here: who crashed or completed the tower, how many barrels stood and
what every player's chips were after the round all come from the events the state logged
(``round_start``, ``place``, ``pass``, ``crash``, ``award``, ``round_end``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kipp.language import Language
from viewer.words import ENGLISH, shown_name


@dataclass(frozen=True)
class RoundRecap:
    round: int
    completed: bool
    stacked: int
    barrels: int
    player: int | None
    """Who crashed the tower, or placed its last barrel (None: no barrel placed)."""
    chips_after: tuple[int, ...]
    change: tuple[int, ...]
    """Each player's chips won (+) or paid (-) during the round, passes included."""


def round_recaps(events: Sequence[dict]) -> list[RoundRecap]:
    """One :class:`RoundRecap` per finished round of ``events`` (a state's or a transcript's)."""
    chips: list[int] = []
    start: list[int] = []
    recaps: list[RoundRecap] = []
    barrels, last_player, crasher = 0, None, None
    for event in events:
        kind = event["event"]
        if kind == "game_start":
            chips = list(event["chips"])
        elif kind == "round_start":
            start, barrels, last_player, crasher = list(chips), len(event["order"]), None, None
        elif kind == "place":
            last_player = event["player"]
        elif kind == "pass":
            chips[event["player"]] -= 1
        elif kind == "crash":
            chips[event["player"]] -= event["chips_returned"]
            crasher = event["player"]
        elif kind == "award":
            chips[event["player"]] += event["chips"]
        elif kind == "round_end":
            who = last_player if event["completed"] else crasher
            recaps.append(RoundRecap(event["round"], event["completed"], event["stacked"], barrels, who,
                                     tuple(chips), tuple(a - b for a, b in zip(chips, start))))
    return recaps


def describe(recap: RoundRecap, names: Sequence[str], language: Language = ENGLISH) -> str:
    """One short line: ``Ann crashed it at 5/12`` or ``Ben completed 12/12``, in ``language``."""
    _ = language.gettext
    who = shown_name(names[recap.player], language) if recap.player is not None else _("nobody")
    if recap.completed:
        return _("{name} completed {stacked}/{barrels}").format(name=who, stacked=recap.stacked, barrels=recap.barrels)
    return _("{name} crashed it at {stacked}/{barrels}").format(name=who, stacked=recap.stacked, barrels=recap.barrels)


def signed(n: int) -> str:
    """A chip change as shown: ``+2``, ``-1``, ``0``."""
    return f"{n:+d}" if n else "0"
