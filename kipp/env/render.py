"""Pictures of an environment's game with the viewer's own drawing (side view and top view).

pygame and :mod:`viewer` are imported here only inside :class:`TableRenderer`, when a picture
is first asked for, so that making and stepping an environment never loads them
(``tests/test_layering.py`` holds ``kipp.env`` to that).
"""

from __future__ import annotations

import os

import numpy as np

from sim.params import Params

SIZE_PX = (640, 400)
"""Width and height of a picture, pixels."""
RENDER_FPS = 4
"""Pictures per second of the ``human`` window: one per step, slow enough to follow."""
EXTRA_HINT = 'pip install "kipp-kipp-ahoi[env]"'


class TableRenderer:
    """Draws a :class:`kipp.rules.state.GameState` as the side view of its slice beside the top view.

    ``human``: into a window (opened on the first picture); otherwise off-screen, handing the
    picture back as a (height, width, 3) uint8 array.
    """

    def __init__(self, params: Params, human: bool) -> None:
        try:
            os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
            import pygame
        except ImportError as error:
            from gymnasium.error import DependencyNotInstalled

            raise DependencyNotInstalled(f"rendering needs pygame-ce ({error}); {EXTRA_HINT}") from None
        from viewer.inset import InsetView
        from viewer.scene import SceneView

        self._pygame = pygame
        self.params = params
        self.human = human
        self.scene = SceneView(params)
        self.inset = InsetView(params)
        pygame.font.init()
        if human:
            pygame.display.init()
            self.surface = pygame.display.set_mode(SIZE_PX)
            pygame.display.set_caption("Kipp, Kipp, Ahoi! (Gymnasium)")
            self.clock = pygame.time.Clock()
        else:
            self.surface = pygame.Surface(SIZE_PX)

    def draw(self, state, caption: str) -> np.ndarray | None:
        """Draw ``state`` with ``caption`` on top; the picture as an array (None in a window)."""
        pygame = self._pygame
        from sim.referees.loop import build_world
        from viewer import palette
        from viewer.orientation import fold, squash

        tower = state.tower
        width, height = self.surface.get_size()
        side = pygame.Rect(0, 0, width - height // 2, height)
        top = pygame.Rect(side.right, height // 4, height // 2, height // 2)
        self.surface.fill(palette.PANEL)
        world = build_world(self.params, tower, tower.slice_direction_rad)
        view = fold(tower.slice_direction_rad)
        self.scene.frame_camera(side, max((b.z_m for b in tower.barrels), default=0.0) + 0.03, instant=True)
        self.scene.draw(self.surface, side, world, slice_direction_rad=tower.slice_direction_rad,
                        view_rad=view, squash=squash(view, tower.slice_direction_rad))
        self.inset.draw(self.surface, top, state.turns_by_sailor(), barrels=tower.barrels,
                        slice_direction_rad=tower.slice_direction_rad, view_rad=view)
        self.surface.blit(palette.text(caption, 18, palette.INK), (8, 6))
        if self.human:
            pygame.event.pump()
            pygame.display.flip()
            self.clock.tick(RENDER_FPS)
            return None
        return np.transpose(pygame.surfarray.array3d(self.surface), (1, 0, 2)).copy()

    def close(self) -> None:
        if self.human:
            self._pygame.display.quit()
