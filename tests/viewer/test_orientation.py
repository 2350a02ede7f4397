"""The side view keeps the bow on the right, names its ends, matches the top view and turns
visibly between slices; the tilt label of the top view stays clear and inside."""

from __future__ import annotations

import itertools
import math

import pygame
import pytest

from kipp.rules.config import GameConfig
from sim.referees.loop import build_world
from sim.tower import TowerState
from viewer import palette
from viewer.controller import GameController
from viewer.inset import InsetView
from viewer.orientation import ViewTurn, end_name, fold, squash, wrap
from viewer.scene import SceneView

from .test_play_by_events import LINE_12, press, run_until, scripted_chance


def near(colour, expected, tolerance=14):
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], expected))


def cap_pixels_x(surface, rect, colour):
    """Mean x of the pixels of a cap colour (or its paler self: a sailor behind the slice plane)."""
    pale = palette.shade(colour, 1.35)
    xs = [x for x in range(rect.left, rect.right, 2) for y in range(rect.top, rect.bottom, 2)
          if near(surface.get_at((x, y)), colour, 6) or near(surface.get_at((x, y)), pale, 6)]
    assert xs, f"no {colour} pixels drawn"
    return sum(xs) / len(xs)


@pytest.mark.parametrize("degrees", range(-180, 180, 15))
def test_the_view_looks_along_the_slice_with_the_top_views_right_end_on_the_right(degrees):
    d = math.radians(degrees)
    view = fold(d, None)
    assert abs(math.sin(view - d)) < 1e-9, "the view looks along the slice (or its opposite)"
    assert squash(view, d) == pytest.approx(math.cos(view - d))
    if abs(math.sin(d)) < math.sin(math.radians(15)):
        assert math.cos(view) > 0, "along the ship: the bow on the right"
    else:
        assert -math.sin(view) > 0, "screen-right is the end the top view shows on its right (starboard)"


@pytest.mark.parametrize("previous", [None, 0.0, math.pi, math.pi / 2, -math.pi / 2, 2.5])
def test_downhill_is_on_the_side_the_top_views_arrow_points_to(params, previous):
    """The top view's arrow points downhill; the side view's downhill end (the slice direction,
    shown on the right unless mirrored) is on the same side of the screen, for every slice more
    than 30 degrees off the ship's length (nearer, the arrow points up or down the top view)."""
    inset = InsetView(params)
    inset.rect = pygame.Rect(0, 0, 300, 300)
    for degrees in range(-180, 180, 5):
        d = math.radians(degrees)
        if abs(math.sin(d)) <= 0.5:
            continue
        view = fold(d, previous)
        arrow = inset.to_screen(0.05 * math.cos(d), 0.05 * math.sin(d))[0] - inset.to_screen(0.0, 0.0)[0]
        side = squash(view, d)  # downhill at +x of the slice: drawn right when positive
        assert (arrow > 0) == (side > 0), (degrees, previous)


def test_near_the_ships_length_the_view_keeps_its_side():
    almost_bow = math.radians(20)  # the bow end: slightly on the top view's left
    assert fold(almost_bow, None) == pytest.approx(wrap(almost_bow + math.pi))
    assert fold(almost_bow, 0.0) == pytest.approx(almost_bow), "kept: the bow was on the right"
    assert fold(math.radians(10), math.pi) == pytest.approx(math.radians(10)), "within 15 degrees: the bow"
    assert end_name(0.0) == "bow" and end_name(math.pi) == "stern" and end_name(math.pi / 2) == "port"
    assert end_name(-math.pi / 4) == "bow / starboard"


def test_a_view_turn_eases_from_the_old_view_to_the_new_one():
    turn = ViewTurn(0.0)
    turn.follow(math.radians(-120))  # the slice turns toward stern / starboard: its starboard end on the right
    assert turn.turning and turn.target == pytest.approx(math.radians(-120))
    angles = []
    while turn.turning:
        turn.step()
        angles.append(turn.rad)
    assert len(angles) == 12 + 20 and angles[-1] == pytest.approx(math.radians(-120))
    assert all(b <= a for a, b in zip(angles, angles[1:])), "it turns one way, without a jump"
    assert max(a - b for a, b in zip([0.0] + angles, angles)) < math.radians(6)


@pytest.mark.parametrize("degrees", [0, 40, 120, 180, -100, -150])
def test_the_bow_sailor_and_the_end_tags_are_where_the_view_says(params, degrees):
    d = math.radians(degrees)
    pygame.font.init()
    world = build_world(params, TowerState(slice_direction_rad=d), d)
    surface = pygame.Surface((900, 700))
    rect = surface.get_rect()
    scene = SceneView(params)
    scene.frame_camera(rect, 0.0, instant=True)
    view = fold(d)
    scene.draw(surface, rect, world, slice_direction_rad=d, view_rad=view, squash=squash(view, d))
    red_x = cap_pixels_x(surface, pygame.Rect(0, 0, 900, 650), palette.SAILOR_CAPS["red"])
    bow_right = math.cos(view) > 0  # the bow's side of the slice is drawn on the right
    assert (red_x > rect.centerx + 5) if bow_right else (red_x < rect.centerx - 5), "the red sailor at the bow"
    left, right = scene.end_tag_rects()
    assert left.left < rect.centerx < right.right and rect.contains(left) and rect.contains(right)
    # the right tag's marker is the white arrowhead, the left tag's the dark disc
    size = max(14, round(rect.height / 30)) * 0.9
    pad = max(4, max(14, round(rect.height / 30)) // 3)
    assert near(surface.get_at((round(right.right - pad - size / 2), right.centery)), palette.VIEW_RIGHT)
    assert near(surface.get_at((round(left.left + pad + size / 2), left.centery)), palette.VIEW_LEFT)


def test_the_top_view_marks_the_same_ends_on_its_slice_line(params):
    pygame.font.init()
    inset = InsetView(params)
    surface = pygame.Surface((360, 360))
    view = math.radians(50)
    inset.draw(surface, surface.get_rect(), {"red": 0.0, "yellow": 1.0, "blue": 0.0}, view_rad=view)
    left, right = inset.slice_ends
    reach = 0.118 * 0.9
    assert right == pytest.approx(inset.to_screen(reach * math.cos(view), reach * math.sin(view)))
    assert left == pytest.approx(inset.to_screen(-reach * math.cos(view), -reach * math.sin(view)))
    out = (right[0] - left[0], right[1] - left[1])
    norm = math.hypot(*out)
    inner = (right[0] - out[0] / norm * 4, right[1] - out[1] / norm * 4)  # inside the arrowhead
    assert near(surface.get_at((round(inner[0]), round(inner[1]))), palette.VIEW_RIGHT)
    assert near(surface.get_at((round(left[0]), round(left[1]))), palette.VIEW_LEFT)


@pytest.mark.parametrize("side", [260, 420])
def test_the_tilt_label_never_hides_a_sailor_or_leaves_the_inset(params, side):
    pygame.font.init()
    inset = InsetView(params)
    surface = pygame.Surface((side + 40, side + 40))
    rect = pygame.Rect(20, 20, side, side)
    steps = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
    checked = 0
    for red, yellow, blue in itertools.product(steps, steps, steps):
        turns = {"red": red, "yellow": yellow, "blue": blue}
        for view in (0.0, 1.0, -2.0):
            inset.draw(surface, rect, turns, view_rad=view)
            label = inset.tilt_label_rect
            assert rect.contains(label), (turns, label)
            for blocked in inset.obstacles(turns):
                assert not label.colliderect(blocked), (turns, view, label, blocked)
            checked += 1
    assert checked == 6 ** 3 * 3


def test_the_view_turns_before_the_deck_moves_and_arrows_follow_the_mirror(make_app, params):
    """Physics: red turns first (downhill toward the stern: the slice is shown mirrored, the bow
    still right); then yellow turns, so the slice changes and the view turns while the run waits."""
    config = GameConfig(players=("Ann", "Ben"))
    app = make_app(lambda games: GameController(config, params, chance=scripted_chance(LINE_12, ["red", "yellow"])))
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "roll")
    assert math.cos(c.slice_direction()) < -0.9, "red raised the bow: downhill is toward the stern"
    assert c.view_squash() < 0 and math.cos(c.view.rad) > 0.9, "mirrored, so the bow stays on the right"
    red_x = cap_pixels_x(app.surface, app.layout.scene, palette.SAILOR_CAPS["red"])
    assert red_x > app.layout.scene.centerx

    press(app, pygame.K_SPACE)  # Ben rolls yellow
    run_until(app, lambda: c.prompt() == "place")
    before = c.hanging().x_m
    screen_before = app.scene.camera.to_screen(before, 0.0)[0]
    press(app, pygame.K_RIGHT)
    press(app, pygame.K_RIGHT)
    after = c.hanging().x_m
    assert after < before, "in the mirrored picture Right moves toward the slice's uphill end..."
    assert app.scene.camera.to_screen(after, 0.0)[0] > screen_before, "...which is right on screen"
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.view.turning, limit=3000)
    assert c.run.phase == "turn"
    held = c.run.world.time_s
    for _ in range(6):
        app.step()
    assert c.view.turning and c.run.world.time_s == held, "the deck waits while the view turns"
    run_until(app, lambda: not c.view.turning)
    app.step()
    app.step()
    assert c.run is None or c.run.world.time_s > held
    assert c.view.rad == pytest.approx(fold(c.slice_direction(), c.view.rad))
