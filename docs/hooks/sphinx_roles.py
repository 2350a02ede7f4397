"""A griffe extension for the API reference: the docstrings' Sphinx roles as Markdown code.

The library's docstrings cross-reference with reST roles (``:class:`sim.tower.Referee```,
``:func:`~sim.referees.loop.run_to_decision```); mkdocstrings renders docstrings as Markdown,
where a role would show as its raw text. Each role becomes a code span of its target (the
last component only where the target starts with ``~``, as Sphinx shows it). Only the
rendered reference changes; the docstrings are not touched.
"""

from __future__ import annotations

import re

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|obj|exc|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every Sphinx role replaced by a Markdown code span."""
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


class SphinxRoles(Extension):
    """Rewrites each object's docstring as :func:`plain` says, once it is loaded."""

    def on_instance(self, *, obj: Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
