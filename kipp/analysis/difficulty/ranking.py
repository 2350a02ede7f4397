"""The ranking row of ``kipp tune``: one order's difficulty with its 95% intervals, and whether
a ranking of such rows tells its extremes apart.

Every estimate of :mod:`kipp.analysis.rounds` ends in :class:`Difficulty` rows (one referee's
counts, :mod:`~kipp.analysis.difficulty.sweeps`; the physics-quality estimate,
:mod:`~kipp.analysis.difficulty.quality_sweep`): what the tables, the plots
(:func:`kipp.analysis.plots.tune_figure`) and the CSV files (:mod:`kipp.analysis.export`) show.
"""

from __future__ import annotations

from dataclasses import dataclass

from kipp.language import SOURCE_LANGUAGE, Language


@dataclass(frozen=True)
class Difficulty:
    """One order's difficulty: P(complete) and mean barrels stacked, with 95% intervals
    (what the tables, plots and CSV files show, whichever estimate made it)."""

    line: str
    p_complete: float
    p_low: float
    p_high: float
    mean_stacked: float
    stacked_low: float
    stacked_high: float
    large_position: float
    """Mean position (1 = bottom) of the large barrels: a simple feature of the order."""


def ranking_verdict(order: list[Difficulty], top: int, language: Language | None = None) -> list[str]:
    """Plain lines saying whether the ``top`` hardest and easiest of ``order`` (ranked hardest
    first, by P(complete)) are told apart from the other orders at 95% on P(complete): resolved
    when no other order's interval reaches theirs (with every order listed, the single hardest
    and easiest order are judged). In ``language`` (default English)."""
    language = language or Language(SOURCE_LANGUAGE)
    _, number = language.gettext, language.decimal
    n = len(order)
    if n < 2:
        return []
    k = top if n > 2 * top else 1
    hardest_edge = max(s.p_high for s in order[:k])
    easiest_edge = min(s.p_low for s in order[-k:])
    lines = [_("Ranking at {level} confidence (P(complete)):").format(level="95%")]
    subjects = ((_("the {count} hardest"), _("the hardest order")), (_("the {count} easiest"), _("the easiest order")))
    for (some, one), reach in zip(subjects, (sum(s.p_low <= hardest_edge for s in order[k:]),
                                             sum(s.p_high >= easiest_edge for s in order[:-k]))):
        subject = some.format(count=number(k)) if k > 1 else one
        lines.append(f"  {subject}: " + (_("resolved (no other order's interval reaches theirs)") if not reach else
                                         _("NOT resolved: the intervals of {count} other orders reach theirs").format(
                                             count=number(reach))))
    return lines
