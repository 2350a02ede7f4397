"""``kipp sensitivity``: how the answers move over each uncertain parameter's plausible range.

For every parameter of :data:`kipp.analysis.parameters.uncertain.UNCERTAIN` (or those asked for) the
*arms* are the parameter set with that parameter at the low and at the high end of its range,
besides the *default* arm (the set itself). Every arm plays the same rounds: round ``k`` of
every arm draws its barrel line, die rolls, placement errors and wild choices from the same
streams (``("sensitivity", k, ...)``, :func:`kipp.analysis.rounds.round_streams`), so an
arm differs from the default only by its parameter, and a parameter that changes nothing
gives an effect of exactly 0. In round ``k`` each arm plays

- the measured variant (``--barrels``, ``--half-turn``) with a line drawn for round ``k``;
- the same with the other turn (half instead of full, or full instead of half): the paired
  effect of half turns, P(complete, half) - P(complete, full);
- the same with the other barrel count (9 instead of 12, or 12 instead of 9): the paired
  effect of nine barrels, P(complete, 9) - P(complete, 12);
- a fixed panel of :data:`PANEL` orders (the two families' extremes, large barrels at the
  bottom and at the top, and orders drawn once for all from a fixed seed), each in round ``k``
  (played once per shared prefix, :mod:`kipp.analysis.shared_rounds`): its barrels stacked.

An arm's *effect* on a measurement is its paired difference from the default arm, round by
round, with a 95% interval that stays within what the difference can be
(:data:`kipp.analysis.stats.BOUNDED_T`: P(complete) differences in [-1, 1], barrels in
[-N, N], differences of the variants' effects in [-2, 2]). The panel's *rank correlation* is
Spearman's between the panel's mean barrels stacked in the arm and in the default arm, with a
95% percentile bootstrap over the rounds (the same resampled rounds for both arms; always in
[-1, 1]): near 1, the hardest and easiest orders keep their place.

Results go to a results file as blocks of :data:`BLOCK` rounds of one arm finish (one row
each); a rerun with the same file plays only the blocks missing, and more ``--games`` extend
it. Seeds depend on the round only, so 1 worker, N workers and a Dask cluster store the same.
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from kipp.analysis.executor import ONE_WORKER, Execution
from kipp.analysis.orders import order_text, parse_order, sample_orders
from kipp.analysis.parameters.uncertain import PLACEMENT_ERROR, UNCERTAIN, Side, Uncertain, arm_params, arm_value
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.resumable import Stored, run_remaining
from kipp.analysis.rounds import RoundModel, play_round, round_line
from kipp.analysis.shared_rounds import OrderTree, play_round_shared
from kipp.analysis.stats import BOUNDED_T, Interval, mean_interval, share_interval
from kipp.language import N_, SOURCE_LANGUAGE, Language
from kipp.language.columns import column_width, widest_extra
from kipp.rules.replay import params_fingerprint
from sim.params import Params, load_params, resolve_tables
from sim.referees import shared_referee
from sim.seeds import stream

KIND = "kipp sensitivity"
COLUMNS = [("arm", "INTEGER"), ("block", "INTEGER"), ("data", "TEXT")]
"""One row per finished block: the arm's index, the block, and its rounds' outcomes (JSON:
per measurement, one value per round)."""
BLOCK = 10
"""Rounds per task (and per row)."""
BLOCK_KEY = 1_000_000
"""A row's key: arm x BLOCK_KEY + block."""
PANEL = 24
"""Orders in the fixed panel (two family extremes and the rest drawn from :data:`PANEL_SEED`)."""
PANEL_SEED = 20261202
"""The panel is the same for every run (it is not the run's seed): rank correlations of two
runs compare the same orders."""
BOOTSTRAP = 400
"""Bootstrap resamples of the rounds for the panel's rank correlation."""
FAMILY = "sensitivity"
"""The stream family of the rounds (:func:`kipp.analysis.rounds.round_streams`)."""
MEASURES = ("completed", "stacked", "half_completed", "nine_completed")


@lru_cache(maxsize=2)
def panel_orders(barrels: int) -> tuple[tuple[str, ...], ...]:
    """The fixed panel: large barrels at the bottom (``LLLLMMMMSSSS``), at the top (``SSSSMMMMLLLL``),
    and :data:`PANEL` - 2 orders drawn with :data:`PANEL_SEED` (:func:`~kipp.analysis.orders.sample_orders`)."""
    each = barrels // 3
    ends = [parse_order("L" * each + "M" * each + "S" * each), parse_order("S" * each + "M" * each + "L" * each)]
    rest = [o for o in sample_orders(PANEL, barrels, PANEL_SEED) if o not in ends][:PANEL - 2]
    return tuple(ends + rest)


@dataclass(frozen=True)
class Arm:
    """One arm: a parameter at one side of its range (``parameter`` None: the default arm)."""

    parameter: str | None
    side: Side
    value: float
    """The parameter's value in this arm, in its unit (nan for the default arm)."""
    params: Params
    sigma_mm: float
    """The bot's placement error in this arm, mm."""


@dataclass(frozen=True)
class SensitivityRun:
    """Everything that determines the rounds (stored in, and checked against, the results file)."""

    model: RoundModel
    seed: int
    referee_name: str
    params_id: str
    parameters: tuple[str, ...]
    arms_id: tuple[str, ...] = ()
    """Every arm's parameter set and hand (:func:`arms_fingerprints`): a change of a range is another run."""

    def options(self) -> dict:
        return {**asdict(self.model), "seed": self.seed, "referee": self.referee_name, "params": self.params_id,
                "parameters": list(self.parameters), "arms": list(self.arms_id), "block": BLOCK, "panel": PANEL,
                "panel_seed": PANEL_SEED}


def arms_fingerprints(arms: list[Arm]) -> tuple[str, ...]:
    """Per arm, a hash of its parameter set and its hand (what its rounds depend on besides the run's options)."""
    return tuple(f"{params_fingerprint(a.params)}:{a.sigma_mm!r}" for a in arms)


def build_arms(model: RoundModel, parameters: tuple[Uncertain, ...], path: str | Path | None) -> list[Arm]:
    """The default arm first, then each parameter's low and high arm (``path``: ``--params``)."""
    base = load_params(path)
    raw = resolve_tables(path)
    sigma = model.bot(base).sigma_mm
    arms = [Arm(None, Side.DEFAULT, math.nan, base, sigma)]
    for u in parameters:
        for side in (Side.LOW, Side.HIGH):
            value = arm_value(u, side, raw, sigma)
            params = base if u.name == PLACEMENT_ERROR else arm_params(u, side, path)
            arms.append(Arm(u.name, side, value, params, value if u.name == PLACEMENT_ERROR else sigma))
    return arms


def sensitivity_block(model: RoundModel, referee: str, seed: int, arm_index: int, params: Params,
                      sigma_mm: float, block: int) -> tuple[int, int, dict[str, list[int]]]:
    """A task: rounds ``block * BLOCK ..`` of one arm, every measurement (see the module docstring)."""
    ref = shared_referee(referee, params)
    arm_model = replace(model, sigma_mm=sigma_mm)
    other_turn = replace(arm_model, half_turn=not model.half_turn)
    other_count = replace(arm_model, barrels=9 if model.barrels == 12 else 12)
    bot = arm_model.bot(params)
    configs = [m.config() for m in (arm_model, other_turn, other_count)]
    tree = OrderTree(list(panel_orders(model.barrels)))
    out: dict[str, list[int]] = {m: [] for m in MEASURES}
    out["panel"] = []
    for k in range(block * BLOCK, (block + 1) * BLOCK):
        line, other_line = round_line(seed, k, model.barrels), round_line(seed, k, other_count.barrels)
        measured = play_round(line, ref, bot, configs[0], seed, k, FAMILY)
        completed, stacked = measured.completed, measured.stacked
        half = play_round(line, ref, bot, configs[1], seed, k, FAMILY).completed
        nine = play_round(other_line, ref, bot, configs[2], seed, k, FAMILY).completed
        if model.half_turn:  # the effect of half turns: half minus full
            half, completed_full = completed, half
        else:
            completed_full = completed
        if model.barrels == 9:  # the effect of nine barrels: nine minus twelve
            nine, completed_twelve = completed, nine
        else:
            completed_twelve = completed
        out["completed"].append(int(completed))
        out["stacked"].append(stacked)
        out["half_completed"].append(int(half) - int(completed_full))
        out["nine_completed"].append(int(nine) - int(completed_twelve))
        shared = play_round_shared(tree, ref, bot, configs[0], params.ship, seed, k, FAMILY)
        out["panel"].append([int(s) for s in shared.stacked])
    return arm_index, block, out


def run_sensitivity(run: SensitivityRun, arms: list[Arm], games: int, out: str | Path, *,
                    execution: Execution = ONE_WORKER) -> dict[int, dict[str, np.ndarray]]:
    """Play the blocks of ``games`` rounds of every arm not yet in ``out``; return every arm's first
    ``games`` rounds (arm index -> measurement -> array, ``panel`` rounds x orders), played by the
    referee ``run.referee_name``.

    Raises
    :class:`~kipp.analysis.results_store.ResultsFileError` for a file of other options.
    """
    blocks = -(-games // BLOCK)
    with ResultsStore.open(out, KIND, run.options(), COLUMNS) as store:
        def record(result) -> Stored:
            a, b, data = result
            return Stored([(a * BLOCK_KEY + b, a, b, json.dumps(data))], units=BLOCK)

        run_remaining(store, [(a, b) for b in range(blocks) for a in range(len(arms))], sensitivity_block,
                      lambda item: (run.model, run.referee_name, run.seed, item[0], arms[item[0]].params,
                                    arms[item[0]].sigma_mm, item[1]),
                      record, execution, key=lambda item: item[0] * BLOCK_KEY + item[1],
                      size=BLOCK, unit="round", desc=N_("arms x rounds"))
        gathered: dict[int, dict[int, dict]] = {}
        for _key, a, b, data in store.rows():
            if b < blocks:
                gathered.setdefault(a, {})[b] = json.loads(data)
    result = {}
    for a, by_block in gathered.items():
        result[a] = {m: np.array([v for b in sorted(by_block) for v in by_block[b][m]])[:games]
                     for m in (*MEASURES, "panel")}
    return result


# --- effects ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    """A paired difference of an arm from the default arm: (mean, low, high), 95%."""

    mean: float
    low: float
    high: float

    @property
    def interval(self) -> Interval:
        return Interval(self.mean, self.low, self.high)

    def text(self, digits: int) -> str:
        return self.interval.text(digits, signed=True)

    def resolved(self) -> bool:
        """Does the 95% interval exclude 0?"""
        return self.interval.excludes_zero()


@dataclass(frozen=True)
class ArmEffects:
    """One arm's effects on every answer."""

    parameter: str
    side: Side
    value: float
    completed: Effect
    """On P(complete) of the measured variant."""
    stacked: Effect
    """On barrels stacked per round."""
    half_turns: Effect
    """On the paired effect of half turns on P(complete)."""
    nine_barrels: Effect
    """On the paired effect of nine barrels on P(complete)."""
    rank_correlation: Effect
    """Spearman's rank correlation of the panel's barrels stacked with the default arm's (1: same order)."""


@dataclass(frozen=True)
class SensitivityResult:
    """The default arm's answers and every other arm's effects."""

    model: RoundModel
    referee_name: str
    games: int
    seed: int
    completed: Interval
    stacked: Interval
    half_turns: Interval
    nine_barrels: Interval
    arms: list[ArmEffects]

    def size(self, parameter: str) -> float:
        """How far the parameter moves P(complete): the larger |effect| of its two arms."""
        return max(abs(a.completed.mean) for a in self.arms if a.parameter == parameter)

    def ranked(self) -> list[str]:
        """The parameters, largest effect on P(complete) first (ties: on barrels stacked)."""
        names = list(dict.fromkeys(a.parameter for a in self.arms))
        barrels = {n: max(abs(a.stacked.mean) for a in self.arms if a.parameter == n) for n in names}
        return sorted(names, key=lambda n: (-self.size(n), -barrels[n], n))


def _effect(differences: np.ndarray, bound: float) -> Effect:
    return Effect(*mean_interval(differences.tolist(), low=-bound, high=bound))


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation of two vectors (average ranks for ties; nan if one is constant)."""
    from scipy.stats import rankdata

    da, db = rankdata(a) - (len(a) + 1) / 2, rankdata(b) - (len(b) + 1) / 2
    norm = math.sqrt(float(da @ da) * float(db @ db))
    if norm == 0:
        return math.nan
    # (sqrt(x * x) == x in floating point, so identical rankings give exactly 1)
    return min(1.0, max(-1.0, float(da @ db) / norm))


def rank_correlation(arm_panel: np.ndarray, default_panel: np.ndarray, seed: int) -> Effect:
    """Spearman's rho of the panel's mean barrels stacked (rounds x orders) in an arm against the
    default arm, with a 95% percentile bootstrap over rounds (identical arms: exactly 1)."""
    rho = spearman(arm_panel.mean(axis=0), default_panel.mean(axis=0))
    if np.array_equal(arm_panel, default_panel):
        return Effect(rho, rho, rho)
    rng = stream(seed, "bootstrap")
    n = len(arm_panel)
    draws = []
    for _ in range(BOOTSTRAP):
        rows = rng.integers(n, size=n)
        draws.append(spearman(arm_panel[rows].mean(axis=0), default_panel[rows].mean(axis=0)))
    draws = np.array([d for d in draws if not math.isnan(d)])
    if math.isnan(rho) or not len(draws):
        return Effect(math.nan, math.nan, math.nan)
    low, high = np.quantile(draws, [0.025, 0.975])
    return Effect(rho, float(min(low, rho)), float(max(high, rho)))


def effects(run: SensitivityRun, arms: list[Arm], played: dict[int, dict[str, np.ndarray]],
            games: int) -> SensitivityResult:
    """The default arm's answers and every arm's paired effects (see the module docstring)."""
    base = played[0]
    n = len(base["completed"])
    completed = int(base["completed"].sum())
    barrels = run.model.barrels
    rows = []
    for index, arm in enumerate(arms[1:], start=1):
        got = played[index]
        rows.append(ArmEffects(
            arm.parameter, arm.side, arm.value,
            _effect(got["completed"] - base["completed"], 1.0),
            _effect(got["stacked"] - base["stacked"], float(barrels)),
            _effect(got["half_completed"] - base["half_completed"], 2.0),
            _effect(got["nine_completed"] - base["nine_completed"], 2.0),
            rank_correlation(got["panel"], base["panel"], run.seed)))
    return SensitivityResult(
        run.model, run.referee_name, games, run.seed, share_interval(completed, n),
        mean_interval(base["stacked"].tolist(), low=0.0, high=float(barrels)),
        mean_interval(base["half_completed"].tolist(), low=-1.0, high=1.0),
        mean_interval(base["nine_completed"].tolist(), low=-1.0, high=1.0), rows)


def sensitivity(model: RoundModel, games: int, *, seed: int = 0, params_path: str | Path | None = None,
                parameters: tuple[Uncertain, ...] = UNCERTAIN, referee: str = "fast",
                out: str | Path | None = None, execution: Execution = ONE_WORKER) -> SensitivityResult:
    """Play and summarise (a temporary results file without ``out``) with the referee called
    ``referee`` (:mod:`sim.referees`; the name is stored in the file)."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="kipp-sensitivity-") as scratch:
            return sensitivity(model, games, seed=seed, params_path=params_path, parameters=parameters,
                               referee=referee, out=Path(scratch) / "s.sqlite", execution=execution)
    arms = build_arms(model, parameters, params_path)
    run = SensitivityRun(model, seed, referee, params_fingerprint(arms[0].params),
                         tuple(u.name for u in parameters), arms_fingerprints(arms))
    played = run_sensitivity(run, arms, games, out, execution=execution)
    return effects(run, arms, played, games)


def to_json(result: SensitivityResult) -> dict:
    """The result as a JSON-ready dict (``--json``; :func:`from_json` reads it back)."""
    report = asdict(result)
    for arm in report["arms"]:
        arm["side"] = arm["side"].value
    return {"kind": KIND, **report}


def from_json(report: dict) -> SensitivityResult:
    """A result written by :func:`to_json` (``ValueError`` for another kind of report)."""
    if report.get("kind") != KIND:
        raise ValueError(f"not a {KIND} report (kind {report.get('kind')!r})")
    arms = [ArmEffects(a["parameter"], Side(a["side"]), a["value"],
                       *(Effect(**a[name]) for name in ("completed", "stacked", "half_turns", "nine_barrels",
                                                         "rank_correlation")))
            for a in report["arms"]]
    return SensitivityResult(RoundModel(**report["model"]), report["referee_name"], report["games"], report["seed"],
                             *(Interval(*report[name]) for name in ("completed", "stacked", "half_turns",
                                                                    "nine_barrels")), arms)


# --- the report -------------------------------------------------------------------------------

SIDE_WORDS = {"low": N_("low"), "default": N_("default"), "high": N_("high")}
"""Each :class:`~kipp.analysis.parameters.uncertain.Side` as the table shows it (translated there)."""

REPORT_HEADINGS = ((N_("parameter"), 22, "<"), (N_("range"), 18, "<"), (N_("end"), 5, "<"), (N_("value"), 8, ">"),
                   (N_("P(complete)"), 25, "<"), (N_("barrels stacked"), 24, "<"), (N_("half-turn effect"), 25, "<"),
                   (N_("nine-barrel effect"), 25, "<"), (N_("panel rank corr."), 22, "<"))
"""The columns of :func:`format_result`: heading, width in English, alignment."""


def headline(result: SensitivityResult, language: Language | None = None) -> str:
    """Which measurement of a real set would change the answers most (the players' hand aside),
    and which parameters the referee did not feel at all (in ``language``, default English)."""
    from kipp.analysis.parameters.uncertain import by_name

    language = language or Language(SOURCE_LANGUAGE)
    _ = language.gettext
    of_set = [n for n in result.ranked() if n != PLACEMENT_ERROR]
    if not of_set:
        return _("No parameter of the set was varied.")
    first = of_set[0]
    arms = [a for a in result.arms if a.parameter == first]
    at_end = {"low": N_("{effect} at its low end ({value})"), "high": N_("{effect} at its high end ({value})"),
              "default": N_("{effect} at its default end ({value})")}
    moves = _(" and ").join(_(at_end[a.side.value]).format(effect=a.completed.text(3),
                                                           value=language.decimal(float(f"{a.value:.4g}")))
                            for a in arms)
    sure = any(a.completed.resolved() for a in arms)
    text = (_("Measure first: the {parameter}. Over its plausible range it moves P(complete) by {moves}").format(
                parameter=first, moves=moves)
            + ("." if sure else _(", but that is not resolved at {level} with these rounds: play more to be "
                                  "sure.").format(level="95%"))
            + _(" How: {how}.").format(how=_(by_name(first).how_to_measure)))
    if len(of_set) > 1:
        text += _(" Then: {parameters}.").format(parameters=", ".join(of_set[1:4]))
    idle = [n for n in of_set if all(a.completed.mean == a.stacked.mean == 0 and a.rank_correlation.mean == 1
                                     for a in result.arms if a.parameter == n)]
    if idle:
        text += "\n" + _("Exactly no effect on the {referee} referee (every round the same at both ends): "
                         "{parameters}; that referee may not model it, so judge it with physics.").format(
                             referee=result.referee_name, parameters=", ".join(idle))
    return text


def format_result(result: SensitivityResult, language: Language | None = None) -> str:
    """The terminal report: headline, the default arm's answers, the table sorted by effect size, in
    ``language`` (default English; parameter names as ``--only`` takes them, the table's numbers as
    Python writes them)."""
    from kipp.analysis.parameters.uncertain import by_name

    language = language or Language(SOURCE_LANGUAGE)
    _ = language.gettext
    m = result.model
    variant = _("{barrels} barrels").format(barrels=m.barrels) + (_(", half turns") if m.half_turn else "")
    p, s, h, nine = result.completed, result.stacked, result.half_turns, result.nine_barrels
    names = result.ranked()
    widths = [column_width(width, heading, _(heading)) for heading, width, _align in REPORT_HEADINGS]
    ranges = [(by_name(name).range_text(), by_name(name).range_text(language)) for name in names]
    sides = [(a.side.value, _(SIDE_WORDS[a.side.value])) for a in result.arms]
    widths[1] = 18 + widest_extra([("range", _("range")), *ranges])
    widths[2] = 5 + widest_extra([("end", _("end")), *sides])
    header = [f"{_(heading):{align}{width}}" for (heading, _width, align), width in zip(REPORT_HEADINGS, widths)]
    lines = [
        headline(result, language), "",
        _("Player {player}, {variant}; referee {referee}; {rounds} rounds per arm, the same rounds in every arm "
          "(seed {seed}).").format(player=m.player, variant=variant, referee=result.referee_name, rounds=result.games,
                                   seed=result.seed),
        _("Default set: P(complete) {completed} (Wilson), barrels stacked {stacked}; effect of half turns on "
          "P(complete) {half_turns}, of nine barrels {nine_barrels}.").format(
              completed=p.text(3), stacked=s.text(2), half_turns=h.text(3, signed=True),
              nine_barrels=nine.text(3, signed=True)),
        "",
        _("Effects of each parameter's low and high end against the default set, paired round by round, largest "
          "first [95%: {bounded_t}; rank correlation: percentile bootstrap over rounds]:").format(
              bounded_t=_(BOUNDED_T)),
        " ".join(header[:4]) + "  " + " ".join(header[4:]),
    ]
    for name in names:
        for a in (a for a in result.arms if a.parameter == name):
            lines.append(f"{name:<{widths[0]}} {by_name(name).range_text(language):<{widths[1]}} "
                         f"{_(SIDE_WORDS[a.side.value]):<{widths[2]}} {a.value:{widths[3]}.4g}  "
                         f"{a.completed.text(3):<{widths[4]}} {a.stacked.text(2):<{widths[5]}} "
                         f"{a.half_turns.text(3):<{widths[6]}} {a.nine_barrels.text(3):<{widths[7]}} "
                         f"{a.rank_correlation.mean:.2f} [{a.rank_correlation.low:.2f}, {a.rank_correlation.high:.2f}]")
    lines += ["", _("Panel: {panel} fixed orders ({first}, {second} and {drawn} drawn once for all); a rank "
                    "correlation near 1 means the hardest and easiest orders keep their place.").format(
                  panel=PANEL, first=order_text(panel_orders(m.barrels)[0]),
                  second=order_text(panel_orders(m.barrels)[1]), drawn=PANEL - 2)]
    return "\n".join(lines)
