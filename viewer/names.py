"""Names as sentences use them: a long name is cut, with an ellipsis, to the room a sentence gives it.

(The pixel room of a drawn name is :func:`viewer.palette.fit`'s.)
"""

from __future__ import annotations

ELLIPSIS = "\u2026"
NAME_CHARS = 16
"""Names longer than this are cut (with an ellipsis) where a sentence uses them."""


def shorten(name: str, limit: int = NAME_CHARS) -> str:
    """``name`` cut to ``limit`` characters, the last one an ellipsis, if longer."""
    name = name.strip()
    return name if len(name) <= limit else name[:limit - 1].rstrip() + ELLIPSIS
