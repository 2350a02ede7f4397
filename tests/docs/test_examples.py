"""The code on the site runs: every ``python`` block of the written pages is executed as it
stands (the fast referee, a game or a step of the environment each: seconds)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.docs.conftest import REPO

BLOCK = re.compile(r"```python\n(.*?)```", re.S)
EXAMPLES = [(page.name, i, code) for page in sorted((REPO / "docs").glob("*.md"))
            for i, code in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")))]


def test_the_pages_have_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize(("page", "index", "code"), EXAMPLES, ids=[f"{p}#{i}" for p, i, _ in EXAMPLES])
def test_the_example_runs(page, index, code, capsys):
    namespace: dict = {}
    exec(compile(code, f"docs/{page} example {index}", "exec"), namespace)  # the page's own code, as a reader runs it
    if "state" in namespace:  # the game-state example: a whole game, chips handed out by the rules
        state = namespace["state"]
        assert state.is_terminal() and sum(state.returns()) >= 0 and state.winners()
    if "picture" in namespace:  # the environment example: the viewer's drawing as an RGB array
        picture = namespace["picture"]
        assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
        namespace["env"].close()
