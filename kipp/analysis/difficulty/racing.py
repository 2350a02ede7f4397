"""Racing: find the hardest and the easiest orders, spending rounds only where they decide it.

``kipp tune --find hardest:20,easiest:20`` asks for the 20 orders with the fewest barrels
stacked per round and the 20 with the most. Every order still in the race plays the same
new rounds (common random numbers, one tree of shared prefixes:
:mod:`kipp.analysis.shared_rounds`); after each batch the race compares the orders on the
rounds they all played. An order's value relative to the field is
``rel_o = mean_k (y_ok - m_k)`` (``m_k`` the mean of round ``k`` over the orders still in
the race for the same list), so the round's luck cancels and the comparison is as sharp as
the orders' differences allow. Each list has its own field: hard orders answer the round's
luck alike, and unlike easy ones, so measured against a field of both their deviations vary
several times as much. Its interval is ``rel_o +- z * se_o`` with ``z`` the normal quantile
of ``1 - (1 - confidence) / (2 * orders * looks)``: Bonferroni over every order and every
look at the data (batches double: 4, 8, 16, ... rounds, at most ``looks`` of them), so the
whole answer holds at the stated confidence.

After a batch, an order leaves the race for "hardest" when ``h`` other orders are surely
harder (their upper bounds lie below its lower bound); likewise for "easiest". A list is
*sure* when each of its orders is, at the stated confidence, no more than ``tolerance``
barrels easier than any order left out of it (its upper bound at most ``tolerance`` above
every other remaining order's lower bound): orders closer than that are not worth telling
apart (the default, 0.1 barrels, is a tenth of what one barrel more or less means), and
without it two near-equal orders at the boundary would keep a race going for ever. The
race ends when both lists are sure, or at ``max_rounds`` (the undecided are then reported
as such). Its cost is compared with a uniform sweep that gives every order the rounds the
race needed to decide (:attr:`RaceResult.uniform_rounds`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable

import numpy as np

from kipp.analysis.stats import Interval, mean_interval
from kipp.language import N_, SOURCE_LANGUAGE, Language


class FindError(ValueError):
    """A ``--find`` text that is not ``hardest:N``, ``easiest:N`` or both."""


@dataclass(frozen=True)
class Question:
    """How many hardest and easiest orders to find."""

    hardest: int = 0
    easiest: int = 0


def parse_find(text: str, n_orders: int) -> Question:
    """``hardest:20,easiest:20`` (either part may be left out) for ``n_orders`` orders."""
    counts = {"hardest": 0, "easiest": 0}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, count = part.partition(":")
        if name not in counts or not (count.isascii() and count.isdigit()) or len(count) > 9 or int(count) < 1:
            raise FindError(f"{part!r}: expected hardest:N or easiest:N with N a whole number >= 1")
        counts[name] = int(count)
    if not any(counts.values()):
        raise FindError(f"{text!r}: expected hardest:N, easiest:N or both, like hardest:20,easiest:20")
    if max(counts.values()) >= n_orders:
        raise FindError(f"{text!r}: asks for {max(counts.values())} of only {n_orders} orders")
    return Question(**counts)


@dataclass
class RaceResult:
    hardest: list[int]
    """Indices of the orders found hardest, hardest first (sure ones, then undecided ones
    if the race hit ``max_rounds``)."""
    easiest: list[int]
    """Easiest last."""
    sure: bool
    """Did both lists reach the stated confidence?"""
    rounds_per_order: dict[int, int]
    """Rounds each order played before it left the race (or at the end)."""
    means: dict[int, Interval]
    """Mean outcome per round with its 95% t interval, for the orders of both lists."""
    rounds_played: int
    """Order-rounds the race played."""
    uniform_rounds: int
    """Order-rounds a uniform sweep needs to decide with the same confidence: every order
    playing the rounds the race's finalists played."""
    batches: list[tuple[int, int]] = field(default_factory=list)
    """(rounds so far, orders in the race) after each batch."""
    undecided: dict[str, list[int]] = field(default_factory=dict)
    """Per list ("hardest", "easiest") that is not sure: the orders left out of it that its
    orders are not separated from (still in the race for it when the race stopped)."""


def race(n_orders: int, play: Callable[[np.ndarray, range], np.ndarray], question: Question, *,
         confidence: float = 0.95, tolerance: float = 0.1, first_rounds: int = 4, max_rounds: int = 4096,
         on_batch: Callable[[int, int], None] | None = None, most: float = math.inf) -> RaceResult:
    """Race ``n_orders`` orders; ``play(indices, rounds)`` returns the outcomes (rounds x orders)
    of the orders ``indices`` in the rounds ``rounds`` (the same rounds for all of them), each
    between 0 and ``most`` (the barrels of a round: the chosen orders' intervals stay within)."""
    looks = max(1, math.ceil(math.log2(max(2, max_rounds / first_rounds))) + 1)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / (2 * n_orders * looks))
    alive = np.arange(n_orders)
    history = np.zeros((0, n_orders), dtype=np.int16)  # rounds x orders in the race
    # per list: which of the orders in the race are still in the race for it
    fields = {"hardest": np.ones(n_orders, dtype=bool), "easiest": np.ones(n_orders, dtype=bool)}
    left: dict[int, int] = {}
    played = rounds = 0
    batches: list[tuple[int, int]] = []
    while True:
        batch = range(rounds, min(max_rounds, 2 * rounds if rounds else first_rounds))
        outcomes = np.asarray(play(alive, batch), dtype=np.int16)
        played += outcomes.size
        history = np.concatenate([history, outcomes])
        rounds = batch.stop
        keep_hard, hard, hard_sure = _field_side(history, fields["hardest"], z, question.hardest, tolerance, 1)
        keep_easy, easy, easy_sure = _field_side(history, fields["easiest"], z, question.easiest, tolerance, -1)
        keep = keep_hard | keep_easy
        sure = hard_sure and easy_sure
        if sure or rounds >= max_rounds:
            break
        for i in alive[~keep]:
            left[int(i)] = rounds
        alive, history = alive[keep], history[:, keep]
        fields = {"hardest": keep_hard[keep], "easiest": keep_easy[keep]}
        batches.append((rounds, len(alive)))
        if on_batch is not None:
            on_batch(rounds, len(alive))
    for i in alive:
        left[int(i)] = rounds
    batches.append((rounds, len(alive)))
    hardest = [int(alive[j]) for j in hard]
    easiest = [int(alive[j]) for j in easy][::-1]
    means = {int(alive[j]): mean_interval(history[:, j].tolist(), low=0.0, high=most) for j in (*hard, *easy)}
    undecided = {name: [int(alive[j]) for j in np.flatnonzero(kept) if j not in chosen]
                 for name, kept, chosen, decided in (("hardest", keep_hard, set(hard), hard_sure),
                                                     ("easiest", keep_easy, set(easy), easy_sure)) if not decided}
    return RaceResult(hardest, easiest, sure, left, means, played, rounds * n_orders, batches, undecided)


def _field_side(history: np.ndarray, field: np.ndarray, z: float, wanted: int, tolerance: float,
                sign: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """:func:`_side` for one list, its orders measured against their own field (``field``: which
    columns of ``history`` are still in the race for it; ``sign`` -1 for "the highest"):
    which columns stay, the list's columns (best first), and whether it is sure."""
    n = history.shape[1]
    if wanted == 0:
        return np.zeros(n, dtype=bool), np.zeros(0, dtype=int), True
    columns = np.flatnonzero(field)
    rel = sign * (history[:, columns] - history[:, columns].mean(axis=1, keepdims=True))
    mean, se = rel.mean(axis=0), rel.std(axis=0, ddof=1) / math.sqrt(history.shape[0])
    keep_in_field, best, sure = _side(mean - z * se, mean + z * se, wanted, tolerance)
    keep = np.zeros(n, dtype=bool)
    keep[columns[keep_in_field]] = True
    return keep, columns[best], sure


def _side(low: np.ndarray, high: np.ndarray, wanted: int, tolerance: float) -> tuple[np.ndarray, np.ndarray, bool]:
    """For "the ``wanted`` lowest": which orders stay in the race, the current best ``wanted``
    (lowest first), and whether that list is sure (see the module docstring)."""
    n = len(low)
    if wanted == 0:
        return np.zeros(n, dtype=bool), np.zeros(0, dtype=int), True
    # an order is out when `wanted` others are surely lower: their upper bounds below its lower one
    bar = np.partition(high, wanted - 1)[wanted - 1]
    keep = ~(low > bar)
    best = np.argsort((low + high) / 2, kind="stable")[:wanted]
    others = np.ones(n, dtype=bool)
    others[best] = False
    others &= keep
    sure = not others.any() or bool(high[best].max() <= low[others].min() + tolerance)
    return keep, best, sure


def _race_round(model, referee, params, seed: int, codes: bytes, length: int, k: int) -> np.ndarray:
    """A task: round ``k`` of the orders ``codes`` (see :func:`shared_player`), barrels stacked per order."""
    from kipp.analysis.shared_rounds import order_tree, play_round_shared
    from sim.referees import shared_referee

    shared = play_round_shared(order_tree(codes, length), shared_referee(referee, params), model.bot(params),
                               model.config(), params.ship, seed, k)
    return shared.stacked


def shared_player(orders, model, referee, params, seed: int, executor) -> Callable[[np.ndarray, range], np.ndarray]:
    """``play`` for :func:`race`: each round of the orders in the race is one task on ``executor``,
    played once per shared prefix; the outcome is barrels stacked."""
    from kipp.analysis.executor import run_tasks
    from kipp.analysis.shared_rounds import order_codes

    length = len(orders[0])

    def play(indices: np.ndarray, rounds: range) -> np.ndarray:
        codes = order_codes([orders[int(i)] for i in indices])
        results: dict[int, np.ndarray] = {}
        tasks = ((model, referee, params, seed, codes, length, k) for k in rounds)
        run_tasks(executor, _race_round_keyed, ((task[-1], *task) for task in tasks), max_in_flight=4,
                  on_result=lambda r: results.__setitem__(r[0], r[1]))
        return np.array([results[k] for k in rounds])

    return play


def _race_round_keyed(k: int, *task) -> tuple[int, np.ndarray]:
    return k, _race_round(*task)


def race_orders(orders, model, referee, params, seed: int, question: Question, *, workers: int = 1,
                scheduler: str | None = None, max_rounds: int = 4096, progress: bool | Language = False) -> RaceResult:
    """:func:`race` of ``orders`` for ``question`` with rounds of :func:`shared_player` on ``workers``
    processes (or the Dask cluster at ``scheduler``); with ``progress``, a line per batch on stderr (in its
    language when it is a :class:`~kipp.language.Language`)."""
    import sys

    from kipp.analysis.executor import open_executor, progress_words

    def report(rounds: int, left: int) -> None:
        if progress:
            line = progress_words(progress, N_("race: {rounds} rounds played, {left} of {orders} orders still in "
                                               "doubt"))
            print(line.format(rounds=rounds, left=left, orders=len(orders)), file=sys.stderr)

    with open_executor(workers, scheduler) as executor:
        play = shared_player(orders, model, referee, params, seed, executor)
        return race(len(orders), play, question, max_rounds=max_rounds, on_batch=report)


RACE_LISTS = (("hardest", N_("Hardest (fewest barrels stacked)"), N_("hardest first")),
              ("easiest", N_("Easiest"), N_("easiest last")))
"""Each list a race looks for: its name, title and the way it is ranked (translated where printed)."""


def format_race(result: RaceResult, orders, *, shown_rivals: int = 5, language: Language | None = None) -> str:
    """The terminal report of a race: sure or not, its cost against a uniform sweep, the lists found,
    in ``language`` (default English).

    A list the race could not decide is reported as not found: its orders are the likeliest so
    far, and the report says how many orders they are not separated from (naming the first
    ``shown_rivals``), rather than presenting them as the answer."""
    from kipp.analysis.orders import order_text

    language = language or Language(SOURCE_LANGUAGE)
    _, number = language.gettext, language.decimal
    verdict = (_("sure at {level} confidence").format(level="95%") if result.sure
               else _("NOT sure: the round limit came first"))
    lines = [_("Race {verdict}: {played} order-rounds played; a uniform sweep to the same confidence needs "
               "{uniform} ({ratio}x).").format(verdict=verdict, played=number(result.rounds_played),
                                              uniform=number(result.uniform_rounds),
                                              ratio=number(result.uniform_rounds / result.rounds_played, 1))]
    in_doubt = _(", in doubt")
    for (name, title, ranked), chosen in zip(RACE_LISTS, (result.hardest, result.easiest)):
        if not chosen:
            continue
        title, ranked = _(title), _(ranked)
        rivals = result.undecided.get(name)
        if rivals is None:
            lines += ["", f"{title}, {ranked}:"]
        else:
            rounds = max(result.rounds_per_order[i] for i in chosen)
            named = ", ".join(order_text(orders[i]) for i in rivals[:shown_rivals])
            more = (_(" and {count} more").format(count=number(len(rivals) - shown_rivals))
                    if len(rivals) > shown_rivals else "")
            lines += ["", language.ngettext(
                "{title}: NOT found in {rounds} rounds per order. The {chosen} likeliest so far ({ranked}) are not "
                "separated at {level} confidence from {count} other order still in doubt ({named}{more}); more "
                "--rounds decide it:",
                "{title}: NOT found in {rounds} rounds per order. The {chosen} likeliest so far ({ranked}) are not "
                "separated at {level} confidence from {count} other orders still in doubt ({named}{more}); more "
                "--rounds decide it:", len(rivals)).format(
                    title=title, rounds=number(rounds), chosen=len(chosen), ranked=ranked, level="95%",
                    count=number(len(rivals)), named=named, more=more)]
        for i in chosen:
            mean, low, high = result.means[i]
            line = _("{order}  {mean} [{low}, {high}] barrels stacked over {rounds} rounds").format(
                order=order_text(orders[i]), mean=f"{mean:5.2f}", low=f"{low:.2f}", high=f"{high:.2f}",
                rounds=result.rounds_per_order[i])
            lines.append(f"  {line}{'' if rivals is None else in_doubt}")
    return "\n".join(lines)
