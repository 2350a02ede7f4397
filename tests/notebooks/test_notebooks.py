"""The analysis notebooks run top to bottom (nbclient, headless matplotlib) with tiny
parameters: the first code cell, which holds the parameters, is replaced before running."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

SMALL = {
    "barrel_order_difficulty.ipynb": 'ORDERS = "sample:3"\nROUNDS = 2\nBARRELS = 9\nSIGMA_MM = 1.5\n'
                                     'WILD = "leveler"\nREFEREE = "physics"\nWORKERS = 1\nSEED = 1\nTOP = 2\n',
    "younger_sailor_variants.ipynb": 'GAMES = 1\nPLAYERS = 2\nREFEREE = "physics"\nWORKERS = 1\nSEED = 1\n',
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_notebook_runs_with_small_parameters(name, monkeypatch):
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    first = next(cell for cell in notebook.cells if cell.cell_type == "code")
    assert first.source.startswith("# Parameters"), "the first code cell must hold the parameters"
    first.source = SMALL[name]
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    # The kernel inherits the environment; it must import this project, not an installed copy.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(NOTEBOOKS.parent), os.environ.get("PYTHONPATH")])))
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = "".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs)
    assert "Traceback" not in outputs and ("rounds" in outputs or "games" in outputs)
    images = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs
              if "image/png" in o.get("data", {})]
    assert images, "the notebook draws its figure"
