"""The analysis notebooks run top to bottom (nbclient, headless matplotlib) with tiny
parameters: the first code cell, which holds the parameters, is replaced before running.
A failing cell makes nbclient raise; the checks below are on what the notebooks show."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from kipp.analysis.compare import ARMS

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

SMALL = {
    "barrel_order_difficulty.ipynb": 'RESULTS = "results"\nTOP = 2\n',
    "younger_sailor_variants.ipynb": 'GAMES = 1\nPLAYERS = 2\nREFEREE = "physics"\nWORKERS = 1\nSEED = 1\n',
    "referee_choice.ipynb": 'ORDERS = "sample:3"\nROUNDS = 2\nBARRELS = 9\nREFEREES = ("physics", "hybrid", "fast")\n'
                            'WORKERS = 1\nSEED = 1\n',
    "measure_your_set.ipynb": 'RESULTS = "results/sensitivity_casual_fast.json"\n',
    "skill_and_luck.ipynb": 'ROUNDS = 3\nREFEREE = "fast"\nSIGMAS_MM = (1.0,)\nWORKERS = 1\nSEED = 1\n',
}

def _check_difficulty(text: str) -> None:
    """The committed sweeps are read and analysed: every table, the feature models, the lists."""
    import json

    sweeps = json.loads((NOTEBOOKS / "results" / "sweeps.json").read_text())["sweeps"]
    for name, info in sweeps.items():
        assert f"{name}: {info['orders']:,} orders, player {info['player']}" in text
        assert f"{name}: the 2 hardest" in text and f"{name}: the 2 easiest" in text
        assert re.search(rf"{name} +compact +R\^2 = 0\.\d{{3}}", text)
    assert len(re.findall(r"^[LMS]{9,12} +\d+\.\d\d \[", text, re.MULTILINE)) == 4 * len(sweeps)


def _check_variants(text: str) -> None:
    assert "1 games x 5 arms with the physics referee" in text
    table = text[text.index("1 games of 2 bots per arm"):]
    for arm in ARMS:
        assert f"\n{arm} " in table, f"a table row for {arm!r}"


REFEREE_ROW = re.compile(r"^(physics|hybrid|fast) +\d+\.\d\d +\d\.\d{3} +(-?\d\.\d{3}|nan) +[+-]\d\.\d{3} \[",
                         re.MULTILINE)


def _check_referees(text: str) -> None:
    for referee in ("physics", "hybrid", "fast"):
        assert f"{referee:8s} 3 orders x 2 rounds on 1 workers" in text
    assert "3 orders, 2 rounds each, 9 barrels; reference: physics" in text
    rows = REFEREE_ROW.findall(text)
    assert [r[0] for r in rows] == ["physics", "hybrid", "fast"], "one table row per referee"
    assert "physics  " in text and "+0.000 [+0.000, +0.000]" in text, "physics against itself: no difference"


def _check_measure(text: str) -> None:
    """The committed sensitivity results are read: the headline, the table, the advice per parameter."""
    assert "Read results/sensitivity_casual_fast.json: fast referee, player casual" in text
    assert "Measure first: the " in text and "panel rank corr." in text
    assert re.search(r"^ 1\. [a-z]", text, re.MULTILINE)


def _check_skill(text: str) -> None:
    """The lookahead player and the skilled one, every variant, one row each."""
    assert "The skill ceiling: the lookahead player (asks the fast referee about its aims), 3 rounds per row" in text
    for variant in ("standard", "half turns", "nine barrels", "half + nine"):
        assert re.search(rf"^{re.escape(variant)} +1\.0mm +\d\.\d{{3}} \[", text, re.MULTILINE), variant


CHECKS = {"barrel_order_difficulty.ipynb": _check_difficulty, "skill_and_luck.ipynb": _check_skill,
          "younger_sailor_variants.ipynb": _check_variants,
          "referee_choice.ipynb": _check_referees, "measure_your_set.ipynb": _check_measure}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_notebook_runs_with_small_parameters(name, monkeypatch):
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert first.source.startswith("# Parameters"), "the first code cell must hold the parameters"
    first.source = SMALL[name]
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    # The kernel inherits the environment; it must import this project, not an installed copy.
    monkeypatch.setenv("PYTHONPATH",
                       os.pathsep.join(filter(None, [str(NOTEBOOKS.parent), os.environ.get("PYTHONPATH")])))
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = "".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs)
    CHECKS[name](outputs)
    images = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
              if "image/png" in o.get("data", {})]
    assert images, "the notebook draws its figure"
