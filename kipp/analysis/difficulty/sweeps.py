"""``kipp tune``'s sweeps: every (order, round) of a set of orders, written to a results file.

:func:`referee_sweep` plays every round with one named referee (``kipp tune --referee NAME``);
:func:`quality_sweep` runs the physics-quality estimate (:mod:`kipp.analysis.difficulty.quality_sweep`,
the command's default) and confirms its extremes (:mod:`kipp.analysis.difficulty.confirm`) if asked.

The sweep is split into tasks of a few orders each (:func:`tune_chunk`),
run on any :class:`concurrent.futures.Executor` with a bounded number in flight, and each
finished task's counts go to the SQLite results file in one transaction. A rerun with the
same file skips the orders already there. Seeds depend only on the round index (common
random numbers), so 1 worker, N workers and a Dask cluster store identical counts.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from kipp.analysis.difficulty.confirm import confirm
from kipp.analysis.difficulty.quality_plan import QualityRun
from kipp.analysis.difficulty.quality_sweep import QualityResult, read_quality, run_quality_sweep
from kipp.analysis.difficulty.ranking import Difficulty, ranking_verdict
from kipp.analysis.executor import Execution
from kipp.analysis.orders import mean_position, order_index, order_text, parse_order
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.resumable import Chunks, Stored, run_remaining
from kipp.analysis.rounds import RoundModel, play_round
from kipp.analysis.stats import histogram_moments, mean_interval_from_sums, wilson_interval
from kipp.language import N_, SOURCE_LANGUAGE, Language
from sim.params import Params
from sim.referees import shared_referee

KIND = "kipp tune"
COLUMNS = [("line", "TEXT"), ("rounds", "INTEGER"), ("completed", "INTEGER"),
           ("stacked_sum", "INTEGER"), ("stacked_hist", "TEXT")]
"""The results table: per order (key = order index), rounds played, rounds completed, the
total of barrels stacked, and the histogram of barrels stacked (comma-separated counts
for 0, 1, ... barrels)."""


@dataclass(frozen=True)
class OrderCounts:
    """An order's results over ``rounds`` rounds: completions and a histogram of barrels stacked."""

    index: int
    line: str
    rounds: int
    completed: int
    stacked_hist: tuple[int, ...]
    """``stacked_hist[b]``: rounds that ended with ``b`` barrels standing (b = 0..barrels)."""


def tune_chunk(model: RoundModel, referee: str, params: Params, seed: int, rounds: int,
               items: list[tuple[int, tuple[str, ...]]]) -> list[OrderCounts]:
    """A task of ``kipp tune``: every round ``0..rounds-1`` of each (index, order) in ``items``."""
    ref = shared_referee(referee, params)
    bot = model.bot(params)
    config = model.config()
    out = []
    for index, order in items:
        hist = [0] * (len(order) + 1)
        completed = 0
        for k in range(rounds):
            result = play_round(order, ref, bot, config, seed, k)
            completed += result.completed
            hist[result.stacked] += 1
        out.append(OrderCounts(index, order_text(order), rounds, completed, tuple(hist)))
    return out


@dataclass(frozen=True)
class TuneRun:
    """Everything that determines a sweep's counts (stored in, and checked against, the file)."""

    model: RoundModel
    seed: int
    rounds: int
    referee_name: str
    params_id: str
    orders_spec: str

    def options(self, orders: list[tuple[str, ...]]) -> dict:
        digest = hashlib.sha256(",".join(str(order_index(o)) for o in orders).encode()).hexdigest()[:16]
        return {**asdict(self.model), "seed": self.seed, "rounds": self.rounds,
                "referee": self.referee_name, "params": self.params_id,
                "orders": self.orders_spec, "orders_digest": digest}


def run_sweep(run: TuneRun, orders: list[tuple[str, ...]], params: Params, out: str | Path, *,
              workers: int = 1, scheduler: str | None = None,
              progress: bool = False, chunk: int | None = None) -> int:
    """Run the orders not yet in ``out`` with the referee ``run.referee_name``; return how many
    orders this call ran.

    Raises :class:`~kipp.analysis.results_store.ResultsFileError` for a file of other options.
    """
    def record(results: list[OrderCounts]) -> Stored:
        return Stored([(r.index, r.line, r.rounds, r.completed, sum(b * c for b, c in enumerate(r.stacked_hist)),
                        ",".join(map(str, r.stacked_hist))) for r in results], units=run.rounds * len(results))

    with ResultsStore.open(out, KIND, run.options(orders), COLUMNS) as store:
        ran = run_remaining(store, [(order_index(o), o) for o in orders], tune_chunk,
                            lambda items: (run.model, run.referee_name, params, run.seed, run.rounds, items), record,
                            Execution(workers, scheduler, progress), key=lambda item: item[0], size=run.rounds,
                            chunks=Chunks(size=chunk), unit="round", desc=N_("orders x rounds"))
        return len(ran)


@dataclass(frozen=True)
class OrderSummary(Difficulty):
    """A :class:`Difficulty` counted from one referee's rounds."""

    rounds: int = 0
    completed: int = 0


def summarise_row(line: str, rounds: int, completed: int, hist: list[int]) -> OrderSummary:
    n, total, total_sq = histogram_moments(hist)
    mean, low, high = mean_interval_from_sums(total, total_sq, n, low=0.0, high=float(len(line)))
    p_low, p_high = wilson_interval(completed, rounds)
    return OrderSummary(line, completed / rounds, p_low, p_high, mean, low, high, mean_position(parse_order(line)),
                        rounds=rounds, completed=completed)


def read_summaries(out: str | Path) -> list[OrderSummary]:
    """Every order of a results file, summarised, by order index.

    Raises :class:`~kipp.analysis.results_store.ResultsFileError` for a file that is not ``kipp tune``'s.
    """
    with ResultsStore.read(out, KIND) as store:
        return [summarise_row(line, rounds, completed, [int(c) for c in hist.split(",")])
                for _key, line, rounds, completed, _stacked_sum, hist in store.rows()]


def ranked(summaries: list[OrderSummary]) -> list[OrderSummary]:
    """Hardest first: lowest P(complete), ties by fewest barrels stacked on average."""
    return sorted(summaries, key=lambda s: (s.p_complete, s.mean_stacked, s.line))


def _fmt(x: float, digits: int) -> str:
    return "   nan" if math.isnan(x) else f"{x:.{digits}f}"


TABLE_HEADINGS = (N_("rank"), N_("order"), N_("P(complete) [95% Wilson]"), N_("barrels stacked [95% bounded t]"),
                  N_("L pos"))
"""The columns of :func:`format_table` (and of the physics-quality table), translated where they are printed."""


def _aligned(header: tuple[str, ...], rows: list[tuple[str, ...]], right: tuple[int, ...]) -> list[str]:
    """``header`` and ``rows`` as lines of columns two spaces apart, each column as wide as its widest
    cell or heading; the columns ``right`` (indices) flush right, the others flush left."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]
    return ["  ".join(cell.rjust(width) if i in right else cell.ljust(width)
                      for i, (cell, width) in enumerate(zip(line, widths))).rstrip()
            for line in (header, *rows)]


def format_table(summaries: list[OrderSummary], top: int = 10, language: Language | None = None) -> str:
    """The terminal table: the ``top`` hardest and easiest orders with 95% intervals, in ``language``
    (default English; the table's numbers as Python writes them, those in sentences as the language does);
    each column as wide as its widest cell or heading."""
    language = language or Language(SOURCE_LANGUAGE)
    _, number = language.gettext, language.decimal
    order = ranked(summaries)
    header = tuple(_(heading) for heading in TABLE_HEADINGS)

    def table(items) -> list[str]:
        return _aligned(header, [(str(rank), s.line, f"{s.p_complete:.3f} [{s.p_low:.3f}, {s.p_high:.3f}]",
                                  f"{_fmt(s.mean_stacked, 2).strip()} [{_fmt(s.stacked_low, 2).strip()}, "
                                  f"{_fmt(s.stacked_high, 2).strip()}]", f"{s.large_position:.2f}")
                                 for rank, s in items], right=(0, 4))

    n = len(order)
    if n <= 2 * top:
        lines = [_("All {count} orders, hardest first (lowest P(complete), ties: fewest barrels stacked):").format(
                     count=n), *table(enumerate(order, start=1))]
    else:
        lines = [_("Hardest {top} of {count} orders (lowest P(complete), ties: fewest barrels stacked):").format(
                     top=top, count=n),
                 *table(enumerate(order[:top], start=1)), "",
                 _("Easiest {top} (easiest last):").format(top=top),
                 *table(enumerate(order[-top:], start=n - top + 1))]
    lines += ["", *ranking_verdict(order, top, language)]
    total_rounds = sum(s.rounds for s in summaries)
    completed = sum(s.completed for s in summaries)
    lo, hi = wilson_interval(completed, total_rounds) if total_rounds else (math.nan, math.nan)
    lines += ["", _("All orders: {completed} of {rounds} rounds completed ({share} [{low}, {high}]); "
                    "L pos = mean position of the large barrels (1 = bottom); bounded t = Student t within "
                    "0 to all barrels (a Wilson bound where the rounds have no spread).").format(
                  completed=completed, rounds=total_rounds,
                  share=number(completed / max(1, total_rounds), 3), low=number(lo, 3), high=number(hi, 3))]
    return "\n".join(lines)


def referee_sweep(run: TuneRun, orders: list[tuple[str, ...]], params: Params, out: str | Path, *,
                  workers: int = 1, scheduler: str | None = None,
                  progress: bool = False) -> list[OrderSummary]:
    """:func:`run_sweep` into ``out`` (resumed if it is there), then every order's summary."""
    run_sweep(run, orders, params, out, workers=workers, scheduler=scheduler, progress=progress)
    return read_summaries(out)


@dataclass(frozen=True)
class QualitySweep:
    """A physics-quality sweep's estimates and, if asked for, its extremes confirmed."""

    result: QualityResult
    confirmed: dict | None
    """The report of :func:`kipp.analysis.difficulty.confirm.confirm`, or None."""


def quality_sweep(run: QualityRun, orders: list[tuple[str, ...]], params: Params, out: str | Path, *,
                  workers: int = 1, scheduler: str | None = None, progress: bool = False,
                  confirm_top: int | None = None) -> QualitySweep:
    """:func:`~kipp.analysis.difficulty.quality_sweep.run_quality_sweep` into ``out`` (resumed if it is there),
    its estimates, and with ``confirm_top`` its ``confirm_top`` hardest and easiest orders played
    again on rounds of their own (:func:`~kipp.analysis.difficulty.confirm.confirm`, with ``run.fast``)."""
    run_quality_sweep(run, orders, params, out, workers=workers, scheduler=scheduler,
                      progress=progress)
    result = read_quality(out, orders)
    confirmed = (confirm(out, params, confirm_top, workers=workers, progress=progress, orders=orders)
                 if confirm_top is not None else None)
    return QualitySweep(result, confirmed)


def game_words(model: RoundModel, language: Language | None = None) -> str:
    """The game a sweep played, in words: its barrels and whether the sailors turn half a revolution
    (in ``language``, default English: the English is what files such as the CSV's comment keep)."""
    _ = (language or Language(SOURCE_LANGUAGE)).gettext
    half = _(", half turns") if model.half_turn else ""
    return _("{barrels} barrels").format(barrels=model.barrels) + half


def describe(model: RoundModel, bot, n_orders: int, language: Language | None = None) -> str:
    """What a sweep measured: the orders, barrels, variant and the player model's bot (in ``language``,
    default English)."""
    language = language or Language(SOURCE_LANGUAGE)
    return language.gettext("{orders} orders, {game}; player: {player} (aim {aim}, sigma {sigma} mm, wild "
                            "{wild})").format(
        orders=n_orders, game=game_words(model, language), player=model.player, aim=bot.aim,
        sigma=language.decimal(float(bot.sigma_mm)), wild=bot.wild)
