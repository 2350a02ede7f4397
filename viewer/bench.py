"""Frame times of the viewer with a moving 12-barrel tower, headless (DESIGN.md section 7).

Two perfect bots (no placement error, levelling the deck on every roll) build a whole
12-barrel tower on a die that always shows wild; every frame of the game is timed
(update + draw, without the wait for the next frame), and the frames in which a decision
is running with all 12 barrels on deck -- the tower placed, the sailor turning, the deck
tilting -- are reported separately. Run: ``python -m viewer.bench``.
"""

from __future__ import annotations

import os
import statistics

from kipp.players.bots import Bot
from kipp.rules.actions import Roll, Shuffle
from kipp.rules.config import GameConfig
from sim.params import Params, load_params

LINE = ("large", "medium", "small") * 4


def _summary(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"frames": len(ordered), "median_ms": statistics.median(ordered),
            "p99_ms": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], "max_ms": ordered[-1]}


def measure(params: Params | None = None, size: tuple[int, int] = (1280, 800), *, mute: bool = False) -> dict:
    """Frame-time summaries: ``all`` frames of the round, and ``tower12`` (12 barrels, physics running);
    with the game's sounds playing unless ``mute`` (on whatever audio device SDL opens: set
    ``SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=FILE`` to mix them for real without speakers)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from viewer.app import ViewerApp
    from viewer.controller import GameController
    from viewer.modes import Mode

    params = params if params is not None else load_params()
    config = GameConfig(players=("Ann", "Ben"))

    def chance(state):
        return Shuffle(LINE) if state.chance_kind() == "shuffle" else Roll("wild")

    bots = {i: Bot(name, sigma_mm=0.0, params=params) for i, name in enumerate(config.players)}
    app = ViewerApp(lambda games: GameController(config, params, bots=bots, chance=chance),
                    size=size, throttle=False, mute=mute)
    c = app.controller
    moving: list[float] = []
    try:
        while c.state.round == 1 and app.frames < 20000:
            app.step()
            world = c.display_world()
            if c.mode is Mode.DECIDING and len(world.barrels) == 12:
                moving.append(app.frame_ms[-1])
        stacked = c.state.placed if c.state.round == 1 else max(
            e.get("stacked", 0) for e in c.state.events() if e["event"] == "round_end")
    finally:
        app.close()
    return {"stacked": stacked, "all": _summary(app.frame_ms), "tower12": _summary(moving) if moving else None,
            "sound": app.sound.available and not mute, "sounds_played": len(app.sound.played)}


if __name__ == "__main__":
    for mute in (False, True):
        result = measure(mute=mute)
        sound = f"sound on ({result['sounds_played']} sounds played)" if result["sound"] else "sound off"
        print(f"{sound}: barrels stacked: {result['stacked']}")
        for name in ("all", "tower12"):
            s = result[name]
            if s is None:
                print(f"  {name}: no frames")
                continue
            print(f"  {name}: {s['frames']} frames, median {s['median_ms']:.2f} ms, p99 {s['p99_ms']:.2f} ms, "
                  f"max {s['max_ms']:.2f} ms")
