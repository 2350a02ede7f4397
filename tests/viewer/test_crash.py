"""Every crash is seen: the barrels that fell are drawn falling, the way the referee says they fell.

Seeded bot games of every player model run in the viewer's controller with the physics
referee (round 1 of each, which is where most crashes of these seeds happen); for every
crash the barrels from the failing interface up must move in the side view (the world
poses the scene draws) and in the top view (the deck-frame positions the inset draws, or
sunk), before the next round is dealt. A crash the 2D world did not simulate (a fall across
its slice, decided by a closed form) must also be drawn falling toward the direction the
referee gave.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from kipp.players.models import MODELS, make_bot
from kipp.rules.config import GameConfig
from sim.referees.loop import LoopReferee
from sim.tower import Decision, FallenStack, Placement
from viewer.controller import GameController
from viewer.crash import afloat, crash_scene, deck_poses, direction_words, fall_words

MOVED_M = 0.02
"""A barrel that fell has moved at least this far (its own size is 18-36 mm) by the aftermath's end..."""
TURNED_RAD = math.radians(30)
"""... or turned over at least this much (the bottom barrel, held by the deck's recess, tips in place)."""
SHIFTED_M = 0.01
"""Seen from above, a barrel that moved has moved at least this far sideways (about 10 px in the top view)."""

GAMES = {"novice": (2, 3), "casual": (0, 3), "skilled": (0, 4), "expert": (0, 2), "learned": (0, 1),
         "captain": (0, 2)}
"""Seeds per player model: short first rounds that end in crashes, some across the slice."""


def _drawn(controller: GameController) -> tuple[list, dict]:
    """The side view's barrel poses (world x, y, m, angle rad) and the top view's (deck x, y, m, by barrel index;
    sunk barrels are left out of the top view)."""
    world = controller.display_world()
    side = [world.world_pose(i) for i in range(len(world.barrels))]
    top = dict(zip(afloat(world), ((p.x_m, p.y_m) for p in controller.deck_barrels())))
    return side, top


def _crashes_of_round_one(model: str, seed: int, params) -> list[tuple]:
    """Play round 1 of a two-bot game; for each crash: (fallen stack, side and top views at the
    aftermath's start and at its end, the status words at its end)."""
    config = GameConfig(players=("A", "B"))
    bots = {i: make_bot(model, name, params) for i, name in enumerate(config.players)}
    c = GameController(config, params, seed=seed, bots=bots)
    seen, start, frames = [], None, 0
    while not (c.state.last_round_end() is not None and c.mode == "idle"):
        before = c.mode
        c.update()
        frames += 1
        assert frames < 20_000, "round 1 did not end"
        if c.mode == "aftermath" and before != "aftermath":
            start = _drawn(c), c.state.last_decision.fallen
            assert c.message is None or c.message.title != "Kaboom!", "the headline waits for the fall"
            crash = next(e for e in reversed(c.state.events()) if e["event"] == "crash")
            assert crash["event"] == "crash" and c.chips_shown(crash["player"]) == \
                c.state.chips[crash["player"]] + crash["chips_returned"], "and so does the chip it costs"
            assert sum(c.chips_shown(p) for p in range(2)) + c.supply_shown() == 25
        if before == "aftermath" and c.mode == "aftermath" and c.wait == 1:
            (side0, top0), fallen = start
            seen.append((fallen, side0, top0, _drawn(c), c.fall))
    return seen


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_crash_is_drawn_falling(model, params):
    crashes = []
    for seed in GAMES[model]:
        crashes += _crashes_of_round_one(model, seed, params)
    assert crashes, f"{model}: the chosen seeds gave no crash to look at"
    for fallen, side0, top0, (side1, top1), words in crashes:
        assert fallen is not None and words
        for i in range(fallen.lowest, len(side0)):
            moved = math.dist(side0[i][:2], side1[i][:2])
            turned = abs(side1[i][2] - side0[i][2])
            assert moved >= MOVED_M or turned >= TURNED_RAD, f"{model}: barrel {i} of {fallen} stood (side view)"
            if i in top1 and moved >= MOVED_M:
                assert math.dist(top0[i], top1[i]) >= SHIFTED_M, f"{model}: barrel {i} stood in the top view"
        if not fallen.in_slice:  # the viewer's own animation: toward the referee's direction
            ux, uy = math.cos(fallen.direction_rad), math.sin(fallen.direction_rad)
            gone = [i for i in range(fallen.lowest, len(side0)) if i in top1 and i in top0]
            shift = sum((top1[i][0] - top0[i][0]) * ux + (top1[i][1] - top0[i][1]) * uy for i in gone)
            assert not gone or shift > 0, f"{model}: {fallen} was drawn falling the other way"


def test_a_fall_across_the_slice_is_played_in_its_own_plane(params):
    """A stack leaning to port while the slice runs bow-stern (so the 2D world cannot tip it):
    its upper three barrels' centre of mass lies 16 mm to port of the bottom barrel's centre,
    3 mm beyond its 13 mm top face. Rebuilt in the port-starboard plane, they leave the
    deck to port; the bottom one stays."""
    referee = LoopReferee(params)
    tower = referee.new_tower()
    for size in ("large", "medium", "medium", "small"):
        tower = referee.decide(tower, Placement(size, 0.0, 0.0), None).tower
    leaning = tuple(replace(b, y_m=y) for b, y in zip(tower.barrels, (0.0, 0.009, 0.018, 0.026)))
    tower = replace(tower, barrels=leaning, slice_direction_rad=0.0)
    port = math.pi / 2
    decision = Decision(True, tower, "place", "closed form", fallen=FallenStack(1, port, in_slice=False))
    scene = crash_scene(params, decision, None, 0.0)
    assert scene.slice_direction_rad == port
    before = deck_poses(scene.world, port)
    for _ in range(60):  # one second
        scene.advance_frame(16)
    after = deck_poses(scene.world, port)
    assert math.dist((before[0].x_m, before[0].y_m), (after[0].x_m, after[0].y_m)) < 0.003
    for b0, b1 in zip(before[1:], after[1:]):
        assert b1.y_m - b0.y_m > MOVED_M  # to port
        assert abs(b1.x_m - b0.x_m) < 0.001
    seen = scene.seen()
    assert seen.lowest == 1 and abs(seen.direction_rad - port) < 0.05, "what is seen: the top three, to port"
    assert fall_words(seen, 4) == "the top three barrels tipped over to port"


@pytest.mark.parametrize("lowest, barrels, direction, words", [
    (3, 7, math.pi / 2, "the top four barrels tipped over to port"),
    (0, 5, 0.0, "the whole tower fell over toward the bow"),
    (4, 5, -math.pi / 2, "the top barrel tipped over to starboard"),
    (2, 9, math.pi + 0.1, "the top seven barrels tipped over toward the stern"),
    (0, 1, 3 * math.pi / 4, "the barrel fell over toward the stern and port"),
])
def test_what_fell_in_family_words(lowest, barrels, direction, words):
    assert fall_words(FallenStack(lowest, direction, in_slice=False), barrels) == words


def test_direction_words_name_the_nearest_side():
    assert direction_words(-math.pi / 4) == "toward the bow and starboard"
    assert direction_words(math.radians(100)) == "to port"
