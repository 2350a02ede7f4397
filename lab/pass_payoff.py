"""Does a pass rule pay in Old Sea Dogs? A passer against a never-passer, seats swapped.

Game ``g`` is played twice from the same seed (:func:`kipp.analysis.compare.game_seed`): once
with the passer in seat 1 and the never-passer in seat 2, once the other way round. The two
bots are the same player model but for their pass rule, so the paired difference of their
final chips (passer minus never-passer, averaged over both seatings) measures the rule
alone, with the luck of the die shared.

Run: ``python -m lab.pass_payoff --model skilled --games 100 --referee physics``.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from kipp.analysis.compare import game_seed
from kipp.analysis.executor import open_executor, run_tasks
from kipp.analysis.stats import mean_interval
from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from sim.params import Params, load_params


def _game(model: str, referee_name: str, params: Params, seed: int, g: int) -> tuple[int, float, float]:
    """Game ``g`` in both seatings: (g, passer's chips - never-passer's, passer won - never-passer won)."""
    from sim.referees import shared_referee

    referee = shared_referee(referee_name, params)
    passer = make_bot(model, "passer", params)
    never = replace(make_bot(model, "never", params), passing="never")
    chips = wins = 0.0
    for seats in ((passer, never), (never, passer)):
        config = GameConfig(players=tuple(b.name for b in seats), sea_dogs=True)
        state = play_game(config, referee, list(seats), game_seed(seed, g), params=params)
        mine = [b.name for b in seats].index("passer")
        chips += state.chips[mine] - state.chips[1 - mine]
        winners = state.winners()
        wins += (mine in winners) - ((1 - mine) in winners)
    return g, chips / 2, wins / 2


def measure(model: str, games: int, referee_name: str, seed: int = 3, workers: int = 1,
            params: Params | None = None) -> dict:
    """The paired chip and win differences (passer minus never-passer) with 95% t intervals."""
    params = params if params is not None else load_params()
    results: dict[int, tuple[float, float]] = {}
    with open_executor(workers) as executor:
        run_tasks(executor, _game, ((model, referee_name, params, seed, g) for g in range(games)),
                  max_in_flight=2 * workers, on_result=lambda r: results.__setitem__(r[0], r[1:]))
    chips = [results[g][0] for g in range(games)]
    wins = [results[g][1] for g in range(games)]
    return {"model": model, "games": games, "referee": referee_name, "chips": mean_interval(chips),
            "wins": mean_interval(wins)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.pass_payoff", description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="skilled")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--referee", default="physics")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    r = measure(args.model, args.games, args.referee, args.seed, args.workers)
    (c, cl, ch), (w, wl, wh) = r["chips"], r["wins"]
    print(f"{args.model}, its pass rule against never passing, Old Sea Dogs, {args.games} games x 2 seatings, "
          f"referee {args.referee}: chips {c:+.2f} [{cl:+.2f}, {ch:+.2f}] per game, "
          f"wins {w:+.3f} [{wl:+.3f}, {wh:+.3f}] (passer minus never-passer)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
