"""A game's set-up: players, variants, die faces and chips (DESIGN.md section 4).

>>> config = GameConfig(players=("Ann", "Ben"), barrels=9, sea_dogs=True)
>>> config.barrel_set()
('large', 'large', 'large', 'medium', 'medium', 'medium', 'small', 'small', 'small')
>>> config.variant()
{'barrels': 9, 'half_turn': False, 'sea_dogs': True}
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sim.die import FACES, WILD
from sim.params import SCREWS

DEFAULT_FACES = FACES
"""The colour die (:data:`sim.die.FACES`): two red, two yellow, one blue, one wild face."""

DEFAULT_SIZES = ("large", "medium", "small")
"""Barrel sizes of the catalogue (sim/default_params.toml)."""

BARREL_COUNTS = (12, 9)
"""The full game, and the younger sailors' nine-barrel variant (3 of each size)."""

ROUNDS = 3

MAX_PLAYERS = 4
"""Players at the table: 2-4 for a game, 1 allowed for practice."""


class ConfigError(ValueError):
    """A set-up the rules do not allow; ``field`` names the :class:`GameConfig` field at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def check_player_count(n: int) -> None:
    """Raise :class:`ConfigError` unless ``n`` players can play (1 to :data:`MAX_PLAYERS`)."""
    if not 1 <= n <= MAX_PLAYERS:
        raise ConfigError("players", f"a game has 1 to {MAX_PLAYERS} players (1 for practice), got {n}")


@dataclass(frozen=True)
class GameConfig:
    """Everything fixed before the first roll.

    ``players`` are names in seating order, clockwise; the first starts round 1 (the
    rulebook's youngest player). 1 player is allowed for practice, 2-4 for a game.
    ``barrels`` is 12, or 9 for the younger sailors (equal numbers of each size).
    ``half_turn``: sailors turn half a revolution instead of a full one. ``sea_dogs``: the
    Old Sea Dogs variant (passing; a crash costs 2 chips). ``faces``: the die's faces, each
    equally likely. ``total_chips`` in the game, ``start_chips`` to each player.

    This is the one check of a set-up: anything else raises :class:`ConfigError` (a
    ``ValueError``) naming the field.
    """

    players: tuple[str, ...] = ("Player 1", "Player 2")
    barrels: int = 12
    half_turn: bool = False
    sea_dogs: bool = False
    faces: tuple[str, ...] = DEFAULT_FACES
    sizes: tuple[str, ...] = DEFAULT_SIZES
    total_chips: int = 25
    start_chips: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "faces", tuple(self.faces))
        object.__setattr__(self, "sizes", tuple(self.sizes))
        check_player_count(len(self.players))
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise ConfigError("players", f"player names must be non-empty, got {self.players!r}")
        if self.barrels not in BARREL_COUNTS:
            raise ConfigError("barrels", f"barrels must be 12 or 9 (younger sailors), got {self.barrels!r}")
        if not self.sizes or self.barrels % len(self.sizes):
            raise ConfigError("sizes", f"{self.barrels} barrels cannot be split evenly over sizes {self.sizes!r}")
        if not self.faces:
            raise ConfigError("faces", "the die needs at least one face")
        for face in self.faces:
            if face not in SCREWS and face != WILD:
                raise ConfigError("faces", f"unknown die face {face!r}; expected red, yellow, blue or {WILD}")
        if self.start_chips < 0 or self.start_chips * len(self.players) > self.total_chips:
            raise ConfigError("start_chips", f"cannot give {self.start_chips} chips to each of {len(self.players)} "
                             f"players from {self.total_chips}")

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def fraction(self) -> float:
        """Revolutions per sailor turn: 1.0, or 0.5 in the half-turn variant."""
        return 0.5 if self.half_turn else 1.0

    @property
    def crash_penalty(self) -> int:
        """Chips a crash costs: 1, or 2 for Old Sea Dogs."""
        return 2 if self.sea_dogs else 1

    def barrel_set(self) -> tuple[str, ...]:
        """The round's barrels as sizes in catalogue order (shuffled into a line each round)."""
        each = self.barrels // len(self.sizes)
        return tuple(size for size in self.sizes for _ in range(each))

    def variant(self) -> dict:
        """The variant switches as a JSON-ready dict (the transcript's ``variant``)."""
        return {"barrels": self.barrels, "half_turn": self.half_turn, "sea_dogs": self.sea_dogs}


@lru_cache(maxsize=8)
def distinct_lines(barrels: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every distinct order of a multiset of barrel sizes, lexicographic.

    34,650 for 4 + 4 + 4 barrels (12! / (4! 4! 4!)), 1,680 for 3 + 3 + 3.
    """
    barrels = tuple(sorted(barrels))
    if not barrels:
        return ((),)
    lines = []
    for size in dict.fromkeys(barrels):
        rest = list(barrels)
        rest.remove(size)
        lines.extend((size,) + tail for tail in distinct_lines(tuple(rest)))
    return tuple(lines)
