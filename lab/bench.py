"""The performance figures of DESIGN.md section 7, measured in one run (``kipp bench``).

- ``physics_plain_turn_ms_median``, ``physics_loop_turn_ms_median``,
  ``physics_turn_ms_median``, ``physics_turn_ms_p90``: CPU milliseconds
  (``time.process_time``) of a 12-barrel turn decision -- an 11-barrel tower stacked by
  physics, the 12th barrel placed and a sailor turned (:func:`lab.decision_timing.turn_situations`)
  -- by the plain fixed-length loop, by the loop with its early exits, and by the physics
  referee the games use (the compound fast path, :mod:`sim.referees.physics`), interleaved;
  ``physics_turn_same_as_plain``: how many of those the fast path decides as the plain loop.
- ``fast_decisions_per_s``, ``fast_batch_decisions_per_s``: fast-referee decisions per
  CPU second on the benchmark situations, one ``decide`` call each, and one
  ``decide_batch`` call for the whole set.
- ``rounds_per_s_per_core``: complete rounds (whole seeded games of two default bots, 3
  rounds each) per CPU second, per referee.
- ``agreement``: fraction of the benchmark situations (:mod:`lab.bench_situations`) on
  which ``fast`` and ``hybrid`` agree with the physics referee's stored decision. The
  hybrid's routing is its own (:meth:`sim.referees.hybrid.HybridReferee.in_band`); the
  situations it sends to physics take the stored physics label, which is what re-running
  physics on them gives, physics being deterministic.
- ``model_rounds_per_s``: rounds of ``kipp tune`` (one bot of each player model,
  :mod:`kipp.players.models`, playing seeded orders to their end) per CPU second with the
  fast referee, and ``model_round_cost``: each model's CPU time per round over the
  ``casual`` model's, timed interleaved in one run (the balance aim's search is what makes
  the difference; DESIGN.md 7 asks for at most 3x); ``model_barrel_cost``: the same per
  barrel stacked (a better player's rounds last longer).
- ``speedup_2_workers``: wall time of a small sweep of fast-referee games with
  ``--workers 1`` over that with ``--workers 2``, on the executors, chunking and bound on
  tasks in flight of ``kipp tune``/``kipp compare`` (:mod:`kipp.analysis.executor`: in this process,
  and a spawned pool of two processes), run with the given parameters; every worker has
  run a warm-up game before the clock starts. ``machine_speedup_2_processes``: the same ratio
  for a pure-Python CPU loop, measured just before: the machine's own ceiling for the sweep's
  speed-up (under 2 on shared cores, or on a host that clocks down with both cores busy).

Extra keys: ``hybrid_physics_share`` (fraction of the set the hybrid hands to physics),
``hybrid_physics_share_games`` (of the decisions in the timed hybrid games),
``benchmark_situations``, ``quick``, and ``viewer`` (frame times, with ``--viewer``).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from typing import Callable, Iterable

import numpy as np

from kipp.analysis.executor import chunk_size, chunked, open_executor, run_tasks
from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from lab.bench_situations import load_situations
from sim.params import Params, load_params
from sim.referees import make_referee, shared_referee
from sim.referees.hybrid import HybridReferee
from sim.tower import Referee

REFEREES = ("physics", "fast", "hybrid")
ROUNDS_PER_GAME = 3
_CONFIG = GameConfig(players=("Bot 1", "Bot 2"))

# games timed per referee, (quick, full)
_GAMES = {"physics": (1, 6), "fast": (40, 300), "hybrid": (15, 100)}
_TURN_SITUATIONS = (3, 20)
_SWEEP_GAMES = (48, 1600)
_SPIN_STEPS = (2_000_000, 20_000_000)
"""Steps of the pure-CPU loop timed for the machine's ceiling (quick, full): about 0.1 s and 1 s."""
_MODEL_ROUNDS = (8, 200)
"""Rounds per player model (quick, full) for :func:`model_rounds_per_s`."""


def _cpu(fn: Callable[[], object], at_least_s: float = 0.0) -> tuple[float, int]:
    """CPU seconds per call of ``fn`` and the number of calls (repeated until ``at_least_s``)."""
    calls, start = 0, time.process_time()
    while True:
        fn()
        calls += 1
        spent = time.process_time() - start
        if spent >= at_least_s:
            return spent / calls, calls


def physics_turn_ms(params: Params, count: int, seed: int) -> dict:
    """Median/p90 CPU ms of 12-barrel turn decisions: the plain loop, the loop with its early
    exits, and the physics referee games use (``--referee physics``, the compound fast path),
    timed interleaved situation by situation so that their ratios hold on a busy machine."""
    from lab.decision_timing import turn_situations
    from sim.referees.loop import LoopReferee

    referees = {"plain": LoopReferee(params, plain=True), "loop": LoopReferee(params),
                "fast path": make_referee("physics", params)}
    situations = turn_situations(referees["loop"], count, seed)
    times = {name: [] for name in referees}
    verdicts = {name: [] for name in referees}
    for situation in situations:
        for name, referee in referees.items():
            start = time.process_time()
            verdicts[name].append(referee.decide(situation.tower, situation.placement, situation.turn).crashed)
            times[name].append(time.process_time() - start)
    ms = {name: np.array(t) * 1000 for name, t in times.items()}
    return {"physics_plain_turn_ms_median": float(np.median(ms["plain"])),
            "physics_loop_turn_ms_median": float(np.median(ms["loop"])),
            "physics_turn_ms_median": float(np.median(ms["fast path"])),
            "physics_turn_ms_p90": float(np.percentile(ms["fast path"], 90)),
            "physics_turn_decisions": len(situations),
            "physics_turn_same_as_plain": sum(a == b for a, b in zip(verdicts["fast path"], verdicts["plain"]))}


def play_games(referee: Referee, params: Params, seeds: Iterable[int]) -> int:
    """Play one seeded game per seed with two default bots; the number of rounds played."""
    bots = [Bot(name, params=params) for name in _CONFIG.players]
    games = 0
    for seed in seeds:
        play_game(_CONFIG, referee, bots, seed, params=params)
        games += 1
    return ROUNDS_PER_GAME * games


def rounds_per_s(referee_name: str, params: Params, games: int, seed: int) -> tuple[float, Referee]:
    """Complete rounds per CPU second with ``referee_name`` (and the referee, for its counters)."""
    referee = make_referee(referee_name, params)
    start = time.process_time()
    rounds = play_games(referee, params, range(seed, seed + games))
    return rounds / (time.process_time() - start), referee


def model_rounds_per_s(params: Params, rounds: int, seed: int) -> dict:
    """Fast-referee rounds per CPU second of each player model, and each one's cost over ``casual``'s.

    The models take turns round by round (the same orders and luck for all), so a change of
    machine load hits them alike; the total CPU time of each model's rounds is compared.
    """
    from kipp.analysis.orders import sample_orders
    from kipp.analysis.rounds import RoundModel, play_round
    from kipp.players.models import MODELS

    referee = make_referee("fast", params)
    orders = sample_orders(max(1, rounds // 4), 12, seed)
    models = {name: RoundModel(player=name) for name in MODELS}
    bots = {name: m.bot(params) for name, m in models.items()}
    spent = dict.fromkeys(models, 0.0)
    stacked = dict.fromkeys(models, 0)
    played = 0
    for i in range(rounds):
        order = orders[i % len(orders)]
        for name, model in models.items():
            start = time.process_time()
            stacked[name] += play_round(order, referee, bots[name], model.config(), seed, i).stacked
            spent[name] += time.process_time() - start
        played += 1
    per_barrel = {name: spent[name] / max(1, stacked[name]) for name in models}
    return {"model_rounds_per_s": {name: played / t for name, t in spent.items()},
            "model_round_cost": {name: t / spent["casual"] for name, t in spent.items()},
            "model_barrel_cost": {name: t / per_barrel["casual"] for name, t in per_barrel.items()}}


def _sweep_task(params: Params, seeds: list[int]) -> int:
    """A task of the timed sweep: fast-referee games, one referee per worker (as ``kipp compare``)."""
    return play_games(shared_referee("fast", params), params, seeds)


def _warm_task(params: Params) -> int:
    """Imports and caches warm in whichever worker runs this; that worker's process id."""
    _sweep_task(params, [0])
    time.sleep(0.1)  # long enough that an idle worker takes the next one
    return os.getpid()


def _warm_up(executor: cf.Executor, params: Params, workers: int) -> None:
    """Run warm-up tasks until every worker process has run one (spawned workers start lazily)."""
    seen: set[int] = set()
    for _ in range(20):
        run_tasks(executor, _warm_task, [(params,)] * (2 * workers), max_in_flight=2 * workers,
                  on_result=seen.add)
        if len(seen) >= workers:
            return


def sweep_seconds(workers: int, games: int, seed: int, params: Params) -> float:
    """Wall seconds of ``games`` fast-referee games on ``--workers workers``.

    The executor, chunking and bound on tasks in flight are those of ``kipp compare``
    (:mod:`kipp.analysis.executor`): one worker runs in this process, more in a spawned process pool.
    """
    rounds = 0

    def add(result: int) -> None:
        nonlocal rounds
        rounds += result

    size = chunk_size(games, workers, largest=16)
    tasks = [(params, chunk) for chunk in chunked(list(range(seed, seed + games)), size, workers)]
    with open_executor(workers) as executor:
        _warm_up(executor, params, workers)
        start = time.perf_counter()
        run_tasks(executor, _sweep_task, tasks, max_in_flight=2 * workers, on_result=add)
        elapsed = time.perf_counter() - start
    assert rounds == ROUNDS_PER_GAME * games
    return elapsed


def _spin(steps: int) -> int:
    """A pure-Python CPU loop of ``steps`` steps (no memory traffic, no I/O)."""
    total = 0
    for i in range(steps):
        total += i * i % 7
    return total


def machine_speedup(steps: int, params: Params) -> float:
    """Wall time of two :func:`_spin` in this process over that of one in each of 2 (warm) pool processes."""
    with open_executor(2) as executor:
        _warm_up(executor, params, 2)
        start = time.perf_counter()
        _spin(steps), _spin(steps)
        one = time.perf_counter() - start
        start = time.perf_counter()
        list(executor.map(_spin, [steps, steps]))
        return one / (time.perf_counter() - start)


def agreement(params: Params) -> dict:
    """Agreement of fast and hybrid with the stored physics decisions, and the fast speeds.

    The hybrid's routing is :meth:`HybridReferee.in_band`; the situations it sends to physics
    take their stored physics label, which is what physics would decide again (it is
    deterministic), so only the fast decisions outside the band can disagree.
    """
    stored = load_situations()
    situations = [s.situation for s in stored]
    labels = np.array([s.crashed for s in stored])
    hybrid = HybridReferee(params)
    fast = hybrid.fast
    assessment = fast.assess_batch(situations)
    fast_crashed = assessment.crashed
    to_physics = hybrid.in_band(assessment.closest_deg())
    hybrid_crashed = np.where(to_physics, labels, fast_crashed)
    single_s, _ = _cpu(lambda: [fast.decide(*s) for s in situations], 0.2)
    batch_s, _ = _cpu(lambda: fast.decide_batch(situations), 0.2)
    return {"agreement": {"fast": float(np.mean(fast_crashed == labels)),
                          "hybrid": float(np.mean(hybrid_crashed == labels))},
            "hybrid_physics_share": float(np.mean(to_physics)),
            "benchmark_situations": len(stored),
            "fast_decisions_per_s": len(situations) / single_s,
            "fast_batch_decisions_per_s": len(situations) / batch_s}


def measure(params: Params | None = None, *, quick: bool = False, seed: int = 0,
            viewer: Callable[[Params], dict] | None = None,
            progress: Callable[[str], None] | None = None) -> dict:
    """Every figure of the module docstring, as a JSON-ready dict.

    ``viewer``: a function timing the viewer's frames (``viewer.bench.measure``, handed in by
    the command line, since analyses do not import the viewer), or None to leave them out.
    """
    params = params if params is not None else load_params()
    level = 0 if quick else 1
    say = progress or (lambda _: None)
    result: dict = {"quick": quick}
    say("physics turn decisions")
    result.update(physics_turn_ms(params, _TURN_SITUATIONS[level], seed))
    say("fast referee and agreement")
    result.update(agreement(params))
    result["rounds_per_s_per_core"] = {}
    for name in REFEREES:
        say(f"rounds with the {name} referee")
        rate, referee = rounds_per_s(name, params, _GAMES[name][level], seed)
        result["rounds_per_s_per_core"][name] = rate
        if name == "hybrid":
            result["hybrid_physics_share_games"] = referee.physics_calls / max(1, referee.decisions)
    say("player models' rounds")
    result.update(model_rounds_per_s(params, _MODEL_ROUNDS[level], seed))
    say("sweep on 1 and 2 workers")
    result["machine_speedup_2_processes"] = machine_speedup(_SPIN_STEPS[level], params)
    one = sweep_seconds(1, _SWEEP_GAMES[level], seed, params)
    two = sweep_seconds(2, _SWEEP_GAMES[level], seed, params)
    result["speedup_2_workers"] = one / two
    if viewer is not None:
        say("viewer frame times")
        result["viewer"] = viewer(params)
    return result


ROWS = (
    ("physics_plain_turn_ms_median", "physics turn decision, plain loop, median", "ms", "{:.1f}"),
    ("physics_loop_turn_ms_median", "physics turn decision, loop's early exits, median", "ms", "{:.1f}"),
    ("physics_turn_ms_median", "physics turn decision, fast path, median", "ms", "{:.1f}"),
    ("physics_turn_ms_p90", "physics turn decision, fast path, p90", "ms", "{:.1f}"),
    ("fast_decisions_per_s", "fast decisions, one by one", "/s", "{:,.0f}"),
    ("fast_batch_decisions_per_s", "fast decisions, batched", "/s", "{:,.0f}"),
    ("speedup_2_workers", "speed-up of 2 workers over 1", "x", "{:.2f}"),
    ("machine_speedup_2_processes", "the machine's own, pure CPU loop", "x", "{:.2f}"),
)


def table(result: dict, translate: Callable[[str], str] | None = None, separators: tuple[str, str] = (".", ",")) -> str:
    """The figures as a readable table. ``translate`` turns each label and sentence (English, as written
    here) into the reader's language (``kipp bench`` passes its catalogue's); the label column widens by
    what a translated label adds. ``separators``: the reader's decimal and thousands separators
    (:data:`kipp.language.SEPARATORS`). Default: English as written."""
    say = translate or (lambda text: text)
    point, group = separators
    swap = {ord("."): point, ord(","): group}
    rows = [(say(label), unit, fmt.format(result[key]).translate(swap)) for key, label, unit, fmt in ROWS]
    rates = [(say("rounds per CPU second, {name}").format(name=name), rate)
             for name, rate in result["rounds_per_s_per_core"].items()]
    n = result["benchmark_situations"]
    agreements = [(say("agreement with physics, {name}").format(name=name), value)
                  for name, value in result["agreement"].items()]
    hybrid = say("hybrid decisions sent to physics (set/games)")
    models = [(say("fast rounds per CPU second, player {name}").format(name=name), name, rate)
              for name, rate in result["model_rounds_per_s"].items()]
    viewer = say("viewer frame time, median / p99")
    english = ([label for _key, label, _unit, _fmt in ROWS]
               + [f"rounds per CPU second, {name}" for name in result["rounds_per_s_per_core"]]
               + [f"agreement with physics, {name}" for name in result["agreement"]]
               + [f"fast rounds per CPU second, player {name}" for name in result["model_rounds_per_s"]]
               + ["hybrid decisions sent to physics (set/games)", "viewer frame time, median / p99"])
    translated = [label for label, *_ in rows + rates + agreements + models] + [hybrid, viewer]
    width = 44 + max([0, *(len(ours) - len(theirs) for theirs, ours in zip(english, translated))])
    lines = []
    for label, unit, figure in rows:
        lines.append(f"{label:<{width}} {figure:>12} {unit}")
    for label, rate in rates:
        lines.append(f"{label:<{width}} {format(rate, '>12,.1f').translate(swap)} /s")
    for label, value in agreements:
        lines.append(f"{label:<{width}} {format(value, '>12.1%').translate(swap)}   "
                     + say("of {count} situations").format(count=n))
    lines.append(f"{hybrid:<{width}} " + f"{result['hybrid_physics_share']:>6.1%} / "
                 f"{result['hybrid_physics_share_games']:.1%}".translate(swap))
    for label, name, rate in models:
        lines.append(f"{label:<{width}} {format(rate, '>12,.0f').translate(swap)} /s   "
                     + say("{round_cost}x casual's per round, {barrel_cost}x per barrel").format(
                         round_cost=f"{result['model_round_cost'][name]:.2f}".translate(swap),
                         barrel_cost=f"{result['model_barrel_cost'][name]:.2f}".translate(swap)))
    if "viewer" in result:
        view = result["viewer"]["tower12"] or result["viewer"]["all"]
        lines.append(f"{viewer:<{width}} " + f"{view['median_ms']:>6.1f} / {view['p99_ms']:.1f} ms".translate(swap))
    return "\n".join(lines)
