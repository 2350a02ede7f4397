"""The window and its main loop: input, one frame of game and physics, drawing.

Each frame runs :meth:`ViewerApp._process_events` (keys, mouse, window), then
:meth:`ViewerApp._update` (one frame of the game, which advances a running physics
decision by one 60 Hz frame = 16 fixed substeps at the default 960 Hz), then :meth:`ViewerApp._draw`. On a real
display the loop is held to 60 frames per second; headless it runs as fast as it can,
and since all timing is counted in frames the game plays out the same either way.

The keys are the key table's (:mod:`viewer.keys`: a game's, or a replay's with ``replay=True``);
:meth:`ViewerApp.act` says what each does. Mouse: click the die to roll, a sailor in the inset to
choose it, the scene to let go, the Menu button for what else a key does (:mod:`viewer.menu`).
Over the game the app keeps a stack of cards (:mod:`viewer.card`: the start screen, the
how-to-play card, a yes/no question, the menu); the top one takes the input, and the
game waits while any is up. What a frame shows is read off the controller once
(:class:`viewer.frame.FrameView`) and handed to the drawers.

The window speaks one :class:`kipp.language.Language` (:attr:`ViewerApp.language`): every game's
controller makes its messages in it, and the frame's view hands it to every drawer and card.
The start screen's language field changes it at once (:meth:`ViewerApp.set_language`).
"""

from __future__ import annotations

import math
import os
import time
import warnings
from typing import Callable

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (after silencing pygame's banner)

from kipp.language import Language  # noqa: E402
from sim.params import SCREWS  # noqa: E402
from viewer import hud  # noqa: E402
from viewer.balance_hint import Advice, BalanceHint  # noqa: E402
from viewer.card import Card  # noqa: E402
from viewer.controller import GameController  # noqa: E402
from viewer.die import DieView  # noqa: E402
from viewer.end_screen import draw_end_screen, end_screen_button  # noqa: E402
from viewer.frame import FPS, FrameView  # noqa: E402
from viewer.geometry import tower_top_m  # noqa: E402
from viewer.help import HelpCard  # noqa: E402
from viewer.inset import InsetView  # noqa: E402
from viewer.keys import KEYS, REPLAY_KEYS, Act, Press, find  # noqa: E402
from viewer.layout import MIN_SIZE, Layout, compute_layout  # noqa: E402
from viewer.menu import MenuCard, aim_again_button, draw_controls, menu_button  # noqa: E402
from viewer.modes import Mode, Prompt  # noqa: E402
from viewer.playback import Playback  # noqa: E402
from viewer.question import Question, QuestionCard  # noqa: E402
from viewer.recorder import GameRecorder, Recordings  # noqa: E402
from viewer.scene import SceneView  # noqa: E402
from viewer.setup import GameSetup, save_setup  # noqa: E402
from viewer.sound import SoundBoard  # noqa: E402
from viewer.start import StartScreen  # noqa: E402
from viewer.tips import FirstGameTips  # noqa: E402
from viewer.widgets import veil  # noqa: E402

CAPTION = "Kipp, Kipp, Ahoi!"
ARROW_REPEAT_GAP_MS = 120
"""An arrow key coming again within this many ms is being held (the key repeat is every 35 ms)."""


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
                 start_screen: bool = False, mute: bool = False, record: str | None = None,
                 language: Language | None = None) -> None:
        pygame.display.init()
        pygame.font.init()
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(CAPTION)
        _set_minimum_size(MIN_SIZE)
        pygame.key.set_repeat(300, 35)
        self._new_controller = new_controller
        self.language = language or Language.from_environment()
        """The window's language (default: the system's locale)."""
        self.games = 0
        self.controller = new_controller(0)
        self.controller.language = self.language
        self.scene = SceneView(self.controller.params)
        self.inset = InsetView(self.controller.params)
        self.die = DieView()
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
        self.playback = Playback()
        """A replay's pause, step and speed."""
        self.cards: list[Card] = [HelpCard(replay=replay)] if help_at_start else []
        """The cards over the game, the top one last (it takes the input); the game waits while any is up."""
        self.failure: str | None = None
        """Why a replay stopped (an action the recording has that the game does not allow)."""
        self.tips = tips and not replay
        self.first_tips = FirstGameTips()
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
        self._started = not start_screen
        """Has a game been started (False while the launch's start screen is up)?"""
        self.recordings = Recordings(None if replay else record)
        """``--record FILE``: every game is recorded (:func:`viewer.recorder.numbered` files); R records one."""
        if self._started:
            self.recordings.next_game(self.controller)
        if start_screen and games is not None and setup is not None:
            self.open_start(after_game=False)  # over the how-to-play card, which follows it

    @property
    def card(self) -> Card | None:
        """The card on top (taking the input), or None."""
        return self.cards[-1] if self.cards else None

    @property
    def start(self) -> StartScreen | None:
        """The start screen, while it is the card on top."""
        return self.card if isinstance(self.card, StartScreen) else None

    @property
    def paused(self) -> bool:
        return self.playback.paused

    @property
    def speed(self) -> int:
        """Replay speed: game frames per drawn frame."""
        return self.playback.speed

    @property
    def tip(self) -> tuple[str, str] | None:
        """(key, text) of the first-game tip shown this frame."""
        return self.first_tips.tip

    @property
    def recorder(self) -> GameRecorder | None:
        """Writes the game being played to its file as it goes (None: not recording)."""
        return self.recordings.recorder

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
        self.recordings.stop()
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
        self.controller.language = self.language
        self.playback.restart()
        self.recordings.next_game(self.controller)

    def open_start(self, *, after_game: bool) -> None:
        """Show the start screen with the current set-up (``after_game``: Esc goes back)."""
        self.cards.append(StartScreen(self.setup, after_game=after_game, language=self.language))

    def set_language(self, language: Language) -> None:
        """Speak ``language`` from this frame on: the window, and the game behind the cards."""
        self.language = language
        self.controller.language = language

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
                if not self.cards:
                    self._aim_at(event.pos)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._click(event.pos)

    def _key(self, key: int, char: str = "", mod: int = 0) -> None:
        if self.cards:
            self._answer_top(self.cards[-1].key(key, char, mod))
            return
        press = find(REPLAY_KEYS if self.replay else KEYS, key, char)
        if press is not None:
            self.act(press, key)

    def _answer_top(self, act: Act | None) -> None:
        """The top card answered ``act`` to a key or a click; the start screen may have changed the language."""
        card = self.cards[-1]
        if isinstance(card, StartScreen) and card.language.code != self.language.code:
            self.set_language(card.language)
        self.answer(card, act)

    def answer(self, card: Card, act: Act | None) -> None:
        """``card`` (the top one) answered ``act``: it goes, and the answer is done."""
        if act is None:
            return
        self.cards.remove(card)
        match act:
            case Act.START:
                self.setup = card.setup
                save_setup(self.setup)
                self._new_controller = self._games(self.setup)
                self.hints = self.setup.hints
                self._next_game()
            case Act.LEAVE if not card.after_game:
                self.running = False
            case Act.YES if card.question is Question.QUIT:
                self.running = False
            case Act.YES if card.question is Question.NEW_GAME:
                self.new_game()
            case Act.QUIT if isinstance(card, MenuCard) and not self.controller.state.is_terminal():
                self.cards.append(QuestionCard(Question.QUIT, replay=self.replay))  # asked, even while a barrel is held
            case _ if isinstance(card, MenuCard) and act is not Act.CLOSE:
                self.act(Press(act, ()), 0)  # as its key does

    def act(self, press: Press, key: int) -> None:
        """Do what the key table's ``press`` (of pygame key code ``key``) asks, no card being up."""
        c = self.controller
        over = c.state.is_terminal()
        match press.act:
            case Act.HELP:
                self.cards.append(HelpCard(replay=self.replay))
            case Act.MUTE:
                self.sound.toggle_mute()
            case Act.QUIT if c.held:
                c.aim_again()
            case Act.QUIT if over:
                self.running = False
            case Act.QUIT:
                self.cards.append(QuestionCard(Question.QUIT, replay=self.replay))
            case Act.NEW_GAME if over:
                self.new_game()
            case Act.NEW_GAME:
                self.cards.append(QuestionCard(Question.NEW_GAME, replay=self.replay))
            case Act.HINTS:
                self.hints = not self.hints
            case Act.RECORD:
                c.message = self.recordings.record_now(c)
            case Act.ROLL:
                c.roll()
            case Act.PASS:
                c.pass_turn()
            case Act.SAILOR:
                c.choose_sailor(SCREWS[press.value - 1])
            case Act.RELEASE:
                c.release()
            case Act.AIM:
                # Left / right move the barrel that way on screen (the slice may be shown mirrored)
                steps = self._arrow_steps(key)
                right, up = press.value
                c.nudge_aim(right * (1 if c.view_squash() > 0 else -1) * steps, up * steps)
            case Act.AIM_AGAIN:
                c.aim_again()
            case Act.PAUSE | Act.STEP | Act.FASTER | Act.SLOWER | Act.SPEED:
                self.playback.act(press, len(c.state.history()))

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

    def _aim_at(self, pos: tuple[int, int]) -> None:
        """Put the hanging barrel under the mouse (horizontally), along the deck."""
        c = self.controller
        if c.prompt() is not Prompt.PLACE or not self.layout.scene.collidepoint(pos):
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
        if self.cards:
            self._answer_top(self.cards[-1].click(pos, layout))
            return
        if menu_button(layout).collidepoint(pos):
            self.cards.append(MenuCard(replay=self.replay))
            return
        if self.replay and not c.state.is_terminal():
            return
        if c.state.is_terminal():
            if end_screen_button(layout, c.config.n_players).collidepoint(pos):
                self.new_game()
            return
        if layout.die.collidepoint(pos):
            c.roll()
        elif layout.pass_button.collidepoint(pos) and c.prompt() is Prompt.PLAY_OR_PASS:
            c.pass_turn()
        elif aim_again_button(layout).collidepoint(pos) and c.held:
            c.aim_again()
        elif layout.inset.collidepoint(pos):
            sailor = self.inset.sailor_at(pos)
            if sailor is not None:
                c.choose_sailor(sailor)
        elif layout.scene.collidepoint(pos) and (c.prompt() is Prompt.PLACE or c.skip_intro()):
            if not c.held:
                self._aim_at(pos)
            c.release()

    # --- update and draw ----------------------------------------------------------

    def _update(self) -> None:
        size = self.surface.get_size()
        if size != self.layout.size:
            self.layout = compute_layout(size)
        c = self.controller
        if self.cards:
            return  # the game waits while a card is up
        if not self.replay:
            c.update()
            return
        if not self.playback.advance(c):
            return
        if c.error:
            self.failure, self.running = c.error, False

    def _draw(self) -> None:
        self.view = self.render(self.surface)

    def render(self, surface: pygame.Surface) -> FrameView:
        """Draw the whole picture of the current frame onto ``surface``; what it showed."""
        layout = self.layout
        view = FrameView.of(self.controller, self.balance_hint() if self.hints else None)
        if view.mode is not Mode.AFTERMATH:
            top = tower_top_m(view.world)
            if view.hanging is not None:
                top = max(top, view.hanging.y_m + view.hanging.spec.height_m / 2 - 0.07)
            self.scene.frame_camera(layout.scene, top)
        self.scene.draw(surface, layout.scene, view.world, slice_direction_rad=view.slice_direction_rad,
                        hanging=view.hanging, time_s=view.time_s, view_rad=view.view_rad, squash=view.squash,
                        hint=view.hint_pose, language=view.language)
        hud.draw_top_bar(surface, layout, view)
        self.legend = hud.draw_panel(surface, layout, view)
        self.inset.draw(surface, layout.inset, view.turns, barrels=view.deck_barrels,
                        slice_direction_rad=view.slice_direction_rad, aim_xy=view.aim_xy,
                        choosing=view.prompt is Prompt.SAILOR, highlight=view.turning, pulse=view.pulse,
                        view_rad=view.view_rad, hint_xy=view.advice.aim_xy if view.hint_pose is not None else None,
                        hint_sailor=_suggested_sailor(view.advice), language=view.language)
        self.die.draw(surface, layout.die, view.die, inviting=view.prompt in (Prompt.ROLL, Prompt.PLAY_OR_PASS),
                      pulse=view.pulse)
        self.first_tips.update(view.prompt, view.state, hints=self.hints,
                               showing=self.tips and self.games == 0 and not self.cards, language=view.language)
        self.tip_rect = hud.draw_tip(surface, layout, self.tip[1], view.language) if self.tip is not None else None
        if self.replay:
            hud.draw_replay_banner(surface, layout, paused=self.playback.holding, speed=self.playback.speed,
                                   language=view.language)
        message = hud.draw_message(surface, layout, view)
        self.balance_rect = None
        if view.advice is not None and not (view.state.is_terminal() and view.mode is Mode.IDLE):
            self.balance_rect = hud.draw_balance(surface, layout, view.advice, message, view.language)
        if view.prompt is Prompt.NEW_GAME:
            draw_end_screen(surface, layout, view)
        draw_controls(surface, layout, view)
        if self.cards:
            surface.blit(veil(layout.size), (0, 0))
            self.cards[-1].draw(surface, layout, view)
        return view

    def balance_hint(self) -> BalanceHint:
        """The balance hint (the bots' judgement), made the first time hints are shown."""
        if self._balance is None or self._balance.judge.params is not self.controller.params:
            self._balance = BalanceHint(self.controller.params)
        return self._balance


def _suggested_sailor(advice: Advice | None) -> str | None:
    """The sailor the balance hint suggests on a wild roll (ringed in the top view)."""
    if advice is None or not advice.wild:
        return None
    return advice.sailor
