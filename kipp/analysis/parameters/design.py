"""``kipp design``: the value of one parameter that gives a target completion rate.

A designer asks: at which thread pitch (or friction, barrel height, ...) does a casual player
complete 30% of towers? The answer, for a player model and variant, with a 95% interval:

1. *Survey*: :data:`SURVEY_VALUES` values spread evenly over the parameter's plausible range
   each play ``rounds`` rounds; the same rounds at every value (round ``k`` draws its barrel
   line, die rolls and placement errors from the streams ``("design", k, ...)`` whatever the
   value: common random numbers, so the response is measured with little noise).
2. *Fit*: a logistic response P(complete) = 1 / (1 + exp(-(a + b x))) by maximum likelihood
   over every round played, inverted at the target: x = (logit(target) - a) / b. If the
   target lies outside what the fit gives over the range (with the survey's own values
   unable to bracket it either), the answer is that it cannot be reached there
   (:class:`Unreachable`).
3. *Refine*: :data:`REFINE_VALUES` values around that first answer (it and +- a tenth of the
   range) each play ``2 x rounds`` more rounds, and the fit is made again with all rounds.
4. *Interval*: a bootstrap over rounds (:data:`BOOTSTRAP` resamples of the round indices ``k``,
   each taking round ``k`` at every value together, since the values share its luck), the fit
   and its inversion repeated on each; the 2.5% and 97.5% quantiles, within the range.

The plausible range is :mod:`kipp.analysis.parameters.uncertain`'s for the parameters it lists (thread
pitch 2.5-5 mm per turn, ...), else the parameter file's allowed range (:func:`sim.params.key_range`),
else ``--range``. Rounds go to a results file as blocks finish (resumable, worker-invariant);
a parameter moves every arm's set through the parameter file's own rules (:func:`sim.params.load_params`).
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from kipp.analysis.executor import ONE_WORKER, Execution
from kipp.analysis.parameters.uncertain import UNCERTAIN, Spread, lookup, nested
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.resumable import Stored, run_remaining
from kipp.analysis.rounds import RoundModel, play_round, round_line
from kipp.analysis.stats import wilson_interval
from kipp.language import N_, SOURCE_LANGUAGE, Language
from kipp.language.columns import column_width
from kipp.rules.replay import params_fingerprint
from sim.params import Params, key_range, load_params, resolve_tables
from sim.referees import shared_referee
from sim.seeds import stream

KIND = "kipp design"
COLUMNS = [("value", "REAL"), ("data", "TEXT")]
"""One row per block: the parameter's value and the block's rounds (JSON: first round, completions)."""
SURVEY_VALUES = 5
REFINE_VALUES = 3
BLOCK = 20
"""Rounds per task."""
BOOTSTRAP = 400
FAMILY = "design"


class DesignError(ValueError):
    """The question cannot be asked: an unknown or non-numeric key, no range, a target outside (0, 1)."""


class Unreachable(ValueError):
    """The target completion rate is not reached anywhere in the range (the message says what is)."""


def plausible_range(key: str, raw: dict) -> tuple[float, float] | None:
    """The plausible range of ``key`` (its value in the resolved tables ``raw`` moved by
    :data:`~kipp.analysis.parameters.uncertain.UNCERTAIN`'s spread where it lists the key, else the file's
    allowed range); None where neither gives a finite one."""
    for u in UNCERTAIN:
        if key in u.keys and u.spread is not Spread.SCREW_RADIUS:
            value = float(lookup(raw, key))
            if u.spread is Spread.ABSOLUTE:
                return u.low, u.high
            return (value + u.low, value + u.high) if u.spread is Spread.SHIFT else (value * u.low, value * u.high)
    low, high = key_range(key)
    return (low, high) if math.isfinite(low) and math.isfinite(high) else None


@dataclass(frozen=True)
class Question:
    """What is asked (stored in, and checked against, the results file)."""

    model: RoundModel
    key: str
    target: float
    low: float
    high: float
    seed: int
    rounds: int
    referee_name: str
    params_id: str

    def options(self) -> dict:
        return {**asdict(self.model), "key": self.key, "target": self.target, "low": self.low, "high": self.high,
                "seed": self.seed, "rounds": self.rounds, "referee": self.referee_name, "params": self.params_id,
                "block": BLOCK}


def ask(model: RoundModel, key: str, target: float, *, seed: int = 0, rounds: int = 200,
        params_path: str | Path | None = None, value_range: tuple[float, float] | None = None,
        referee_name: str = "fast") -> Question:
    """Check and state the question; :class:`DesignError` says what is wrong with it."""
    if not 0 < target < 1:
        raise DesignError(f"--target: expected a completion rate between 0 and 1, got {target:g}")
    raw = resolve_tables(params_path)
    try:
        value = lookup(raw, key)
        key_range(key)
    except KeyError:
        raise DesignError(f"--param: {key!r} is not a numeric key of the parameter file (e.g. "
                          "ship.thread_pitch_mm, friction.mu, barrels.large.mass_g; see `kipp params`)") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DesignError(f"--param: {key} is not a number")
    if isinstance(value, int):
        raise DesignError(f"--param: {key} is a whole number; the design needs a continuous parameter")
    span = value_range if value_range is not None else plausible_range(key, raw)
    if span is None:
        raise DesignError(f"--param: {key} has no finite plausible range; give one with --range LOW,HIGH")
    low, high = map(float, span)
    allowed = key_range(key)
    if not (allowed[0] <= low < high <= allowed[1]):
        raise DesignError(f"--range: expected {allowed[0]:g} <= LOW < HIGH <= {allowed[1]:g} for {key}, "
                          f"got {low:g},{high:g}")
    return Question(model, key, target, low, high, seed, rounds, referee_name,
                    params_fingerprint(load_params(params_path)))


def design_block(question: Question, params: Params, value: float, first: int,
                 count: int) -> tuple[float, int, list[int]]:
    """A task: rounds ``first .. first + count - 1`` at ``value`` (completed: 1 or 0 each), with the
    question's referee."""
    ref = shared_referee(question.referee_name, params)
    bot, config = question.model.bot(params), question.model.config()
    done = [int(play_round(round_line(question.seed, k, question.model.barrels), ref, bot, config, question.seed,
                           k, FAMILY).completed) for k in range(first, first + count)]
    return value, first, done


def fit_logistic(x: np.ndarray, done: np.ndarray, weights: np.ndarray | None = None) -> tuple[float, float]:
    """(a, b) of P = expit(a + b x) by maximum likelihood (Newton's method; a tiny ridge keeps a
    separated sample finite). ``weights``: how often each observation counts (the bootstrap's)."""
    w = np.ones_like(x, dtype=float) if weights is None else weights.astype(float)
    centre, scale = float(np.average(x, weights=w)), float(np.ptp(x)) or 1.0
    z = (x - centre) / scale  # a well-conditioned Newton step
    beta = np.zeros(2)
    design = np.column_stack([np.ones_like(z), z])
    ridge = 1e-6 * np.eye(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-(design @ beta)))
        gradient = design.T @ (w * (done - p)) - ridge @ beta
        hessian = design.T @ (design * (w * p * (1 - p))[:, None]) + ridge
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    b = beta[1] / scale
    return float(beta[0] - b * centre), float(b)


def invert(a: float, b: float, target: float) -> float:
    """The x at which expit(a + b x) = target (nan for a flat fit)."""
    return (math.log(target / (1 - target)) - a) / b if b != 0 else math.nan


@dataclass(frozen=True)
class Answer:
    """The value of the parameter that gives the target, and what was played."""

    question: Question
    value: float
    low: float
    high: float
    """The 95% bootstrap interval, within the range."""
    a: float
    b: float
    """The fitted logistic response: P(complete) = 1 / (1 + exp(-(a + b x)))."""
    played: list[tuple[float, int, int]]
    """(value, rounds, completed) of every value played, in order of value."""


def _values_played(rows) -> dict[float, dict[int, list[int]]]:
    by_value: dict[float, dict[int, list[int]]] = {}
    for _key, value, data in rows:
        first, done = json.loads(data)
        by_value.setdefault(value, {})[first] = done
    return by_value


def _observations(by_value: dict[float, dict[int, list[int]]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, completed, round index) of every round played."""
    x, done, k = [], [], []
    for value, blocks in by_value.items():
        for first, block in blocks.items():
            x += [value] * len(block)
            done += block
            k += range(first, first + len(block))
    return np.array(x), np.array(done, dtype=float), np.array(k)


def design(question: Question, *, params_path: str | Path | None = None,
           out: str | Path | None = None, execution: Execution = ONE_WORKER) -> Answer:
    """Answer ``question`` (see the module docstring); :class:`Unreachable` if the target is out
    of the range. The rounds are played by the question's referee (by its name)."""
    if out is None:
        with tempfile.TemporaryDirectory(prefix="kipp-design-") as scratch:
            return design(question, params_path=params_path, out=Path(scratch) / "d.sqlite",
                          execution=execution)
    span = question.high - question.low
    with ResultsStore.open(out, KIND, question.options(), COLUMNS) as store:
        def play(values: list[float], rounds: int) -> None:
            def record(result) -> Stored:
                value, first, block = result
                return Stored([(_row_key(value, first), value, json.dumps([first, block]))], units=len(block))

            run_remaining(store, [(v, f) for v in values for f in range(0, rounds, BLOCK)], design_block,
                          lambda item: (question, _params_at(params_path, question.key, item[0]), item[0],
                                        item[1], min(BLOCK, rounds - item[1])),
                          record, execution,
                          done={(v, first) for v, blocks in _values_played(store.rows()).items() for first in blocks},
                          size=lambda item: min(BLOCK, rounds - item[1]), unit="round", desc=N_("values x rounds"))

        survey = [question.low + span * i / (SURVEY_VALUES - 1) for i in range(SURVEY_VALUES)]
        play(survey, question.rounds)
        # the survey's rounds alone (a resumed file holds the refinement's too)
        surveyed = {v: {f: blk for f, blk in blocks.items() if f < question.rounds}
                    for v, blocks in _values_played(store.rows()).items() if v in survey}
        x, done, _ = _observations(surveyed)
        a, b = fit_logistic(x, done)
        first = invert(a, b, question.target)
        _check_reachable(question, a, b, first, surveyed)
        refine = sorted({min(question.high, max(question.low, first + d * span / 10)) for d in (-1, 0, 1)})
        play(refine, 2 * question.rounds)
        by_value = _values_played(store.rows())
    x, done, k = _observations(by_value)
    a, b = fit_logistic(x, done)
    value = invert(a, b, question.target)
    _check_reachable(question, a, b, value, by_value)
    low, high = _bootstrap(question, x, done, k)
    played = [(v, sum(len(blk) for blk in blocks.values()), sum(sum(blk) for blk in blocks.values()))
              for v, blocks in sorted(by_value.items())]
    return Answer(question, value, min(low, value), max(high, value), a, b, played)


def _row_key(value: float, first: int) -> int:
    """A row's key: a hash of (value, first round), the same in every run."""
    return int(hashlib.sha256(f"{value!r}:{first}".encode()).hexdigest()[:15], 16)


def _params_at(path: str | Path | None, key: str, value: float) -> Params:
    return load_params(path, overrides=nested({key: value}))


def _check_reachable(question: Question, a: float, b: float, value: float,
                     by_value: dict[float, dict[int, list[int]]]) -> None:
    """:class:`Unreachable` unless the fitted response crosses the target within the range."""
    if math.isfinite(value) and question.low <= value <= question.high:
        return
    observed = []
    for v in (min(by_value), max(by_value)):
        blocks = by_value[v]
        n, c = sum(len(blk) for blk in blocks.values()), sum(sum(blk) for blk in blocks.values())
        lo, hi = wilson_interval(c, n)
        observed.append(f"{c / n:.3f} [{lo:.3f}, {hi:.3f}] at {v:g}")
    raise Unreachable(f"--target {question.target:g}: not reached for {question.key} within {question.low:g} to "
                      f"{question.high:g}: P(complete) runs from {observed[0]} to {observed[1]} "
                      f"({question.model.player}, {question.rounds} rounds per value)")


def _bootstrap(question: Question, x: np.ndarray, done: np.ndarray, k: np.ndarray) -> tuple[float, float]:
    """The 95% percentile interval of the inverted fit over resampled rounds (each round ``k`` at every
    value together), clipped to the range."""
    rounds = np.unique(k)
    position = np.searchsorted(rounds, k)
    rng = stream(question.seed, "bootstrap")
    answers = []
    for _ in range(BOOTSTRAP):
        counts = np.bincount(rng.integers(len(rounds), size=len(rounds)), minlength=len(rounds))
        a, b = fit_logistic(x, done, counts[position])
        value = invert(a, b, question.target)
        answers.append(question.low if not math.isfinite(value) else value)
    low, high = np.quantile(np.clip(answers, question.low, question.high), [0.025, 0.975])
    return float(low), float(high)


def format_answer(answer: Answer, language: Language | None = None) -> str:
    """The terminal report: the value found with its interval, the fitted response and every value
    played, in ``language`` (default English; the key, the target and the table's numbers as Python
    writes them)."""
    language = language or Language(SOURCE_LANGUAGE)
    _ = language.gettext
    q, m = answer.question, answer.question.model
    game = _("{barrels} barrels").format(barrels=m.barrels) + (_(", half turns") if m.half_turn else "")
    value, rounds, p_complete = _("value"), _("rounds"), _("P(complete) [95% Wilson]")
    value_width, rounds_width = column_width(10, "value", value), column_width(6, "rounds", rounds)
    lines = [_("{key} = {value} [{low}, {high}] gives P(complete) = {target} for {player}, {game} ({level} interval: "
               "bootstrap over rounds; referee {referee}; range {range_low} to {range_high}).").format(
                 key=q.key, value=f"{answer.value:.4g}", low=f"{answer.low:.4g}", high=f"{answer.high:.4g}",
                 target=f"{q.target:g}", player=m.player, game=game, level="95%", referee=q.referee_name,
                 range_low=language.decimal(float(q.low)), range_high=language.decimal(float(q.high))),
             _("Fitted response: P(complete) = 1 / (1 + exp(-({a} {b} x)))").format(a=f"{answer.a:.3f}",
                                                                                     b=f"{answer.b:+.4f}"),
             f"{value:>{value_width}}  {rounds:>{rounds_width}}  {p_complete}"]
    for value, n, c in answer.played:
        lo, hi = wilson_interval(c, n)
        lines.append(f"{value:{value_width}.4g}  {n:{rounds_width}d}  {c / n:.3f} [{lo:.3f}, {hi:.3f}]")
    return "\n".join(lines)
