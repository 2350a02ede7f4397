"""A game night's set-up as the start screen edits it: who sits where, the variants, the hint.

A :class:`GameSetup` is what ``kipp play``'s options say and what the start screen shows; it
makes the game's :class:`~kipp.rules.config.GameConfig` and its bots. The last set-up
started is remembered between launches in the user's configuration folder
(:func:`setup_path`, via ``platformdirs``); a missing or unreadable file gives the default
set-up (you and a casual bot), never an error.

>>> setup = GameSetup(seats=(Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, model="skilled")))
>>> setup.config().players
('Ann', 'Bot (skilled)')
>>> GameSetup.from_json(setup.to_json()) == setup
True
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

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
                           "sea_dogs": self.sea_dogs, "hints": self.hints, "confirm": self.confirm}, indent=1)

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
        setup = replace(default, seats=tuple(seats), barrels=data.get("barrels") if data.get("barrels") in (9, 12)
                        else default.barrels, **flags)
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


def load_setup() -> GameSetup:
    """The set-up started last (the default set-up if none was saved or the file is unreadable)."""
    try:
        return GameSetup.from_json(setup_path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return GameSetup()


def save_setup(setup: GameSetup) -> None:
    """Remember ``setup`` for the next launch; a folder that cannot be written is not worth an error."""
    path = setup_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(setup.to_json(), encoding="utf-8")
    except OSError:
        pass
