"""Train the ``learned`` player: CMA-ES over the 20 weights of its aim policy, on the Gymnasium environment.

Each candidate policy (:class:`kipp.players.learned.LearnedAim`) plays ``--rounds`` practice
rounds (one player, ``episode="round"``, a ``--hand-mm`` hand, the ``--referee``) of
``kipp/KippKippAhoi-v0``. Common random numbers: in generation g every candidate plays the
rounds of the same seeds (``derived_seed(seed, "game", g, k)``), so the die, the lines and the
hand's errors are the same for all of them and their differences are the policies'. The
fitness is the environment's reward per round (chips: +2 for a completed tower, -1 for a
crash, so 3 P(complete) - 1) plus a quarter of the share of the line stacked, which credits
taller towers while few rounds are completed. CMA-ES (the ``cma`` package; its normal draws
from a generator of ``--seed``, never numpy's global state) runs until ``--generations`` or
``--minutes`` of wall time, whichever comes first. Its final mean is the policy; it then
plays ``--holdout`` rounds of seeds of their own beside the untrained policy (the centre
aim, all weights 0), and the policy, the training curve and these figures are written to
``--out`` (default: the shipped ``kipp/players/data/learned.json``).

``--versus MODELS`` trains nothing: the ``learned`` player model plays ``--games`` two-player
games against each model named, every game twice with the seats swapped (the same seeds:
``derived_seed(seed, "game", g)``, as ``kipp compare``'s game g), and the chips and wins it
takes from them are printed with 95% intervals over the pairs of games. ``--practice N``
adds practice rounds: every model named, and ``learned``, plays round k of N random orders
(``kipp tune``'s round: the same die rolls and standard-normal hand errors for every model,
each scaled by its hand), and the share completed and barrels stacked are printed with 95%
intervals.

    python -m lab.train_player --minutes 15 --plot learned_training.png
    python -m lab.train_player --versus casual,skilled,expert --games 200
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import numpy as np

from kipp.analysis.stats import mean_interval, wilson_interval
from kipp.players.learned import DEFAULT_PATH, SCALARS, VECTORS, LearnedAim
from sim.referees import referee_names
from sim.seeds import derived_seed, stream

STACKED_WEIGHT = 0.25
"""Weight of the share of the line stacked in the fitness (see the module docstring)."""


@dataclass(frozen=True)
class Score:
    """A policy's results over a set of rounds."""

    rounds: int
    completed: int
    reward: float
    """Mean reward (chips) per round."""
    stacked_share: float
    """Mean share of the line standing at the round's end."""

    @property
    def fitness(self) -> float:
        return self.reward + STACKED_WEIGHT * self.stacked_share


def make_env(referee: str, hand_mm: float, barrels: int):
    import gymnasium

    import kipp.env

    return gymnasium.make(kipp.env.ENV_ID, players=1, episode="round", referee=referee, sigma_mm=hand_mm,
                          barrels=barrels).unwrapped


def play(env, policy: LearnedAim, seeds) -> Score:
    """``policy`` over one practice round per seed."""
    completed, reward, stacked = 0, 0.0, 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, r, done, _, info = env.step(policy.action(obs))
            reward += r
        end = info["round_end"]
        completed += bool(end["completed"])
        stacked += end["stacked"] / env.config.barrels
    n = len(seeds)
    return Score(n, completed, reward / n, stacked / n)


def train(*, generations: int, minutes: float, population: int, rounds: int, seed: int, sigma0: float,
          referee: str, hand_mm: float, barrels: int, progress: bool = True) -> tuple[LearnedAim, list[dict]]:
    """CMA-ES from the centre aim (all weights 0); the final mean policy and the curve, one row per generation."""
    import cma
    from tqdm import tqdm

    env = make_env(referee, hand_mm, barrels)
    rng = stream(seed, "training")
    dims = len(VECTORS) * len(SCALARS)
    es = cma.CMAEvolutionStrategy(np.zeros(dims), sigma0, {
        "popsize": population, "seed": math.nan, "verbose": -9,
        "randn": lambda lam, n: rng.standard_normal((lam, n))})
    curve, start = [], time.monotonic()
    bar = tqdm(total=generations, desc="generations", unit="gen", disable=not progress, file=sys.stderr)
    for g in range(generations):
        seeds = [derived_seed(seed, "game", g, k) for k in range(rounds)]
        candidates = es.ask()
        scores = [play(env, LearnedAim.from_flat(x), seeds) for x in candidates]
        es.tell(candidates, [-s.fitness for s in scores])
        fitness = np.array([s.fitness for s in scores])
        best = scores[int(np.argmax(fitness))]
        curve.append({"generation": g + 1, "elapsed_s": round(time.monotonic() - start, 1),
                      "best_fitness": round(float(fitness.max()), 4),
                      "median_fitness": round(float(np.median(fitness)), 4),
                      "best_completion": round(best.completed / rounds, 4), "sigma": round(float(es.sigma), 5)})
        bar.update()
        bar.set_postfix(best=f"{fitness.max():.3f}", median=f"{np.median(fitness):.3f}")
        if time.monotonic() - start > minutes * 60:
            break
    bar.close()
    return LearnedAim.from_flat(es.result.xfavorite), curve


def holdout(policy: LearnedAim, *, rounds: int, seed: int, referee: str, hand_mm: float, barrels: int) -> dict:
    """``policy`` and the centre aim on the same ``rounds`` rounds of seeds no generation played."""
    env = make_env(referee, hand_mm, barrels)
    seeds = [derived_seed(seed, "holdout", k) for k in range(rounds)]
    out = {}
    for name, p in (("learned", policy), ("centre aim", LearnedAim(np.zeros((len(VECTORS), len(SCALARS)))))):
        score = play(env, p, seeds)
        low, high = wilson_interval(score.completed, rounds)
        out[name] = {"completion": round(score.completed / rounds, 4), "completion_95": [round(low, 4), round(high, 4)],
                     "reward": round(score.reward, 4), "stacked_share": round(score.stacked_share, 4)}
    return out


def versus(opponent: str, *, games: int, seed: int, referee: str) -> dict:
    """``learned`` against ``opponent``: per pair of games (seats swapped, same seed), the learned
    player's chips minus the opponent's and its share of the wins; (mean, low, high) each."""
    from kipp.players.models import make_bot
    from kipp.rules.config import GameConfig
    from kipp.rules.play import play_game
    from sim.params import load_params
    from sim.referees import make_referee

    params = load_params()
    ref = make_referee(referee, params)
    config = GameConfig(players=("A", "B"))
    bots = {m: make_bot(m, m, params) for m in ("learned", opponent)}
    chips, wins = [], []
    for g in range(games):
        game_seed = derived_seed(seed, "game", g)
        pair_chips = pair_wins = 0.0
        for seats in (("learned", opponent), (opponent, "learned")):
            state = play_game(config, ref, [bots[m] for m in seats], game_seed, params=params)
            mine = seats.index("learned")
            pair_chips += state.chips[mine] - state.chips[1 - mine]
            pair_wins += state.returns()[mine]
        chips.append(pair_chips / 2)
        wins.append(pair_wins / 2)
    return {"chips": mean_interval(chips), "wins": mean_interval(wins)}


def practice(models: list[str], *, rounds: int, seed: int, referee: str) -> dict:
    """Per model: (completed, rounds) and (mean, low, high) barrels stacked over round k of order k,
    k < ``rounds`` (common random numbers across models)."""
    from kipp.analysis.orders import sample_orders
    from kipp.analysis.rounds import RoundModel, play_round
    from sim.params import load_params
    from sim.referees import make_referee

    params = load_params()
    ref = make_referee(referee, params)
    orders = sample_orders(rounds, 12, seed)
    out = {}
    for name in models:
        model = RoundModel(player=name)
        bot, config = model.bot(params), model.config()
        results = [play_round(order, ref, bot, config, seed, k) for k, order in enumerate(orders)]
        out[name] = {"completed": sum(r.completed for r in results), "rounds": rounds,
                     "stacked": mean_interval([r.stacked for r in results])}
    return out


def plot_curve(curve: list[dict], path: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    g = [row["generation"] for row in curve]
    ax.plot(g, [row["best_fitness"] for row in curve], label="best candidate")
    ax.plot(g, [row["median_fitness"] for row in curve], label="median candidate")
    ax.set_xlabel("generation")
    ax.set_ylabel(f"fitness: chips per round + {STACKED_WEIGHT} x share stacked")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.train_player", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=int, default=400, help="at most this many generations")
    parser.add_argument("--minutes", type=float, default=15.0, help="stop after the generation that passes this "
                        "much wall time")
    parser.add_argument("--population", type=int, default=12, help="candidates per generation")
    parser.add_argument("--rounds", type=int, default=300, help="practice rounds per candidate per generation")
    parser.add_argument("--holdout", type=int, default=2000, help="rounds of the final comparison")
    parser.add_argument("--sigma0", type=float, default=0.5, help="CMA-ES's initial step size (weights)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--referee", default="fast", choices=referee_names())
    parser.add_argument("--hand-mm", type=float, default=1.0, help="the learner's placement error per axis, mm")
    parser.add_argument("--barrels", type=int, default=12, choices=(12, 9))
    parser.add_argument("--out", default=str(DEFAULT_PATH), help="where to write the policy (JSON)")
    parser.add_argument("--plot", default=None, metavar="FILE.png", help="the training curve")
    parser.add_argument("--versus", default=None, metavar="MODELS",
                        help="train nothing: play the learned model against these models (comma-separated)")
    parser.add_argument("--games", type=int, default=200, help="with --versus: game pairs per opponent")
    parser.add_argument("--practice", type=int, default=0, metavar="N",
                        help="with --versus: also N practice rounds of every model")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.versus:
        from kipp.players.models import MODELS

        unknown = [m for m in args.versus.split(",") if m not in MODELS]
        if unknown:
            parser.error(f"--versus: unknown player model {unknown[0]!r}; known: {', '.join(MODELS)}")
        for opponent in args.versus.split(","):
            r = versus(opponent, games=args.games, seed=args.seed, referee=args.referee)
            (c, cl, ch), (w, wl, wh) = r["chips"], r["wins"]
            print(f"learned against {opponent}, {args.games} games x 2 seatings, {args.referee} referee, seed "
                  f"{args.seed}: chips {c:+.2f} [{cl:+.2f}, {ch:+.2f}] per game, share of wins {w:.3f} "
                  f"[{wl:.3f}, {wh:.3f}]")
        if args.practice:
            models = ["learned"] + [m for m in args.versus.split(",") if m != "learned"]
            for name, r in practice(models, rounds=args.practice, seed=args.seed, referee=args.referee).items():
                low, high = wilson_interval(r["completed"], r["rounds"])
                s, sl, sh = r["stacked"]
                print(f"{name}: {r['rounds']} practice rounds, {args.referee} referee: completes "
                      f"{r['completed'] / r['rounds']:.1%} [{low:.1%}, {high:.1%}], "
                      f"stacks {s:.2f} [{sl:.2f}, {sh:.2f}]")
        return 0
    for name in ("generations", "population", "rounds", "holdout"):
        if getattr(args, name) < 1 or (name == "population" and args.population < 2):
            parser.error(f"--{name} must be at least {2 if name == 'population' else 1}")
    setup = {"referee": args.referee, "hand_mm": args.hand_mm, "barrels": args.barrels}
    cpu, wall = time.process_time(), time.monotonic()
    policy, curve = train(generations=args.generations, minutes=args.minutes, population=args.population,
                          rounds=args.rounds, seed=args.seed, sigma0=args.sigma0, progress=not args.no_progress,
                          **setup)
    training = {"method": "CMA-ES (cma), common random numbers within each generation", "seed": args.seed,
                "population": args.population, "rounds_per_candidate": args.rounds, "generations": len(curve),
                "sigma0": args.sigma0, **setup, "episode": "one practice round, one player",
                "fitness": f"reward per round + {STACKED_WEIGHT} x share of the line stacked",
                "wall_s": round(time.monotonic() - wall, 1), "cpu_s": round(time.process_time() - cpu, 1)}
    result = holdout(policy, rounds=args.holdout, seed=args.seed, **setup)
    training["holdout"] = {"rounds": args.holdout, **result}
    training["curve"] = curve
    LearnedAim(policy.weights, training).save(args.out)
    print(f"{len(curve)} generations x {args.population} candidates x {args.rounds} rounds in "
          f"{training['wall_s']:.0f} s wall, {training['cpu_s']:.0f} s CPU; policy written to {args.out}")
    for name, r in result.items():
        low, high = r["completion_95"]
        print(f"  {name}: completes {r['completion']:.1%} [{low:.1%}, {high:.1%}] of {args.holdout} held-out rounds, "
              f"{r['reward']:+.3f} chips per round, {r['stacked_share']:.1%} of the line stacked")
    if args.plot:
        plot_curve(curve, args.plot, f"learned player (CMA-ES, population {args.population}, {args.rounds} rounds "
                   f"per candidate),\n{args.referee} referee, {args.hand_mm:g} mm hand, {args.barrels} barrels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
