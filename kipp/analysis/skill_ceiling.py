"""The skill ceiling: how often the ``lookahead`` player (:mod:`kipp.players.lookahead`) finishes
a tower, and how many rounds even it loses to luck.

For each variant (standard, half turns, nine barrels, both) and each execution error
(``sigma_mm``: 0.5 and 1 mm by default), rounds ``k = 0 .. rounds - 1`` are played by a single
lookahead bot that asks the same referee that decides (streams ``("round", k, ...)`` as in
``kipp tune``, the line of round ``k`` from :func:`kipp.analysis.parameters.sensitivity.round_line`), and
beside it, on the same rounds, the ``skilled`` player model for comparison. Per set-up:

- *ceiling*: the share of rounds the lookahead bot completes (Wilson 95%);
- *luck*: the share of rounds lost in which, at some turn, nothing it could do survived: no
  candidate aim stood with any allowed sailor, or no sailor after a wild placement, or the
  die's blue roll turned a tower that could not take it (no choice at all). Such a round is
  lost whatever the player's skill, up to the aims the bot did not try (a hand's error can
  still land a barrel where no candidate stood, and such rounds, when won, are not luck);
- *skilled*: the skilled model's completion on the same rounds.

So ``1 - ceiling`` splits into luck and what better execution (a steadier hand than
``sigma_mm``) would still win.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kipp.analysis.executor import run_with_progress
from kipp.analysis.rounds import (
    RoundModel,
    next_action,
    play_round,
    round_line,
    round_streams,
)
from kipp.analysis.stats import Interval, share_interval
from kipp.language import N_
from kipp.players.lookahead import LookaheadBot
from kipp.rules.actions import Roll, Shuffle
from kipp.rules.state import GameState
from sim.params import Params
from sim.referees import shared_referee

VARIANTS = {"standard": (12, False), "half turns": (12, True), "nine barrels": (9, False), "half + nine": (9, True)}
"""Variant name -> (barrels, half turns)."""
SIGMAS_MM = (0.5, 1.0)
BLOCK = 10
"""Rounds per task."""


def lookahead_round(line: tuple[str, ...], bot: LookaheadBot, model: RoundModel, seed: int,
                    k: int) -> tuple[bool, bool]:
    """Round ``k`` of ``line`` with the lookahead ``bot``: (completed, lost to luck) (module docstring)."""
    die_rng, place_rng, wild_rng = round_streams(seed, k)
    journal = bot.journal
    journal.clear()
    state = GameState(model.config(), bot.referee, bot.params.ship)
    state.apply_action(Shuffle(line))
    forced = False
    while state.chance_kind() != "shuffle" and not state.is_terminal():
        action = next_action(state, bot, die_rng, place_rng, wild_rng)
        forced = isinstance(action, Roll) and not state.roll_meaning(action.face).places_barrel
        state.apply_action(action)
    end = state.last_round_end()
    completed = bool(end["completed"])
    luck = not completed and (forced or any(f.standing == 0 for f in journal))
    return completed, luck


def ceiling_block(variant: str, sigma_mm: float, referee: str, params: Params, seed: int,
                  first: int, count: int) -> tuple[str, float, int, np.ndarray]:
    """A task: rounds ``first .. first + count - 1`` of one set-up: per round (lookahead completed,
    luck, skilled completed)."""
    barrels, half = VARIANTS[variant]
    model = RoundModel(barrels, half, player="skilled")
    ref = shared_referee(referee, params)
    bot = LookaheadBot("Sailor", sigma_mm=sigma_mm, aim="balance", model="lookahead", params=params, referee=ref,
                       journal=[])
    skilled, config = model.bot(params), model.config()
    rows = []
    for k in range(first, first + count):
        line = round_line(seed, k, barrels)
        done, luck = lookahead_round(line, bot, model, seed, k)
        rows.append((done, luck, play_round(line, ref, skilled, config, seed, k).completed))
    return variant, sigma_mm, first, np.array(rows, dtype=bool)


@dataclass(frozen=True)
class Ceiling:
    """One set-up's figures (shares with their 95% Wilson intervals)."""

    variant: str
    sigma_mm: float
    rounds: int
    ceiling: Interval
    luck: Interval
    skilled: Interval


def skill_ceiling(rounds: int, params: Params, *, referee: str = "fast", seed: int = 0,
                  variants: tuple[str, ...] = tuple(VARIANTS), sigmas_mm: tuple[float, ...] = SIGMAS_MM,
                  workers: int = 1, progress: bool = False) -> list[Ceiling]:
    """Every variant x execution error (module docstring); independent of ``workers``."""
    played: dict[tuple[str, float], dict[int, np.ndarray]] = {}

    def record(result) -> int:
        variant, sigma, first, rows = result
        played.setdefault((variant, sigma), {})[first] = rows
        return len(rows)

    tasks = ((v, s, referee, params, seed, f, min(BLOCK, rounds - f))
             for v in variants for s in sigmas_mm for f in range(0, rounds, BLOCK))
    run_with_progress(ceiling_block, tasks, record, workers=workers, progress=progress,
                      total=len(variants) * len(sigmas_mm) * rounds, unit="round", desc=N_("set-ups x rounds"))
    out = []
    for v in variants:
        for s in sigmas_mm:
            rows = np.vstack([played[(v, s)][f] for f in sorted(played[(v, s)])])
            out.append(Ceiling(v, s, rounds, *(share_interval(int(rows[:, i].sum()), rounds) for i in range(3))))
    return out


def format_ceiling(rows: list[Ceiling], referee_name: str) -> str:
    """The table: per variant and execution error, the ceiling, the luck and the skilled model."""
    n = rows[0].rounds if rows else 0
    lines = [f"The skill ceiling: the lookahead player (asks the {referee_name} referee about its aims), {n} rounds "
             "per row, the same rounds for the skilled model [95% Wilson]",
             f"{'variant':<14} {'hand':>6}  {'lookahead completes':<24} {'lost to luck':<24} {'skilled completes':<24}"]
    for r in rows:
        cells = [share.text(3) for share in (r.ceiling, r.luck, r.skilled)]
        lines.append(f"{r.variant:<14} {r.sigma_mm:4.1f}mm  {cells[0]:<24} {cells[1]:<24} {cells[2]:<24}")
    lines.append("lost to luck: at some turn no aim the player tried (nor any sailor it could choose) survived.")
    return "\n".join(lines)
