"""The first game's tips: a line at the foot of the scene for each thing a person is first asked to do.

Each tip is shown once per window (the first game only), while the prompt it explains is up
(:class:`FirstGameTips`); :func:`first_game_tip` words them.
"""

from __future__ import annotations

from kipp.language import N_, Language
from viewer.modes import Prompt
from viewer.words import ENGLISH


class FirstGameTips:
    """Which tip shows this frame, and which have been seen."""

    def __init__(self) -> None:
        self.tip: tuple[str, str] | None = None
        """(key, text) of the tip shown this frame."""
        self._seen: set[str] = set()

    def update(self, prompt: Prompt | None, state, *, hints: bool, showing: bool,
               language: Language = ENGLISH) -> None:
        """This frame's tip for ``prompt`` at ``state`` in ``language`` (``showing``: tips are shown now,
        in a first game with no card up); a tip that goes away is not shown again."""
        tip = None
        if showing:
            found = first_game_tip(prompt, state, hints=hints, language=language)
            if found is not None and found[0] not in self._seen:
                tip = found
        if self.tip is not None and (tip is None or tip[0] != self.tip[0]):
            self._seen.add(self.tip[0])
        self.tip = tip


def first_game_tip(prompt: Prompt | None, state, *, hints: bool = False,
                   language: Language = ENGLISH) -> tuple[str, str] | None:
    """(key, text) of the tip for a person's ``prompt`` at ``state`` in a first game, if any, in ``language``
    (``hints``: the balance hint is shown, and the tip points at it rather than say otherwise)."""
    found = _tip(prompt, state, hints)
    return None if found is None else (found[0], language.gettext(found[1]))


def _tip(prompt: Prompt | None, state, hints: bool) -> tuple[str, str] | None:
    if prompt == Prompt.PLAY_OR_PASS:
        return "pass", N_("Old Sea Dogs: roll, or give a chip back to pass (P). After a pass the next player must "
                           "roll, and gets the chip if the tower does not fall on their turn.")
    if prompt == Prompt.ROLL:
        if state.placed == 0:
            return "roll", N_("The die picks the sailor that turns after you place (wild: you choose). Space rolls.")
        return "blue", N_("From now on blue means no barrel: only the blue sailor turns.")
    if prompt == Prompt.PLACE:
        return "place", N_("The red arrow in the small picture points to where the ship leans down: aim a little "
                            "toward the high side. Move the mouse (or arrows), click (or Enter) to let go.")
    if prompt == Prompt.SAILOR:
        if hints:
            return "sailor", N_("Wild: the purple ring shows the sailor the hint would turn. Click a sailor in the "
                                "small picture, or press 1, 2 or 3.")
        return "sailor", N_("Wild: a sailor that was turned less often can even out the leaning. Click a sailor "
                            "in the small picture, or press 1, 2 or 3.")
    return None
