"""Rigid turns: what the physics referee gains and changes when towers certain to stand ride turns unmoved.

The physics referee's cheap pass never simulates a turn that rigid statics says the tower cannot
survive (the confirm run decides every crash of the cheap pass anyway, :mod:`sim.referees.physics`).
By default (``PhysicsReferee(rigid_turns=True)``) it also skips the turns a
tower rides for certain, far from tipping all along them (:func:`sim.rigid_turn.certain_to_stand`),
and hands on the tower unmoved. That changes what a decision returns (by the simulated turn's
creep). This study puts the referee beside itself simulating those turns
(``rigid_turns=False``):

``python -m lab.rigid_turns --rounds 150 --players casual,skilled,expert``

- on the benchmark situations (:mod:`lab.bench_situations`): how many decisions (verdict and
  phase) are the same, how many agree with the plain loop's labels, and how far the towers
  handed on by standing decisions moved (the simulated turn's creep, which the rigid one
  does not have);
- on ``--rounds`` rounds per player model (the same orders and luck for both referees, played
  in turn round by round so that the machine's drift hits both alike): whole rounds per CPU
  second of each and their ratio, how many rounds ended the same, and the mean difference in
  barrels stacked and P(complete) with its 95% interval.

Deterministic for a seed; the CPU figures are this machine's.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from kipp.analysis.export import write_json
from kipp.analysis.orders import sample_orders
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.stats import Z95
from kipp.players.models import MODELS
from lab.bench_situations import load_situations
from sim.params import Params, load_params
from sim.referees.physics import PhysicsReferee


def _moved_m(a, b) -> float:
    """The largest distance (m) between the same barrel in two towers."""
    return max((math.dist((p.x_m, p.y_m, p.z_m), (q.x_m, q.y_m, q.z_m)) for p, q in zip(a.barrels, b.barrels)),
               default=0.0)


def on_situations(params: Params) -> dict:
    """Both referees on every benchmark situation."""
    rigid, simulated = PhysicsReferee(params), PhysicsReferee(params, rigid_turns=False)
    same = plain_rigid = plain_simulated = 0
    moved = []
    situations = load_situations(check_params=params)
    for labelled in situations:
        a, b = rigid.decide(*labelled.situation), simulated.decide(*labelled.situation)
        same += (a.crashed, a.phase) == (b.crashed, b.phase)
        plain_rigid += a.crashed == labelled.crashed_plain
        plain_simulated += b.crashed == labelled.crashed_plain
        if not a.crashed and not b.crashed and a.tower != b.tower:
            moved.append(_moved_m(a.tower, b.tower))
    return {"situations": len(situations), "same_decision": same, "as_plain_loop_rigid": plain_rigid,
            "as_plain_loop_simulated": plain_simulated, "towers_moved": len(moved),
            "moved_max_mm": 1000 * max(moved, default=0.0), "moved_median_mm": 1000 * float(np.median(moved or [0.0]))}


def on_rounds(params: Params, player: str, rounds: int, seed: int, half_turn: bool = False) -> dict:
    """Both referees on the same ``rounds`` rounds of ``player``, interleaved round by round."""
    model = RoundModel(player=player, half_turn=half_turn)
    bot = model.bot(params)
    referees = {"rigid": PhysicsReferee(params), "simulated": PhysicsReferee(params, rigid_turns=False)}
    cpu = dict.fromkeys(referees, 0.0)
    results = {name: [] for name in referees}
    for i, order in enumerate(sample_orders(rounds, model.barrels, seed)):
        for name, referee in referees.items():
            start = time.process_time()
            result = play_round(order, referee, bot, model.config(), seed, i)
            cpu[name] += time.process_time() - start
            results[name].append((result.stacked, result.completed))
    rigid, simulated = (np.array(results[name], dtype=float) for name in referees)
    difference = rigid - simulated
    spread = Z95 * difference.std(axis=0, ddof=1) / math.sqrt(rounds)
    return {"player": player, "half_turn": half_turn, "rounds": rounds,
            "rounds_per_cpu_s": {name: rounds / t for name, t in cpu.items()},
            "speedup": cpu["simulated"] / cpu["rigid"],
            "same_rounds": int(np.all(difference == 0, axis=1).sum()),
            "stacked": [float(rigid[:, 0].mean()), float(simulated[:, 0].mean()),
                        float(difference[:, 0].mean()), float(spread[0])],
            "completed": [float(rigid[:, 1].mean()), float(simulated[:, 1].mean()),
                          float(difference[:, 1].mean()), float(spread[1])]}


def report(result: dict) -> str:
    s = result["situations"]
    lines = [f"benchmark situations: {s['same_decision']} of {s['situations']} decided the same (verdict and phase); "
             f"as the plain loop: {s['as_plain_loop_rigid']} with rigid turns, {s['as_plain_loop_simulated']} without; "
             f"{s['towers_moved']} standing towers handed on differently, by up to {s['moved_max_mm']:.4f} mm "
             f"(median {s['moved_median_mm']:.4f} mm)"]
    for r in result["rounds"]:
        rate = r["rounds_per_cpu_s"]
        name = r["player"] + (" (half turns)" if r["half_turn"] else "")
        lines.append(f"{name}: {rate['rigid']:.1f} against {rate['simulated']:.1f} rounds per CPU second "
                     f"({r['speedup']:.2f}x); {r['same_rounds']} of {r['rounds']} rounds ended the same; "
                     f"barrels {r['stacked'][0]:.3f} against {r['stacked'][1]:.3f} "
                     f"({r['stacked'][2]:+.3f} +- {r['stacked'][3]:.3f}), P(complete) {r['completed'][0]:.3f} against "
                     f"{r['completed'][1]:.3f} ({r['completed'][2]:+.3f} +- {r['completed'][3]:.3f})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.rigid_turns", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=150, help="rounds per player model (default 150)")
    parser.add_argument("--players", default="casual,skilled", help="player models, comma-separated")
    parser.add_argument("--half-turn", action="store_true", help="play the younger-sailor half turns")
    parser.add_argument("--seed", type=int, default=7, help="orders and luck (default 7)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    players = [player.strip() for player in args.players.split(",")]
    unknown = [player for player in players if player not in MODELS]
    if args.rounds < 2 or unknown:
        why = f"unknown player model {unknown[0]!r}; expected {', '.join(MODELS)}" if unknown else \
            "--rounds must be at least 2"
        print(f"Error: {why}", file=sys.stderr)
        return 2
    params = load_params()
    result = {"situations": on_situations(params),
              "rounds": [on_rounds(params, player, args.rounds, args.seed, args.half_turn) for player in players]}
    print(report(result))
    if args.json:
        write_json(result, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
