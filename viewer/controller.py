"""The game as the viewer runs it: whose move, what is animating, what the screen shows.

A :class:`GameController` owns the rules engine's :class:`~kipp.rules.state.GameState` and
advances it one frame at a time (:meth:`GameController.update`). It never decides a rule:
every action goes through ``state.apply_action``; the state asks its referee, and the
viewer's :class:`~viewer.referee_bridge.AnimatingReferee` turns that call into a
:class:`~sim.referees.loop.DecisionRun` advanced one 60 Hz physics frame per drawn
frame. Chance is sampled with :func:`kipp.rules.play.sample_chance` from the streams of
:func:`kipp.rules.play.game_streams` (the same seeding as ``kipp game``).

Time is counted in frames, not wall-clock seconds, so a game with the same seed and the
same input plays out identically headless and on screen. Nothing here draws (no pygame):
:class:`viewer.frame.FrameView` is what the drawers are handed, read off the controller once a frame.

People act through the input methods (:meth:`roll`, :meth:`pass_turn`, :meth:`set_aim`,
:meth:`nudge_aim`, :meth:`release`, :meth:`choose_sailor`); bots and a replay script act
on their own, after a pause a person can follow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, NamedTuple

from kipp.language import Language
from kipp.rules.actions import Action, ChooseSailor, Pass, Place, PlaceAnywhere, Play, Roll, Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.play import game_streams, sample_chance
from kipp.rules.state import CHANCE, GameState
from sim.params import Params
from sim.referees.loop import FRAME_HZ, LoopReferee, build_world
from sim.tower import BarrelPose, Referee, TowerState
from sim.turn_profile import profile_progress, turn_duration_s
from sim.world import TowerWorld
from viewer.crash import CrashScene, afloat, crash_scene, deck_poses, fall_words
from viewer.die_roll import DieRoll
from viewer.geometry import HANG_GAP_M, Hanging, hang_pose
from viewer.messages import AFTERMATH_FRAMES, CELEBRATION_FRAMES, Message, announce
from viewer.modes import Mode, Prompt
from viewer.names import shorten
from viewer.orientation import ViewTurn, squash
from viewer.referee_bridge import AnimatingReferee, DecisionPending, Request
from viewer.script import ReplayScript
from viewer.sound import Cue, CueEvent
from viewer.words import ENGLISH

BOT_THINK_FRAMES = 32
AFTER_ROLL_FRAMES = 16
AFTER_DECISION_FRAMES = 30
ROUND_START_FRAMES = 45
GLIDE_FRAMES = 36
LOWER_FRAMES = 10
AIM_STEP_M = 0.001
"""An arrow key press moves the hanging barrel by a millimetre (held, the app moves it faster)."""
CHIP_FLIGHT_FRAMES = 48
"""A chip flies between the supply and a player's pile in 0.8 s (earned: to the player; a crash's or a
pass's cost: back to the supply) ..."""
CHIP_STAGGER_FRAMES = 14
"""... one after the other, this many frames apart."""
CRASH_WORDS_DELAY_FRAMES = 30
"""The crash's headline ("Kaboom!") waits until the barrels have been falling this long (0.5 s)."""


@dataclass(frozen=True)
class ChipFlight:
    """One chip flying between the supply and ``player``'s pile, leaving at frame ``start`` (the
    controller's count): from the supply to the player (a chip earned), or, ``to_supply``, from the
    player's pile back to the supply (a chip a crash or a pass costs)."""

    player: int
    start: int
    to_supply: bool = False

    def progress(self, frame: int) -> float:
        """0 on leaving the supply, 1 on arrival (clipped)."""
        return min(1.0, max(0.0, (frame - self.start) / CHIP_FLIGHT_FRAMES))


class ShownRound(NamedTuple):
    """The round the top bar shows, its barrels stacked, and whether it is over (awaiting the next deal)."""

    round: int
    stacked: int
    over: bool


class GameController:
    """One game on screen. ``bots`` maps player index -> bot (anything with ``act``);
    the other players are people. With a ``script`` every action comes from it;
    ``chance(state)``, if given, replaces the seeded die and shuffle (for tests).
    ``referee`` decides (default: physics, animated); one without ``start`` (e.g. the
    fast referee of a replayed recording) decides at once, with nothing to animate."""

    def __init__(self, config: GameConfig, params: Params, *, seed: int = 0,
                 bots: Mapping[int, object] | None = None, referee: Referee | None = None,
                 script: ReplayScript | None = None,
                 chance: Callable[[GameState], Action] | None = None, confirm: bool = False,
                 language: Language = ENGLISH) -> None:
        self.config = config
        self.language = language
        """The words of the messages and of what fell (the window sets it: the start screen may change it)."""
        self.confirm = confirm
        """Ask before letting a barrel go: the first click (or Enter) holds it where it is, a second lets it go."""
        self.held = False
        """Is the hanging barrel held at its aim, waiting for the second click (``confirm``)?"""
        self.params = params
        self.seed = seed
        self.bots = dict(bots or {})
        self.script = script
        self._chance = chance
        self.referee = AnimatingReferee(referee if referee is not None else LoopReferee(params))
        self.state = GameState(config, self.referee, params.ship)
        self.die_rng, self.shuffle_rng, self.bot_rngs = game_streams(seed, config.n_players)
        self.die = DieRoll(config.faces)
        self.mode = Mode.IDLE
        """What animates this frame; :meth:`update` runs its handler (:attr:`_updates`)."""
        self._updates: dict[Mode, Callable[[], None]] = {
            Mode.IDLE: self._update_idle, Mode.ROLLING: self._update_rolling, Mode.GLIDING: self._update_gliding,
            Mode.LOWERING: self._update_lowering, Mode.DECIDING: self._update_deciding,
            Mode.AFTERMATH: self._update_aftermath}
        self.wait = 0
        self.frame = 0
        self.message: Message | None = None
        self.error: str | None = None
        self.run = None
        self._pending: tuple[Action, Request] | None = None
        self._roll: Roll | None = None
        self._place: Place | None = None
        self._aim = [0.0, 0.0]  # along the slice, across it (m)
        self._aim_node = -1
        self._think_node = -1
        self._glide: tuple[float, float, float, float, int] | None = None
        self._gap = HANG_GAP_M
        self._static: tuple[TowerState, TowerWorld] | None = None
        self._frozen: TowerWorld | None = None
        self._frozen_slice = 0.0
        self._frozen_turns: dict[str, float] | None = None
        self.fall: str | None = None
        """What fell in the last crash, in words ("the top four barrels tipped over to port"), until the
        next round starts; None if nothing fell or the referee did not say."""
        self._fall_frames = 0
        self._fall_barrels = 0
        self._held_message: Message | None = None
        self._crash: CrashScene | None = None
        self.flights: list[ChipFlight] = []
        """Chips on their way between the supply and the players (earned, or paid back)."""
        self._held_returns: list[int] = []
        """The players (one entry a chip) whose crash cost waits for the crash's headline before it flies."""
        self.ended = False
        """Has a replayed recording run out before the game's end (it was stopped half-way)?"""
        self._cues: list[CueEvent] = []
        self._was_turning = False
        self.view = ViewTurn(self.state.tower.slice_direction_rad)
        """Which way the side view looks (bow kept on the right; turns when the slice changes).
        While it turns, a running decision waits, so the turn of the view is seen before the deck moves."""
        self.short_names = tuple(shorten(name) for name in config.players)
        """Player names as sentences use them (long ones cut with an ellipsis)."""

    # --- what the view asks -------------------------------------------------------

    def seat_is_human(self, player: int) -> bool:
        return self.script is None and player not in self.bots

    def prompt(self) -> Prompt | None:
        """What a person is being asked to do now (None: nothing, or nobody is asked)."""
        state = self.state
        if state.is_terminal():
            return Prompt.NEW_GAME if self.mode is Mode.IDLE and self.wait == 0 else None
        if self.mode is not Mode.IDLE or self.wait > 0 or self.error or not self.seat_is_human(state.player):
            return None
        if state.current_player() == CHANCE:
            return Prompt.ROLL if state.chance_kind() == "roll" else None
        first = state.legal_actions()[0]
        if isinstance(first, Play):
            return Prompt.PLAY_OR_PASS
        if isinstance(first, PlaceAnywhere):
            return Prompt.PLACE
        if isinstance(first, ChooseSailor):
            return Prompt.SAILOR
        return None

    def display_world(self) -> TowerWorld:
        """The world to draw: the running decision's, a crash's wreck, or the state's tower."""
        if self.mode is Mode.DECIDING and self.run.world is not None:
            return self.run.world
        if self._frozen is not None:
            return self._frozen
        tower = self.state.tower
        if self._static is None or self._static[0] is not tower:
            self._static = (tower, build_world(self.params, tower, tower.slice_direction_rad))
        return self._static[1]

    def deck_barrels(self) -> tuple[BarrelPose, ...]:
        """The barrels as the top view draws them (deck frame), read off the world the side view
        draws, so both views show the same bodies; those sunk below the sea are left out."""
        world = self.display_world()
        poses = deck_poses(world, self.slice_direction())
        return tuple(poses[i] for i in afloat(world))

    def view_settled(self) -> bool:
        """Does the side view look straight at the slice shown (no view turn under way or due)?"""
        self.view.follow(self.slice_direction())
        return not self.view.turning

    def slice_direction(self) -> float:
        """Direction (rad from the bow toward port) of the plane the side view shows."""
        if self.mode is Mode.DECIDING and self.run.world is not None:
            return _run_slice(self.run, self._pending[1].tower)
        if self._frozen is not None:
            return self._frozen_slice
        return self.state.tower.slice_direction_rad

    def view_squash(self) -> float:
        """Horizontal factor of the side view this frame (negative: the slice is shown mirrored)."""
        return squash(self.view.rad, self.slice_direction())

    def turns(self) -> dict[str, float]:
        """Sailor turn counts to show, fractional while a sailor is turning."""
        if self.mode in (Mode.DECIDING, Mode.AFTERMATH) and self._pending is not None:
            request = self._pending[1]
            turns = request.tower.turns_by_sailor()
            run = self.run
            if request.turn is not None and run.world is not None and run.phase == "turn":
                duration = turn_duration_s(request.turn.revolutions, self.params.turn.rate_rev_per_s)
                done = profile_progress(run.world.time_s / duration, self.params.turn.profile)
                turns[request.turn.sailor] += done * request.turn.revolutions
            return turns
        if self._frozen_turns is not None:
            return dict(self._frozen_turns)
        return self.state.turns_by_sailor()

    def turning(self) -> str | None:
        """The sailor being turned right now, or None."""
        if self.mode in (Mode.DECIDING, Mode.AFTERMATH) and self._pending is not None:
            turn = self._pending[1].turn
            if turn is not None and getattr(self.run, "phase", None) == "turn":
                return turn.sailor
        return None

    def hanging(self) -> Hanging | None:
        """The next barrel held over the tower while it is being aimed and lowered."""
        if self.mode not in (Mode.GLIDING, Mode.LOWERING) and self.prompt() is not Prompt.PLACE:
            return None
        legal = self.state.legal_actions()
        if not legal or not isinstance(legal[0], PlaceAnywhere):
            return None
        self._init_aim()
        spec = self.params.barrel(legal[0].size)
        return Hanging(spec, *hang_pose(self.display_world(), spec, self._aim[0], self._gap))

    def aim_xy(self) -> tuple[float, float] | None:
        """Deck-frame (x, y) of the aim, metres, while a barrel hangs."""
        if self.hanging() is None:
            return None
        return self._aim_to_xy()

    def shown_round(self) -> ShownRound:
        """The round as the scene shows it: a round that has ended stays on the top bar, with the
        count its recap gives, until the next one is dealt."""
        state = self.state
        end = state.last_round_end()
        if end is not None and (state.is_terminal() or state.chance_kind() == "shuffle"):
            return ShownRound(end["round"], end["stacked"], True)
        return ShownRound(state.round, state.placed, False)

    def chips_shown(self, player: int) -> int:
        """``player``'s chips as the pile shows them: a chip counts where it is until it arrives (one
        flying to them not yet, one flying from them back to the supply still), and a crash's cost
        stays on the pile until its headline is shown (the barrels are seen to fall first)."""
        shown = self.state.chips[player] + self._held_returns.count(player)
        for flight in self._flying():
            if flight.player == player:
                shown += 1 if flight.to_supply else -1
        return shown

    def supply_shown(self) -> int:
        """The supply as :meth:`chips_shown` counts the chips (the two always add up to the game's chips)."""
        shown = self.state.supply - len(self._held_returns)
        for flight in self._flying():
            shown += -1 if flight.to_supply else 1
        return shown

    def _flying(self) -> list[ChipFlight]:
        return [f for f in self.flights if f.progress(self.frame) < 1.0]

    def take_cues(self) -> list[CueEvent]:
        """The sounds the game asked for since the last call (:mod:`viewer.sound`)."""
        cues, self._cues = self._cues, []
        return cues

    # --- input from people --------------------------------------------------------

    def skip_intro(self) -> bool:
        """A person's key or click during the pause that opens their turn (or follows the roll):
        end the pause, so the input is not lost. True if there was such a pause."""
        if self.mode is not Mode.IDLE or self.wait <= 0 or self.error:
            return False
        wait, self.wait = self.wait, 0
        if self.prompt() is None:
            self.wait = wait  # nothing for a person to do yet (a bot's turn, a celebration): keep it
            return False
        return True

    def roll(self) -> bool:
        """Roll the die (after choosing to play, in Old Sea Dogs). True if it rolled."""
        self.skip_intro()
        prompt = self.prompt()
        if prompt is Prompt.PLAY_OR_PASS:
            self._submit(Play())
            prompt = Prompt.ROLL
        if prompt is not Prompt.ROLL:
            return False
        self._start_roll(self._sample())
        return True

    def pass_turn(self) -> bool:
        """Pass (Old Sea Dogs), when allowed. True if passed."""
        self.skip_intro()
        if self.prompt() is not Prompt.PLAY_OR_PASS:
            return False
        self._submit(Pass())
        return True

    def set_aim(self, along_m: float) -> None:
        """Move the hanging barrel to ``along_m`` along the deck (within the deck; not while held)."""
        if self.prompt() is Prompt.PLACE and not self.held:
            self._init_aim()
            limit = self.params.ship.deck_half_length_m
            self._aim[0] = min(max(along_m, -limit), limit)

    def nudge_aim(self, along_steps: int, across_steps: int = 0) -> None:
        """Arrow keys: move the aim by :data:`AIM_STEP_M` per step (a held barrel is aimed again)."""
        self.skip_intro()
        if self.prompt() is Prompt.PLACE:
            self.held = False
            self._init_aim()
            self.set_aim(self._aim[0] + along_steps * AIM_STEP_M)
            limit = self.params.ship.deck_half_length_m
            self._aim[1] = min(max(self._aim[1] + across_steps * AIM_STEP_M, -limit), limit)

    def release(self) -> bool:
        """Let the hanging barrel go at the aim (with ``confirm``, the first call holds it there
        and the second lets it go). True if released."""
        self.skip_intro()
        if self.prompt() is not Prompt.PLACE:
            return False
        if self.confirm and not self.held:
            self.held = True
            return False
        self.held = False
        x, y = self._aim_to_xy()
        self._place = Place(round(x * 1000.0, 3) + 0.0, round(y * 1000.0, 3) + 0.0)
        self.mode, self._glide = Mode.LOWERING, None
        return True

    def aim_again(self) -> bool:
        """Let go of the hold (``confirm``): the barrel follows the mouse again. True if it was held."""
        held, self.held = self.held, False
        return held

    def choose_sailor(self, sailor: str) -> bool:
        """On a wild roll, after placing: turn ``sailor``. True if accepted."""
        self.skip_intro()
        if self.prompt() is not Prompt.SAILOR:
            return False
        self._submit(ChooseSailor(sailor))
        return True

    # --- one frame ----------------------------------------------------------------

    def update(self) -> None:
        """Advance the game by one frame (1/60 s of physics while a decision runs)."""
        self.frame += 1
        self.die.update()
        if self.message is not None:
            self.message.frames_left -= 1
            if self.message.frames_left <= 0:
                self.message = None
        self.view.follow(self.slice_direction())
        self.view.step()
        self.flights = [f for f in self.flights if f.progress(self.frame) < 1.0]
        if self.error:
            return
        self._updates[self.mode]()
        turning = self.turning() is not None and not self.view.turning  # the deck moves once the view has turned
        if turning and not self._was_turning:
            turn = self._pending[1].turn
            seconds = turn_duration_s(turn.revolutions, self.params.turn.rate_rev_per_s)
            self._cues.append(CueEvent(Cue.TURN, seconds=seconds))
        self._was_turning = turning

    def _update_idle(self) -> None:
        if self.wait > 0:
            self.wait -= 1
            return
        if self.state.face is None and self.die.face is not None:
            self.die.clear()  # a new turn (or the end): the last turn's face is no longer the die's
        self._auto_step()

    def _update_rolling(self) -> None:
        if self.die.rolling:
            return
        self.mode = Mode.IDLE
        self.wait = AFTER_ROLL_FRAMES
        self._submit(self._roll)

    def _update_gliding(self) -> None:
        s0, a0, s1, a1, frames = self._glide
        frames += 1
        t = min(1.0, frames / GLIDE_FRAMES)
        ease = t * t * (3 - 2 * t)
        self._aim = [s0 + (s1 - s0) * ease, a0 + (a1 - a0) * ease]
        self._glide = (s0, a0, s1, a1, frames)
        if t >= 1.0:
            self.mode = Mode.LOWERING

    def _update_lowering(self) -> None:
        drop = self.params.settle.drop_height_m
        self._gap = max(drop, self._gap - (HANG_GAP_M - drop) / LOWER_FRAMES)
        if self._gap <= drop + 1e-12:
            place, self._place = self._place, None
            self.mode = Mode.IDLE
            self._gap = HANG_GAP_M
            self._cues.append(CueEvent(Cue.SET_DOWN, size=self.state.next_barrel()))
            self._submit(place)

    def _update_deciding(self) -> None:
        if self.view.turning:
            return  # the physics waits while the view turns to the new slice
        decision = self.run.advance_frame()
        if decision is None:
            return
        action, request = self._pending
        self.referee.provide(request, decision)
        world = self.run.world
        slice_direction = _run_slice(self.run, request.tower) if world is not None else 0.0
        self.mode = Mode.IDLE
        shown = self.message
        self._submit(action, hold_crash_cost=True)
        scene = crash_scene(self.params, decision, world, slice_direction) if decision.crashed else None
        if decision.crashed and scene is None:
            self._cues.append(CueEvent(Cue.CRASH))
            self._release_crash_cost()  # nothing to watch fall: the chips go back now
        if scene is not None:
            self.mode, self.wait = Mode.AFTERMATH, AFTERMATH_FRAMES
            self._crash = scene
            self._frozen, self._frozen_slice = scene.world, scene.slice_direction_rad
            in_slice = scene.fallen is not None and scene.fallen.in_slice
            self.fall = (fall_words(scene.fallen, len(decision.tower.barrels), self.language)
                         if scene.fallen and not in_slice else None)
            self._fall_barrels = len(decision.tower.barrels)
            self._fall_frames = 0
            self._held_message, self.message = self.message, shown  # the headline once the fall is seen
        else:
            self._pending = None
            self.run = None
            end = self.state.last_round_end()
            completed = self.state.chance_kind() == "shuffle" or self.state.is_terminal()
            self.wait = max(self.wait, CELEBRATION_FRAMES if completed and end["completed"] else AFTER_DECISION_FRAMES)

    def _update_aftermath(self) -> None:
        if self.view.turning:
            return  # the barrels fall once the view looks into the plane they fall in
        if self._fall_frames == 0:
            self._cues.append(CueEvent(Cue.CRASH))  # as the barrels start to fall
        self._crash.advance_frame(max(1, round(self.params.solver.steps_per_second / FRAME_HZ)))
        self._fall_frames += 1
        if self._held_message is not None and self._fall_frames >= CRASH_WORDS_DELAY_FRAMES:
            self.message, self._held_message = self._held_message, None
            self._release_crash_cost()
            seen = self._crash.seen()
            if self.fall is None and seen is not None:  # a fall the world simulated: say what is seen
                self.fall = fall_words(seen, self._fall_barrels, self.language)
        self.wait -= 1
        if self.wait <= 0:
            self._release_crash_cost()  # (already on its way, unless the aftermath ended before its headline)
            self._frozen_turns = self.turns()
            self.mode, self.wait = Mode.IDLE, 0
            self._pending, self.run = None, None
            self._auto_step()

    # --- acting -------------------------------------------------------------------

    def _auto_step(self) -> None:
        state = self.state
        if state.is_terminal():
            return
        player = state.current_player()
        if player == CHANCE and state.chance_kind() == "shuffle":
            action = self.script.next_action(state) if self.script else self._sample()
            if action is None:
                self.ended = True  # a recording stopped between two rounds
                return
            self._submit(action)
            self.wait = ROUND_START_FRAMES
            return
        if self.seat_is_human(state.player):
            return  # a person's move: wait for input
        node = len(state.history())
        if self._think_node != node:
            self._think_node, self.wait = node, BOT_THINK_FRAMES
            return
        if self.script is not None:
            action = self.script.next_action(state)
        elif player == CHANCE:
            action = self._sample()
        else:
            action = self.bots[player].act(state, self.bot_rngs[player])
        if action is None:
            self.ended = True  # a game recorded as it was played and stopped half-way
            return
        if isinstance(action, Roll):
            self._start_roll(action)
        elif isinstance(action, Place):
            self._init_aim()
            direction = self.state.tower.slice_direction_rad
            x, y = action.xy_m
            along = x * math.cos(direction) + y * math.sin(direction)
            across = -x * math.sin(direction) + y * math.cos(direction)
            self._glide = (self._aim[0], self._aim[1], along, across, 0)
            self._place = action
            self.mode = Mode.GLIDING
        else:
            self._submit(action)

    def _sample(self) -> Action:
        """The outcome of the state's chance node: the die, or the round's shuffle."""
        if self._chance is not None:
            return self._chance(self.state)
        rng = self.die_rng if self.state.chance_kind() == "roll" else self.shuffle_rng
        return sample_chance(self.state, rng)

    def _start_roll(self, roll: Roll) -> None:
        self._cues.append(CueEvent(Cue.ROLL))
        self._roll = roll
        self.die.start_roll(roll.face)
        self.mode = Mode.ROLLING

    def _submit(self, action: Action, *, hold_crash_cost: bool = False) -> None:
        """Apply ``action`` to a clone; commit it, or start animating the decision it needs.

        The chips the events move fly (:class:`ChipFlight`); with ``hold_crash_cost`` those a crash
        costs wait on the player's pile until :meth:`_release_crash_cost` (the crash's headline)."""
        probe = self.state.clone()
        try:
            probe.apply_action(action)
        except DecisionPending as pending:
            self._pending = (action, pending.request)
            self.run = self.referee.start(pending.request)
            self._frozen = self._frozen_turns = None
            self.mode = Mode.DECIDING
            return
        except ValueError as error:  # an illegal recorded action: the replay went astray
            self.error = self.language.gettext("cannot apply {action}: {error}").format(action=repr(action),
                                                                                         error=error)
            return
        seen = len(self.state.events())
        self.state = probe
        if isinstance(action, Shuffle):  # a new round: the wreck of the last one is cleared away
            self._frozen = self._frozen_turns = self.fall = None
        new = probe.events()[seen:]
        if any(e["event"] == "round_end" and e["completed"] for e in new):
            self._cues.append(CueEvent(Cue.FANFARE))
        moves: list[tuple[int, bool]] = []  # (player, to the supply), one a chip, in the events' order
        for event in new:
            if event["event"] == "award":
                moves += [(event["player"], False)] * event["chips"]
            elif event["event"] == "pass":
                moves.append((event["player"], True))
            elif event["event"] == "crash" and hold_crash_cost:
                self._held_returns += [event["player"]] * event["chips_returned"]
            elif event["event"] == "crash":
                moves += [(event["player"], True)] * event["chips_returned"]
        self._fly(moves)
        self.message = announce(self.short_names, new, self.message, self.language)

    def _fly(self, moves: list[tuple[int, bool]]) -> None:
        """Send chips on their way, ``(player, to the supply)`` each, one after the other behind those flying."""
        start = max([self.frame] + [f.start + CHIP_STAGGER_FRAMES for f in self.flights])
        self.flights += [ChipFlight(player, start + k * CHIP_STAGGER_FRAMES, to_supply)
                         for k, (player, to_supply) in enumerate(moves)]

    def _release_crash_cost(self) -> None:
        """The chips a crash costs leave the player's pile for the supply (see :meth:`_submit`)."""
        held, self._held_returns = self._held_returns, []
        self._fly([(player, True) for player in held])

    def _init_aim(self) -> None:
        node = len(self.state.history())
        if self._aim_node == node:
            return
        self._aim_node = node
        first = self.state.legal_actions()[0]
        x, y = (v / 1000.0 for v in first.top_mm)
        direction = self.state.tower.slice_direction_rad
        self._aim = [x * math.cos(direction) + y * math.sin(direction),
                     -x * math.sin(direction) + y * math.cos(direction)]

    def _aim_to_xy(self) -> tuple[float, float]:
        direction = self.state.tower.slice_direction_rad
        along, across = self._aim
        return (along * math.cos(direction) - across * math.sin(direction),
                along * math.sin(direction) + across * math.cos(direction))


def _run_slice(run, tower: TowerState) -> float:
    """The slice a DecisionRun's current world lies in (a decided run has none: the tower's)."""
    return getattr(run, "slice_direction_rad", tower.slice_direction_rad)
