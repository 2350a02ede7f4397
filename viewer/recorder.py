"""Save a game as it is played: the replay format of ``kipp game --json``, written line by line.

A :class:`GameRecorder` appends every new transcript event of the game state to its file and
flushes it, so a game stopped half-way (a closed window, a power cut between turns) leaves a
recording of the turns played, which ``kipp replay FILE`` shows and ``--check`` accepts. The
header (``game_start``) names the seed, the parameter set, the referee the window plays with
(:data:`VIEWER_REFEREE`) and each seat's player model (null for a person).

``kipp play --record FILE`` records every game (the second to ``FILE-2.jsonl``, ...); R in the
window starts recording the game being played into the user's data folder
(:func:`recording_path`), from its first event. :class:`Recordings` is the window's side of both.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import IO

from kipp.rules.replay import params_fingerprint
from kipp.rules.transcript import json_line, with_header
from sim.params import Params
from viewer.messages import Message

VIEWER_REFEREE = "loop"
"""The name (:func:`sim.referees.make_referee`) of the referee the viewer animates: the physics
referee's loop with early exits (:class:`sim.referees.loop.LoopReferee`)."""


def recording_header(params: Params, seed: int, models: list[str | None]) -> dict:
    """The ``game_start`` fields that describe a recording made in the window."""
    return {"seed": seed, "params": params_fingerprint(params), "referee": VIEWER_REFEREE, "models": models}


def numbered(path: Path, game: int) -> Path:
    """The file of the ``game``-th game (0 first) recorded under ``path``: ``path``, then ``NAME-2.jsonl``..."""
    return path if game == 0 else path.with_name(f"{path.stem}-{game + 1}{path.suffix}")


def recording_path() -> Path:
    """A new file for a recording started with R: the user's data folder, named by the time."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("kipp-kipp-ahoi", appauthor=False)) / "recordings"
    return folder / time.strftime("game-%Y%m%d-%H%M%S.jsonl")


class GameRecorder:
    """Writes a game's events to ``path`` as they happen (call :meth:`update` with the state's events)."""

    def __init__(self, path: Path, header: dict) -> None:
        self.path = Path(path)
        self.header = header
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] | None = open(self.path, "w", encoding="utf-8")
        self._written = 0

    def update(self, events: list[dict]) -> None:
        """Append the events not written yet and flush them to disk."""
        if self._file is None or len(events) <= self._written:
            return
        for event in with_header(events[self._written:], **self.header):
            self._file.write(json_line(event) + "\n")
        self._written = len(events)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class Recordings:
    """What a window records: with ``record`` (``--record FILE``) every game, into :func:`numbered`
    files; R (:meth:`record_now`) the game being played. ``recorder`` writes the current one."""

    def __init__(self, record: str | None) -> None:
        self.record = Path(record) if record is not None else None
        self.recorder: GameRecorder | None = None
        """Writes the game being played to its file as it goes (None: not recording)."""
        self._started = 0

    def start(self, controller, path: Path) -> None:
        """Record ``controller``'s game into ``path``, from its first event."""
        c = controller
        models = [getattr(c.bots.get(i), "model", None) for i in range(c.config.n_players)]
        self.recorder = GameRecorder(path, recording_header(c.params, c.seed, models))
        self.recorder.update(c.state.events())
        self._started += 1

    def next_game(self, controller) -> None:
        """A new game begins: the last one's file is closed, the new one recorded if every game is."""
        self.stop()
        if self.record is not None:
            self.start(controller, numbered(self.record, self._started))

    def update(self, events: list[dict]) -> None:
        if self.recorder is not None:
            self.recorder.update(events)

    def record_now(self, controller) -> Message:
        """R: record this game (from its start) into the user's data folder; the message saying where
        (in the ``controller``'s language)."""
        _ = controller.language.gettext
        if self.recorder is None:
            try:
                self.start(controller, recording_path())
            except OSError as error:
                return Message(_("Cannot record"), str(error.strerror or error))
        return Message(_("Recording this game"), str(self.recorder.path))

    def stop(self) -> None:
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None
