"""What is drawn is where the physics and the rules say: pixels on off-screen surfaces."""

from __future__ import annotations

import math

import pygame
import pytest

from sim.referees.loop import LoopReferee
from sim.tower import Placement, Turn
from viewer.die import DieView
from viewer.die_roll import DieRoll
from viewer.geometry import tower_top_m
from viewer.inset import InsetView, format_turns, pennant_direction
from viewer.layout import compute_layout
from viewer.palette import SAILOR_CAPS, barrel_rgb
from viewer.scene import SceneView


@pytest.fixture(scope="module")
def tilting_run():
    """A three-barrel tower while the red sailor turns (the deck moving), halfway through."""
    pygame.font.init()
    referee = LoopReferee()
    tower = referee.new_tower()
    for size in ("large", "medium", "small"):
        tower = referee.decide(tower, Placement(size, 0.0, 0.0), None).tower
    run = referee.start(tower, None, Turn("red", 1.0))
    for _ in range(30):
        assert run.advance_frame() is None
    assert run.phase == "turn" and run.world.deck_moving
    return run


def near(colour, expected, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(colour[:3], expected))


def test_the_top_barrel_is_drawn_where_its_body_is(tilting_run, params):
    world = tilting_run.world
    surface = pygame.Surface((800, 700))
    rect = surface.get_rect()
    scene = SceneView(params)
    scene.frame_camera(rect, tower_top_m(world), instant=True)
    scene.draw(surface, rect, world, slice_direction_rad=0.0)
    x, y, angle = world.world_pose(2)
    spec = world.barrels[2].spec
    fill = barrel_rgb(spec.colour)
    centre = scene.camera.to_screen(x, y)
    assert near(surface.get_at((round(centre[0]), round(centre[1]))), fill)
    # a fifth of the height up and down its own axis is still barrel (between the hoops); beyond its top, sky
    for fraction, inside in ((0.2, True), (-0.2, True), (0.8, False)):
        px, py = scene.camera.to_screen(x - math.sin(angle) * spec.height_m * fraction,
                                        y + math.cos(angle) * spec.height_m * fraction)
        colour = surface.get_at((round(px), round(py)))
        assert near(colour, fill, 40) == inside, (fraction, colour)
    # the deck is tilted in the picture as it is in the world
    assert abs(world.deck.angle) > 0.005


def test_scene_follows_the_physics_from_frame_to_frame(params):
    referee = LoopReferee()
    run = referee.start(referee.new_tower(), Placement("medium", 0.0, 0.0), None)
    surface = pygame.Surface((600, 600))
    scene = SceneView(params)
    heights = []
    for _ in range(3):  # the barrel falls its 1 mm drop onto the deck
        scene.frame_camera(surface.get_rect(), 0.1, instant=True)
        scene.draw(surface, surface.get_rect(), run.world, slice_direction_rad=0.0)
        x, y, _ = run.world.world_pose(0)
        px, py = scene.camera.to_screen(x, y)
        assert near(surface.get_at((round(px), round(py))), barrel_rgb("orange"))
        heights.append(y)
        run.advance_frame()
    assert heights[0] > heights[-1]


@pytest.mark.parametrize("turns", [0.0, 0.25, 0.5, 1.75, 2.5])
def test_pennant_points_at_the_fraction_of_the_turn_count(params, turns):
    surface = pygame.Surface((400, 400))
    inset = InsetView(params)
    inset.draw(surface, surface.get_rect(), {"red": turns, "yellow": 0.0, "blue": 0.0})
    direction = pennant_direction(params, "red", turns)
    expected = math.atan2(0.0, 1.0) - 2 * math.pi * (turns % 1.0)
    assert math.cos(direction - expected) == pytest.approx(1.0)
    sx, sy = inset.to_screen(*params.ship.screw_xy("red"))
    radius = inset.sailor_radius_px()
    # along the pennant, past the cap: red flag; on the opposite side: not
    dx, dy = -math.sin(direction), -math.cos(direction)  # deck direction -> screen (bow up, port left)
    side = (-dy, dx)  # the flag flies to this side of its staff
    along, off = radius * 1.25, radius * 0.2
    tip = surface.get_at((round(sx + dx * along + side[0] * off), round(sy + dy * along + side[1] * off)))
    back = surface.get_at((round(sx - dx * along + side[0] * off), round(sy - dy * along + side[1] * off)))
    assert near(tip, SAILOR_CAPS["red"]) and not near(back, SAILOR_CAPS["red"])


def test_half_turns_point_the_pennant_the_other_way(params):
    zero = pennant_direction(params, "yellow", 0.0)
    half = pennant_direction(params, "yellow", 0.5)
    assert math.cos(half - zero) == pytest.approx(-1.0)
    assert pennant_direction(params, "yellow", 3.0) == pytest.approx(zero)
    assert format_turns(1.5) == "1.5" and format_turns(2.0) == "2"


@pytest.mark.parametrize("face", ["red", "yellow", "blue"])
def test_the_die_lands_on_the_drawn_face(face):
    pygame.font.init()
    die = DieRoll(("red", "red", "yellow", "yellow", "blue", "wild"))
    die.start_roll(face)
    shown = set()
    while die.rolling:
        shown.add(die.shown)
        die.update()
    assert face not in shown and len(shown) >= 2, "the tumble shows other faces on the way"
    surface = pygame.Surface((120, 120))
    DieView().draw(surface, surface.get_rect(), die)
    assert die.shown == face
    assert near(surface.get_at((20, 60)), SAILOR_CAPS[face])  # on the face, between its rim and its symbol


def test_the_wild_face_is_its_own_symbol():
    die = DieRoll(("red", "yellow", "blue", "wild"))
    die.start_roll("wild", frames=0)
    surface = pygame.Surface((120, 120))
    DieView().draw(surface, surface.get_rect(), die)
    r = 0.36 * 116 * 0.7
    for name, degrees in (("red", 150), ("yellow", 270), ("blue", 30)):
        px = 60 + r * math.cos(math.radians(degrees))
        py = 60 - r * math.sin(math.radians(degrees))
        assert near(surface.get_at((round(px), round(py))), SAILOR_CAPS[name]), name


@pytest.mark.parametrize("size", [(640, 400), (1280, 800), (1920, 1080), (900, 900)])
def test_layout_scales_and_keeps_text_readable(size):
    layout = compute_layout(size)
    window = pygame.Rect(0, 0, *layout.size)
    for rect in (layout.top_bar, layout.scene, layout.panel, layout.inset, layout.die, layout.pass_button,
                 layout.players):
        assert window.contains(rect), rect
    assert not layout.scene.colliderect(layout.panel)
    assert layout.font_px(10) >= 12
