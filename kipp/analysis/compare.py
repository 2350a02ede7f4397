"""``kipp compare``: the standard game against the variants, with common random numbers.

Arms: the standard game, half turns, nine barrels, both younger-sailor variants, and Old
Sea Dogs. Game ``g`` of every arm is played from the same seed (:func:`game_seed`), so
the arms share die rolls and each bot's placement errors stream; differences between
arms are then measured game by game (paired), with much less noise than independent
samples. Game ``g`` of an arm is exactly ``kipp game --seed <game_seed(root, g)> --players K``
with that arm's flags. Games go to a results file (:class:`~kipp.analysis.results_store.ResultsStore`)
as their tasks finish, and a rerun with the same file plays only the games missing from it.
"""

from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from kipp.analysis.executor import Execution
from kipp.analysis.results_store import ResultsStore
from kipp.analysis.resumable import Chunks, Stored, run_remaining
from kipp.analysis.stats import BOUNDED_T, UNDEFINED, Interval, mean_interval, share_interval
from kipp.language import N_, SOURCE_LANGUAGE, Language
from kipp.language.columns import column_width, widest_extra
from kipp.players.models import DEFAULT_MODEL, make_bot
from kipp.rules.config import ROUNDS, GameConfig
from kipp.rules.play import play_game
from kipp.rules.replay import params_fingerprint
from sim.params import Params
from sim.referees import shared_referee
from sim.seeds import derived_seed

ARMS: dict[str, dict] = {
    "standard": {},
    "half turns": {"half_turn": True},
    "nine barrels": {"barrels": 9},
    "half + nine": {"half_turn": True, "barrels": 9},
    "Old Sea Dogs": {"sea_dogs": True},
}
"""Arm name -> :class:`GameConfig` switches."""

ARM_WORDS = {"standard": N_("standard"), "half turns": N_("half turns"), "nine barrels": N_("nine barrels"),
             "half + nine": N_("half + nine"), "Old Sea Dogs": N_("Old Sea Dogs")}
"""Each arm's name as a table shows it (translated there); the results file keeps the name itself."""


def game_seed(root: int, g: int) -> int:
    """The seed of game ``g`` (a plain integer, to hand to ``kipp game --seed``)."""
    return derived_seed(root, "game", g)


def player_names(players: int) -> tuple[str, ...]:
    return tuple(f"Bot {i}" for i in range(1, players + 1))


@dataclass(frozen=True)
class GameRecord:
    """What one game of one arm gives the comparison."""

    arm: str
    game: int
    completed: tuple[bool, ...]
    """Per round: was the tower completed."""
    stacked: tuple[int, ...]
    """Per round: barrels standing at its end."""
    crashes: int
    winner_chips: int
    turns: int
    """Turns taken in the game (die rolls plus passes)."""


def play_arm_events(arm: str, players: int, referee, params: Params, root: int, g: int,
                    player: str = DEFAULT_MODEL) -> list[dict]:
    """The events (``kipp game --json --bots PLAYER``) of game ``g`` of ``arm``: every seat a bot
    of the player model ``player``."""
    names = player_names(players)
    config = GameConfig(players=names, **ARMS[arm])
    bots = [make_bot(player, name, params) for name in names]
    return play_game(config, referee, bots, game_seed(root, g), params=params).events()


def play_arm_game(arm: str, players: int, referee, params: Params, root: int, g: int,
                  player: str = DEFAULT_MODEL) -> GameRecord:
    """Game ``g`` of ``arm``, with the bots of ``kipp game --bots PLAYER``."""
    events = play_arm_events(arm, players, referee, params, root, g, player)
    ends = [e for e in events if e["event"] == "round_end"]
    return GameRecord(arm, g, tuple(bool(e["completed"]) for e in ends), tuple(int(e["stacked"]) for e in ends),
                      sum(e["event"] == "crash" for e in events), max(events[-1]["chips"]),
                      sum(e["event"] in ("roll", "pass") for e in events))


def compare_chunk(arms: tuple[str, ...], players: int, referee: str, params: Params, root: int,
                  player: str, games: list[int]) -> list[GameRecord]:
    """A task: games ``games`` of every arm, bots of the player model ``player``."""
    ref = shared_referee(referee, params)
    return [play_arm_game(arm, players, ref, params, root, g, player) for g in games for arm in arms]


@dataclass
class ArmSummary:
    """One arm's figures, each with its 95% interval."""

    arm: str
    games: int
    completion: Interval
    stacked: Interval
    crashes: Interval
    winner_chips: Interval
    turns: Interval
    completion_vs_standard: Interval = field(default=UNDEFINED)
    """Paired difference of the per-game completion rate from the standard arm's."""
    stacked_vs_standard: Interval = field(default=UNDEFINED)


METRICS = {
    "completion": N_("rounds completed"),
    "stacked": N_("barrels stacked / round"),
    "crashes": N_("crashes / game"),
    "winner_chips": N_("winner's chips"),
    "turns": N_("game length (turns)"),
}


KIND = "kipp compare"
COLUMNS = [("arm", "TEXT"), ("game", "INTEGER"), ("completed", "TEXT"), ("stacked", "TEXT"),
           ("crashes", "INTEGER"), ("winner_chips", "INTEGER"), ("turns", "INTEGER")]
"""The results table: one row per game of an arm (key = game x number of arms + the arm's
position); ``completed`` and ``stacked`` are the per-round values, comma-separated."""


def compare_options(*, players: int, seed: int, referee_name: str, params_id: str,
                    arms: tuple[str, ...], player: str = DEFAULT_MODEL) -> dict:
    """What determines every game (stored in, and checked against, the results file).

    The number of games is not among them: game ``g`` is the same game whatever
    ``--games`` is, so a rerun with more games extends the file and one with fewer
    reads its first games.
    """
    return {"players": players, "seed": seed, "referee": referee_name, "params": params_id,
            "arms": list(arms), "player": player}


def _row(record: GameRecord, arms: tuple[str, ...]) -> tuple:
    return (record.game * len(arms) + arms.index(record.arm), record.arm, record.game,
            ",".join(str(int(c)) for c in record.completed), ",".join(map(str, record.stacked)),
            record.crashes, record.winner_chips, record.turns)


def _record(row: tuple) -> GameRecord:
    _key, arm, game, completed, stacked, crashes, winner_chips, turns = row
    return GameRecord(arm, game, tuple(c == "1" for c in completed.split(",")),
                      tuple(int(s) for s in stacked.split(",")), crashes, winner_chips, turns)


def run_compare(games: int, *, players: int = 2, seed: int = 0, params: Params, referee: str,
                workers: int = 1, scheduler: str | None = None, progress: bool = False,
                arms: tuple[str, ...] = tuple(ARMS), out: str | Path | None = None,
                player: str = DEFAULT_MODEL) -> list[ArmSummary]:
    """Play ``games`` games of every arm, every seat a bot of the player model ``player``, and summarise them.

    Games are written to the results file ``out`` as their tasks finish (a temporary
    file without ``out``); a rerun with the same file plays only the games not yet in it.
    ``referee`` is a referee's name (:mod:`sim.referees`), stored in the file. Raises
    :class:`~kipp.analysis.results_store.ResultsFileError` for a file of other options.
    """
    if out is None:
        with tempfile.TemporaryDirectory(prefix="kipp-compare-") as scratch:
            return run_compare(games, players=players, seed=seed, params=params, referee=referee,
                               workers=workers, scheduler=scheduler, progress=progress, arms=arms,
                               out=Path(scratch) / "results.sqlite", player=player)
    arms = tuple(arms)
    options = compare_options(players=players, seed=seed, referee_name=referee,
                              params_id=params_fingerprint(params), arms=arms, player=player)
    with ResultsStore.open(out, KIND, options, COLUMNS) as store:
        # A task writes every arm of its games in one transaction: a game is in the file whole or not at all.
        run_remaining(store, range(games), compare_chunk,
                      lambda chunk: (arms, players, referee, params, seed, player, chunk),
                      lambda results: Stored([_row(r, arms) for r in results], units=len(results)),
                      Execution(workers, scheduler, progress), done={key // len(arms) for key in store.done_keys()},
                      size=len(arms), chunks=Chunks(largest=16), unit="game", desc=N_("games x arms"))
        records: dict[str, dict[int, GameRecord]] = {arm: {} for arm in arms}
        for row in store.rows():
            r = _record(row)
            if r.game < games:
                records[r.arm][r.game] = r
    return summarise(records)


def arm_barrels(arm: str) -> int:
    """Barrels of a round of ``arm`` (the most a round can stack)."""
    return GameConfig(players=("Bot",), **ARMS[arm]).barrels


def summarise(records: dict[str, dict[int, GameRecord]]) -> list[ArmSummary]:
    """Per-arm intervals, and paired differences from ``standard`` when it is an arm.

    Every interval stays within what its quantity can be (:mod:`kipp.analysis.stats`): Wilson
    for the share of rounds completed, :data:`~kipp.analysis.stats.BOUNDED_T` for the means
    (barrels stacked in [0, barrels], crashes per game in [0, rounds per game], the winner's
    chips in [0, all chips], turns >= 0) and for the paired differences (of shares in [-1, 1],
    of barrels stacked within +- the larger arm's barrels).
    """
    out = []
    base = records.get("standard")
    chips = GameConfig(players=("Bot",)).total_chips
    for arm, by_game in records.items():
        games = [by_game[g] for g in sorted(by_game)]
        rounds = sum(len(r.completed) for r in games)
        done = sum(sum(r.completed) for r in games)
        barrels = arm_barrels(arm)
        summary = ArmSummary(
            arm, len(games), share_interval(done, rounds),
            mean_interval([s for r in games for s in r.stacked], low=0.0, high=barrels),
            mean_interval([r.crashes for r in games], low=0.0, high=ROUNDS),
            mean_interval([r.winner_chips for r in games], low=0.0, high=chips),
            mean_interval([r.turns for r in games], low=0.0))
        if base is not None and arm != "standard":
            pairs = [(r, base[r.game]) for r in games if r.game in base]
            most = max(barrels, arm_barrels("standard"))
            summary.completion_vs_standard = mean_interval(
                [sum(a.completed) / len(a.completed) - sum(b.completed) / len(b.completed) for a, b in pairs],
                low=-1.0, high=1.0)
            summary.stacked_vs_standard = mean_interval(
                [sum(a.stacked) / len(a.stacked) - sum(b.stacked) / len(b.stacked) for a, b in pairs],
                low=-most, high=most)
        out.append(summary)
    return out


def compare_panel(summaries: Sequence, metric: str, ax=None, about: str = ""):
    """One metric of ``kipp compare`` per arm with its 95% interval, titled with the metric and
    ``about``; returns the errorbar container."""
    from kipp.analysis.plots import axes_or_new

    ax = axes_or_new(ax)
    values = [getattr(s, metric) for s in summaries]
    y = np.array([v[0] for v in values])
    err = np.vstack([np.nan_to_num(y - np.array([v[1] for v in values])),
                     np.nan_to_num(np.array([v[2] for v in values]) - y)])
    x = np.arange(len(values))
    drawn = ax.errorbar(x, y, yerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.set_xticks(x, [s.arm for s in summaries], rotation=25, ha="right")
    ax.set_title(METRICS[metric] + (f"\n{about}" if about else ""), fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    return drawn


def compare_figure(summaries: Sequence, about: str):
    """The ``kipp compare --plot`` figure: one panel per metric, each titled with ``about``
    (player model, referee, games per arm)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 4), layout="constrained")
    for metric, ax in zip(METRICS, axes):
        compare_panel(summaries, metric, ax, about)
    return fig


NOT_RESOLVED = N_("not resolved")
"""What :func:`verdict` says of a difference whose 95% interval holds 0."""
MORE, FEWER = N_("more"), N_("fewer")
"""What :func:`format_compare`'s verdicts say of a variant's difference told apart from none."""


def verdict(interval: Interval, more: str, less: str) -> str:
    """Plain words for a paired difference: ``more`` or ``less`` when its 95% interval excludes 0,
    else :data:`NOT_RESOLVED`."""
    interval = Interval(*interval)
    if interval.low > 0:
        return more
    if interval.high < 0:
        return less
    return NOT_RESOLVED


def _cell(interval: Interval, digits: int) -> str:
    """The interval as text; its value alone where it has no bounds (one game)."""
    interval = Interval(*interval)
    return f"{interval.value:.{digits}f}" if math.isnan(interval.low) else interval.text(digits)


def format_compare(summaries: list[ArmSummary], players: int, language: Language | None = None) -> str:
    """The terminal table: every metric with its 95% interval, and paired differences, in ``language``
    (default English); the numbers in its cells are written as Python writes them in every language."""
    _ = (language or Language(SOURCE_LANGUAGE)).gettext
    games = summaries[0].games if summaries else 0
    arm = _("arm")
    arm_width = 13 + widest_extra([("arm", arm), *((s.arm, _(ARM_WORDS.get(s.arm, s.arm))) for s in summaries)])
    widths = [arm_width] + [column_width(22, metric, _(metric)) for metric in METRICS.values()]
    header = [arm, *(_(metric) for metric in METRICS.values())]
    lines = [_("{games} games of {players} bots per arm, common random numbers across arms; "
               "[{level} interval: Wilson for rounds completed; for the means, {bounded_t}]").format(
                 games=games, players=players, level="95%", bounded_t=_(BOUNDED_T)),
             "  ".join(h.ljust(w) for h, w in zip(header, widths))]
    for s in summaries:
        cells = [_(ARM_WORDS.get(s.arm, s.arm)), _cell(s.completion, 3), _cell(s.stacked, 2), _cell(s.crashes, 2),
                 _cell(s.winner_chips, 2), _cell(s.turns, 1)]
        lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths)))
    paired = [s for s in summaries if not math.isnan(s.completion_vs_standard[0])]
    if paired:
        completed, stacked = _("rounds completed"), _("barrels stacked / round")
        completed_width = column_width(24, "rounds completed", completed)
        stacked_width = column_width(24, "barrels stacked / round", stacked)
        verdict_word = _("verdict")
        lines += ["", _("Difference from the standard game, paired game by game [95%: {bounded_t}]:").format(
                      bounded_t=_(BOUNDED_T)),
                  f"{arm:<{arm_width}}  {completed:<{completed_width}}  {stacked:<{stacked_width}}  {verdict_word}"]
        for s in paired:
            said = _("completed: {completed}; stacked: {stacked}").format(
                completed=_(verdict(s.completion_vs_standard, MORE, FEWER)),
                stacked=_(verdict(s.stacked_vs_standard, MORE, FEWER)))
            lines.append(f"{_(ARM_WORDS.get(s.arm, s.arm)):<{arm_width}}  "
                         f"{_cell(s.completion_vs_standard, 3):<{completed_width}}  "
                         f"{_cell(s.stacked_vs_standard, 2):<{stacked_width}}  {said}")
        lines.append(_("({not_resolved}: the {level} interval holds 0, so these games do not tell whether the variant "
                       "gives more or fewer)").format(not_resolved=_(NOT_RESOLVED), level="95%"))
    return "\n".join(lines)
