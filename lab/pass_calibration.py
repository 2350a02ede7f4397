"""Is a bot's own crash estimate calibrated against the referee? The check behind the pass rule.

The ``risk`` pass rule (:meth:`kipp.players.bots.Bot.wants_to_pass`) passes when the bot's
estimate ``p`` that its coming turn crashes exceeds :func:`~kipp.players.bots.pass_threshold`
(0.4 at two players). The estimate is the bot's model of
balance (the static check with ``turn_allowance_deg`` of tilt to spare after the turn, its
placement error propagated through it), never the referee's verdict. Whether the rule pays
depends on how well ``p`` matches how often the referee's towers really fall. This module
measures it: a bot of the model (never passing) plays rounds of the standard game with the
referee; at the start of every turn its estimate is taken for each allowance of a grid, and
the turn's outcome (crashed or not) is recorded. Per allowance the report gives the mean
estimate against the crash rate, the Brier score, and the crash rate among the turns the
rule would pass in a two-player game (it pays only if that rate is above the threshold too).

Run: ``python -m lab.pass_calibration --model skilled --rounds 200 --referee physics``
(streams ``("holdout", k, ...)``: rounds independent of the sweeps').
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

import numpy as np

from kipp.analysis.executor import run_with_progress
from kipp.analysis.export import write_json
from kipp.analysis.rounds import next_action, round_streams
from kipp.players.bots import pass_threshold
from kipp.players.models import make_bot
from kipp.rules.actions import Shuffle
from kipp.rules.config import GameConfig
from kipp.rules.state import GameState
from sim.params import load_params
from sim.referees import shared_referee
from sim.seeds import stream

ALLOWANCES_DEG = (-1.0, -0.5, -0.25, 0.0, 0.25, 0.5)
"""The turn allowances tried, degrees of tilt to spare after the turn (0.25: the bots' default)."""
_TWO_SEA_DOGS = GameConfig(players=("A", "B"), sea_dogs=True)
TWO_PLAYER_THRESHOLD = pass_threshold(len(_TWO_SEA_DOGS.players), _TWO_SEA_DOGS.crash_penalty)
"""Where the ``risk`` rule passes in a two-player Old Sea Dogs game (0.4)."""


def turns_of_round(model: str, referee: str, seed: int, k: int, allowances=ALLOWANCES_DEG) -> list[tuple]:
    """Round ``k``: per turn, (the bot's estimate for each allowance, 1 if the turn crashed)."""
    params = load_params()
    ref = shared_referee(referee, params)
    bot = replace(make_bot(model, "Sailor", params), passing="never")
    judges = [replace(bot, turn_allowance_deg=a) for a in allowances]
    config = GameConfig(players=("Sailor",))
    die_rng, place_rng, wild_rng = round_streams(seed, k, "holdout")
    order = tuple(str(s) for s in stream(seed, "holdout", k, "shuffle").permutation(list(config.barrel_set())))
    state = GameState(config, ref, params.ship)
    state.apply_action(Shuffle(order))
    out, pending = [], None
    while state.chance_kind() != "shuffle" and not state.is_terminal():
        if state.chance_kind() == "roll":
            pending = [j.crash_probability(state) for j in judges]
        events = len(state.events())
        state.apply_action(next_action(state, bot, die_rng, place_rng, wild_rng))
        new = [e["event"] for e in state.events()[events:]]
        if pending is not None and ("crash" in new or "round_end" in new or "turn" in new):
            out.append((pending, int("crash" in new)))
            pending = None
    return out


def report(turns: list[tuple], allowances=ALLOWANCES_DEG) -> dict:
    """Per allowance: mean estimate, crash rate, Brier score, and the turns the rule would pass."""
    p = np.array([t[0] for t in turns], dtype=float)
    crashed = np.array([t[1] for t in turns], dtype=float)
    out = {"turns": len(turns), "crash_rate": float(crashed.mean()), "allowances": {}}
    for i, a in enumerate(allowances):
        passes = p[:, i] > TWO_PLAYER_THRESHOLD
        out["allowances"][str(a)] = {
            "mean_estimate": float(p[:, i].mean()), "brier": float(np.mean((p[:, i] - crashed) ** 2)),
            "would_pass": int(passes.sum()),
            "crash_rate_when_passing": float(crashed[passes].mean()) if passes.any() else None,
            "crash_rate_when_playing": float(crashed[~passes].mean()) if (~passes).any() else None}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pass_calibration", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="skilled")
    parser.add_argument("--referee", default="physics")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    turns: list[tuple] = []

    def record(result) -> int:
        turns.extend(result)
        return 1

    run_with_progress(turns_of_round, ((args.model, args.referee, args.seed, k) for k in range(args.rounds)), record,
                      workers=args.workers, total=args.rounds, unit="round", desc="rounds")
    result = {"model": args.model, "referee": args.referee, "rounds": args.rounds, **report(turns),
              "allowances_deg": list(ALLOWANCES_DEG), "per_turn": sorted(turns)}
    print(f"{args.model}, referee {args.referee}: {result['turns']} turns, crash rate {result['crash_rate']:.3f}")
    for a, r in result["allowances"].items():
        print(f"  allowance {a:>5} deg: mean estimate {r['mean_estimate']:.3f}, Brier {r['brier']:.4f}, would pass "
              f"{r['would_pass']} turns, crash rate there {r['crash_rate_when_passing']}, "
              f"elsewhere {r['crash_rate_when_playing']}")
    if args.json:
        write_json(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
