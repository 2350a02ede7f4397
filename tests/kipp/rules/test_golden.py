"""Golden playthroughs: every state's player, legal actions and the action taken, the
returns, and the JSON transcript, for fixed seeds. Any change of behaviour shows up as a
diff against tests/kipp/rules/golden/*.txt.

If a change is intended, regenerate the files and review the diff:

    KIPP_REGENERATE_GOLDEN=1 pytest tests/kipp/rules/test_golden.py

The games use the deterministic threshold referee and bots that place without error
(sigma 0), so the files depend on the rules, the bots' policies and numpy's
``Generator.integers``/``permutation`` streams for the die and the shuffles only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kipp.players.bots import Bot
from kipp.rules.config import GameConfig
from kipp.rules.play import play_game
from kipp.rules.state import CHANCE, GameState
from kipp.rules.transcript import json_line, with_header
from sim.params import load_params
from tests.kipp.kipp_referees import ThresholdReferee

GOLDEN = Path(__file__).parent / "golden"
PARAMS = load_params()

CASES = {
    "default_2p_seed7": (GameConfig(players=("Ann", "Ben")), ("leveler", "never"), 7),
    "all_variants_3p_seed11": (GameConfig(players=("Ann", "Ben", "Cid"), barrels=9, half_turn=True,
                                          sea_dogs=True), ("random", "cautious"), 11),
}


def _legal(state: GameState) -> str:
    if state.chance_kind() == "shuffle":
        return f"{len(state.chance_outcomes())} distinct lines"
    if state.current_player() == CHANCE:
        return ", ".join(f"{a!r}:{p:.4f}" for a, p in state.chance_outcomes())
    return ", ".join(repr(a) for a in state.legal_actions())


def playthrough(name: str) -> str:
    config, (wild, passing), seed = CASES[name]
    bots = [Bot(n, sigma_mm=0.0, wild=wild, passing=passing, params=PARAMS) for n in config.players]
    lines = [f"# {name}: {config}", f"# seed {seed}, bots wild={wild} passing={passing} sigma_mm=0"]
    before = {"text": None}

    def observe(state, action):
        lines.append(f"{before['text']} -> {action!r}")
        before["text"] = f"player {state.current_player()} [{_legal(state)}]"

    first = GameState(config, ThresholdReferee(seed=seed, crash_rate=0.05), PARAMS.ship)
    before["text"] = f"player {first.current_player()} [{_legal(first)}]"
    state = play_game(config, ThresholdReferee(seed=seed, crash_rate=0.05), bots, seed, params=PARAMS,
                      observer=observe)
    lines.append(f"{before['text']}")
    lines.append(f"returns {state.returns()}")
    lines.append("# transcript")
    lines.extend(json_line(e) for e in with_header(state.events(), seed=seed))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name):
    path = GOLDEN / f"{name}.txt"
    text = playthrough(name)
    if os.environ.get("KIPP_REGENERATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; see this module's docstring to generate it"
    assert text == path.read_text(encoding="utf-8"), f"behaviour changed: diff against {path}"
