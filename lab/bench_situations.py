"""The benchmark situations: game situations labelled by the physics referee.

A situation is what a referee is asked in a game: a tower, a placement (or none, on a
blue roll) and a turn (or none, when a wild roll's sailor is still to be chosen). The set
is drawn from seeded games of two bots refereed by physics: every other game two casual bots
(centred towers), the others a skilled and an expert bot (towers leaning uphill of the coming
tilt, which fall off the old slice when a turn swings the slope round), and every other pair
of games with half turns: every decision the games asked for, plus the same tower and
placement with each other sailor turned instead (the die could have shown them). It keeps
every candidate whose static margin (:mod:`sim.static_check`, the worse of the two phases) is
within ``near_deg`` of zero -- that is where decisions flip -- (at most ``near_share`` of the
set, at least half of them from the skilled and expert games) and fills up to ``count`` with a
random sample of the others. Each situation carries the physics referee's decision
(``crashed``, ``phase``) and that of its plain fixed-length loop (``crashed_plain``), so
agreement is measured without re-running physics.

The shipped set is ``lab/data/benchmark_situations.json``; regenerate it with
``python -m lab.bench_situations --out lab/data/benchmark_situations.json --games 60
--count 500`` (the shipped sizes) after a
change to the physics or the default parameters (the file records the parameters'
fingerprint; :func:`load_situations` checks it with ``check_params``).

The draw depends on the fast referee's margins (``[fast]``): a placement its threshold says
crashes has no turn margin, and creep moves the barrel just placed. Those margins are fitted
on the set (:mod:`lab.margin_fit`), so a refit draws another set the next time. The shipped
set was drawn under the margins before its own fit, kept in
``lab/data/benchmark_draw_params.toml``: ``--params lab/data/benchmark_draw_params.toml``
draws it again: the same situations, placements, labels and static margins (compare its
output with the shipped file to check). New files record the margins they were
drawn under (``generator.drawn_with_fast``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from kipp.players.models import make_bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from sim.params import SCREWS, Params, ParamsError, load_params, physics_fingerprint
from sim.seeds import derived_seed, stream
from sim.tower import Decision, Placement, Situation, TowerState, Turn

FORMAT = "kipp-benchmark-situations"
VERSION = 2
MODEL_PAIRS = (("casual", "casual"), ("skilled", "expert"))
"""The two bots of benchmark game ``g``: ``MODEL_PAIRS[g % 2]``."""
DATA_FILE = "benchmark_situations.json"


@dataclass(frozen=True)
class BenchSituation:
    """One labelled situation: a :class:`sim.tower.Situation` (:attr:`situation`) with what the
    benchmark needs besides, the physics verdicts and where it came from (a separate type,
    since a situation to decide has no verdict yet). ``crashed``/``phase`` from the physics referee, ``crashed_plain``
    from its plain loop; ``game_seed`` of the game it came from; ``counterfactual``: another
    sailor than the one the game turned."""

    tower: TowerState
    placement: Placement | None
    turn: Turn | None
    crashed: bool
    phase: str | None
    crashed_plain: bool
    game_seed: int
    counterfactual: bool
    static_margin_deg: float
    models: str = "casual,casual"
    """The player models of the game it came from, comma-separated."""

    def to_dict(self) -> dict:
        p, t = self.placement, self.turn
        return {"tower": self.tower.to_dict(),
                "placement": None if p is None else {"size": p.size, "x_m": p.x_m, "y_m": p.y_m},
                "turn": None if t is None else {"sailor": t.sailor, "revolutions": t.revolutions},
                "crashed": self.crashed, "phase": self.phase, "crashed_plain": self.crashed_plain,
                "game_seed": self.game_seed, "counterfactual": self.counterfactual,
                "static_margin_deg": self.static_margin_deg, "models": self.models}

    @classmethod
    def from_dict(cls, data: dict) -> "BenchSituation":
        p, t = data["placement"], data["turn"]
        return cls(tower=TowerState.from_dict(data["tower"]),
                   placement=None if p is None else Placement(p["size"], float(p["x_m"]), float(p["y_m"])),
                   turn=None if t is None else Turn(t["sailor"], float(t["revolutions"])),
                   crashed=bool(data["crashed"]), phase=data["phase"], crashed_plain=bool(data["crashed_plain"]),
                   game_seed=int(data["game_seed"]), counterfactual=bool(data["counterfactual"]),
                   static_margin_deg=float(data["static_margin_deg"]), models=str(data["models"]))

    @property
    def situation(self) -> Situation:
        """The decision itself, without its labels."""
        return Situation(self.tower, self.placement, self.turn)


class _Recorder:
    """A referee that passes every question to ``inner`` and remembers it with the answer."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.calls: list[tuple[TowerState, Placement | None, Turn | None, Decision]] = []

    def new_tower(self) -> TowerState:
        return self.inner.new_tower()

    def decide(self, tower, placement, turn) -> Decision:
        decision = self.inner.decide(tower, placement, turn)
        self.calls.append((tower, placement, turn, decision))
        return decision


def candidates(params: Params, games: int, seed: int) -> list[tuple[int, str, bool, tuple, Decision | None]]:
    """(game seed, player models, counterfactual, situation, physics decision or None) from
    ``games`` seeded games: the bots of game ``g`` are ``MODEL_PAIRS[g % 2]``, and every other pair
    of games has half turns (the younger sailors' variant), whose faster turns shake the tower
    harder per degree."""
    from sim.referees.loop import LoopReferee

    found: list[tuple[int, str, bool, tuple, Decision | None]] = []
    for g in range(games):
        game_seed = derived_seed(seed, "benchmark game", g)
        config = GameConfig(players=("Bot 1", "Bot 2"), half_turn=(g // 2) % 2 == 1)
        recorder = _Recorder(LoopReferee(params))
        pair = MODEL_PAIRS[g % len(MODEL_PAIRS)]
        bots = [make_bot(model, name, params) for model, name in zip(pair, config.players)]
        play_game(config, recorder, bots, game_seed, params=params)
        models = ",".join(pair)
        for tower, placement, turn, decision in recorder.calls:
            found.append((game_seed, models, False, (tower, placement, turn), decision))
            if turn is None:
                continue
            for sailor in SCREWS:
                if sailor != turn.sailor:
                    found.append((game_seed, models, True, (tower, placement, Turn(sailor, turn.revolutions)), None))
    return found


def _half_from_leaning_play(near: np.ndarray, models: list[str], quota: int, rng: np.random.Generator) -> np.ndarray:
    """``quota`` of the close calls ``near`` (indices), at least half of them (as many as there
    are) from games of the leaning pair (``MODEL_PAIRS[1]``), the rest from the others."""
    leaning = ",".join(MODEL_PAIRS[1])
    is_leaning = np.array([m == leaning for m in models])
    take = min(int(is_leaning.sum()), quota - quota // 2)
    chosen = rng.choice(near[is_leaning], take, replace=False)
    rest = rng.choice(near[~is_leaning], min(int((~is_leaning).sum()), quota - take), replace=False)
    return np.sort(np.concatenate([chosen, rest]))


def generate(params: Params | None = None, *, games: int = 40, seed: int = 0, count: int = 400,
             near_deg: float = 1.5, near_share: float = 0.8, progress=None) -> dict:
    """The benchmark set as a JSON-ready dict (see the module docstring)."""
    from sim.referees.fast import FastReferee
    from sim.referees.loop import LoopReferee

    params = params if params is not None else load_params()
    found = candidates(params, games, seed)
    assessment = FastReferee(params).assess_batch([situation for *_, situation, _ in found])
    margin = np.fmin(assessment.place_margin_deg, np.where(assessment.place_crashed, np.nan,
                                                           assessment.turn_margin_deg))
    near = np.flatnonzero(np.abs(margin) <= near_deg)
    far = np.flatnonzero(~(np.abs(margin) <= near_deg))
    rng = stream(seed, "benchmark selection")
    if len(near) > near_share * count:  # keep some clear cases too, to measure agreement there
        near = _half_from_leaning_play(near, [found[i][1] for i in near], int(near_share * count), rng)
    fill = np.sort(rng.choice(far, min(len(far), count - len(near)), replace=False))
    chosen = np.sort(np.concatenate([near, fill])).astype(int)
    physics, plain = LoopReferee(params), LoopReferee(params, plain=True)
    situations = []
    for k, i in enumerate(chosen):
        game_seed, models, counterfactual, situation, decision = found[i]
        if decision is None:
            decision = physics.decide(*situation)
        reference = plain.decide(*situation)
        situations.append(BenchSituation(*situation, crashed=decision.crashed, phase=decision.phase,
                                         crashed_plain=reference.crashed, game_seed=game_seed,
                                         counterfactual=counterfactual,
                                         static_margin_deg=round(float(margin[i]), 6), models=models).to_dict())
        if progress is not None:
            progress(k + 1, len(chosen))
    return {"format": FORMAT, "version": VERSION, "params": physics_fingerprint(params),
            "generator": {"games": games, "seed": seed, "count": count, "near_deg": near_deg,
                          "candidates": len(found), "near": int(np.sum(np.abs(margin) <= near_deg)),
                          "model_pairs": [",".join(pair) for pair in MODEL_PAIRS],
                          "drawn_with_fast": asdict(params.fast)},
            "situations": situations}


def load_situations(path: str | Path | None = None, *, check_params: Params | None = None) -> list[BenchSituation]:
    """The situations of a benchmark file (default: the shipped set).

    With ``check_params``, raise ``ValueError`` if the file was labelled with other physics.
    """
    if path is None:
        text = resources.files("lab").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise ValueError(f"{path or DATA_FILE}: not a {FORMAT} file of version {VERSION}")
    if check_params is not None and data["params"] != physics_fingerprint(check_params):
        raise ValueError(f"{path or DATA_FILE}: labelled with other physics parameters "
                         f"({data['params']} != {physics_fingerprint(check_params)}); regenerate it")
    return [BenchSituation.from_dict(item) for item in data["situations"]]


@dataclass(frozen=True)
class Sampled:
    """A situation of a :func:`stratified_sample` and how many situations of the set it stands for."""

    situation: BenchSituation
    weight: int


def stratified_sample(situations: list[BenchSituation], nearest: int = 260, every: int = 10) -> list[Sampled]:
    """The ``nearest`` closest calls (smallest absolute static margin) all, each standing for itself,
    and every ``every``-th of the others by margin, each standing for ``every`` of them: the sum of
    the weights of the sampled situations that have a property estimates how many of the whole set
    have it (without bias: every situation is drawn with a known share), and it sees every close
    call, where verdicts flip. Of the shipped 500: 260 + 24, a little over half the work (in the
    set with leaning towers, 400 of the 500 are within 1.5 deg, and its flips lie at ranks up to
    242: the nearest 100 would have met a flip at weight 10).

    >>> sample = stratified_sample(load_situations())
    >>> len(sample), sum(s.weight for s in sample)
    (284, 500)
    """
    ranked = np.argsort(np.abs([s.static_margin_deg for s in situations]), kind="stable")
    return ([Sampled(situations[i], 1) for i in ranked[:nearest]]
            + [Sampled(situations[i], every) for i in ranked[nearest::every]])


def dumps(data: dict) -> str:
    """The file's text: the header, then one situation per line (readable diffs)."""
    header = json.dumps({k: v for k, v in data.items() if k != "situations"})
    rows = ",\n".join(json.dumps(s, separators=(",", ":")) for s in data["situations"])
    return header[:-1] + ', "situations": [\n' + rows + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.bench_situations",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="JSON file to write")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--near-deg", type=float, default=1.5)
    parser.add_argument("--params", default=None, metavar="FILE",
                        help="a parameter file over the defaults (TOML), e.g. the [fast] margins the shipped "
                             "set was drawn under: lab/data/benchmark_draw_params.toml")
    args = parser.parse_args(argv)
    try:
        params = load_params(args.params)
    except ParamsError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 2

    def progress(done: int, total: int) -> None:
        if done % 50 == 0 or done == total:
            print(f"labelled {done}/{total}", file=sys.stderr)

    data = generate(params, games=args.games, seed=args.seed, count=args.count, near_deg=args.near_deg,
                    progress=progress)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(dumps(data), encoding="utf-8")
    tmp.replace(out)
    crashed = sum(s["crashed"] for s in data["situations"])
    flips = sum(s["crashed"] != s["crashed_plain"] for s in data["situations"])
    print(f"{out}: {len(data['situations'])} situations ({data['generator']['near']} near the threshold "
          f"of {data['generator']['candidates']}), {crashed} crashes, {flips} differ from the plain loop",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
