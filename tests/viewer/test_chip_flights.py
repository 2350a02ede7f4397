"""Chips fly both ways, and what the window shows always adds up to the game's 25 chips.

A completed tower's chips fly from the supply to the players; a crash's cost and a pass's
chip fly from the player's pile back to the supply. The piles and the supply the window shows
(:class:`viewer.frame.FrameView`'s ``chips`` and ``supply``) count a chip where it left until it
arrives: checked here frame by frame against the rules engine's own counts (the chips before
the move until the chip has been seen in the air, the rules' counts after), with the game's
chips conserved (players + supply = 25) at every frame. A crash's chips leave only once its
headline is up (the barrels are seen to fall first), one after the other.

People play through the controller's input methods; the die is scripted (always red) and so
is the referee (no physics: a barrel stands unless the test says it crashes).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from kipp.rules.actions import Roll, Shuffle
from kipp.rules.config import GameConfig
from sim.tower import FallenStack
from viewer.controller import GameController
from viewer.frame import FrameView

LINE = ("large", "medium", "small") * 4


def red_die(state):
    return Shuffle(LINE) if state.chance_kind() == "shuffle" else Roll("red")


def falling(referee_class):
    """A scripted referee whose crashes say what fell (across the slice), so the viewer shows the fall."""

    class Falling(referee_class):
        def decide(self, tower, placement, turn):
            decision = super().decide(tower, placement, turn)
            return replace(decision, fallen=FallenStack(0, 0.0, in_slice=False)) if decision.crashed else decision
    return Falling


@dataclass(frozen=True)
class Shown:
    """One frame as the window shows it."""

    frame: int
    chips: tuple[int, ...]
    supply: int
    headline: str | None
    mode: str
    flying: tuple[tuple[int, bool, int], ...]
    """(player, to the supply, frame it left) of each chip seen in the air (drawn: 0 < progress < 1)."""

    def moving(self, player: int, to_supply: bool) -> set[int]:
        """The chips (by the frame they left) in the air between ``player`` and the supply, that way."""
        return {start for p, way, start in self.flying if (p, way) == (player, to_supply)}


class Watch:
    """Steps a controller and keeps what every frame showed; checks the chips add up at each."""

    def __init__(self, controller: GameController) -> None:
        self.c = controller
        self.frames: list[Shown] = []

    def until(self, condition, limit: int = 3000) -> None:
        for _ in range(limit):
            if condition():
                return
            self.step()
        raise AssertionError(f"not reached in {limit} frames: {self.c.state}, mode {self.c.mode}")

    def step(self) -> None:
        """One frame, and what it showed."""
        self.c.update()
        view = FrameView.of(self.c)
        shown = Shown(view.frame, view.chips, view.supply, view.message.title if view.message else None,
                      view.mode, tuple((f.player, f.to_supply, f.start) for f in view.flights
                                       if 0.0 < f.progress(view.frame) < 1.0))
        total = self.c.config.total_chips
        assert sum(shown.chips) + shown.supply == total, f"frame {shown.frame}: {shown} is not {total} chips"
        assert min(shown.chips) >= 0 and shown.supply >= 0
        self.frames.append(shown)

    def settle(self) -> None:
        """Until nothing flies and nobody waits (a person's prompt, or the end)."""
        self.until(lambda: not self.c.flights and self.c.mode == "idle" and self.c.wait == 0)

    def since(self, index: int) -> list[Shown]:
        return self.frames[index:]


def place_a_barrel(watch: Watch) -> None:
    c = watch.c
    watch.until(lambda: c.prompt() == "roll")
    assert c.roll()
    watch.until(lambda: c.prompt() == "place")
    assert c.release()


def chip_moves(frames: list[Shown], player: int) -> list[tuple[int, int]]:
    """(frame, change) wherever ``player``'s shown pile changed from one frame to the next."""
    return [(b.frame, b.chips[player] - a.chips[player]) for a, b in zip(frames, frames[1:])
            if b.chips[player] != a.chips[player]]


def assert_each_chip_seen_flying_first(frames: list[Shown], player: int, to_supply: bool) -> None:
    """Every change of ``player``'s pile comes after a chip of that move was drawn in the air
    (and the supply changes the other way in the same frame)."""
    by_frame = {s.frame: k for k, s in enumerate(frames)}
    for frame, change in chip_moves(frames, player):
        assert change == (-1 if to_supply else 1), f"one chip at a time (frame {frame}: {change:+d})"
        k = by_frame[frame]
        assert frames[k].supply - frames[k - 1].supply == -change
        assert frames[k - 1].moving(player, to_supply) - frames[k].moving(player, to_supply), \
            f"frame {frame}: the pile changed before a chip arrived"


def chips_seen_flying(frames: list[Shown], player: int, to_supply: bool) -> int:
    return len(set().union(*(s.moving(player, to_supply) for s in frames)))


@pytest.mark.parametrize("falls", [True, False], ids=["fall shown", "no fall to show"])
@pytest.mark.parametrize("sea_dogs", [False, True], ids=["standard", "Old Sea Dogs"])
def test_a_crash_sends_its_chips_back_to_the_supply(params, scripted_referee, sea_dogs, falls):
    config = GameConfig(players=("Ann", "Ben"), sea_dogs=sea_dogs)
    referee = (falling(scripted_referee) if falls else scripted_referee)(crash_at={1})
    c = GameController(config, params, referee=referee, chance=red_die)
    watch = Watch(c)
    before = list(c.state.chips)
    place_a_barrel(watch)  # Ann's first barrel crashes
    start = len(watch.frames)
    watch.until(lambda: any(e["event"] == "crash" for e in c.state.events()))
    crash = next(e for e in c.state.events() if e["event"] == "crash")
    assert crash["player"] == 0 and crash["chips_returned"] == config.crash_penalty == (2 if sea_dogs else 1)
    watch.settle()
    frames = watch.since(start)

    moves = chip_moves(frames, 0)
    assert [change for _, change in moves] == [-1] * crash["chips_returned"], "each chip arrives on its own"
    assert len({frame for frame, _ in moves}) == len(moves), "staggered: not two at once"
    assert_each_chip_seen_flying_first(frames, 0, to_supply=True)
    assert chips_seen_flying(frames, 0, to_supply=True) == crash["chips_returned"]
    assert not chips_seen_flying(frames, 0, to_supply=False)
    if falls:  # the pile holds the cost until the headline says what happened
        assert any(s.mode == "aftermath" for s in frames), "the fall was shown"
        headline = next(k for k, s in enumerate(frames) if s.headline == "Kaboom!")
        assert all(s.chips == tuple(before) for s in frames[:headline + 1])
        assert all(not s.flying for s in frames[:headline])
    assert frames[-1].chips == tuple(c.state.chips) == (before[0] - crash["chips_returned"], before[1])
    assert frames[-1].supply == c.state.supply


def test_old_sea_dogs_takes_what_a_player_has_left(params, scripted_referee):
    """A crash costs 2 chips in Old Sea Dogs, or the one the player still has, or none."""
    config = GameConfig(players=("Ann",), sea_dogs=True)
    c = GameController(config, params, referee=falling(scripted_referee)(crash_at={1, 2, 3}), chance=red_die)
    watch = Watch(c)
    for expected in (2, 1, 0):  # 3 chips -> 1 -> 0 -> 0
        held = c.state.chips[0]
        place_a_barrel(watch)
        start = len(watch.frames)
        watch.settle()
        crash = [e for e in c.state.events() if e["event"] == "crash"][-1]
        assert crash["chips_returned"] == expected == min(2, held)
        frames = watch.since(start)
        assert [change for _, change in chip_moves(frames, 0)] == [-1] * expected
        assert_each_chip_seen_flying_first(frames, 0, to_supply=True)
        assert chips_seen_flying(frames, 0, to_supply=True) == expected, "a chip seen in the air for each chip paid"
        assert frames[-1].chips == (held - expected,) == tuple(c.state.chips)


def test_a_pass_pays_its_chip_to_the_supply_and_the_next_player_gets_it_back(params, scripted_referee):
    config = GameConfig(players=("Ann", "Ben"), sea_dogs=True)
    c = GameController(config, params, referee=scripted_referee(), chance=red_die)
    watch = Watch(c)
    place_a_barrel(watch)  # Ann's barrel stands: Ben may pass
    watch.until(lambda: c.prompt() == "play_or_pass")
    assert c.state.player == 1
    start = len(watch.frames)
    assert c.pass_turn()
    assert c.state.chips == [3, 2] and c.state.supply == 20, "the rules move the chip at once"
    watch.step()
    watch.until(lambda: c.prompt() == "roll")  # Ann's turn (she may not pass now)
    watch.settle()
    paid = watch.since(start)
    assert paid[0].chips == (3, 3), "the chip is still on Ben's pile as it leaves"
    assert [change for _, change in chip_moves(paid, 1)] == [-1] and chips_seen_flying(paid, 1, to_supply=True) == 1
    assert_each_chip_seen_flying_first(paid, 1, to_supply=True)
    assert paid[-1].chips == (3, 2) and paid[-1].supply == 20

    start = len(watch.frames)
    place_a_barrel(watch)  # Ann's barrel stands: she gets the passed chip
    watch.until(lambda: any(e["event"] == "award" for e in c.state.events()))
    watch.settle()
    award = next(e for e in c.state.events() if e["event"] == "award")
    assert (award["player"], award["chips"], award["reason"]) == (0, 1, "pass")
    back = watch.since(start)
    assert [change for _, change in chip_moves(back, 0)] == [1]
    assert_each_chip_seen_flying_first(back, 0, to_supply=False)
    assert back[-1].chips == (4, 2) == tuple(c.state.chips) and back[-1].supply == 19


@pytest.mark.parametrize("sea_dogs", [False, True], ids=["standard", "Old Sea Dogs"])
def test_a_physics_crash_of_bots_shows_its_chips_flying_back(params, sea_dogs):
    """The same with the physics referee and a seeded bots' game, to the end of its first crash."""
    from kipp.players.models import make_bot

    config = GameConfig(players=("A", "B"), sea_dogs=sea_dogs)
    c = GameController(config, params, seed=0, bots={i: make_bot("casual", n, params) for i, n in enumerate("AB")})
    watch = Watch(c)
    watch.until(lambda: any(e["event"] == "crash" for e in c.state.events()), limit=20_000)
    crash = next(e for e in c.state.events() if e["event"] == "crash")
    crasher, returned = crash["player"], crash["chips_returned"]
    assert returned == min(config.crash_penalty, watch.frames[-1].chips[crasher])
    start = len(watch.frames)
    watch.until(lambda: c.mode == "idle" and not c.flights)
    frames = watch.since(start)
    assert any(s.mode == "aftermath" for s in frames), "the physics showed the fall"
    headline = next(k for k, s in enumerate(frames) if s.headline == "Kaboom!")
    assert all(not s.moving(crasher, True) for s in frames[:headline])
    assert [change for _, change in chip_moves(frames, crasher)] == [-1] * returned
    assert chips_seen_flying(frames, crasher, to_supply=True) == returned
    assert_each_chip_seen_flying_first(frames, crasher, to_supply=True)
    assert frames[-1].chips[crasher] == c.state.chips[crasher]
