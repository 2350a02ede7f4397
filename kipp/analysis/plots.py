"""Plots of ``kipp tune`` and ``kipp sensitivity`` (matplotlib; ``kipp compare``'s figure is
:func:`kipp.analysis.compare.compare_figure`). Each function draws on ``ax`` (a new figure's axes if
None) and returns what it drew, so tests can look at the artists; :func:`save` writes a
figure. The caller picks the backend (``MPLBACKEND=Agg`` headless).

Every figure's title names what it shows and ``about``: the player model, the referee and the
sample size (rounds or games), e.g. ``"casual, fast referee, 200 rounds per order"``."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np


def axes_or_new(ax):
    """``ax``, or the axes of a new figure when it is None."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax


def difficulty_histogram(summaries: Sequence, ax=None, what: str = "mean_stacked", about: str = ""):
    """Histogram over orders of ``mean_stacked`` (default) or ``p_complete``, titled with the
    metric and ``about``; returns the bar patches."""
    ax = axes_or_new(ax)
    values = np.array([getattr(s, what) for s in summaries], dtype=float)
    label = {"mean_stacked": "mean barrels stacked per round", "p_complete": "P(round completed)"}[what]
    bins = min(30, max(5, int(math.sqrt(len(values))) + 1))
    # a probability keeps its whole scale, so that "all near 0" reads as such
    value_range = (0.0, 1.0) if what == "p_complete" else None
    _, _, patches = ax.hist(values, bins=bins, range=value_range, color="tab:blue", edgecolor="white")
    ax.set_xlabel(label)
    ax.set_ylabel("orders")
    what_text = {"mean_stacked": "Barrels stacked", "p_complete": "Rounds completed"}[what]
    ax.set_title(f"{what_text}: {len(values)} orders" + (f"\n{about}" if about else ""), fontsize="medium")
    return patches


def difficulty_vs_feature(summaries: Sequence, ax=None, feature: str = "large_position",
                          what: str = "mean_stacked", about: str = ""):
    """Each order's ``what`` (with its 95% interval) against ``feature``, titled with ``about``;
    returns the errorbar container."""
    ax = axes_or_new(ax)
    x = np.array([getattr(s, feature) for s in summaries], dtype=float)
    if what == "mean_stacked":
        y = np.array([s.mean_stacked for s in summaries])
        low = np.array([s.stacked_low for s in summaries])
        high = np.array([s.stacked_high for s in summaries])
        ax.set_ylabel("mean barrels stacked per round [95%, bounded]")
    else:
        y = np.array([s.p_complete for s in summaries])
        low = np.array([s.p_low for s in summaries])
        high = np.array([s.p_high for s in summaries])
        ax.set_ylabel("P(round completed) [95% Wilson]")
    err = np.vstack([np.nan_to_num(y - low), np.nan_to_num(high - y)])
    drawn = ax.errorbar(x, y, yerr=err, fmt="o", ms=3, alpha=0.6, elinewidth=0.6, color="tab:blue")
    ax.set_xlabel({"large_position": "mean position of the large barrels (1 = bottom)"}.get(feature, feature))
    ax.set_title(f"Difficulty against the large barrels' place: {len(x)} orders" + (f"\n{about}" if about else ""),
                 fontsize="medium")
    if len(x) > 2 and np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        xs = np.linspace(x.min(), x.max(), 2)
        ax.plot(xs, slope * xs + intercept, color="tab:red", lw=1.5, label=f"least squares, slope {slope:+.2f}")
        ax.legend(loc="best", fontsize="small")
    return drawn


def tune_figure(summaries: Sequence, about: str):
    """The ``kipp tune --plot`` figure: distributions of difficulty and difficulty vs a feature,
    each panel titled with its own metric and ``about`` (player model, referee, rounds)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.8), layout="constrained")
    difficulty_histogram(summaries, axes[0], "p_complete", about)
    difficulty_histogram(summaries, axes[1], "mean_stacked", about)
    difficulty_vs_feature(summaries, axes[2], about=about)
    return fig


def save(fig, path: str) -> None:
    """Write ``fig`` to ``path`` (PNG) and close it; ``OSError`` if the file cannot be written."""
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)


def tornado(result, ax=None, metric: str = "completed"):
    """``kipp sensitivity --plot``: per parameter (largest effect at the top) a bar from the default
    to its low end's and to its high end's effect on ``metric`` (``completed``: P(complete);
    ``stacked``: barrels stacked), each with its 95% interval; titled with the player model,
    the referee and the rounds per arm. Returns the bar containers (low, high)."""
    ax = axes_or_new(ax)
    names = result.ranked()[::-1]  # barh draws bottom up: the largest effect ends on top
    y = np.arange(len(names))
    drawn = []
    for side, colour, offset in (("low", "tab:blue", -0.18), ("high", "tab:red", 0.18)):
        arms = [next(a for a in result.arms if a.parameter == n and a.side.value == side) for n in names]
        effects = [getattr(a, metric) for a in arms]
        means = np.array([e.mean for e in effects])
        err = np.vstack([means - np.array([e.low for e in effects]), np.array([e.high for e in effects]) - means])
        drawn.append(ax.barh(y + offset, means, height=0.34, color=colour, label=f"{side} end of the range",
                             xerr=np.nan_to_num(err), error_kw={"elinewidth": 0.8, "capsize": 2}))
    ax.axvline(0.0, color="black", lw=0.8)
    ax.set_yticks(y, names)
    label = {"completed": "change of P(complete)", "stacked": "change of barrels stacked per round"}[metric]
    ax.set_xlabel(f"{label} against the default set [95%]")
    m = result.model
    ax.set_title(f"What the unmeasured toy moves: {label}\n{m.player}, {m.barrels} barrels"
                 f"{', half turns' if m.half_turn else ''}, {result.referee_name} referee, "
                 f"{result.games} rounds per arm", fontsize="medium")
    ax.legend(loc="lower right", fontsize="small")
    return drawn


def tornado_figure(result):
    """The ``kipp sensitivity --plot`` figure: the tornado of P(complete) and of barrels stacked."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(14, 0.45 * len(result.ranked()) + 2.5), layout="constrained")
    tornado(result, axes[0], "completed")
    tornado(result, axes[1], "stacked")
    return fig
