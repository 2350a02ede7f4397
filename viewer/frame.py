"""What one frame shows: :class:`FrameView`, read off the controller once per frame and handed to every drawer.

The drawers (:mod:`viewer.hud`, :mod:`viewer.end_screen`, the cards) read the frame's view and never
the controller, so what a frame shows is asked of the game once, in one place. No pygame here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kipp.language import Language
from kipp.rules.state import GameState
from sim.params import Params
from sim.tower import BarrelPose
from sim.world import TowerWorld
from viewer.balance_hint import Advice, BalanceHint
from viewer.controller import ChipFlight, GameController, ShownRound
from viewer.die_roll import DieRoll
from viewer.geometry import Hanging, hang_pose
from viewer.messages import Message
from viewer.modes import Mode, Prompt
from viewer.words import ENGLISH

FPS = 60
"""Frames per second: of the window's loop, of the game's clock, of the highlight pulse."""


@dataclass(frozen=True)
class FrameView:
    """What one frame shows (:meth:`of` asks the controller for it)."""

    world: TowerWorld
    """The world the side view draws (a running decision's, a crash's wreck, or the state's tower)."""
    prompt: Prompt | None
    hanging: Hanging | None
    aim_xy: tuple[float, float] | None
    """Deck-frame aim, metres, while a barrel hangs."""
    slice_direction_rad: float
    pulse: float
    """Phase of the one-second highlight pulse, 0..1."""
    view_rad: float
    """Where the side view's right-hand end points (ship frame, rad from the bow toward port)."""
    squash: float
    """Horizontal factor of the slice picture (negative: mirrored, see :func:`viewer.orientation.fold`)."""
    state: GameState
    """The rules engine's state (read only: the line, the chips, the events, whose turn)."""
    params: Params
    mode: Mode
    frame: int
    """The controller's frame count (the game's clock, :data:`FPS` a second)."""
    seed: int
    """The game's root seed (:func:`viewer.help.seed_note`)."""
    names: tuple[str, ...]
    """The players' names as sentences use them (:func:`viewer.names.shorten`)."""
    humans: tuple[bool, ...]
    """Is each seat a person (not a bot, and the game not a replay)?"""
    scripted: bool
    """Does every action come from a recording (a replay)?"""
    shown_round: ShownRound
    chips: tuple[int, ...]
    """Each player's chips as shown (a flying chip counts where it left until it arrives)."""
    supply: int
    """The supply as :attr:`chips` counts them."""
    flights: tuple[ChipFlight, ...]
    """Chips on their way between the supply and the players (their progress at :attr:`frame`)."""
    turns: dict[str, float]
    """Sailor turn counts, fractional while a sailor turns."""
    turning: str | None
    """The sailor turning right now."""
    deck_barrels: tuple[BarrelPose, ...]
    """The barrels as the top view draws them (deck frame)."""
    die: DieRoll
    message: Message | None
    fall: str | None
    """What fell in the last crash, in words."""
    held: bool
    """Is the hanging barrel held at its aim, waiting for a second click?"""
    error: str | None
    ended: bool
    """Did a replayed recording run out before the game's end?"""
    advice: Advice | None = None
    """What the balance hint says (None: hints off, or the game is over)."""
    hint_pose: Hanging | None = None
    """Where the balance hint would set the hanging barrel (world pose on the tower), if shown."""
    language: Language = ENGLISH
    """The window's language: every drawer and card asks it for its words (the controller's, which
    has made the :attr:`message` and :attr:`fall` in it)."""

    @property
    def time_s(self) -> float:
        """The game's clock, seconds."""
        return self.frame / FPS

    @classmethod
    def of(cls, c: GameController, hint: BalanceHint | None = None) -> "FrameView":
        """This frame of ``c``; with ``hint`` (hints on) the balance advice and its pose."""
        hanging = c.hanging()
        world, direction = c.display_world(), c.slice_direction()
        advice = pose = None
        if hint is not None:
            person = c.seat_is_human(c.state.player) and c.mode not in (Mode.DECIDING, Mode.AFTERMATH)
            advice = hint.advice(c.state, person=person)
            if advice is not None and advice.kind == "place":
                if hanging is None:
                    advice = hint.advice(c.state, person=False)
                else:  # the deck-frame aim projected into the slice as the barrels are (the camera mirrors)
                    x, y = advice.aim_xy
                    along = x * math.cos(direction) + y * math.sin(direction)
                    pose = Hanging(hanging.spec, *hang_pose(world, hanging.spec, along, 0.0))
        players = range(c.config.n_players)
        return cls(world=world, prompt=c.prompt(), hanging=hanging,
                   aim_xy=c.aim_xy() if hanging is not None else None,
                   slice_direction_rad=direction, pulse=(c.frame % FPS) / FPS,
                   view_rad=c.view.rad, squash=c.view_squash(), state=c.state, params=c.params, mode=c.mode,
                   frame=c.frame, seed=c.seed, names=c.short_names,
                   humans=tuple(c.seat_is_human(p) for p in players), scripted=c.script is not None,
                   shown_round=c.shown_round(), chips=tuple(c.chips_shown(p) for p in players),
                   supply=c.supply_shown(), flights=tuple(c.flights), turns=c.turns(), turning=c.turning(),
                   deck_barrels=c.deck_barrels(), die=c.die, message=c.message, fall=c.fall, held=c.held,
                   error=c.error, ended=c.ended, advice=advice, hint_pose=pose,
                   language=c.language)
