"""The balance hint (issue 13: ``kipp play --hints``, B toggles it), driven through real pygame events:
off by default, B draws it, ``--hints`` starts with it; the mark is where the bots' balance
judgement would set the barrel (projected into the slice, mirrored or not), uphill of the
coming tilt; it is worked out once per placement; the gauge colours its margin."""

from __future__ import annotations

import math
from dataclasses import replace

import pygame
import pytest
from click.testing import CliRunner

from kipp.cli import main
from kipp.players.balance import BalanceJudge
from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from sim.geometry import deck_gradient, downhill_direction
from sim.params import SCREWS
from sim.tower import BarrelPose, TowerState
from sim.world import CM_PER_M
from viewer import hud, palette
from viewer.balance_hint import AMBER_DEG, GREEN_DEG, Advice, gauge_text, level_of
from viewer.controller import GameController
from viewer.geometry import hang_pose
from viewer.help import rules
from viewer.keys import KEYS

from .test_play_by_events import LINE_12, press, run_until, scripted_chance


def hint_pixels(surface, rect=None) -> int:
    """How many pixels (in ``rect``) have the hint's colour, which nothing else uses."""
    if rect is not None:
        surface = surface.subsurface(rect.clip(surface.get_rect()))
    mask = pygame.mask.from_threshold(surface, palette.HINT, (2, 2, 2, 255))
    return mask.count()


def standing_tower(params, sizes, turns) -> TowerState:
    """A centred stack of ``sizes`` on the recess floor, the deck turned by ``turns``, sliced downhill."""
    z = -params.ship.recess_depth_m
    poses = []
    for size in sizes:
        h = params.barrel(size).height_m
        poses.append(BarrelPose(size, 0.0, 0.0, z + h / 2))
        z += h
    slope = downhill_direction(deck_gradient(params.ship, dict(zip(SCREWS, turns))))
    return TowerState(turns=turns, slice_direction_rad=slope if slope is not None else 0.0, barrels=tuple(poses))


def app_with_tower(make_app, scripted_referee, params, tower, faces, players=("Ann",)):
    """An app whose first round starts on ``tower`` (the scripted referee stacks on it)."""

    class Referee(scripted_referee):
        def new_tower(self):
            return tower

    config = GameConfig(players=players)
    return make_app(lambda games: GameController(config, params, referee=Referee(),
                                                 chance=scripted_chance(LINE_12, faces)))


def expected_target(app):
    """Where the hint's target should be on screen: BalanceJudge.aim for this state, projected
    into the slice as the scene projects barrels (the camera mirrors it when the view does)."""
    c = app.controller
    state = c.state
    sailors = list(SCREWS) if state.face == "wild" else [state.face]
    size = state.next_barrel()
    x, y, sailor, margin = BalanceJudge(c.params).aim(state.tower, size, sailors, state.config.fraction)
    d = state.tower.slice_direction_rad
    spec = c.params.barrel(size)
    px, py, angle = hang_pose(c.display_world(), spec, x * math.cos(d) + y * math.sin(d), 0.0)
    bottom = (px + spec.height_m / 2 * math.sin(angle), py - spec.height_m / 2 * math.cos(angle))
    return (x, y), sailor, margin, app.scene.camera.to_screen(*bottom)


def test_off_by_default_b_draws_the_hint_and_b_takes_it_away(make_app, params, scripted_referee):
    tower = standing_tower(params, ["large", "medium", "small"], (1.0, 0.0, 0.0))
    app = app_with_tower(make_app, scripted_referee, params, tower, ["red", "blue"])
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    app.step()
    assert not app.hints and app.view.advice is None and app.scene.hint_mark is None
    assert hint_pixels(app.surface) == 0, "off by default: not a purple pixel anywhere"

    press(app, pygame.K_b)
    assert app.hints
    (x, y), sailor, margin, target = expected_target(app)
    advice = app.view.advice
    assert advice.kind == "place" and advice.aim_xy == (x, y) and advice.sailor == "red"
    assert advice.margin_rad == margin
    assert app.scene.hint_mark == pytest.approx(target, abs=1e-6)
    assert tuple(app.surface.get_at([round(v) for v in target]))[:3] == palette.HINT
    around = pygame.Rect(0, 0, 80, 160)
    around.midbottom = (round(target[0]), round(target[1]) + 20)
    assert hint_pixels(app.surface, around) > 40, "the ghost outline and the target"
    inset_aim = app.inset.to_screen(x, y)
    assert tuple(app.surface.get_at([round(v) for v in inset_aim]))[:3] == palette.HINT, "the top view's cross"
    assert app.layout.scene.contains(app.balance_rect) and hint_pixels(app.surface, app.balance_rect) > 0

    press(app, pygame.K_b)
    assert not app.hints and app.scene.hint_mark is None and hint_pixels(app.surface) == 0
    press(app, pygame.K_b)

    # let go; the next roll is blue: nothing to place, the gauge judges the tower as it stands
    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: len(c.state.history()) >= 4 and c.mode == "idle")
    app.step()
    assert c.state.history()[-1].face == "blue" and c.state.placed == 1
    assert app.scene.hint_mark is None
    assert app.view.advice.kind == "tower"
    judge = BalanceJudge(params)
    assert app.view.advice.margin_rad == judge.standing_margin(c.state.tower)


@pytest.mark.parametrize("turns, face", [((1.0, 0.0, 0.0), "red"), ((0.0, 1.0, 1.0), "yellow")],
                         ids=["bow-up-mirrored", "stern-up"])
def test_the_mark_is_the_bots_aim_uphill_of_the_coming_tilt(make_app, params, scripted_referee, turns, face):
    tower = standing_tower(params, ["large", "medium", "small", "large"], turns)
    app = app_with_tower(make_app, scripted_referee, params, tower, [face], players=("Ann", "Ben"))
    app.hints = True
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    app.step()
    advice = app.view.advice
    bot = Bot("Cy", aim="balance", params=params)
    assert advice.aim_xy == pytest.approx(bot.balance_aim_m(c.state), abs=1e-12), "the bots' own judgement"

    judge = BalanceJudge(params)
    gx, gy = judge.gradient_after(c.state.tower, face, c.state.config.fraction)
    top_x, top_y = c.state.tower.top_xy()
    shift = (advice.aim_xy[0] - top_x, advice.aim_xy[1] - top_y)
    assert (shift[0] * gx + shift[1] * gy) / math.hypot(gx, gy) > 0.001, "uphill of the coming tilt"

    # on screen: beside the top face's centre on the side the deck will rise (the bow is on the right)
    mirrored = c.view_squash() < 0
    assert mirrored == (turns == (1.0, 0.0, 0.0)), "a bow-up deck slices sternward: shown mirrored"
    world = c.display_world()
    top = world.barrels[-1]
    face_centre = app.scene.camera.to_screen(*(top.body.local_to_world((0.0, top.spec.height_m / 2 * CM_PER_M))
                                               / CM_PER_M))
    mark_x = app.scene.hint_mark[0]
    d = c.state.tower.slice_direction_rad
    uphill_along = gx * math.cos(d) + gy * math.sin(d)
    assert (mark_x - face_centre[0]) * uphill_along * c.view_squash() > 0
    if turns == (1.0, 0.0, 0.0):
        assert mark_x > face_centre[0] + 3, "red raises the bow further: the mark toward the bow, on the right"
    assert app.scene.hint_mark == pytest.approx(expected_target(app)[3], abs=1e-6)


def test_a_wild_roll_aims_and_picks_the_sailor_together_and_rings_it(make_app, params, scripted_referee):
    tower = standing_tower(params, ["large", "medium", "small"], (0.0, 1.0, 0.0))
    app = app_with_tower(make_app, scripted_referee, params, tower, ["wild"])
    app.hints = True
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    app.step()
    advice = app.view.advice
    x, y, sailor, _ = BalanceJudge(params).aim(c.state.tower, c.state.next_barrel(), SCREWS, 1.0)
    assert advice.wild and advice.sailor == sailor and advice.aim_xy == (x, y)
    joint = Bot("Cy", aim="balance", wild="joint", params=params)
    assert advice.aim_xy == pytest.approx(joint.balance_aim_m(c.state), abs=1e-12)
    assert gauge_text(advice)[1].endswith(f"then turn {sailor}")
    centre = app.inset.to_screen(*params.ship.screw_xy(sailor))
    side = round(app.inset.sailor_radius_px() * 4.2)
    box = pygame.Rect(0, 0, side, side)
    box.center = (round(centre[0]), round(centre[1]))
    assert hint_pixels(app.surface, box) > 3 * side, "the suggested sailor ringed in the top view"
    others = [s for s in SCREWS if s != sailor]
    for other in others:
        box.center = [round(v) for v in app.inset.to_screen(*params.ship.screw_xy(other))]
        assert hint_pixels(app.surface, box) == 0

    press(app, pygame.K_RETURN)
    run_until(app, lambda: c.prompt() == "sailor")
    app.step()
    assert app.view.advice.kind == "sailor"
    assert app.view.advice.sailor == BalanceJudge(params).best_sailor(c.state.tower, SCREWS, 1.0)


def test_the_aim_is_worked_out_once_per_placement(make_app, params, scripted_referee):
    tower = standing_tower(params, ["large", "medium"], (1.0, 0.0, 0.0))
    app = app_with_tower(make_app, scripted_referee, params, tower, ["red"])
    press(app, pygame.K_b)
    hint = app.balance_hint()
    calls = []
    aim = hint.judge.aim
    hint.judge.aim = lambda *args: calls.append(args) or aim(*args)
    c = app.controller
    run_until(app, lambda: c.prompt() == "roll")
    press(app, pygame.K_SPACE)
    run_until(app, lambda: c.prompt() == "place")
    scene = app.layout.scene
    for k in range(60):  # the mouse moves the barrel every frame; the hint stays put
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(scene.centerx + k - 30, scene.centery),
                                             rel=(1, 0), buttons=(0, 0, 0)))
        app.step()
    assert len(calls) == 1 and app.scene.hint_mark is not None


def test_play_hints_starts_with_the_hint_on(tmp_path):
    shots = {}
    for flag in ([], ["--hints"]):
        out = tmp_path / f"shot{len(flag)}.png"
        result = CliRunner().invoke(main, ["play", "--players", "You", *flag, "--max-frames", "40",
                                           "--screenshot", str(out)])
        assert result.exit_code == 0, result.output
        shots[bool(flag)] = hint_pixels(pygame.image.load(str(out)))
    assert shots[False] == 0 and shots[True] > 100, shots
    assert "--hints" in CliRunner().invoke(main, ["play", "--help"]).output


def test_the_key_legend_and_the_help_card_name_b(params):
    assert ("B", "balance hint on / off") in [(row.label, row.words) for row in KEYS]
    assert "B shows the balance hint" in " ".join(text for _, text in rules(GameConfig()))


def test_the_gauge_is_green_amber_red_as_shown():
    assert level_of(math.radians(GREEN_DEG)) == "good" and level_of(math.inf) == "good"
    assert level_of(math.radians(AMBER_DEG - 0.04)) == "close", "1.46 deg shows as 1.5: amber, as it reads"
    assert level_of(math.radians(AMBER_DEG - 0.2)) == "tipping" and level_of(-0.01) == "tipping"
    assert hud.LEVEL_COLOURS[level_of(math.radians(2.0))] == palette.AMBER
    advice = Advice("place", math.radians(1.84), (0.001, 0.0), "small", "red")
    assert gauge_text(advice)[0] == "Balance: 1.8\u00b0 to spare"
    assert gauge_text(replace(advice, kind="tower"))[0] == "Tower: 1.8\u00b0 from tipping"
