"""The toy owner's notebook runs from top to bottom (nbclient, headless matplotlib)."""

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "calibration.ipynb"


def test_calibration_notebook_executes(monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    text = "".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                   for out in cell.get("outputs", []))
    assert "SYNTHETIC" in text and "loads:" in text
    assert os.environ["MPLBACKEND"] == "Agg"
