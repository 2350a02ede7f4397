"""Train the ``captain``: CMA-ES over its policy's weights, in paired games against itself and the other models.

The policy (:class:`kipp.players.captain.CaptainPolicy`: the aim, a wild roll's sailor, the pass)
plays with the expert's 0.5 mm hand. A candidate's fitness is the chips it takes from its
opponents: two-player games, each played twice from the same seed with the seats swapped, the
candidate's final chips minus the opponent's, averaged over the pairs and over the opponents
``--opponents`` (``self`` is a copy of the policy at the generation's start: the CMA-ES mean);
plus ``--aim-completion-weight`` times the share of rounds completed in the candidate's games
(two players, where the last barrel gives its placer one chip more than the other, chips alone
do not reward a tower that stands: the weight asks for towers as well as chips).
Common random numbers: in generation g every candidate plays the games of the same seeds
(``derived_seed(seed, "training", stage, "game", g, k)``, stage 0 or 1), so the die, the lines and the hands' errors
are the same for all of them and their differences are the policies'.

Two stages, because the pass is the costly part to play (each pass decision estimates the
coming turn's crash at every face of the die, about 25 times a standard game's cost):

1. ``aim``: the aim and the wild choice, standard games, from the policy's starting point
   (:meth:`~kipp.players.captain.CaptainPolicy.starting_point`: half the balance aim, half the
   ``learned`` aim, the leveler's choice); the pass weights stay zero. It fits five numbers
   (:data:`AIM_TERMS`): the weight of the balance aim and of the whole ``learned`` aim (its 20
   weights scaled together, so the aim stays a blend of two aims that each stack well), and the
   three wild weights. Five numbers rather than the 27 weights: whole physics games give a
   fitness too noisy for CMA-ES to place 27 weights in the budget, and the ``learned`` aim's
   weights were already fitted for towers that stand.
2. ``pass``: the pass bar (4 weights), Old Sea Dogs, from the hand-written ``risk`` rule, with
   stage 1's aim and wild choice fixed. The shipped weights run it for no generation, so the
   captain passes by the ``risk`` rule. With ``--pass-generations 4`` (6 candidates on 4 seeds a
   generation) CMA-ES found a bar that passed far more rarely than the rule and paid less against a
   never-passing twin than the rule did (``python -m lab.captain_study --pass-rules captain,risk``
   on the weights it writes): physics games of Old Sea Dogs are too noisy for this budget.

Each stage runs its ``--generations`` (the budget; ``--minutes`` can cut a stage short, which
makes the result depend on the machine's speed, so the shipped weights are made without it); its
final mean is the result. CMA-ES's normal draws come from ``stream(seed, "training", stage)``
(never numpy's global state) and every candidate's games are played whole in one task, so the result
is the same for any ``--workers``. The policy and how it was trained (each stage's curve, the
wall and CPU time) are written to ``--out`` (default: the shipped ``kipp/players/data/captain.json``).

Why CMA-ES and not a gradient method: the search is 5 + 4 numbers and the fitness is a whole
game's chips, a sum of a few +-1 events with no gradient through the referee; CMA-ES needs only
the ranking of candidates, which common random numbers make far less noisy than the fitness
itself, and it needs nothing beyond numpy and ``cma``.

    python -m lab.train_selfplay --workers 2
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from dataclasses import dataclass, replace

import numpy as np

from kipp.players.captain import DEFAULT_PATH, PASS_TERMS, VECTORS, WILD_TERMS, CaptainPolicy
from kipp.players.learned import SCALARS, LearnedAim
from kipp.rules.config import ROUNDS
from sim.referees import referee_names
from sim.seeds import derived_seed, stream

SELF = "self"
"""The opponent name of the policy's own copy (the CMA-ES mean at the generation's start)."""
DEFAULT_OPPONENTS = ("casual", "skilled", "expert", "learned", SELF)
N_AIM = len(VECTORS) * len(SCALARS)
N_WILD = len(WILD_TERMS)
AIM_TERMS = ("balance_weight", "learned_weight", *WILD_TERMS)
"""The numbers the ``aim`` stage fits: the two aims' weights and the wild weights."""
AIM_STDS = (1.0, 1.0, 5.0, 1.0, 1.0)
"""Each aim-stage number's step in units of ``--aim-sigma0`` (a crash estimate weighs in the wild score
about five times less per unit than a tilt of 10 degrees or a deck's rise)."""


@dataclass(frozen=True)
class Stage:
    """One stage of training: its games' variant and the numbers it fits."""

    name: str
    sea_dogs: bool
    terms: tuple[str, ...]
    stds: tuple[float, ...]

    def numbers(self, vector: np.ndarray, learned: LearnedAim) -> np.ndarray:
        """The stage's numbers of the full weight vector ``vector`` (for ``aim``: read where the vector
        is a blend of the balance and ``learned`` aims, as the starting point is)."""
        if self.name == "pass":
            return vector[N_AIM + N_WILD:].copy()
        policy = CaptainPolicy.from_flat(vector)
        share = policy.aim_weights[:-1].ravel() @ learned.weights.ravel() / (learned.weights.ravel() @
                                                                            learned.weights.ravel())
        return np.array([policy.aim_weights[-1, 0], share, *policy.wild])

    def full(self, numbers: np.ndarray, vector: np.ndarray, learned: LearnedAim) -> np.ndarray:
        """The full weight vector: ``vector`` with the stage's part set from ``numbers``."""
        out = np.array(vector, dtype=float)
        if self.name == "pass":
            out[N_AIM + N_WILD:] = numbers
            return out
        weights = np.zeros((len(VECTORS), len(SCALARS)))
        weights[:-1] = numbers[1] * learned.weights
        weights[-1, 0] = numbers[0]
        out[:N_AIM] = weights.ravel()
        out[N_AIM:N_AIM + N_WILD] = numbers[2:]
        return out


STAGES = {"aim": Stage("aim", False, AIM_TERMS, AIM_STDS),
          "pass": Stage("pass", True, PASS_TERMS, (1.0,) * len(PASS_TERMS))}
"""The stages in the order they run."""


@dataclass(frozen=True)
class Setup:
    """What every game of a stage shares."""

    opponents: tuple[str, ...]
    sea_dogs: bool
    referee: str
    completion_weight: float = 0.0
    """Fitness per share of rounds completed in the candidate's games (added to the chips)."""


def captain_bot(policy: CaptainPolicy, name: str, params):
    """A ``captain`` bot playing ``policy``."""
    from kipp.players.models import make_bot

    return replace(make_bot("captain", name, params), captain=policy)


def chips_taken(flat: np.ndarray, self_flat: np.ndarray, setup: Setup, seeds: list[int]) -> tuple[float, ...]:
    """A task: per opponent, the mean over ``seeds`` of the candidate's chips minus the opponent's (seats
    swapped, same seed, averaged) with the candidate playing the weights ``flat``; and last, the share of
    rounds completed in all of those games."""
    from kipp.players.models import make_bot
    from kipp.rules.config import GameConfig
    from kipp.rules.play import play_game
    from sim.params import load_params
    from sim.referees import shared_referee

    params = load_params()
    referee = shared_referee(setup.referee, params)
    me = captain_bot(CaptainPolicy.from_flat(flat), "candidate", params)
    out, completed, rounds = [], 0, 0
    for opponent in setup.opponents:
        other = (captain_bot(CaptainPolicy.from_flat(self_flat), "opponent", params) if opponent == SELF
                 else make_bot(opponent, "opponent", params))
        total = 0.0
        for seed in seeds:
            for seats in ((me, other), (other, me)):
                config = GameConfig(players=tuple(b.name for b in seats), sea_dogs=setup.sea_dogs)
                state = play_game(config, referee, list(seats), seed, params=params)
                mine = seats.index(me)
                total += (state.chips[mine] - state.chips[1 - mine]) / 2
                completed += sum(e["event"] == "round_end" and e["completed"] for e in state.events())
                rounds += ROUNDS
        out.append(total / len(seeds))
    return (*out, completed / rounds)


def run_stage(stage: str, start: np.ndarray, *, generations: int, minutes: float | None, population: int, games: int,
              seed: int, sigma0: float, setup: Setup, workers: int, completion_weight: float = 0.0,
              progress: bool = True) -> tuple[np.ndarray, list]:
    """CMA-ES over ``stage``'s numbers (:class:`Stage`) from ``start`` (the full vector); the final vector
    and the curve."""
    import cma
    from tqdm import tqdm

    from kipp.analysis.executor import open_executor, run_tasks

    spec, learned = STAGES[stage], LearnedAim.load()
    setup = replace(setup, completion_weight=completion_weight)
    index = list(STAGES).index(stage)
    rng = stream(seed, "training", index)
    es = cma.CMAEvolutionStrategy(spec.numbers(start, learned), sigma0, {
        "popsize": population, "seed": math.nan, "verbose": -9, "CMA_stds": list(spec.stds),
        "randn": lambda lam, n: rng.standard_normal((lam, n))})
    curve, begin = [], time.monotonic()

    def full(x) -> np.ndarray:
        return spec.full(np.asarray(x, dtype=float), start, learned)

    bar = tqdm(total=generations, desc=f"{stage} generations", unit="gen", disable=not progress, file=sys.stderr)
    with open_executor(workers) as executor:
        for g in range(generations):
            seeds = [derived_seed(seed, "training", index, "game", g, k) for k in range(games)]
            candidates = es.ask()
            mean = full(es.mean)
            results: dict[int, tuple[float, ...]] = {}
            tasks = ((i, full(x), mean, setup, seeds) for i, x in enumerate(candidates))
            run_tasks(executor, _indexed, tasks, max_in_flight=2 * workers, on_result=results.update)
            outcomes = np.array([results[i] for i in range(len(candidates))])
            per_opponent, completion = outcomes[:, :-1], outcomes[:, -1]
            fitness = per_opponent.mean(axis=1) + setup.completion_weight * completion
            es.tell(candidates, list(-fitness))
            best = int(np.argmax(fitness))
            curve.append({"generation": g + 1, "elapsed_s": round(time.monotonic() - begin, 1),
                          "best_fitness": round(float(fitness[best]), 4),
                          "median_fitness": round(float(np.median(fitness)), 4),
                          "best_by_opponent": dict(zip(setup.opponents, np.round(per_opponent[best], 4).tolist())),
                          "best_completion": round(float(completion[best]), 4),
                          "mean": dict(zip(spec.terms, np.round(es.mean, 4).tolist())),
                          "sigma": round(float(es.sigma), 5)})
            bar.update()
            bar.set_postfix(best=f"{fitness.max():+.3f}", median=f"{np.median(fitness):+.3f}")
            if minutes is not None and time.monotonic() - begin > minutes * 60:
                break
    bar.close()
    return full(es.result.xfavorite), curve


def _indexed(i: int, flat, self_flat, setup: Setup, seeds) -> dict[int, tuple[float, ...]]:
    return {i: chips_taken(flat, self_flat, setup, seeds)}


def train(*, seed: int, opponents: tuple[str, ...], referee: str, workers: int, aim: dict, passing: dict,
          progress: bool = True) -> tuple[CaptainPolicy, dict]:
    """Both stages from the starting point; the policy and its training record (without times)."""
    vector = CaptainPolicy.starting_point().flat()
    record = {}
    for stage, options in (("aim", aim), ("pass", passing)):
        setup = Setup(opponents, STAGES[stage].sea_dogs, referee)
        vector, curve = run_stage(stage, vector, seed=seed, setup=setup, workers=workers, progress=progress,
                                  **options)
        record[stage] = {**options, "variant": "Old Sea Dogs" if setup.sea_dogs else "standard",
                         "fits": list(STAGES[stage].terms), "generations_run": len(curve), "curve": curve}
    return CaptainPolicy.from_flat(vector), record


def make_parser() -> argparse.ArgumentParser:
    """The command's options (their defaults are the shipped weights' training)."""
    parser = argparse.ArgumentParser(prog="python -m lab.train_selfplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default=",".join(DEFAULT_OPPONENTS),
                        help="comma-separated player models, and 'self' for the policy's own copy")
    parser.add_argument("--referee", default="physics", choices=referee_names())
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--aim-generations", type=int, default=8)
    parser.add_argument("--aim-completion-weight", type=float, default=1.0,
                        help="fitness per share of rounds completed in the candidate's games")
    parser.add_argument("--aim-minutes", type=float, default=None, help="stop the stage after the generation that "
                        "passes this much wall time (not reproducible across machines)")
    parser.add_argument("--aim-population", type=int, default=8)
    parser.add_argument("--aim-games", type=int, default=8, help="seeds per opponent per generation (x 2 seatings)")
    parser.add_argument("--aim-sigma0", type=float, default=0.3)
    parser.add_argument("--pass-generations", type=int, default=0,
                        help="generations of the pass stage; 0 (the default) keeps the risk rule, which paid "
                        "more than the pass 4 generations found, on physics")
    parser.add_argument("--pass-minutes", type=float, default=None)
    parser.add_argument("--pass-population", type=int, default=6)
    parser.add_argument("--pass-completion-weight", type=float, default=0.0)
    parser.add_argument("--pass-games", type=int, default=4)
    parser.add_argument("--pass-sigma0", type=float, default=0.3)
    parser.add_argument("--out", default=str(DEFAULT_PATH), help="where to write the policy (JSON)")
    parser.add_argument("--no-progress", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    from kipp.players.models import MODELS

    opponents = tuple(args.opponents.split(","))
    unknown = [m for m in opponents if m not in MODELS and m != SELF]
    if unknown:
        parser.error(f"--opponents: unknown player model {unknown[0]!r}; known: {', '.join(MODELS)}, {SELF}")
    stages = {}
    for stage in ("aim", "pass"):
        options = {name: getattr(args, f"{stage}_{name}") for name in ("generations", "minutes", "population",
                                                                         "games", "sigma0", "completion_weight")}
        if options["generations"] < 0 or options["games"] < 1 or options["population"] < 2:
            parser.error(f"--{stage}-generations must be at least 0 (0 keeps the stage's starting point), "
                         f"--{stage}-games at least 1, --{stage}-population at least 2")
        stages[stage] = options
    cpu, wall = time.process_time(), time.monotonic()
    policy, record = train(seed=args.seed, opponents=opponents, referee=args.referee, workers=args.workers,
                           aim=stages["aim"], passing=stages["pass"], progress=not args.no_progress)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    training = {"method": "CMA-ES (cma) in two stages, common random numbers within each generation",
                "command": "python -m lab.train_selfplay " + " ".join(argv if argv is not None else sys.argv[1:]),
                "seed": args.seed, "opponents": list(opponents), "referee": args.referee, "hand_mm": 0.5,
                "fitness": "chips taken per game from each opponent (2 players, seats swapped), averaged, plus the "
                           "stage's completion_weight x the share of rounds completed in those games",
                "workers": args.workers, "wall_s": round(time.monotonic() - wall, 1),
                "cpu_s": round(time.process_time() - cpu + children.ru_utime + children.ru_stime, 1), **record}
    CaptainPolicy(policy.aim_weights, policy.wild, policy.passing, training).save(args.out)
    print(f"trained in {training['wall_s']:.0f} s wall, {training['cpu_s']:.0f} s CPU "
          f"({record['aim']['generations_run']} + {record['pass']['generations_run']} generations); "
          f"policy written to {args.out}")
    print(f"  wild weights {np.round(policy.wild, 3).tolist()} ({', '.join(WILD_TERMS)}), "
          f"pass weights {np.round(policy.passing, 3).tolist()} ({', '.join(PASS_TERMS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
