"""Benchmark situations for the physics referee and the CPU time of its decisions.

A situation is an 11-barrel tower standing on a level deck (stacked by the referee
itself, each barrel aimed at the top centre with Gaussian error), the 12th barrel to
place, and one full turn of a sailor: exactly the decision the game asks for most
often at the end of a round.
"""

from __future__ import annotations

import time

import numpy as np

from sim.referees.loop import LoopReferee
from sim.seeds import stream
from sim.tower import Placement, Situation, Turn


def turn_situations(referee: LoopReferee, count: int, seed: int = 0,
                    sigma_m: float = 0.0015) -> list[Situation]:
    """``count`` 12th-barrel situations from one root seed (towers that crashed while being
    stacked are skipped, so every situation has 11 barrels standing)."""
    sizes = [spec.name for spec in referee.params.barrels for _ in range(spec.count)]
    situations: list[Situation] = []
    for i in range(4 * count):
        if len(situations) == count:
            break
        rng = stream(seed, "turn situation", i)
        order = list(rng.permutation(sizes))
        tower = referee.new_tower()
        for size in order[:-1]:
            x, y = tower.top_xy()
            decision = referee.decide(tower, Placement(size, x + rng.normal(0, sigma_m),
                                                       y + rng.normal(0, sigma_m)), None)
            if decision.crashed:
                break
            tower = decision.tower
        else:
            x, y = tower.top_xy()
            placement = Placement(order[-1], x + rng.normal(0, sigma_m), y + rng.normal(0, sigma_m))
            sailor = str(rng.choice(["red", "yellow", "blue"]))
            situations.append(Situation(tower, placement, Turn(sailor, 1.0)))
    return situations


def time_decisions(referee: LoopReferee, situations: list[Situation]) -> tuple[np.ndarray, list]:
    """CPU seconds of each decision (``time.process_time``) and the decisions."""
    times, decisions = [], []
    for situation in situations:
        start = time.process_time()
        decisions.append(referee.decide(situation.tower, situation.placement, situation.turn))
        times.append(time.process_time() - start)
    return np.array(times), decisions
