"""The colour die's roll: a tumble that lands on the face the rules engine drew.

The face is decided before the tumble starts (a chance outcome sampled from the game's
generator); the tumble only shows other faces on the way, in a fixed sequence, so it uses
no randomness of its own. Counted in frames (60 a second), like the rest of the game.
Drawn by :class:`viewer.die.DieView`.
"""

from __future__ import annotations

ROLL_FRAMES = 42
"""Length of a roll, frames (0.7 s at 60 Hz)."""


class DieRoll:
    """The die's state from frame to frame. ``shown`` is the face currently visible."""

    def __init__(self, faces: tuple[str, ...]) -> None:
        self.faces = tuple(dict.fromkeys(faces))
        self.face: str | None = None
        """The face rolled (the engine's), once a roll has started."""
        self.shown: str | None = None
        self._frames_left = 0
        self._frame = 0

    @property
    def rolling(self) -> bool:
        return self._frames_left > 0

    @property
    def progress(self) -> float:
        """How far the roll has come: 0 as it starts, 1 once it has landed (and between rolls)."""
        total = self._frame + self._frames_left
        return self._frame / total if self.rolling and total else 1.0

    def start_roll(self, face: str, frames: int = ROLL_FRAMES) -> None:
        """Begin a roll that lands on ``face`` after ``frames`` frames (0: show at once)."""
        self.face = face
        self._frames_left = max(0, frames)
        self._frame = 0
        self.shown = face if frames <= 0 else self._tumble_face(0)

    def clear(self) -> None:
        """No face (before a turn's roll)."""
        self.face = self.shown = None
        self._frames_left = 0

    def update(self) -> None:
        """Advance one frame; the tumble slows down and settles on the face."""
        if self._frames_left <= 0:
            return
        self._frames_left -= 1
        self._frame += 1
        self.shown = self.face if self._frames_left == 0 else self._tumble_face(self._frame)

    def _tumble_face(self, frame: int) -> str:
        # face changes get rarer as the die slows: every 3 frames at first, every ~9 at the end
        progress = frame / max(1, frame + self._frames_left)
        period = 3 + int(6 * progress)
        flips = frame // period
        candidates = [f for f in self.faces if f != self.face] or list(self.faces)
        return candidates[(flips * 2 + 1) % len(candidates)]
