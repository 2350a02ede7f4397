"""Does the ``captain`` win? Paired games against the other models, its completion rate, its pass.

Every comparison plays game ``g`` from the seed :func:`kipp.analysis.compare.game_seed` (``kipp
compare``'s game g) and, where two players meet, twice with the seats swapped, so the die, the
lines and each seat's hand are shared and the paired difference measures the players:

- **head to head**: the captain against each of ``--opponents``, two players, the standard game
  and Old Sea Dogs (``--sea-dogs-opponents``): per pair of games the captain's final chips minus
  the opponent's and its wins minus theirs (a shared win counts for both), averaged;
- **completion**: ``kipp compare``'s standard arm played by two captains and by two ``learned``
  players (the same game seeds): the share of rounds completed, and the paired difference per game;
- **pass** (Old Sea Dogs): the captain against its never-passing twin, and the captain with the
  hand-written ``risk`` pass rule against the same twin, so the two pass rules are judged with the
  same aim, hand and wild choice; how often each passes when it may (passes per chance to pass).
  The expert's passes in the head-to-head games are counted too.
- **where passing pays**: every chance to pass, by the captain's own crash estimate p of the coming
  turn (:data:`ESTIMATE_BINS`): how often the captain's rule and the ``risk`` rule pass there, and
  after each pass made whether the next player's forced turn crashed. With two players and a crash
  costing 2 chips, a pass gains the passer +1 against the next player if that turn crashes and
  costs -2 if it stands, while playing costs -2 if the passer's own turn crashes. The next player
  turns the same tower, so the rate q at which their forced turns crash estimates the tower's crash
  chance for the passer too: passing pays where 3q - 2 > -2q, q above
  :func:`kipp.players.bots.pass_threshold` (2 players, 2 chips: 0.4), and does not pay where q is
  below it (a bin whose q interval lies below 0.4).

The record (``--out``, JSON) holds every figure with its 95% interval, the command and the wall
time.

    python -m lab.captain_study --games 300 --referee physics --workers 2 --out lab/data/captain_study.json
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from kipp.analysis.compare import game_seed
from kipp.analysis.executor import open_executor, run_tasks
from kipp.analysis.stats import mean_interval, wilson_interval
from kipp.rules.actions import ChooseSailor, Pass, Play
from kipp.rules.config import ROUNDS, GameConfig
from kipp.rules.play import play_game
from sim.params import Params, load_params

ESTIMATE_BINS = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 1.0)
"""Edges of the bins of the captain's crash estimate at a chance to pass (the last includes 1)."""
CAPTAIN = "captain"
OPPONENTS = ("casual", "skilled", "expert", "learned")
PASS_RULES = ("captain", "risk")
"""The pass rules judged with the captain's aim (``--pass-rules``): its own (learned) and the hand-written one."""


@dataclass
class Tally:
    """A bot that counts its chances to pass and its passes (Old Sea Dogs); a bot of the ``captain`` aim
    also counts how often the hand-written ``risk`` rule would have passed at the same chances, and
    how often its sailor on a wild roll is not the one the leveler would turn."""

    bot: object
    chances: int = 0
    passes: int = 0
    risk_passes: int = 0
    wild_choices: int = 0
    not_levelled: int = 0
    judged: list = field(default_factory=list)
    """This game's chances to pass, in order: (crash estimate, captain rule passes, risk rule passes, passed)."""
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = self.bot.name

    def act(self, state, rng):
        if not state.pass_allowed():
            action = self.bot.act(state, rng)
            if isinstance(action, ChooseSailor):
                self.wild_choices += 1
                self.not_levelled += action.sailor != self.bot.choose_sailor(state.turns_by_sailor(),
                                                                             state.config.fraction)
            return action
        self.chances += 1
        if self.bot.aim == "captain" and self.bot.passing in ("captain", "risk"):
            judgement = self.bot.pass_judgement(state)
            verdicts = judgement.verdicts
            self.risk_passes += verdicts["risk"]
            passes = verdicts[self.bot.passing]
            self.judged.append((judgement.estimate, verdicts["captain"], verdicts["risk"], passes))
        else:
            passes = isinstance(self.bot.act(state, rng), Pass)
        self.passes += passes
        return Pass() if passes else Play()


def forced_turns_crashed(events: list[dict], player: int) -> list[bool]:
    """For each pass of ``player`` in a game's ``events``, in order: did the next player's forced turn
    crash (a crash before the pass's chip is awarded or the round completes)?"""
    out = []
    for i, event in enumerate(events):
        if event["event"] == "pass" and event["player"] == player:
            for after in events[i + 1:]:
                if after["event"] == "crash":
                    out.append(True)
                    break
                if (after["event"] == "award" and after.get("reason") == "pass") or after["event"] == "round_end":
                    out.append(False)
                    break
    return out


def estimate_bin(p: float) -> int:
    """The index of the :data:`ESTIMATE_BINS` bin of the crash estimate ``p``."""
    for i, high in enumerate(ESTIMATE_BINS[1:-1]):
        if p < high:
            return i
    return len(ESTIMATE_BINS) - 2


def _empty_bins() -> list[dict]:
    return [{"chances": 0, "captain_passes": 0, "risk_passes": 0, "passes": 0, "next_crashed": 0}
            for _ in ESTIMATE_BINS[1:]]


def _pair(first, second, sea_dogs: bool, referee, params: Params, seed: int) -> dict:
    """``first`` against ``second`` (Tally-wrapped bots) in both seatings of one seed: first's chips
    minus second's and wins minus wins, averaged over the seatings; and first's chances to pass by
    its crash estimate (:func:`estimate_bin`), with the next player's forced turn after its passes."""
    chips = wins = 0.0
    bins = _empty_bins()
    for seats in ((first, second), (second, first)):
        config = GameConfig(players=tuple(b.name for b in seats), sea_dogs=sea_dogs)
        first.judged = []
        state = play_game(config, referee, list(seats), seed, params=params)
        mine = seats.index(first)
        chips += state.chips[mine] - state.chips[1 - mine]
        winners = state.winners()
        wins += (mine in winners) - ((1 - mine) in winners)
        outcomes = iter(forced_turns_crashed(state.events(), mine))
        for estimate, captain_passes, risk_passes, passed in first.judged:
            row = bins[estimate_bin(estimate)]
            row["chances"] += 1
            row["captain_passes"] += captain_passes
            row["risk_passes"] += risk_passes
            if passed:
                row["passes"] += 1
                row["next_crashed"] += next(outcomes)
    return {"chips": chips / 2, "wins": wins / 2, "bins": bins}


def task(kind: str, what: str, sea_dogs: bool, referee_name: str, params: Params, root: int, g: int) -> tuple:
    """One game index of one comparison; (kind, what, sea_dogs, g, figures)."""
    from kipp.analysis.compare import play_arm_game
    from kipp.players.models import make_bot
    from sim.referees import shared_referee

    referee = shared_referee(referee_name, params)
    seed = game_seed(root, g)
    if kind == "completion":
        record = play_arm_game("standard", 2, referee, params, root, g, what)
        return kind, what, sea_dogs, g, {"completed": sum(record.completed)}
    captain = make_bot(CAPTAIN, "Captain", params)
    if kind == "head to head":
        first, second = Tally(captain), Tally(make_bot(what, what.capitalize(), params))
    else:  # "pass": the captain with the pass rule `what` against its never-passing twin
        first = Tally(replace(captain, name="Passer", passing=what))
        second = Tally(replace(captain, name="Never", passing="never"))
    figures = _pair(first, second, sea_dogs, referee, params, seed)
    figures.update(chances=first.chances, passes=first.passes, risk_passes=first.risk_passes,
                   other_chances=second.chances, other_passes=second.passes, wild_choices=first.wild_choices,
                   not_levelled=first.not_levelled)
    return kind, what, sea_dogs, g, figures


def plan(opponents, sea_dogs_opponents, completion_models, pass_rules) -> list[tuple[str, str, bool]]:
    """The comparisons: (kind, model or pass rule, Old Sea Dogs?)."""
    return ([("head to head", m, False) for m in opponents] + [("head to head", m, True) for m in sea_dogs_opponents]
            + [("completion", m, False) for m in completion_models] + [("pass", r, True) for r in pass_rules])


def _interval(values) -> list[float]:
    return [round(v, 4) for v in mean_interval(values)]


def _rate(count: int, of: int) -> dict:
    """``count`` of ``of`` (passes of chances to pass, ...) with a Wilson 95% interval."""
    if not of:
        return {"count": count, "of": of, "rate": None, "rate_95": None}
    low, high = wilson_interval(count, of)
    return {"count": count, "of": of, "rate": round(count / of, 4), "rate_95": [round(low, 4), round(high, 4)]}


def pass_table(rows: list[dict]) -> list[dict]:
    """Per bin of the crash estimate, summed over ``rows`` (task figures): the chances, how often each
    rule passes there, and the next player's forced turns after the passes made, with whether passing
    pays there (module docstring)."""
    from kipp.players.bots import pass_threshold

    bar = pass_threshold(2, 2)
    table = []
    for i, (low, high) in enumerate(zip(ESTIMATE_BINS, ESTIMATE_BINS[1:])):
        total = {k: sum(r["bins"][i][k] for r in rows) for k in _empty_bins()[0]}
        crashed = _rate(total["next_crashed"], total["passes"])
        pays = None
        if crashed["rate_95"] is not None:
            pays = "yes" if crashed["rate_95"][0] > bar else "no" if crashed["rate_95"][1] < bar else "undecided"
        table.append({"estimate": [low, high], "chances": total["chances"],
                      "captain_rule_passes": total["captain_passes"], "risk_rule_passes": total["risk_passes"],
                      "next_players_forced_turns_crashed": crashed, "passing_pays": pays})
    return table


def summarise(results: dict[tuple, dict], games: int, opponents, sea_dogs_opponents, completion_models,
              pass_rules) -> dict:
    """The record's figures from every task's result (keyed by (kind, what, sea_dogs, g))."""
    def rows(kind, what, sea_dogs):
        return [results[(kind, what, sea_dogs, g)] for g in range(games)]

    out: dict = {"head_to_head": {"standard": {}, "Old Sea Dogs": {}}, "completion": {}, "pass": {}}
    for sea_dogs, variant, names in ((False, "standard", opponents), (True, "Old Sea Dogs", sea_dogs_opponents)):
        for m in names:
            r = rows("head to head", m, sea_dogs)
            entry = {"chips": _interval([x["chips"] for x in r]), "wins": _interval([x["wins"] for x in r]),
                     "captain_wild_choices_not_the_levelers": _rate(sum(x["not_levelled"] for x in r),
                                                                    sum(x["wild_choices"] for x in r))}
            if sea_dogs:
                entry["captain_passes"] = _rate(sum(x["passes"] for x in r), sum(x["chances"] for x in r))
                entry["risk_rule_at_the_captains_chances"] = _rate(sum(x["risk_passes"] for x in r),
                                                                   sum(x["chances"] for x in r))
                entry[f"{m}_passes"] = _rate(sum(x["other_passes"] for x in r), sum(x["other_chances"] for x in r))
                entry["captain_passes_by_estimate"] = pass_table(r)
            out["head_to_head"][variant][m] = entry
    per_game = {}
    for m in completion_models:
        done = [x["completed"] for x in rows("completion", m, False)]
        per_game[m] = done
        low, high = wilson_interval(sum(done), ROUNDS * games)
        out["completion"][m] = {"completed": sum(done), "rounds": ROUNDS * games,
                                "share": round(sum(done) / (ROUNDS * games), 4), "share_95": [round(low, 4),
                                                                                             round(high, 4)]}
    if CAPTAIN in per_game and "learned" in per_game:
        out["completion"]["captain_minus_learned"] = _interval(
            [(a - b) / ROUNDS for a, b in zip(per_game[CAPTAIN], per_game["learned"])])
    for rule in pass_rules:
        r = rows("pass", rule, True)
        out["pass"][rule] = {"against": "the captain never passing", "chips": _interval([x["chips"] for x in r]),
                             "wins": _interval([x["wins"] for x in r]),
                             "passes": _rate(sum(x["passes"] for x in r), sum(x["chances"] for x in r)),
                             "risk_rule_at_the_same_chances": _rate(sum(x["risk_passes"] for x in r),
                                                                    sum(x["chances"] for x in r)),
                             "by_estimate": pass_table(r)}
    return out


def run(games: int, referee: str, seed: int, workers: int, *, opponents=OPPONENTS, sea_dogs_opponents=("expert",),
        completion_models=(CAPTAIN, "learned"), pass_rules=PASS_RULES, params: Params | None = None,
        progress: bool = False) -> dict:
    """Every comparison over ``games`` game seeds; the record's figures (:func:`summarise`)."""
    from tqdm import tqdm

    params = params if params is not None else load_params()
    comparisons = plan(opponents, sea_dogs_opponents, completion_models, pass_rules)
    results: dict[tuple, dict] = {}
    bar = tqdm(total=games * len(comparisons), unit="pair", disable=not progress, file=sys.stderr)

    def keep(result) -> None:
        kind, what, sea_dogs, g, figures = result
        results[(kind, what, sea_dogs, g)] = figures
        bar.update()

    tasks = ((kind, what, sea_dogs, referee, params, seed, g) for g in range(games)
             for kind, what, sea_dogs in comparisons)
    with open_executor(workers) as executor:
        run_tasks(executor, task, tasks, max_in_flight=4 * workers, on_result=keep)
    bar.close()
    return summarise(results, games, opponents, sea_dogs_opponents, completion_models, pass_rules)


def report(record: dict) -> str:
    """The record's figures as lines to read."""
    lines = []
    for variant, table in record["head_to_head"].items():
        for m, r in table.items():
            (c, cl, ch), (w, wl, wh) = r["chips"], r["wins"]
            line = (f"{variant}: captain minus {m}: chips {c:+.3f} [{cl:+.3f}, {ch:+.3f}] per game, "
                    f"wins {w:+.3f} [{wl:+.3f}, {wh:+.3f}]")
            wild = r["captain_wild_choices_not_the_levelers"]
            line += f"; the captain's wild sailor is not the leveler's in {wild['count']} of {wild['of']}"
            if "captain_passes" in r:
                risk = r["risk_rule_at_the_captains_chances"]
                line += (f"; passes: captain {r['captain_passes']['rate']:.3f} of its chances (the risk rule would "
                         f"{risk['rate']:.3f}), {m} {r[f'{m}_passes']['rate']:.3f} of its own")
            lines.append(line)
    for m, r in record["completion"].items():
        if m == "captain_minus_learned":
            d, dl, dh = r
            lines.append(f"completion, captain minus learned: {d:+.3f} [{dl:+.3f}, {dh:+.3f}] of the rounds")
        else:
            lines.append(f"completion, {m} (every seat): {r['share']:.3f} [{r['share_95'][0]:.3f}, "
                         f"{r['share_95'][1]:.3f}] of {r['rounds']} standard rounds")
    for rule, r in record["pass"].items():
        (c, cl, ch), (w, wl, wh) = r["chips"], r["wins"]
        rate = r["passes"]
        risk = r["risk_rule_at_the_same_chances"]
        lines.append(f"pass, {rule} rule with the captain's aim against never passing: chips {c:+.3f} [{cl:+.3f}, "
                     f"{ch:+.3f}], wins {w:+.3f} [{wl:+.3f}, {wh:+.3f}]; passes {rate['count']} of "
                     f"{rate['of']} chances ({rate['rate']:.3f}; the risk rule would pass {risk['count']})")
        for row in r["by_estimate"]:
            crashed = row["next_players_forced_turns_crashed"]
            rate_text = "-" if crashed["rate"] is None else f"{crashed['rate']:.3f}"
            lines.append(f"  estimate {row['estimate'][0]:.1f}-{row['estimate'][1]:.1f}: {row['chances']} chances, "
                         f"captain rule passes {row['captain_rule_passes']}, risk rule {row['risk_rule_passes']}; "
                         f"after the {crashed['of']} passes made the next turn "
                         f"crashed {crashed['count']} ({rate_text}); passing pays: {row['passing_pays']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.captain_study", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="game seeds per comparison (x 2 seatings)")
    parser.add_argument("--referee", default="physics")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--sea-dogs-opponents", default="expert")
    parser.add_argument("--completion", default="captain,learned", help="models whose completion rates to measure")
    parser.add_argument("--pass-rules", default=",".join(PASS_RULES),
                        help="pass rules to judge with the captain's aim against its never-passing twin")
    parser.add_argument("--out", default=None, metavar="FILE.json", help="write the record here")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    from kipp.players.models import MODELS
    from sim.referees import referee_names

    if args.referee not in referee_names():
        parser.error(f"--referee: expected one of {', '.join(referee_names())}")
    if args.games < 2:
        parser.error("--games must be at least 2 (an interval needs two pairs)")
    lists = {}
    for name, known in (("opponents", MODELS), ("sea_dogs_opponents", MODELS), ("completion", MODELS),
                        ("pass_rules", PASS_RULES)):
        models = tuple(m for m in getattr(args, name).split(",") if m)
        unknown = [m for m in models if m not in known]
        if unknown:
            parser.error(f"--{name.replace('_', '-')}: unknown {unknown[0]!r}; known: {', '.join(known)}")
        lists[name] = models
    lists["completion_models"] = lists.pop("completion")
    out = Path(args.out) if args.out else None
    if out is not None and not out.parent.is_dir():
        parser.error(f"--out: no folder {out.parent}")
    wall, cpu = time.monotonic(), time.process_time()
    record = run(args.games, args.referee, args.seed, args.workers, progress=not args.no_progress, **lists)
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    record = {"command": "python -m lab.captain_study " + shlex.join(argv if argv is not None else sys.argv[1:]),
              "games": args.games, "seatings": 2, "referee": args.referee, "seed": args.seed,
              "workers": args.workers, "wall_s": round(time.monotonic() - wall, 1),
              "cpu_s": round(time.process_time() - cpu + children.ru_utime + children.ru_stime, 1), **record}
    print(report(record))
    print(f"{args.games} game seeds per comparison, {args.referee} referee, in {record['wall_s']:.0f} s wall, "
          f"{record['cpu_s']:.0f} s CPU")
    if out is not None:
        out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
