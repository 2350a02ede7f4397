"""The window and its main loop: input, one frame of game and physics, drawing.

Each frame runs :meth:`ViewerApp._process_events` (keys, mouse, window), then
:meth:`ViewerApp._update` (one frame of the game, which advances a running physics
decision by one 60 Hz frame = 8 fixed substeps), then :meth:`ViewerApp._draw`. On a real
display the loop is held to 60 frames per second; headless it runs as fast as it can,
and since all timing is counted in frames the game plays out the same either way.

Keys: Space roll - P pass - 1/2/3 sailor - arrows aim - Enter let go - N new game - Esc quit.
Mouse: click the die to roll, a sailor in the inset to choose it, the scene to let go.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from typing import Callable

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402  (after silencing pygame's banner)

from sim.params import SCREWS  # noqa: E402
from sim.world import TowerWorld  # noqa: E402
from viewer import hud  # noqa: E402
from viewer.controller import GameController  # noqa: E402
from viewer.inset import InsetView  # noqa: E402
from viewer.layout import Layout, compute_layout  # noqa: E402
from viewer.scene import Hanging, SceneView, tower_top_m  # noqa: E402

FPS = 60
CAPTION = "Kipp, Kipp, Ahoi!"


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

    @classmethod
    def of(cls, c: GameController) -> "FrameView":
        hanging = c.hanging()
        return cls(world=c.display_world(), prompt=c.prompt(), hanging=hanging,
                   aim_xy=c.aim_xy() if hanging is not None else None,
                   slice_direction_rad=c.slice_direction(), pulse=(c.frame % FPS) / FPS)


class ViewerApp:
    """A window showing one game at a time; ``new_controller(games_started)`` makes each game."""

    def __init__(self, new_controller: Callable[[int], GameController], *,
                 size: tuple[int, int] = (1280, 800), throttle: bool = True) -> None:
        pygame.display.init()
        pygame.font.init()
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(CAPTION)
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
                elif unattended and self.view.prompt is not None:
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
        self._draw()
        pygame.display.flip()
        self.frame_ms.append((time.perf_counter() - start) * 1000.0)
        self.frames += 1

    def close(self) -> None:
        pygame.display.quit()

    def new_game(self) -> None:
        self.games += 1
        self.controller = self._new_controller(self.games)

    # --- input --------------------------------------------------------------------

    def _process_events(self) -> None:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self.surface = pygame.display.get_surface()
            elif event.type == pygame.KEYDOWN:
                self._key(event.key)
            elif event.type == pygame.MOUSEMOTION:
                self._aim_at(event.pos)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self._click(event.pos)

    def _key(self, key: int) -> None:
        c = self.controller
        if key == pygame.K_ESCAPE:
            self.running = False
        elif key == pygame.K_n:
            self.new_game()
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
            along = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(key, 0)
            across = {pygame.K_UP: 1, pygame.K_DOWN: -1}.get(key, 0)
            c.nudge_aim(along, across)

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
        elif layout.scene.collidepoint(pos) and c.prompt() == "place":
            self._aim_at(pos)
            c.release()

    # --- update and draw ----------------------------------------------------------

    def _update(self) -> None:
        size = self.surface.get_size()
        if size != self.layout.size:
            self.layout = compute_layout(size)
        self.controller.update()

    def _draw(self) -> None:
        self.view = self.render(self.surface)

    def render(self, surface: pygame.Surface) -> FrameView:
        """Draw the whole picture of the current frame onto ``surface``; what it showed."""
        layout, c = self.layout, self.controller
        view = FrameView.of(c)
        if c.mode != "aftermath":
            top = tower_top_m(view.world)
            if view.hanging is not None:
                top = max(top, view.hanging.y_m + view.hanging.spec.height_m / 2 - 0.07)
            self.scene.frame_camera(layout.scene, top)
        self.scene.draw(surface, layout.scene, view.world, slice_direction_rad=view.slice_direction_rad,
                        hanging=view.hanging, time_s=c.frame / FPS)
        hud.draw_top_bar(surface, layout, c)
        hud.draw_panel(surface, layout, c, view.pulse, prompt=view.prompt)
        self.inset.draw(surface, layout.inset, c.turns(), barrels=c.state.tower.barrels,
                        slice_direction_rad=view.slice_direction_rad, aim_xy=view.aim_xy,
                        choosing=view.prompt == "sailor", highlight=c.turning(), pulse=view.pulse)
        c.die.draw(surface, layout.die, inviting=view.prompt in ("roll", "play_or_pass"), pulse=view.pulse)
        hud.draw_message(surface, layout, c)
        if c.state.is_terminal() and c.mode == "idle":
            hud.draw_end_screen(surface, layout, c, view.pulse)
        return view
