"""A game night's set-up as the start screen edits it: who sits where, the variants, the hint.

A :class:`GameSetup` is what ``kipp play``'s options say and what the start screen shows; it
makes the game's :class:`~kipp.rules.config.GameConfig` and its bots. The last set-up
started is remembered between launches in the user's configuration folder
(:func:`setup_path`, via ``platformdirs``); a missing file gives the default set-up (you and a
casual bot), and so does an unusable one, which :func:`load_setup` sets aside with a notice,
never an error.

The window's language is one of the remembered choices (:attr:`GameSetup.language`): kept
once it was chosen on the start screen, None until then. Which language the window speaks:
``kipp play --language`` if given, else the remembered choice, else the system's locale
(``LANG=de_DE.UTF-8`` gives German; :func:`kipp.language.language_from_environment`), else
English (:func:`window_language`). A file remembered without the field (written before
there was a choice) reads as not chosen.

>>> setup = GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, model="skilled")))
>>> setup.config().players
('Ann', 'Bot (skilled)')
>>> GameSetup.from_json(setup.to_json()) == setup
True
"""

from __future__ import annotations

import enum
import json
import os
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from kipp.language import LANGUAGES, Language
from kipp.players.models import DEFAULT_MODEL, MODELS, make_bot
from kipp.rules.config import MAX_PLAYERS, GameConfig
from sim.params import Params

APP_NAME = "kipp-kipp-ahoi"
SETUP_FILE = "start.json"
NAME_LIMIT = 16
"""Characters a person's name may have on the start screen."""


class SeatKind(enum.Enum):
    """Who sits at a seat of the table."""

    EMPTY = "empty"
    PERSON = "person"
    BOT = "bot"


@dataclass(frozen=True)
class Seat:
    """One seat: a person with a name, a bot of a player model (:data:`kipp.players.models.MODELS`), or nobody."""

    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    model: str = DEFAULT_MODEL


def _default_seats() -> tuple[Seat, ...]:
    return (Seat(SeatKind.PERSON, "You"), Seat(SeatKind.BOT), Seat(), Seat())


@dataclass(frozen=True)
class GameSetup:
    """Seats in order (up to :data:`MAX_PLAYERS`), the variants, the balance hint and the
    confirm-before-letting-go step (a click first stops the barrel; a second click, or Enter,
    lets it go)."""

    seats: tuple[Seat, ...] = field(default_factory=_default_seats)
    barrels: int = 12
    half_turn: bool = False
    sea_dogs: bool = False
    hints: bool = False
    confirm: bool = False
    language: str | None = None
    """The window's language as chosen on the start screen (a code of :data:`kipp.language.LANGUAGES`);
    None: never chosen, the locale decides (:func:`window_language`)."""

    def __post_init__(self) -> None:  # always four seats, the empty ones last given or not
        seats = tuple(self.seats)[:MAX_PLAYERS]
        object.__setattr__(self, "seats", seats + (Seat(),) * (MAX_PLAYERS - len(seats)))

    def players(self) -> tuple[Seat, ...]:
        """The seats somebody sits at, in order."""
        return tuple(seat for seat in self.seats if seat.kind is not SeatKind.EMPTY)

    def names(self) -> tuple[str, ...]:
        """The players' names: a person's own (or "Player N"), bots "Bot", "Bot 2 (skilled)", ...
        as ``kipp play --players`` names them."""
        seats = self.players()
        bots = [i for i, seat in enumerate(seats) if seat.kind is SeatKind.BOT]
        names = []
        for i, seat in enumerate(seats):
            if seat.kind is SeatKind.PERSON:
                names.append(seat.name.strip() or f"Player {i + 1}")
                continue
            base = f"Bot {bots.index(i) + 1}" if len(bots) > 1 else "Bot"
            names.append(base if seat.model == DEFAULT_MODEL else f"{base} ({seat.model})")
        return tuple(names)

    def config(self) -> GameConfig:
        return GameConfig(players=self.names(), barrels=self.barrels, half_turn=self.half_turn,
                          sea_dogs=self.sea_dogs)

    def bots(self, params: Params) -> dict[int, object]:
        """The bot of every bot seat, by player index."""
        names = self.names()
        return {i: make_bot(seat.model, names[i], params) for i, seat in enumerate(self.players())
                if seat.kind is SeatKind.BOT}

    def can_start(self) -> bool:
        return len(self.players()) >= 1

    # --- remembered between launches ----------------------------------------------

    def to_json(self) -> str:
        seats = [{"kind": s.kind.value, "name": s.name, "model": s.model} for s in self.seats]
        return json.dumps({"seats": seats, "barrels": self.barrels, "half_turn": self.half_turn,
                           "sea_dogs": self.sea_dogs, "hints": self.hints, "confirm": self.confirm,
                           "language": self.language}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "GameSetup":
        """The set-up in ``text``; anything missing or not understood keeps its default."""
        default = cls()
        try:
            data = json.loads(text)
        except ValueError:
            return default
        if not isinstance(data, dict):
            return default
        seats = list(default.seats)
        raw = data.get("seats")
        if isinstance(raw, list):
            seats = [_seat(entry) for entry in raw[:MAX_PLAYERS]]
        flags = {key: data[key] for key in ("half_turn", "sea_dogs", "hints", "confirm")
                 if isinstance(data.get(key), bool)}
        language = data.get("language") if data.get("language") in LANGUAGES else None
        setup = replace(default, seats=tuple(seats), barrels=data.get("barrels") if data.get("barrels") in (9, 12)
                        else default.barrels, language=language, **flags)
        return setup if setup.can_start() else replace(setup, seats=default.seats)


def _seat(entry) -> Seat:
    if not isinstance(entry, dict):
        return Seat()
    try:
        kind = SeatKind(entry.get("kind"))
    except ValueError:
        return Seat()
    name = entry.get("name") if isinstance(entry.get("name"), str) else ""
    model = entry.get("model") if entry.get("model") in MODELS else DEFAULT_MODEL
    return Seat(kind, name[:NAME_LIMIT], model)


def setup_path() -> Path:
    """Where the last set-up is kept: the user's configuration folder (``platformdirs``)."""
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / SETUP_FILE


MAX_SETUP_BYTES = 64_000
"""The remembered set-up is a few hundred bytes; a larger file is not one."""


def load_setup(notice: Callable[[str], None] | None = None) -> GameSetup:
    """The set-up started last (the default set-up if none was saved).

    A file that is not one :func:`save_setup` wrote (not a regular file, such as a FIFO; larger
    than :data:`MAX_SETUP_BYTES`; not UTF-8 JSON of bounded nesting and numbers; a value of
    another type: barrels other than the whole numbers 9 or 12, a name that is not printable
    text, ...) is set aside, renamed ``start.json.bad-<UTC time>``, and ``notice`` (default: a
    line on stderr) says so: the start screen opens with the defaults, and later launches do
    not trip over the same file again.
    """
    from sim.user_files import UserFileError, loads_json, read_user_file

    path = setup_path()
    if not os.path.lexists(path):
        return GameSetup()
    try:
        text = read_user_file(path, "file of remembered choices", MAX_SETUP_BYTES).decode("utf-8")
        _check_remembered(loads_json(text))
    except (UserFileError, UnicodeDecodeError) as error:
        _set_aside(path, str(error), notice or (lambda line: print(line, file=sys.stderr)))
        return GameSetup()
    return GameSetup.from_json(text)


def _check_remembered(data) -> None:
    """Raise :class:`~sim.user_files.UserFileError` unless ``data`` has the shape :meth:`GameSetup.to_json` writes."""
    from sim.user_files import UserFileError

    if not isinstance(data, dict):
        raise UserFileError("not a JSON object")
    seats = data.get("seats", [])
    if not isinstance(seats, list) or len(seats) > MAX_PLAYERS:
        raise UserFileError(f"seats: expected a list of at most {MAX_PLAYERS} seats")
    kinds = {kind.value for kind in SeatKind}
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("kind") not in kinds:
            raise UserFileError(f"seats[{i}]: expected a seat of kind {', '.join(sorted(kinds))}")
        name = seat.get("name", "")
        if not isinstance(name, str) or not name.isprintable():
            raise UserFileError(f"seats[{i}].name: expected printable text, got {name!r}")
        if seat.get("model", DEFAULT_MODEL) not in MODELS:
            raise UserFileError(f"seats[{i}].model: expected one of {', '.join(MODELS)}")
    barrels = data.get("barrels", 12)
    if type(barrels) is not int or barrels not in (9, 12):
        raise UserFileError(f"barrels: expected 9 or 12, got {barrels!r}")
    for flag in ("half_turn", "sea_dogs", "hints", "confirm"):
        if type(data.get(flag, False)) is not bool:
            raise UserFileError(f"{flag}: expected true or false, got {data[flag]!r}")
    language = data.get("language")
    if language is not None and (type(language) is not str or language not in LANGUAGES):
        raise UserFileError(f"language: expected null or one of {', '.join(LANGUAGES)}, got {language!r}")


def _set_aside(path: Path, problem: str, notice: Callable[[str], None]) -> None:
    """Rename the unusable remembered set-up ``path`` out of the way and say so in one line."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    names = (path.with_name(f"{path.name}.bad-{stamp}" + (f"-{n}" if n else "")) for n in range(1000))
    aside = next(name for name in names if not os.path.lexists(name))  # never over one set aside before
    try:
        os.replace(path, aside)
    except OSError as error:
        notice(f"kipp: the remembered start-screen choices {path} are unusable ({problem}) and could not be "
               f"set aside ({error.strerror or error}); starting with the defaults")
        return
    notice(f"kipp: the remembered start-screen choices {path} were unusable ({problem}); set aside as "
           f"{aside.name}, starting with the defaults")


def window_language(given: Language | None, setup: GameSetup, environ=None) -> Language:
    """The window's language: ``given`` (``kipp play --language``) if any, else the ``setup``'s
    remembered choice, else the system's locale (``environ``, default the process's), else English."""
    if given is not None:
        return given
    if setup.language is not None:
        return Language(setup.language)
    return Language.from_environment(environ)


def save_setup(setup: GameSetup) -> None:
    """Remember ``setup`` for the next launch; a folder that cannot be written is not worth an error."""
    path = setup_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(setup.to_json(), encoding="utf-8")
    except OSError:
        pass
