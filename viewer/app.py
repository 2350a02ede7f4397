"""The window and its main loop: input, one frame of game and physics, drawing.

Each frame runs :meth:`ViewerApp._process_events` (keys, mouse, window), then
:meth:`ViewerApp._update` (one frame of the game, which advances a running physics
decision by one 60 Hz frame = 16 fixed substeps at the default 960 Hz), then :meth:`ViewerApp._draw`. On a real
display the loop is held to 60 frames per second; headless it runs as fast as it can,
and since all timing is counted in frames the game plays out the same either way.

Keys: Space roll - P pass - 1/2/3 sailor - arrows aim - Enter let go - B balance hint on/off -
M sound on/off - R record - H or ? how to play - N new game - Esc quit (during a game N and Esc ask first: Y or Enter
yes, N or Esc no).
Mouse: click the die to roll, a sailor in the inset to choose it, the scene to let go.
A replay (``replay=True``) has its own keys: Space pause, Right or S one step while
paused, + / - (or 1, 2, 4) speed. While a card is up (help, a question) the game waits.
"""

from __future__ import annotations

import math
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (after silencing pygame's banner)

from sim.params import SCREWS  # noqa: E402
from sim.world import TowerWorld  # noqa: E402
from viewer import hud  # noqa: E402
from viewer.balance_hint import Advice, BalanceHint  # noqa: E402
from viewer.controller import GameController  # noqa: E402
from viewer.help import draw_help, first_game_tip  # noqa: E402
from viewer.inset import InsetView  # noqa: E402
from viewer.layout import MIN_SIZE, Layout, compute_layout  # noqa: E402
from viewer.messages import Message  # noqa: E402
from viewer.recorder import GameRecorder, numbered, recording_header, recording_path  # noqa: E402
from viewer.scene import Hanging, SceneView, hang_pose, tower_top_m  # noqa: E402
from viewer.setup import GameSetup, save_setup  # noqa: E402
from viewer.sound import SoundBoard  # noqa: E402
from viewer.start import LEAVE, START, StartScreen  # noqa: E402

FPS = 60
CAPTION = "Kipp, Kipp, Ahoi!"
ARROW_REPEAT_GAP_MS = 120
"""An arrow key coming again within this many ms is being held (the key repeat is every 35 ms)."""
SPEEDS = (1, 2, 4)
"""Replay speeds: game frames per drawn frame."""


@dataclass(frozen=True)
class FrameView:
    """What one frame shows, asked of the controller once per frame and handed to every drawer."""

    world: TowerWorld
    prompt: str | None
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
    advice: Advice | None = None
    """What the balance hint says (None: hints off, or the game is over)."""
    hint_pose: Hanging | None = None
    """Where the balance hint would set the hanging barrel (world pose on the tower), if shown."""

    @classmethod
    def of(cls, c: GameController, hint: BalanceHint | None = None) -> "FrameView":
        """This frame of ``c``; with ``hint`` (hints on) the balance advice and its pose."""
        hanging = c.hanging()
        world, direction = c.display_world(), c.slice_direction()
        advice = pose = None
        if hint is not None:
            person = c.seat_is_human(c.state.player) and c.mode not in ("deciding", "aftermath")
            advice = hint.advice(c.state, person=person)
            if advice is not None and advice.kind == "place":
                if hanging is None:
                    advice = hint.advice(c.state, person=False)
                else:  # the deck-frame aim projected into the slice as the barrels are (the camera mirrors)
                    x, y = advice.aim_xy
                    along = x * math.cos(direction) + y * math.sin(direction)
                    pose = Hanging(hanging.spec, *hang_pose(world, hanging.spec, along, 0.0))
        return cls(world=world, prompt=c.prompt(), hanging=hanging,
                   aim_xy=c.aim_xy() if hanging is not None else None,
                   slice_direction_rad=direction, pulse=(c.frame % FPS) / FPS,
                   view_rad=c.view.rad, squash=c.view_squash(), advice=advice, hint_pose=pose)


def _set_minimum_size(size: tuple[int, int]) -> None:
    """The window cannot be made smaller than ``size``, at which everything fits.

    pygame-ce reaches the display module's window only through a deprecated door
    (``Window.from_display_module``); it is the one that exists in 2.5, so use it quietly."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):
        pass


GameFactory = Callable[[GameSetup], Callable[[int], GameController]]
"""Makes the games of a set-up: ``factory(setup)(games_started)`` is the next game's controller."""


class ViewerApp:
    """A window showing one game at a time; ``new_controller(games_started)`` makes each game.

    With ``games`` (a :data:`GameFactory`) and the ``setup`` the first game was made from, a new
    game is set up on the start screen (:mod:`viewer.start`) first; ``start_screen`` opens the
    window on it (the first game is then only a picture behind it until Start)."""

    def __init__(self, new_controller: Callable[[int], GameController], *,
                 size: tuple[int, int] = (1280, 800), throttle: bool = True, replay: bool = False,
                 help_at_start: bool = False, tips: bool = True, hints: bool = False,
                 games: GameFactory | None = None, setup: GameSetup | None = None,
                 start_screen: bool = False, mute: bool = False, record: str | None = None) -> None:
        pygame.display.init()
        pygame.font.init()
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(CAPTION)
        _set_minimum_size(MIN_SIZE)
        pygame.key.set_repeat(300, 35)
        self._new_controller = new_controller
        self.games = 0
        self.controller = new_controller(0)
        self.scene = SceneView(self.controller.params)
        self.inset = InsetView(self.controller.params)
        self.layout: Layout = compute_layout(self.surface.get_size())
        self.throttle = throttle
        self.clock = pygame.time.Clock()
        self.running = True
        self.frames = 0
        self.frame_ms: list[float] = []
        """Wall time of update + draw + flip per frame, milliseconds (the wait for the next frame excluded)."""
        self.view: FrameView | None = None
        """The last frame drawn."""
        self.replay = replay
        self.paused = False
        self.speed = 1
        self._step_from: int | None = None
        self.overlay: str | None = "help" if help_at_start else None
        """A card over the game, which waits meanwhile: "help", "confirm_new" or "confirm_quit"."""
        self.failure: str | None = None
        """Why a replay stopped (an action the recording has that the game does not allow)."""
        self.tips = tips and not replay
        self.tip: tuple[str, str] | None = None
        """(key, text) of the first-game tip shown this frame."""
        self._tips_seen: set[str] = set()
        self.tip_rect: pygame.Rect | None = None
        self.legend: str | None = None
        """What the foot of the panel showed last: "legend" or "hint"."""
        self.hints = hints and not replay
        """Is the balance hint shown (``kipp play --hints``; B toggles it)?"""
        self._balance: BalanceHint | None = None
        self.balance_rect: pygame.Rect | None = None
        """Where the balance gauge was drawn last (None: not shown)."""
        self._arrow = (None, 0, -ARROW_REPEAT_GAP_MS - 1)
        """(arrow key, when it was first pressed, when it last came) in ms: a held key moves faster."""
        self.sound = SoundBoard(muted=mute)
        """The game's sounds (M mutes); silent without an audio device."""
        self._games = games
        self.setup = setup
        self.start: StartScreen | None = None
        """The start screen, while it is up (``overlay == "start"``)."""
        self._started = not start_screen
        """Has a game been started (False while the launch's start screen is up)?"""
        self._record = record
        """``--record FILE``: every game is recorded (:func:`viewer.recorder.numbered` files)."""
        self.recorder: GameRecorder | None = None
        """Writes the game being played to its file as it goes (None: not recording)."""
        self._recorded_games = 0
        if record is not None and self._started and not replay:
            self._start_recording(Path(record))
        self._help_after_start = False
        if start_screen and games is not None and setup is not None:
            self._help_after_start = help_at_start  # the how-to-play card follows the launch's start screen
            self.open_start(after_game=False)

    # --- the loop -----------------------------------------------------------------

    def run(self, max_frames: int | None = None, screenshot: str | None = None) -> None:
        """Run until the window is closed (or ``max_frames`` frames); save the last frame as PNG.

        Without a frame limit and without a window to watch (an unthrottled, headless run),
        stop as soon as a person would have to act, e.g. at the end of the game: nobody can.
        """
        unattended = max_frames is None and not self.throttle
        try:
            while self.running and (max_frames is None or self.frames < max_frames):
                self.step()
                if self.throttle:
                    self.clock.tick(FPS)
                elif unattended and (self.view.prompt is not None or self.controller.ended):
                    break
            if screenshot:
                pygame.image.save(self.surface, screenshot)
        finally:
            self.close()

    def step(self) -> None:
        """One frame: events, update, draw, flip."""
        self._process_events()
        start = time.perf_counter()
        self._update()
        for cue in self.controller.take_cues():
            self.sound.play(cue)
        if self.recorder is not None:
            self.recorder.update(self.controller.state.events())
        self._draw()
        pygame.display.flip()
        self.frame_ms.append((time.perf_counter() - start) * 1000.0)
        self.frames += 1

    def close(self) -> None:
        self._stop_recording()
        self.sound.close()
        pygame.display.quit()

    def new_game(self) -> None:
        """The next game: set up on the start screen if there is one, else as the last one."""
        if self._games is not None and self.setup is not None and not self.replay:
            self.open_start(after_game=True)
            return
        self._next_game()

    def _next_game(self) -> None:
        if self._started:
            self.games += 1
        self._started = True
        self.controller = self._new_controller(self.games)
        self.paused, self._step_from = False, None
        self._stop_recording()
        if self._record is not None and not self.replay:
            self._start_recording(numbered(Path(self._record), self._recorded_games))

    def _start_recording(self, path: Path) -> None:
        """Record the game being played into ``path``, from its first event."""
        c = self.controller
        models = [getattr(c.bots.get(i), "model", None) for i in range(c.config.n_players)]
        self.recorder = GameRecorder(path, recording_header(c.params, c.seed, models))
        self.recorder.update(c.state.events())
        self._recorded_games += 1

    def _stop_recording(self) -> None:
        if self.recorder is not None:
            self.recorder.close()
            self.recorder = None

    def record(self) -> None:
        """R: record this game (from its start) into the user's data folder, and say where."""
        c = self.controller
        if self.recorder is None:
            try:
                self._start_recording(recording_path())
            except OSError as error:
                c.message = Message("Cannot record", str(error.strerror or error))
                return
        c.message = Message("Recording this game", str(self.recorder.path))

    def open_start(self, *, after_game: bool) -> None:
        """Show the start screen with the current set-up (``after_game``: Esc goes back)."""
        self.start = StartScreen(self.setup, after_game=after_game)
        self.overlay = "start"

    def _start_answer(self, answer: str | None) -> None:
        if answer == START:
            self.setup = self.start.setup
            save_setup(self.setup)
            self._new_controller = self._games(self.setup)
            self.hints = self.setup.hints
            self.start, self.overlay = None, None
            self._next_game()
            if self._help_after_start:
                self.overlay, self._help_after_start = "help", False
        elif answer == LEAVE:
            if self.start.after_game:
                self.start, self.overlay = None, None
            else:
                self.running = False

    # --- input --------------------------------------------------------------------

    def _process_events(self) -> None:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self.surface = pygame.display.get_surface()
            elif event.type == pygame.KEYDOWN:
                self._key(event.key, getattr(event, "unicode", ""), getattr(event, "mod", 0))
            elif event.type == pygame.MOUSEMOTION:
                if self.overlay is None:
                    self._aim_at(event.pos)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._click(event.pos)

    def _key(self, key: int, char: str = "", mod: int = 0) -> None:
        if self.overlay == "start":
            self._start_answer(self.start.key(key, char, mod))
            return
        if self.overlay is not None:
            self._overlay_key(key, char)
            return
        c = self.controller
        over = c.state.is_terminal()
        if key in (pygame.K_h, pygame.K_QUESTION) or char == "?":
            self.overlay = "help"
        elif key == pygame.K_m:
            self.sound.toggle_mute()
        elif key == pygame.K_ESCAPE and c.held:
            c.aim_again()
        elif key == pygame.K_ESCAPE:
            if over:
                self.running = False
            else:
                self.overlay = "confirm_quit"
        elif key == pygame.K_n:
            if over:
                self.new_game()
            else:
                self.overlay = "confirm_new"
        elif self.replay:
            self._replay_key(key, char)
        elif key == pygame.K_b:
            self.hints = not self.hints
        elif key == pygame.K_r:
            self.record()
        elif key == pygame.K_SPACE:
            c.roll()
        elif key == pygame.K_p:
            c.pass_turn()
        elif key in (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_KP1, pygame.K_KP2, pygame.K_KP3):
            number = {pygame.K_KP1: 1, pygame.K_KP2: 2, pygame.K_KP3: 3}.get(key, key - pygame.K_0)
            c.choose_sailor(SCREWS[number - 1])
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            c.release()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            # Left / right move the barrel that way on screen (the slice may be shown mirrored)
            steps = self._arrow_steps(key)
            along = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(key, 0) * (1 if c.view_squash() > 0 else -1)
            across = {pygame.K_UP: 1, pygame.K_DOWN: -1}.get(key, 0)
            c.nudge_aim(along * steps, across * steps)
        elif key == pygame.K_BACKSPACE:
            c.aim_again()

    def _arrow_steps(self, key: int) -> int:
        """Millimetres an arrow key moves the aim: 1 per press; held (the key repeating), 2 after
        a third of a second and 5 after a second, so crossing the deck does not take all evening."""
        now = pygame.time.get_ticks()
        last_key, since, last = self._arrow
        if key != last_key or now - last > ARROW_REPEAT_GAP_MS:
            since = now
        self._arrow = (key, since, now)
        held = now - since
        return 5 if held > 1000 else 2 if held > 330 else 1

    def _overlay_key(self, key: int, char: str) -> None:
        if self.overlay == "help":
            if key in (pygame.K_h, pygame.K_QUESTION, pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER,
                       pygame.K_SPACE) or char == "?":
                self.overlay = None
            return
        if key in (pygame.K_y, pygame.K_RETURN, pygame.K_KP_ENTER):
            self._answer(True)
        elif key in (pygame.K_n, pygame.K_ESCAPE):
            self._answer(False)

    def _answer(self, yes: bool) -> None:
        question, self.overlay = self.overlay, None
        if not yes:
            return
        if question == "confirm_quit":
            self.running = False
        elif question == "confirm_new":
            self.new_game()

    def question(self) -> tuple[str, str]:
        """The words of the yes/no card being asked."""
        if self.overlay == "confirm_quit":
            if self.replay:
                return "Quit the replay?", "The recording stays as it is."
            return "Quit the game?", "This game will be lost."
        if self.replay:
            return "Restart the replay?", "It starts again from the first roll."
        return "Start a new game?", "This game will be lost."

    def _replay_key(self, key: int, char: str) -> None:
        if key == pygame.K_SPACE:
            self.paused = not self.paused
            self._step_from = None
        elif key in (pygame.K_RIGHT, pygame.K_s) and self.paused:
            self._step_from = len(self.controller.state.history())
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS) or char == "+":
            self.speed = SPEEDS[min(SPEEDS.index(self.speed) + 1, len(SPEEDS) - 1)]
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS) or char == "-":
            self.speed = SPEEDS[max(SPEEDS.index(self.speed) - 1, 0)]
        elif key in (pygame.K_1, pygame.K_2, pygame.K_4, pygame.K_KP1, pygame.K_KP2, pygame.K_KP4):
            self.speed = {pygame.K_1: 1, pygame.K_2: 2, pygame.K_4: 4, pygame.K_KP1: 1, pygame.K_KP2: 2,
                          pygame.K_KP4: 4}[key]

    def _aim_at(self, pos: tuple[int, int]) -> None:
        """Put the hanging barrel under the mouse (horizontally), along the deck."""
        c = self.controller
        if c.prompt() != "place" or not self.layout.scene.collidepoint(pos):
            return
        hanging = c.hanging()
        if hanging is None:
            return
        angle = c.display_world().deck.angle
        mouse_x, _ = self.scene.camera.to_world(*pos)
        height = -hanging.x_m * math.sin(angle) + hanging.y_m * math.cos(angle)  # deck-normal height
        c.set_aim((mouse_x + height * math.sin(angle)) / math.cos(angle))

    def _click(self, pos: tuple[int, int]) -> None:
        c = self.controller
        layout = self.layout
        if self.overlay == "start":
            self._start_answer(self.start.click(pos))
            return
        if self.overlay == "help":
            self.overlay = None
            return
        if self.overlay is not None:
            yes, no = hud.confirm_buttons(layout)
            if yes.collidepoint(pos) or no.collidepoint(pos):
                self._answer(yes.collidepoint(pos))
            return
        if self.replay and not c.state.is_terminal():
            return
        if c.state.is_terminal():
            if hud.end_screen_button(layout, c.config.n_players).collidepoint(pos):
                self.new_game()
            return
        if layout.die.collidepoint(pos):
            c.roll()
        elif layout.pass_button.collidepoint(pos) and c.prompt() == "play_or_pass":
            c.pass_turn()
        elif layout.inset.collidepoint(pos):
            sailor = self.inset.sailor_at(pos)
            if sailor is not None:
                c.choose_sailor(sailor)
        elif layout.scene.collidepoint(pos) and (c.prompt() == "place" or c.skip_intro()):
            if not c.held:
                self._aim_at(pos)
            c.release()

    # --- update and draw ----------------------------------------------------------

    def _update(self) -> None:
        size = self.surface.get_size()
        if size != self.layout.size:
            self.layout = compute_layout(size)
        c = self.controller
        if self.overlay is not None:
            return  # the game waits while a card is up
        if not self.replay:
            c.update()
            return
        if self.paused and self._step_from is None:
            return
        for _ in range(self.speed):
            c.update()
            if (self._step_from is not None and len(c.state.history()) > self._step_from and c.mode == "idle"
                    and c.view_settled()):  # a step ends with the view turned, never squeezed half-way
                self._step_from = None  # one recorded action done: paused again
                break
        if c.error:
            self.failure, self.running = c.error, False

    def _draw(self) -> None:
        self.view = self.render(self.surface)

    def render(self, surface: pygame.Surface) -> FrameView:
        """Draw the whole picture of the current frame onto ``surface``; what it showed."""
        layout, c = self.layout, self.controller
        view = FrameView.of(c, self.balance_hint() if self.hints else None)
        if c.mode != "aftermath":
            top = tower_top_m(view.world)
            if view.hanging is not None:
                top = max(top, view.hanging.y_m + view.hanging.spec.height_m / 2 - 0.07)
            self.scene.frame_camera(layout.scene, top)
        self.scene.draw(surface, layout.scene, view.world, slice_direction_rad=view.slice_direction_rad,
                        hanging=view.hanging, time_s=c.frame / FPS, view_rad=view.view_rad, squash=view.squash,
                        hint=view.hint_pose)
        hud.draw_top_bar(surface, layout, c)
        self.legend = hud.draw_panel(surface, layout, c, view.pulse, prompt=view.prompt)
        self.inset.draw(surface, layout.inset, c.turns(), barrels=c.deck_barrels(),
                        slice_direction_rad=view.slice_direction_rad, aim_xy=view.aim_xy,
                        choosing=view.prompt == "sailor", highlight=c.turning(), pulse=view.pulse,
                        view_rad=view.view_rad, hint_xy=view.advice.aim_xy if view.hint_pose is not None else None,
                        hint_sailor=_suggested_sailor(view.advice))
        c.die.draw(surface, layout.die, inviting=view.prompt in ("roll", "play_or_pass"), pulse=view.pulse)
        self._update_tip(view.prompt)
        self.tip_rect = hud.draw_tip(surface, layout, self.tip[1]) if self.tip is not None else None
        if self.replay:
            hud.draw_replay_banner(surface, layout, paused=self.paused and self._step_from is None, speed=self.speed)
        message = hud.draw_message(surface, layout, c)
        self.balance_rect = None
        if view.advice is not None and not (c.state.is_terminal() and c.mode == "idle"):
            self.balance_rect = hud.draw_balance(surface, layout, view.advice, message)
        if c.state.is_terminal() and c.mode == "idle" and c.wait == 0:
            hud.draw_end_screen(surface, layout, c, view.pulse)
        if self.overlay == "start":
            surface.blit(hud.veil(layout.size), (0, 0))
            self.start.draw(surface, layout, view.pulse)
        elif self.overlay == "help":
            draw_help(surface, layout, c.config, replay=self.replay, veil=hud.veil(layout.size),
                      seed=None if self.replay else c.seed)
        elif self.overlay is not None:
            hud.draw_confirm(surface, layout, *self.question(), view.pulse)
        return view

    def balance_hint(self) -> BalanceHint:
        """The balance hint (the bots' judgement), made the first time hints are shown."""
        if self._balance is None or self._balance.judge.params is not self.controller.params:
            self._balance = BalanceHint(self.controller.params)
        return self._balance

    def _update_tip(self, prompt: str | None) -> None:
        """The first game's tips: each shown once, while the prompt it explains is up."""
        tip = None
        if self.tips and self.games == 0 and self.overlay is None:
            found = first_game_tip(prompt, self.controller.state, hints=self.hints)
            if found is not None and found[0] not in self._tips_seen:
                tip = found
        if self.tip is not None and (tip is None or tip[0] != self.tip[0]):
            self._tips_seen.add(self.tip[0])
        self.tip = tip


def _suggested_sailor(advice: Advice | None) -> str | None:
    """The sailor the balance hint suggests on a wild roll (ringed in the top view)."""
    if advice is None or not advice.wild:
        return None
    return advice.sailor
